// Benchmark of the Daplos import (issue 25) as the user waits for it: the preview request (the file read, planned and
// written in a transaction rolled back: what the screen shows before the user confirms), the confirm request (the
// file checked and recorded, the job queued) and the job itself (the import written in one transaction), on the
// shared sample (tests/fixtures/daplos/sample-v0.94.dap: 93 plots, 138 interventions) and on files generated from it
// by repeating its plots under new order numbers and event GUIDs (a season of interventions per plot), so that the
// cost can be read against the file's size. Each run imports into a new farm (its SIRET changed). Fresh database
// (migrated, reference lists, demo data); SQLite, or PostgreSQL with DATABASE_URL=postgres://... (an empty database).
//
//   npx vite-node bench/import-daplos.ts [-- --runs 3 --parcelles 1000,5000]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { requestScope } from "../server/access/scope";
import { selectInContext } from "../server/contexte/service";
import { createDb } from "../server/db/knex";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { apercuImportDaplos, executerImportDaplos, lancerImportDaplos, type DemandeImport } from "../server/interop/daplos/service";
import { findUtilisateurByUsername, toPublic } from "../server/utilisateur/repo";

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const runs = Number(arg("--runs") ?? 3);
const tailles = (arg("--parcelles") ?? "1000,5000").split(",").map(Number);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-import-daplos-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
const db = createDb(url);

const SAMPLE = fs.readFileSync(new URL("../tests/fixtures/daplos/sample-v0.94.dap", import.meta.url), "latin1");
const SIRET_SAMPLE = "08900000000000";
/** Records of an event: their GUID (32 characters from column 15, counted from 1) names the intervention across imports. */
const EVENEMENTS = new Set(["PV", "VC", "VB", "VH", "VI", "IC", "IL", "IA", "VR", "RL", "LC"]);

/**
 * A file of `n` plots made of the sample's plots repeated: copy k of plot i is order number k × 93 + i + 1 (4 digits),
 * its events' GUIDs prefixed by the copy's number, the header's plot-sheet count set to n.
 */
function fichierGenere(n: number): string {
  const lignes = SAMPLE.split(/\r?\n/);
  const entete: string[] = [];
  const blocs: string[][] = [];
  for (const l of lignes) {
    if (!l) continue;
    if (l.startsWith("DP")) blocs.push([l]);
    else if (blocs.length && l.length > 14 && /^\d{4}$/.test(l.slice(10, 14))) blocs[blocs.length - 1].push(l);
    else entete.push(l);
  }
  const out = entete.map((l) => (l.startsWith("DE") ? l.slice(0, 46) + String(n).padStart(4, "0") + l.slice(50) : l));
  for (let k = 0; k * blocs.length < n; k++)
    blocs.forEach((bloc, i) => {
      const ordre = k * blocs.length + i + 1;
      if (ordre > n) return;
      for (const l of bloc) {
        let r = l.slice(0, 2) + String(ordre).padStart(4, "0") + l.slice(6);
        if (EVENEMENTS.has(l.slice(0, 2)) && k > 0) r = r.slice(0, 14) + k.toString(16).padStart(4, "0") + r.slice(18);
        out.push(r);
      }
    });
  return out.join("\r\n") + "\r\n";
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${Math.round(x)} ms`;

try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const user = toPublic((await findUtilisateurByUsername(db, "redacteur"))!);
  await selectInContext(db, user, { intent: "oad", id: ids.oads.reseauDemo });
  await selectInContext(db, user, { intent: "dossier", id: ids.dossiers.beauce });
  let ferme = 0;
  const demande = (texte: string): DemandeImport => {
    const siret = `7${String(++ferme).padStart(13, "0")}`;
    return { idOad: ids.oads.reseauDemo, nomFichier: "Export.dap", octets: new Uint8Array(Buffer.from(texte.replaceAll(SIRET_SAMPLE, siret), "latin1")) };
  };

  const lignes: string[] = [];
  const fichiers: [string, string, number][] = [["sample (93 plots, 138 interventions)", SAMPLE, runs]];
  for (const n of tailles) fichiers.push([`generated, ${n} plots`, fichierGenere(n), 1]);
  for (const [nom, texte, n] of fichiers) {
    const apercu: number[] = [];
    const lancer: number[] = [];
    const tache: number[] = [];
    let interventions = 0;
    for (let run = 0; run < n; run++) {
      const d = demande(texte);
      let t0 = performance.now();
      const r = await apercuImportDaplos(requestScope(db, user), d);
      apercu.push(performance.now() - t0);
      interventions = r.interventions.creees;
      t0 = performance.now();
      const { idImport } = await lancerImportDaplos(requestScope(db, user), d);
      lancer.push(performance.now() - t0);
      t0 = performance.now();
      await executerImportDaplos(db, idImport);
      tache.push(performance.now() - t0);
    }
    const total = median(lancer) + median(tache);
    lignes.push(
      `| ${dialect} | ${nom} | ${Math.round(Buffer.byteLength(texte) / 1024)} kB, ${interventions} interventions | ${ms(median(apercu))} | ${ms(median(lancer))} | ${ms(median(tache))} | ${ms(total)} | ${n} |`,
    );
    console.error(lignes[lignes.length - 1]);
  }
  console.log("| Database | File | Size | Preview request | Confirm request | Import job | Confirm to done | Runs |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const l of lignes) console.log(l);
  console.log(`\nPeak RSS of the process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
