// Imports Daplos files into a network with the same pipeline as the import screen (issue 25, decision 0094), and prints
// the report: what was created, updated and not taken (with the reason and the line of each record not taken).
//
//   npm run interop:import -- <files or folders> --reseau <id or label> --utilisateur <login> [--dossier <id>] [--apercu]
//
// --apercu: the preview only, nothing written. Each file is imported in its own transaction (all of it or nothing)
// with the user's rights (the folder, the farm, the campaign's lock). Uses the database of the environment
// (DATABASE_URL, else the SQLite file of DATA_DIR). Exit code 1 when a file was refused.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { requestScope } from "../server/access/scope";
import { createDb } from "../server/db/knex";
import { env } from "../server/env";
import { isServiceError } from "../server/errors";
import { apercuImportDaplos, appliquerImportDaplos, EXTENSIONS_DAPLOS, type RapportImport } from "../server/interop/daplos/service";
import { findUtilisateurByUsername, toPublic } from "../server/utilisateur/repo";

const args = process.argv.slice(2).filter((a) => a !== "--");
const valueOf = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const flags = new Set(["--reseau", "--utilisateur", "--dossier"]);
const fichiers = args.filter((a, i) => !a.startsWith("--") && !flags.has(args[i - 1] ?? ""));
const apercu = args.includes("--apercu");

function lister(entree: string): string[] {
  if (statSync(entree).isDirectory())
    return readdirSync(entree)
      .sort()
      .flatMap((f) => lister(path.join(entree, f)));
  return EXTENSIONS_DAPLOS.some((e) => entree.toLowerCase().endsWith(e)) ? [entree] : [];
}

function imprimer(nom: string, r: RapportImport) {
  const created = r.parcelles.filter((p) => p.action === "creer").length;
  console.log(`\n${nom} (${r.fichier.encodage}, version ${r.fichier.version})${r.ecrit ? "" : " — aperçu, rien n'est écrit"}`);
  console.log(
    `  exploitation ${r.exploitation.libelle} (SIRET ${r.exploitation.siret ?? "?"}) : ${r.exploitation.action}${r.exploitation.id ? ` #${r.exploitation.id}` : ""}${
      r.exploitation.existante
        ? ` (« ${r.exploitation.existante.libelle} », ${r.exploitation.existante.par === "siret" ? "trouvée par son SIRET" : "déjà importée"})`
        : ""
    }`,
  );
  for (const c of r.campagnes) console.log(`  campagne ${c.anneeRecolte} : ${c.action}${c.id ? ` #${c.id}` : ""}`);
  console.log(`  parcelles : ${created} créées, ${r.parcelles.length - created} mises à jour`);
  console.log(`  interventions : ${r.interventions.creees} créées, ${r.interventions.misesAJour} mises à jour, ${r.interventions.supprimees} supprimées`);
  console.log(`  intrants : ${r.intrants.crees} (dont ${r.intrants.nonReferences.length} intrants non référencés du dossier), récoltes : ${r.recoltes.creees}`);
  console.log("  enregistrements (lus / créés / mis à jour / non pris) :");
  for (const [type, c] of Object.entries(r.comptes)) console.log(`    ${type} ${c.lus} / ${c.crees} / ${c.misAJour} / ${c.nonPris}`);
  for (const n of r.nonPris) console.log(`  non pris ligne ${n.ligne} ${n.type} : ${n.raison}${n.detail ? ` (${n.detail})` : ""}`);
  for (const a of r.avertissements) console.log(`  avertissement ligne ${a.ligne} ${a.type} : ${a.cle} ${a.params ? JSON.stringify(a.params) : ""}`);
}

async function main() {
  const reseau = valueOf("reseau");
  const login = valueOf("utilisateur");
  if (!fichiers.length || !reseau || !login) {
    console.error("usage: npm run interop:import -- <files or folders> --reseau <id or label> --utilisateur <login> [--dossier <id>] [--apercu]");
    process.exitCode = 2;
    return;
  }
  const db = createDb(env().DATABASE_URL, env().DATA_DIR);
  try {
    const oad = /^\d+$/.test(reseau)
      ? await db("oad")
          .where({ id: Number(reseau) })
          .first("id")
      : await db("oad").where({ libelle: reseau }).first("id");
    if (!oad) throw new Error(`No network ${reseau}`);
    const row = await findUtilisateurByUsername(db, login);
    if (!row) throw new Error(`No user ${login}`);
    const user = toPublic(row);
    const idDossier = valueOf("dossier") ? Number(valueOf("dossier")) : null;
    for (const f of fichiers.flatMap(lister)) {
      const demande = { idOad: Number(oad.id), idDossier, nomFichier: path.basename(f), octets: new Uint8Array(readFileSync(f)) };
      try {
        const r = apercu ? await apercuImportDaplos(requestScope(db, user), demande) : await appliquerImportDaplos(requestScope(db, user), demande);
        imprimer(f, r);
      } catch (e) {
        if (!isServiceError(e)) throw e;
        console.error(`\n${f} : refusé, rien n'est écrit — ${e.key} ${e.params ? JSON.stringify(e.params) : ""}`);
        process.exitCode = 1;
      }
    }
  } finally {
    await db.destroy();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
