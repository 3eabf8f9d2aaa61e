// Loads the official plant-protection catalogues into the database (decision 0029):
//   npm run referentiel:ephy -- <zip, folder or .csv files…> [--millesime YYYY-MM-DD]
// - the E-Phy open-data zip of ANSES (decisionamm-intrant-format-csv-YYYYMMDD-utf8.zip or -windows-1252.zip),
//   or the folder it was unzipped into, or its CSV files: products, active substances, authorised uses;
// - the ministry's IFT reference-dose CSV file (one or several harvest years), alone or with the others.
// Files are recognised by their header; UTF-8 and Windows-1252 are both read. Everything is loaded in one
// transaction: on any error nothing is written. The database is the application's (DATABASE_URL, DATA_DIR),
// migrated beforehand (`npm run setup`).
import fs from "node:fs";
import path from "node:path";
import { createDb } from "../server/db/knex";
import { unzip } from "../server/referentiel-intrants/csv";
import { parseFile, type ParsedFile } from "../server/referentiel-intrants/ephy-import";
import { formatSummary, importReferentiel } from "../server/referentiel-intrants/import-service";

function usage(): never {
  console.error("usage : npm run referentiel:ephy -- <archive.zip | dossier | fichier.csv …> [--millesime AAAA-MM-JJ]");
  process.exit(2);
}

const args = process.argv.slice(2);
let millesime: string | undefined;
const inputs: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--millesime") millesime = args[++i];
  else if (args[i] === "--help" || args[i] === "-h") usage();
  else inputs.push(args[i]);
}
if (inputs.length === 0) usage();
if (millesime !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(millesime)) usage();

/** The release date in an E-Phy archive name (…-20251119-utf8.zip). */
const releaseOf = (name: string) => {
  const m = /(\d{4})(\d{2})(\d{2})/.exec(path.basename(name));
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
};

function collect(input: string, out: Array<{ name: string; bytes: Uint8Array }>) {
  const stat = fs.statSync(input);
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(input).sort()) {
      const p = path.join(input, entry);
      if (fs.statSync(p).isFile() && /\.(csv|zip)$/i.test(entry)) collect(p, out);
    }
  } else if (/\.zip$/i.test(input)) {
    millesime ??= releaseOf(input);
    for (const [name, bytes] of unzip(fs.readFileSync(input))) if (/\.csv$/i.test(name)) out.push({ name, bytes });
  } else {
    out.push({ name: path.basename(input), bytes: fs.readFileSync(input) });
  }
}

async function main() {
  const raw: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const input of inputs) collect(input, raw);
  const files: ParsedFile[] = [];
  for (const f of raw) {
    process.stdout.write(`lecture de ${f.name}…\n`);
    files.push(parseFile(f.name, f.bytes));
  }
  const db = createDb(process.env.DATABASE_URL, process.env.DATA_DIR ?? "data");
  try {
    if (!(await db.schema.hasTable("intrant_phyto"))) throw new Error("la base n'a pas les tables des catalogues : lancez d'abord `npm run setup`");
    const tty = process.stdout.isTTY;
    const summary = await importReferentiel(db, files, {
      millesime,
      onProgress: (text) => process.stdout.write(tty ? `\r\x1b[K${text}` : `${text}\n`),
    });
    if (tty) process.stdout.write("\n");
    for (const line of formatSummary(summary)) console.log(line);
  } finally {
    await db.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(`\nErreur : ${e instanceof Error ? e.message : String(e)}`);
  console.error("Rien n'a été chargé (une seule transaction).");
  process.exit(1);
});
