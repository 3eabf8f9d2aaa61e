import type { Knex } from "knex";

/**
 * Demo plot groups and landscape features (issue 5). Reference rows are found by name, plots at run
 * time among the campaign's plots (created before by seedDemoParcelles; none yet is fine).
 */

type Sol = { arvalis: string; aee: string; sousSol: string; acidite: string; profondeur: string; profondeurSolCm: number; reserveUtileMm: number };
type DemoLot = { libelle: string; noIlotPac: string; irrigable: boolean; drainee: boolean; remarque?: string; sol: Sol };

const LIMON_PROFOND: Sol = {
  arvalis: "Limon profond",
  aee: "Limon moyen",
  sousSol: "Calcaire tendre, craie",
  acidite: "Neutre",
  profondeur: "Très profond (90 cm et plus)",
  profondeurSolCm: 120,
  reserveUtileMm: 200,
};
const ARGILO_CALCAIRE: Sol = {
  arvalis: "Argilo-calcaire moyen",
  aee: "Argile limoneuse",
  sousSol: "Calcaire dur",
  acidite: "Basique",
  profondeur: "Moyennement profond (30 à 60 cm)",
  profondeurSolCm: 50,
  reserveUtileMm: 90,
};
const LIMON_BATTANT: Sol = {
  arvalis: "Limon battant",
  aee: "Limon léger",
  sousSol: "Limon",
  acidite: "Acide",
  profondeur: "Profond (60 à 90 cm)",
  profondeurSolCm: 80,
  reserveUtileMm: 150,
};

const LOTS_TILLEULS: DemoLot[] = [
  {
    libelle: "Îlot 12 – Les Grands Champs",
    noIlotPac: "12",
    irrigable: true,
    drainee: false,
    remarque: "Enrouleur sur le forage de la ferme",
    sol: LIMON_PROFOND,
  },
  { libelle: "Îlot 7 – La Vallée Sèche", noIlotPac: "7", irrigable: false, drainee: false, sol: ARGILO_CALCAIRE },
  { libelle: "Îlot 3 – Le Bas des Prés", noIlotPac: "3", irrigable: false, drainee: true, remarque: "Drainage de 1998", sol: LIMON_BATTANT },
];
const LOTS_MOULIN: DemoLot[] = [
  { libelle: "Îlot 5 – Le Moulin", noIlotPac: "5", irrigable: false, drainee: true, sol: LIMON_BATTANT },
  { libelle: "Îlot 9 – Les Noues", noIlotPac: "9", irrigable: false, drainee: false, sol: ARGILO_CALCAIRE },
];

const LIMON_SCHISTE: Sol = {
  arvalis: "Sol de granite ou de schiste",
  aee: "Limon argileux",
  sousSol: "Roche cristalline ou schisteuse (granite, schiste)",
  acidite: "Acide",
  profondeur: "Moyennement profond (30 à 60 cm)",
  profondeurSolCm: 60,
  reserveUtileMm: 110,
};
const LOTS_VALLEE: DemoLot[] = [
  { libelle: "Îlot 1 – Autour du siège", noIlotPac: "1", irrigable: false, drainee: false, remarque: "Accessible aux vaches laitières", sol: LIMON_SCHISTE },
  { libelle: "Îlot 2 – La Grande Pièce", noIlotPac: "2", irrigable: false, drainee: false, sol: LIMON_SCHISTE },
];

/** The campaigns that get demo groups and features, by the names of seedDemo's campaign ids. */
const CAMPAGNES_TILLEULS = ["tilleuls2024", "tilleuls2025", "tilleuls2025Simulation"];
const CAMPAGNES_MOULIN = ["moulin2025"];
const CAMPAGNES_MOULIN_2024 = ["moulin2024"];
const CAMPAGNES_VALLEE = ["vallee2024", "vallee2025"];

async function refId(trx: Knex.Transaction, table: string, column: string, value: string): Promise<number | null> {
  const row = await trx(table).where(column, value).first("id");
  return row ? Number(row.id) : null;
}

async function soilColumns(trx: Knex.Transaction, sol: Sol) {
  return {
    idTypeSolArvalis: await refId(trx, "type_sol_arvalis", "libelle", sol.arvalis),
    idAeeTypeSol: await refId(trx, "type_sol_aee", "libelle", sol.aee),
    idTypeSousSol: await refId(trx, "type_sous_sol", "libelle", sol.sousSol),
    idAciditeSol: await refId(trx, "acidite_sol", "libelle", sol.acidite),
    idProfondeurSol: await refId(trx, "profondeur_sol", "libelle", sol.profondeur),
    profondeurSolCm: sol.profondeurSolCm,
    reserveUtileMm: sol.reserveUtileMm,
  };
}

export async function seedDemoLots(trx: Knex.Transaction, campagnes: Record<string, number>): Promise<void> {
  const plan: [string[], DemoLot[]][] = [
    [CAMPAGNES_TILLEULS, LOTS_TILLEULS],
    [CAMPAGNES_MOULIN, LOTS_MOULIN],
    [CAMPAGNES_MOULIN_2024, LOTS_MOULIN],
    [CAMPAGNES_VALLEE, LOTS_VALLEE],
  ];
  for (const [names, lots] of plan) {
    for (const name of names) {
      const idCampagne = campagnes[name];
      if (!idCampagne) continue;
      for (const lot of lots) {
        await trx("lot_parcelle").insert({
          idCampagne,
          libelle: lot.libelle,
          noIlotPac: lot.noIlotPac,
          irrigable: lot.irrigable,
          drainee: lot.drainee,
          remarque: lot.remarque ?? null,
          ...(await soilColumns(trx, lot.sol)),
        });
      }
    }
  }
}

type DemoAmenagement = { libelle: string; type: string; surface: number; remarque?: string; plot: number };

const AMENAGEMENTS: DemoAmenagement[] = [
  {
    libelle: "Haie du chemin de Beaugency",
    type: "Haie",
    surface: 320,
    remarque: "Haie champêtre plantée en 2012 (charme, noisetier, érable champêtre)",
    plot: 0,
  },
  { libelle: "Mare de la Cour", type: "Mare", surface: 450, plot: 1 },
  { libelle: "Bande enherbée du ru", type: "Bande tampon enherbée", surface: 250, remarque: "Bande de 6 m le long du cours d'eau", plot: 2 },
];

const AMENAGEMENTS_VALLEE: DemoAmenagement[] = [
  { libelle: "Haie bocagère du Pré", type: "Haie", surface: 680, remarque: "Talus planté de chênes et de châtaigniers, entretenu au lamier", plot: 0 },
  { libelle: "Mare de la Vallée", type: "Mare", surface: 300, plot: 3 },
];

export async function seedDemoAmenagements(trx: Knex.Transaction, campagnes: Record<string, number>): Promise<void> {
  const plan: [string[], DemoAmenagement[]][] = [
    [[...CAMPAGNES_TILLEULS, ...CAMPAGNES_MOULIN, ...CAMPAGNES_MOULIN_2024], AMENAGEMENTS],
    [CAMPAGNES_VALLEE, AMENAGEMENTS_VALLEE],
  ];
  for (const [names, amenagements] of plan)
    for (const name of names) {
      const idCampagne = campagnes[name];
      if (!idCampagne) continue;
      const plots = await trx("parcelle").where({ idCampagne }).orderBy("id").select("id");
      for (const a of amenagements) {
        const idTypeAmenagement = await refId(trx, "type_amenagement", "iaeNom", a.type);
        if (idTypeAmenagement === null) throw new Error(`demo seed: no landscape feature type ${a.type}`);
        await trx("amenagement").insert({
          idCampagne,
          libelle: a.libelle,
          idTypeAmenagement,
          surface: a.surface,
          remarque: a.remarque ?? null,
          idParcelleAdjacente: plots.length ? Number(plots[a.plot % plots.length].id) : null,
        });
      }
    }
}
