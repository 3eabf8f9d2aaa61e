// Loads reference-source prices of plant-protection products (decision 0080):
//   npm run referentiel:prix-phyto -- <fichier.csv> [--source "Barème X, version 2025"]
// One header line (amm;prix;unite;date;libelle;source: amm and prix required), one product per line, ';' ',' or tab
// separated, decimal comma accepted, UTF-8 or Windows-1252. Any unreadable line: nothing is loaded and every faulty
// line is listed. The database is the application's (DATABASE_URL, DATA_DIR), migrated beforehand (`npm run setup`).
import fs from "node:fs";
import { createDb } from "../server/db/knex";
import { chargerPrixPhyto, formatBilanPrixPhyto, lirePrixPhyto, PrixPhytoError } from "../server/referentiel-intrants/prix-phyto-import";

function usage(): never {
  console.error('usage : npm run referentiel:prix-phyto -- <fichier.csv> [--source "libellé de la source"]');
  process.exit(2);
}

const args = process.argv.slice(2);
let source: string | null = null;
const inputs: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--source") source = args[++i] ?? usage();
  else if (args[i] === "--help" || args[i] === "-h") usage();
  else inputs.push(args[i]!);
}
if (inputs.length !== 1) usage();

async function main() {
  const fichier = lirePrixPhyto(fs.readFileSync(inputs[0]!), source);
  const db = createDb(process.env.DATABASE_URL, process.env.DATA_DIR ?? "data");
  try {
    if (!(await db.schema.hasTable("prix_phytcom"))) throw new Error("la base n'a pas la table des prix : lancez d'abord `npm run setup`");
    const bilan = await chargerPrixPhyto(db, fichier);
    for (const line of formatBilanPrixPhyto(fichier, bilan)) console.log(line);
  } finally {
    await db.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(`\nErreur : ${e instanceof PrixPhytoError ? `\n${e.message}` : e instanceof Error ? e.message : String(e)}`);
  console.error("Rien n'a été chargé (une seule transaction).");
  process.exit(1);
});
