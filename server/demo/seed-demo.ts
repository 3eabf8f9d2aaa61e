import type { Db } from "../db/knex";
import {
  addToGroup,
  createCampagne,
  createDossier,
  createExploitation,
  createGroupe,
  createOad,
  createPost,
  createUtilisateur,
  grantFolder,
  linkFarm,
} from "./factories";
import { seedDemoModes, seedDemoRecoltes } from "./seed-cultures";
import { seedDemoAmenagements, seedDemoLots } from "./seed-lots-amenagements";
import { seedDemoParcelles } from "./seed-parcelles";
import { DEMO_FERTILISANTS_BEAUCE, DEMO_FERTILISANTS_BOCAGE, seedDemoIntrantsDossier } from "./seed-intrants-dossier";
import { seedDemoDescription } from "./seed-description";
import { seedCampaignInterventions, updateCalculatedUse } from "./seed-interventions";
import { seedDemoPrix } from "./seed-prix";
import { chargerPrixPhyto, lirePrixPhyto } from "../referentiel-intrants/prix-phyto-import";
import prixPhytoDemo from "./prix-phyto-demo.csv?raw";
import dosesIftDemo from "./doses-ift-demo.csv?raw";
import { parseFile } from "../referentiel-intrants/ephy-import";
import { importReferentiel } from "../referentiel-intrants/import-service";

/** Where the demo's reference doses come from (doses-ift-demo.csv): not the ministry's list. */
export const SOURCE_DOSES_DEMO = {
  source:
    "Démonstration Sillon : doses de référence indicatives (dose maximale d'étiquette par application), non officielles ; remplacées par la liste du ministère à son import",
  confiance: "low",
};
import { seedDemoObservations } from "./seed-observations";
import { seedDemoRegistre } from "./seed-registre";
import { seedDemoRecoltes2025 } from "./seed-recoltes";
import { seedDemoSeries } from "./seed-series";
import { seedDemoProtocoles } from "./seed-protocoles";

export const DEMO_PASSWORD = "demo1234";

/** The demo users of the README, with what each may do. */
export const DEMO_USERS = {
  admin: { nom: "Martin", prenom: "Alice", admin: true, roles: ["ROLE_TEST"] },
  animateur: { nom: "Durand", prenom: "Bruno" },
  redacteur: { nom: "Lefèvre", prenom: "Claire" },
  lecteur: { nom: "Moreau", prenom: "David" },
  synthese: { nom: "Garnier", prenom: "Émilie" },
  nouveau: { nom: "Petit", prenom: "François", acceptcgu: false, isVisible: false },
} as const;

export type DemoIds = Awaited<ReturnType<typeof seedDemo>>;

export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const row = await db("utilisateur").count<{ n: number | string }[]>({ n: "*" }).first();
  return Number(row?.n ?? 0) === 0;
}

/** The demo data set: two networks, two folders, three farms, campaigns 2024, 2025 and a 2025 simulation. */
export async function seedDemo(db: Db) {
  return db.transaction(async (trx) => {
    const users: Record<keyof typeof DEMO_USERS, number> = {} as never;
    for (const [username, u] of Object.entries(DEMO_USERS) as [keyof typeof DEMO_USERS, (typeof DEMO_USERS)[keyof typeof DEMO_USERS]][]) {
      users[username] = await createUtilisateur(trx, { username, password: DEMO_PASSWORD, ...u, roles: "roles" in u ? [...u.roles] : [] });
    }
    const conseillers = await createGroupe(trx, "Conseillers du réseau démo");
    const agriculteurs = await createGroupe(trx, "Agriculteurs du réseau démo");
    for (const u of [users.admin, users.animateur, users.redacteur]) await addToGroup(trx, conseillers, u);
    for (const u of [users.lecteur, users.synthese, users.nouveau]) await addToGroup(trx, agriculteurs, u);

    const reseauDemo = await createOad(trx, { libelle: "Réseau démo", libelleLong: "Réseau de démonstration Sillon" });
    const international = await createOad(trx, {
      libelle: "International",
      libelleLong: "Réseau international (données hors de France)",
      international: true,
      emailAcces: "international@sillon.example",
    });

    const beauce = await createDossier(trx, {
      libelle: "Groupe Grandes cultures Beauce",
      idOad: reseauDemo,
      remarque: "Groupe de démonstration : céréales et oléoprotéagineux.",
    });
    const bocage = await createDossier(trx, { libelle: "Groupe Polyculture-élevage Bocage", idOad: reseauDemo });

    await grantFolder(trx, users.animateur, beauce, "animation", { ordre: 1, udoProprietaire: true });
    await grantFolder(trx, users.animateur, bocage, "animation", { ordre: 1, udoProprietaire: true });
    await grantFolder(trx, users.admin, beauce, "animation", { ordre: 2 });
    await grantFolder(trx, users.redacteur, beauce, "ecriture", { ordre: 3 });
    await grantFolder(trx, users.redacteur, bocage, "ecriture", { ordre: 3 });
    await grantFolder(trx, users.lecteur, beauce, "lecture", { ordre: 4 });
    await grantFolder(trx, users.synthese, beauce, "synthese", { ordre: 5 });

    const tilleuls = await createExploitation(trx, { libelle: "EARL des Tilleuls", idTypeExploitation: 1 });
    const moulin = await createExploitation(trx, { libelle: "GAEC du Moulin", idTypeExploitation: 1 });
    const vallee = await createExploitation(trx, { libelle: "Ferme de la Vallée", idTypeExploitation: 2 });
    await linkFarm(trx, beauce, tilleuls, "animation");
    await linkFarm(trx, beauce, moulin, "ecriture");
    await linkFarm(trx, bocage, vallee, "animation");
    await linkFarm(trx, bocage, moulin, "lecture");

    const campagnes: Record<string, number> = {};
    for (const [name, idExploitation] of [
      ["tilleuls", tilleuls],
      ["moulin", moulin],
      ["vallee", vallee],
    ] as const) {
      const c2024 = await createCampagne(trx, { idExploitation, anneeRecolte: 2024, indicateurPublie: name === "tilleuls" });
      const c2025 = await createCampagne(trx, { idExploitation, anneeRecolte: 2025, idCampagneSource: c2024, idCampagneHistoParcelle: c2024 });
      campagnes[`${name}2024`] = c2024;
      campagnes[`${name}2025`] = c2025;
    }
    campagnes.tilleuls2025Simulation = await createCampagne(trx, {
      idExploitation: tilleuls,
      anneeRecolte: 2025,
      simulation: true,
      apiLibelle: "Simulation réduction phyto",
      idCampagneSource: campagnes.tilleuls2025,
      idCampagneHistoParcelle: campagnes.tilleuls2024,
    });

    // Farm description II, in dependency order: modes, groups, plots (which use both), features
    // (next to plots), harvests of earlier campaigns (on plots; they feed the insurance estimate).
    await seedDemoModes(trx, campagnes);
    await seedDemoLots(trx, campagnes);
    await seedDemoParcelles(trx, campagnes);
    await seedDemoAmenagements(trx, campagnes);
    await seedDemoIntrantsDossier(trx, beauce, DEMO_FERTILISANTS_BEAUCE, users.animateur);
    await seedDemoIntrantsDossier(trx, bocage, DEMO_FERTILISANTS_BOCAGE, users.animateur);
    // Farm description I (coordinates, description, soil; per campaign: economics, labour, machinery, operations),
    // then a season of interventions with their inputs on every plot, then the harvests that use them.
    const operations = await seedDemoDescription(trx, { tilleuls, moulin, vallee }, campagnes);
    const dossierOf: Record<string, number> = { tilleuls: beauce, moulin: beauce, vallee: bocage };
    for (const [name, idCampagne] of Object.entries(campagnes)) {
      const farm = name.slice(0, name.search(/\d/));
      await seedCampaignInterventions(trx, idCampagne, operations.get(idCampagne)!, {
        annee: Number(name.slice(farm.length, farm.length + 4)),
        simulation: name.endsWith("Simulation"),
        idDossier: dossierOf[farm],
      });
      await updateCalculatedUse(trx, idCampagne);
    }
    // The register's checks (issue 28): demo E-Phy uses and two treatments that break their rules.
    await seedDemoRegistre(trx, { idCampagne: campagnes.tilleuls2025, operations: operations.get(campagnes.tilleuls2025)!, idDossier: beauce });
    await updateCalculatedUse(trx, campagnes.tilleuls2025);
    await seedDemoRecoltes(trx, campagnes);
    await seedDemoRecoltes2025(trx, { idCampagne: campagnes.tilleuls2025, idDossier: beauce, idUser: users.redacteur });
    await seedDemoPrix(trx, campagnes);
    // Reference prices through the organisations' own loader (decision 0080); illustrative figures, so labelled.
    await chargerPrixPhyto(trx, lirePrixPhyto(prixPhytoDemo));
    // Reference doses for the demo's treatments the shipped list lacks, through the list's own importer (decision
    // 0085): illustrative label doses of 2026, so labelled; the 2024 and 2025 campaigns read them as the nearest list.
    await importReferentiel(trx, [parseFile("doses-ift-demo.csv", new TextEncoder().encode(dosesIftDemo))], { sourceDoses: SOURCE_DOSES_DEMO });
    await seedDemoObservations(trx, campagnes, users.redacteur);
    await seedDemoProtocoles(trx, campagnes);
    await seedDemoSeries(trx, campagnes, users.redacteur);

    const day = 24 * 3600 * 1000;
    await createPost(trx, {
      title: "Bienvenue dans Sillon",
      content: "Décrivez vos exploitations campagne par campagne et suivez leurs indicateurs.",
      creationDate: new Date(Date.now() - 30 * day),
    });
    await createPost(trx, {
      title: "Campagne 2025 ouverte",
      content: "Les campagnes 2025 sont créées pour les exploitations du réseau démo.",
      creationDate: new Date(Date.now() - 10 * day),
    });
    await createPost(trx, {
      title: "Nouveaux référentiels matériel",
      content: "Les références du parc matériel ont été mises à jour.",
      creationDate: new Date(Date.now() - 2 * day),
    });

    return {
      users,
      oads: { reseauDemo, international },
      dossiers: { beauce, bocage },
      exploitations: { tilleuls, moulin, vallee },
      campagnes,
      groupes: { conseillers, agriculteurs },
    };
  });
}
