// Creates the load-test farm: "EARL de la Charge", 2025, in the demo folder "Groupe Grandes cultures Beauce", with
// the description, labour, machinery and operations of EARL des Tilleuls and about 170 Beauce plots carrying a
// season of interventions each, 2,000 interventions in all (with their inputs). For the interventions grid, its
// loader benchmark and load tests; never loaded by default.
//
//   npm run demo:charge [-- --interventions 2000]     (tsx scripts/demo-charge.ts)
//
// Uses the database of the environment (DATABASE_URL, else the SQLite file of DATA_DIR, default data/), prepared
// first with its demo data (`npm run setup`, or a first start). Refuses to run twice on the same database (the farm
// exists already): delete the farm from the farm screen to create it again.
import { createDb } from "../server/db/knex";
import { env } from "../server/env";
import { createCampagne, createExploitation, linkFarm } from "../server/demo/factories";
import { seedDemoModes } from "../server/demo/seed-cultures";
import { DEMO_DESCRIPTIONS, seedCampaignDescription, seedFarmColumns } from "../server/demo/seed-description";
import { seedCampaignInterventions, updateCalculatedUse } from "../server/demo/seed-interventions";
import { seedDemoLots } from "../server/demo/seed-lots-amenagements";
import { BERCHERES, CORANCEZ, PRUNAY, SOURS, seedPlots, type DemoPlot } from "../server/demo/seed-parcelles";

const LIBELLE = "EARL de la Charge";
const DOSSIER = "Groupe Grandes cultures Beauce";
const ANNEE = 2025;

const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const target = Number(argValue("interventions") ?? 2000);
if (!Number.isInteger(target) || target < 1 || target > 100_000) {
  console.error("--interventions: a whole number from 1 to 100000");
  process.exit(2);
}

// The crop rotation of the plots (modes of EARL des Tilleuls 2025) and their lieux-dits.
const MODES = ["Blé tendre", "Colza", "Orge", "Betterave"];
const COMMUNES = [SOURS, PRUNAY, BERCHERES, CORANCEZ];
const LIEUX = [
  "Les Grands Champs",
  "La Vallée Sèche",
  "Le Bas des Prés",
  "La Pièce du Moulin à Vent",
  "Le Chemin de Chartres",
  "La Butte",
  "Les Longues Raies",
  "Le Champ Pourri",
];

async function main() {
  const started = Date.now();
  const db = createDb(env().DATABASE_URL, env().DATA_DIR);
  try {
    if (!(await db.schema.hasTable("dossier"))) throw new Error("The database is not prepared: run npm run setup (it migrates and loads the demo data) first.");
    if (await db("exploitation").where({ libelle: LIBELLE }).first()) {
      console.error(`${LIBELLE} exists already in this database: nothing done.`);
      process.exitCode = 1;
      return;
    }
    const dossier = await db("dossier").where({ libelle: DOSSIER }).first("id");
    if (!dossier) throw new Error(`No folder "${DOSSIER}": prepare the database with its demo data first (npm run setup, SEED_DEMO=1 on an empty database).`);
    const written = await db.transaction(async (trx) => {
      const idExploitation = await createExploitation(trx, { libelle: LIBELLE, idTypeExploitation: 2 });
      await linkFarm(trx, Number(dossier.id), idExploitation, "animation");
      const idCampagne = await createCampagne(trx, { idExploitation, anneeRecolte: ANNEE, apiLibelle: "Ferme de charge (2 000 interventions)" });
      const description = DEMO_DESCRIPTIONS.tilleuls;
      await seedFarmColumns(trx, idExploitation, {
        ...description,
        coordonnees: { ...description.coordonnees, raisonSociale: LIBELLE, email: "earl.charge@sillon.example" },
      });
      const operations = await seedCampaignDescription(trx, idCampagne, ANNEE, description);
      // EARL des Tilleuls 2025's modes and plot groups, written into this campaign.
      await seedDemoModes(trx, { tilleuls2025: idCampagne });
      await seedDemoLots(trx, { tilleuls2025: idCampagne });
      let count = 0;
      for (let n = 0; count < target; n++) {
        const plot: DemoPlot = {
          libelle: `${LIEUX[n % LIEUX.length]} ${Math.floor(n / LIEUX.length) + 1}`,
          surface: Math.round((2 + ((n * 37) % 130) / 10) * 100) / 100,
          mode: MODES[n % MODES.length],
          ilot: ["12", "7", "3"][n % 3],
          commune: COMMUNES[n % COMMUNES.length],
          objectifRendement: [8.5, 3.8, 7, 85][n % 4],
          irrigable: n % 3 === 0,
          drainee: n % 5 === 0,
        };
        await seedPlots(trx, idCampagne, [plot]);
        const idParcelle = Number((await trx("parcelle").where({ idCampagne }).max<{ id: number }[]>({ id: "id" }).first())!.id);
        count += await seedCampaignInterventions(trx, idCampagne, operations, {
          annee: ANNEE,
          simulation: false,
          idDossier: Number(dossier.id),
          idParcelles: [idParcelle],
        });
        if (count > target) {
          // The last plot's latest interventions beyond the target are left out.
          const extra = await trx("action")
            .where({ idParcelle })
            .orderBy([
              { column: "date", order: "desc" },
              { column: "id", order: "desc" },
            ])
            .limit(count - target)
            .select("id");
          await trx("action")
            .whereIn(
              "id",
              extra.map((r) => r.id),
            )
            .delete();
          count = target;
        }
        if (n % 20 === 19) process.stdout.write(`\r${count} / ${target} interventions`);
      }
      await updateCalculatedUse(trx, idCampagne);
      const plots = await trx("parcelle").where({ idCampagne }).count<{ n: number }[]>({ n: "*" }).first();
      const inputs = await trx("intrant as i")
        .join("action as a", "a.id", "i.idAction")
        .where("a.idCampagne", idCampagne)
        .count<{ n: number }[]>({ n: "*" })
        .first();
      return { idExploitation, idCampagne, plots: Number(plots?.n), interventions: count, inputs: Number(inputs?.n) };
    });
    process.stdout.write("\r");
    console.log(
      `${LIBELLE} ${ANNEE} (farm ${written.idExploitation}, campaign ${written.idCampagne}): ${written.plots} plots, ${written.interventions} interventions, ${written.inputs} inputs, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
