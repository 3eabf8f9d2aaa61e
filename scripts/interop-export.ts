// Writes the eDaplos (UN/CEFACT CropDataSheetMessage) of some campaigns to a file, as the export screen's job does
// (server/interop/edaplos/, decision 0096), and prints its log lines: for an organisation migrating an archive.
//
//   npm run interop:export -- --campagne <id> [--campagne <id> ...] --sortie <file.xml>     (vite-node scripts/interop-export.ts)
//
// Uses the database of the environment (DATABASE_URL, else the SQLite file of DATA_DIR, default data/). It is an
// operator's tool on the database it is given: no user, no rights asked (the screen's sessions check them).
import fs from "node:fs";
import path from "node:path";
import { resources } from "~/locales";
import { createDb } from "../server/db/knex";
import { env } from "../server/env";
import type { LigneJournal } from "../server/interop/edaplos/ecrivain";
import { ecrireEdaplos, puits } from "../server/interop/edaplos/service";

const args = process.argv.slice(2);
const campagnes: number[] = [];
let sortie: string | undefined;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--campagne") campagnes.push(Number(args[++i]));
  else if (args[i] === "--sortie") sortie = args[++i];
}
if (!campagnes.length || campagnes.some((c) => !Number.isInteger(c) || c < 1) || !sortie) {
  console.error("Usage: npm run interop:export -- --campagne <id> [--campagne <id> ...] --sortie <file.xml>");
  process.exit(2);
}

const messages = resources.fr.translation.edaplos.logs as Record<string, string>;
const texte = (l: LigneJournal) => (messages[l.message] ?? l.message).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(l.parametres?.[k] ?? ""));

async function main() {
  const db = createDb(env().DATABASE_URL, env().DATA_DIR);
  try {
    const connues = (await db("campagne").whereIn("id", campagnes).select("id")).map((r) => Number(r.id));
    const inconnues = campagnes.filter((c) => !connues.includes(c));
    if (inconnues.length) throw new Error(`Unknown campaign(s): ${inconnues.join(", ")}`);
    const fichier = path.resolve(sortie!);
    const p = puits(fichier);
    const lignes: LigneJournal[] = [];
    try {
      const r = await ecrireEdaplos(db, campagnes, p, {
        identification: "000001",
        emetteur: { id: "SILLON", nom: "Sillon" },
        journal: (l) => {
          lignes.push(l);
        },
      });
      await p.fermer();
      for (const l of lignes)
        console.log(`${l.niveau === 2 ? "ERREUR" : "info  "} parcelle ${l.idParcelle ?? "-"} intervention ${l.idAction ?? "-"} : ${texte(l)}`);
      console.log(
        `${fichier}: ${r.parcelles} parcelles, ${r.interventions} interventions, ${r.intrants} intrants, ${r.recoltes} récoltes, ${fs.statSync(fichier).size} octets; ` +
          `${lignes.filter((l) => l.niveau === 2).length} erreurs, ${lignes.filter((l) => l.niveau === 1).length} informations.`,
      );
    } catch (e) {
      await p.abandonner();
      throw e;
    }
  } finally {
    await db.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
