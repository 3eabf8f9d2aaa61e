import { createDb } from './server/db/knex';
import { migrateLatest } from './server/db/migrate';
import { seedReference } from './server/db/seed-reference';
import { seedDemo } from './server/demo/seed-demo';
async function main() {
const file = `/tmp/demo-check/db-${Date.now()}.sqlite`;
const db = createDb(`file:${file}`);
const t0 = Date.now();
await migrateLatest(db); await seedReference(db);
const t1 = Date.now();
const ids = await seedDemo(db);
console.log("seed ms", Date.now() - t1, "ref ms", t1 - t0);
for (const t of ["parcelle", "mode_conduite", "main_oeuvre", "parc_materiel", "operation_culturale", "caracteristique", "action", "intrant", "caracteristique_intrant", "recolte", "lot_parcelle", "amenagement"]) {
  const r = await db(t).count({ n: "*" }).first(); console.log(t, r?.n);
}
for (const [k, id] of Object.entries(ids.campagnes)) {
  const a = await db("action").where({ idCampagne: id }).count({ n: "*" }).first();
  const p = await db("parcelle").where({ idCampagne: id }).count({ n: "*" }).first();
  console.log(k, "plots", p?.n, "actions", a?.n);
}
console.log(await db("operation_culturale").where({ idCampagne: ids.campagnes.tilleuls2025 }).select("libelle", "debitCalcule", "debitReel", "consoCarburantCalculee", "consoCarburantReelle", "profondeurTravail", "volumeBouillie"));
console.log(await db("parc_materiel").where({ idCampagne: ids.campagnes.tilleuls2025 }).select("libelle", "utilisationAnnuelleCalculeeP", "utilisationAnnuelleCalculeeR"));
console.log(await db("intrant").select("idCategorie").count({ n: "*" }).groupBy("idCategorie"));
await db.destroy();
console.log(file);
}
main().catch((e) => { console.error(e); process.exit(1); });
