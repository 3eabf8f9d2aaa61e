import type { Db } from "../db/knex";
import { parseFile } from "../referentiel-intrants/ephy-import";
import { importReferentiel } from "../referentiel-intrants/import-service";
import type { CampaignOperations } from "./seed-description";
import { AZOXYSTAR, COCKPIT, KARATE_ZEON, seedCampaignInterventions } from "./seed-interventions";
import usagesDemo from "./usages-phyto-demo.csv?raw";

/**
 * What the plant-protection register's checks need to show something in the demo (issue 28): E-Phy uses of some
 * demo products, loaded through the E-Phy importer (illustrative doses, intervals and counts written for the demo,
 * not E-Phy's figures: the identifiers DEMO0001… say so), and two treatments added to the farm "EARL des Tilleuls"
 * in 2025. With the demo's season they give one finding of each kind on that farm:
 * - a withdrawn product used after its withdrawal date (COCKPIT, withdrawn 2024-11-20 in the catalogue, on wheat);
 * - a use withdrawn while the product stays authorised (KARATE ZEON on barley in May 2025: its demo use on barley
 *   ended on 31 March 2025);
 * - a use not authorised (AZOXYSTAR 250 on sugar beet: its demo uses are cereals and oilseed rape);
 * - a dose above the use's (KARATE ZEON at 0.075 l/ha, use at 0.0625 l/ha);
 * - a third application of a two-application use (BETAGRI SC, three passes on beet);
 * - a harvest inside the pre-harvest interval (AZOXYSTAR on spring barley 19 days before its harvest, 35 required);
 * - a missing mandatory field (plots without PAC block nor geometry).
 */
export async function seedDemoRegistre(db: Db, o: { idCampagne: number; operations: CampaignOperations; idDossier: number }): Promise<void> {
  await importReferentiel(db, [parseFile("usages_des_produits_autorises_demo.csv", new TextEncoder().encode(usagesDemo))]);
  const plot = async (nom: string) => {
    const r = await db("parcelle").where({ idCampagne: o.idCampagne, libelle: nom }).first("id");
    if (!r) throw new Error(`demo plot ${nom} missing`);
    return Number(r.id);
  };
  const add = async (nom: string, step: Parameters<typeof seedCampaignInterventions>[3]["itineraire"]) =>
    seedCampaignInterventions(db, o.idCampagne, o.operations, {
      annee: 2025,
      simulation: false,
      idDossier: o.idDossier,
      idParcelles: [await plot(nom)],
      itineraire: step,
    });
  await add("Le Chemin de Chartres", [
    { op: ["pulve"], date: [0, "04-20"], stade: "2 nœuds (BBCH 32)", info: "Fond de bidon d'un fongicide retiré", inputs: [COCKPIT(0.5)] },
  ]);
  await add("Les Grands Champs sud", [
    { op: ["pulve"], date: [0, "05-10"], stade: "Gonflement (BBCH 45)", info: "Pucerons sur épis", inputs: [KARATE_ZEON(0.0625)] },
    { op: ["pulve"], date: [0, "07-01"], stade: "Grain laiteux (BBCH 75)", info: "Fongicide tardif", inputs: [AZOXYSTAR(0.6)] },
  ]);
}
