import type { Knex } from "knex";
import { returnedId } from "../db/insert-id";

/**
 * Demo crop management modes (issue 5) of EARL des Tilleuls (2024, 2025 and its 2025 simulation) and GAEC
 * du Moulin (2025), and the 2024 harvests of EARL des Tilleuls that feed the 2025 insurance estimate.
 * Crops, categories and qualifiers are found by name in the reference lists (seeds/reference/culture.json…).
 * Plots (seedDemoParcelles) pick the first mode of their campaign whose name contains a word such as
 * "Blé tendre", "Colza", "Orge", "Betterave", "Pois" or "Maïs": keep those names.
 */

type Row = { culture: string; categorie?: "principale" | "intermediaire" | "derobee"; qualifiant?: string };
type Assurance = { culture: string; typeSortie: string; rendementAssure: number; txFranchise: number; mtPrixAssure: number; mtCotisationAssurance: number };
type DemoMode = { libelle: string; aideCouplee?: number; competilis?: string; remarque?: string; rows: Row[]; assurance?: Assurance };

const BLE: DemoMode = {
  libelle: "Blé tendre conventionnel",
  competilis: "CER",
  rows: [
    { culture: "Blé tendre d'hiver", categorie: "principale", qualifiant: "Panifiable (meunier)" },
    { culture: "Moutarde blanche", categorie: "intermediaire" },
  ],
  assurance: { culture: "Blé tendre d'hiver", typeSortie: "Grain", rendementAssure: 8.5, txFranchise: 20, mtPrixAssure: 190, mtCotisationAssurance: 28 },
};
const COLZA: DemoMode = {
  libelle: "Colza",
  competilis: "OLE",
  remarque: "Colza associé à des légumineuses gélives.",
  rows: [
    { culture: "Colza d'hiver", categorie: "principale", qualifiant: "Alimentaire (00)" },
    { culture: "Féverole", categorie: "intermediaire" },
  ],
};
const ORGE: DemoMode = {
  libelle: "Orge de printemps brassicole",
  competilis: "CER",
  rows: [
    { culture: "Phacélie", categorie: "intermediaire" },
    { culture: "Orge de printemps", categorie: "principale", qualifiant: "Brassicole" },
  ],
};
const BETTERAVE: DemoMode = {
  libelle: "Betterave sucrière",
  competilis: "IND",
  rows: [{ culture: "Betterave sucrière", categorie: "principale", qualifiant: "Sucre" }],
};
const POIS: DemoMode = {
  libelle: "Pois protéagineux de printemps",
  aideCouplee: 104,
  competilis: "PROT",
  rows: [{ culture: "Pois protéagineux de printemps", categorie: "principale", qualifiant: "Alimentation animale" }],
};
const MAIS_ENSILAGE: DemoMode = {
  libelle: "Maïs ensilage après prairie",
  competilis: "FOUR",
  rows: [
    { culture: "Prairie temporaire", categorie: "intermediaire" },
    { culture: "Maïs ensilage", categorie: "principale" },
  ],
};
const PRAIRIE: DemoMode = {
  libelle: "Prairie temporaire fauchée et pâturée",
  competilis: "FOUR",
  remarque: "Ray-grass anglais, fétuque et trèfle blanc, semée pour 5 ans.",
  rows: [{ culture: "Prairie temporaire", categorie: "principale" }],
};
const BLE_BOCAGE: DemoMode = {
  libelle: "Blé tendre après maïs",
  competilis: "CER",
  rows: [{ culture: "Blé tendre d'hiver", categorie: "principale", qualifiant: "Fourrager" }],
};
const MAIS: DemoMode = {
  libelle: "Maïs grain irrigué",
  competilis: "CER",
  rows: [
    { culture: "Mélange d'interculture (couvert multi-espèces)", categorie: "intermediaire" },
    { culture: "Maïs grain", categorie: "principale", qualifiant: "Grain sec" },
  ],
};

const MODES: Record<string, DemoMode[]> = {
  tilleuls2024: [BLE, COLZA, ORGE, BETTERAVE, POIS],
  tilleuls2025: [BLE, COLZA, ORGE, BETTERAVE],
  tilleuls2025Simulation: [BLE, COLZA, ORGE, BETTERAVE],
  moulin2024: [BLE, COLZA, ORGE, MAIS],
  moulin2025: [BLE, COLZA, ORGE, MAIS],
  vallee2024: [MAIS_ENSILAGE, PRAIRIE, BLE_BOCAGE],
  vallee2025: [MAIS_ENSILAGE, PRAIRIE, BLE_BOCAGE],
};

/** Plausible 2024 yields of the Beauce demo plots (t/ha), near the Agreste 2024 Eure-et-Loir figures (a poor wheat year). */
const RENDEMENTS_2024: Record<string, { rendement: number; date: string }> = {
  "Blé tendre d'hiver": { rendement: 6.9, date: "2024-07-22" },
  "Colza d'hiver": { rendement: 3.1, date: "2024-07-08" },
  "Orge de printemps": { rendement: 6.2, date: "2024-07-26" },
  "Betterave sucrière": { rendement: 84, date: "2024-10-15" },
  "Pois protéagineux de printemps": { rendement: 3.4, date: "2024-07-18" },
};

async function insertId(trx: Knex.Transaction, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await trx(table).insert(row).returning("id");
  return returnedId(r);
}

async function idBy(trx: Knex.Transaction, table: string, where: Record<string, unknown>): Promise<number | null> {
  const r = await trx(table).where(where).first("id");
  return r ? Number(r.id) : null;
}

export async function seedDemoModes(trx: Knex.Transaction, campagnes: Record<string, number>): Promise<void> {
  for (const [name, modes] of Object.entries(MODES)) {
    const idCampagne = campagnes[name];
    if (!idCampagne) continue;
    for (const m of modes) {
      const id = await insertId(trx, "mode_conduite", {
        idCampagne,
        libelle: m.libelle,
        aideCouplee: m.aideCouplee ?? null,
        remarque: m.remarque ?? null,
        dicIdCatCompetilis: m.competilis ? await idBy(trx, "categorie_competilis", { code: m.competilis }) : null,
      });
      for (const [ordre, row] of m.rows.entries()) {
        const idCulture = await idBy(trx, "culture", { libelle: row.culture });
        if (idCulture === null) continue;
        await trx("mode_conduite_culture").insert({
          idModeConduite: id,
          idCulture,
          ordre,
          idCatCulture: row.categorie ? await idBy(trx, "categorie_culture", { code: row.categorie }) : null,
          idQualifiant: row.qualifiant ? await idBy(trx, "qualifiant_culture", { idCulture, libelle: row.qualifiant }) : null,
        });
      }
      const a = m.assurance;
      const idCulture = a ? await idBy(trx, "culture", { libelle: a.culture }) : null;
      const idTypeSortie = a ? await idBy(trx, "type_sortie", { libelle: a.typeSortie }) : null;
      if (a && idCulture !== null && idTypeSortie !== null) {
        await trx("mode_conduite_assurance").insert({
          idModeConduite: id,
          idCulture,
          idTypeSortie,
          rendementAssure: a.rendementAssure,
          txFranchise: a.txFranchise,
          mtPrixAssure: a.mtPrixAssure,
          mtCotisationAssurance: a.mtCotisationAssurance,
          rendementNonIndemnisable: (a.rendementAssure * a.txFranchise) / 100,
        });
      }
    }
  }
}

/**
 * For each 2024 plot of EARL des Tilleuls whose mode has a main crop: one done harvest with a recolte of that
 * crop and its first output type. The 2025 insurance estimate reads them.
 */
export async function seedDemoRecoltes(trx: Knex.Transaction, campagnes: Record<string, number>): Promise<void> {
  const idCampagne = campagnes.tilleuls2024;
  if (!idCampagne) return;
  const idRecolte = await idBy(trx, "type_action", { id: 15 }); // "Récolte à la moissonneuse-batteuse"
  const plots = await trx("parcelle as p")
    .join("mode_conduite_culture as mcc", "mcc.idModeConduite", "p.idModeConduite")
    .join("categorie_culture as cat", "cat.id", "mcc.idCatCulture")
    .join("culture as c", "c.id", "mcc.idCulture")
    .where({ "p.idCampagne": idCampagne, "cat.code": "principale" })
    .orderBy([{ column: "p.id" }, { column: "mcc.ordre" }])
    .select("p.id as idParcelle", "c.id as idCulture", "c.libelle as culture");
  const done = new Set<number>();
  for (const p of plots) {
    if (done.has(Number(p.idParcelle))) continue;
    done.add(Number(p.idParcelle));
    const type = await trx("culture_type_sortie as cts")
      .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
      .where("cts.idCulture", p.idCulture)
      .orderBy([{ column: "ts.ordre" }, { column: "ts.id" }])
      .first("ts.id", "ts.unite");
    const figure = RENDEMENTS_2024[p.culture];
    if (!type || !figure) continue;
    // The harvest intervention of the plot's season (seedDemoInterventions) when there is one, else a bare one.
    const existing = await trx("action")
      .where({ idCampagne, idParcelle: Number(p.idParcelle), idCultureConcernee: Number(p.idCulture) })
      .whereIn("dicIdTypeAction", [15, 16, 17])
      .orderBy("date")
      .first("id");
    const idAction = existing
      ? Number(existing.id)
      : await insertId(trx, "action", {
          idCampagne,
          idParcelle: Number(p.idParcelle),
          date: figure.date,
          anneeRecolte: 2024,
          dicIdTypeAction: idRecolte,
          idCultureConcernee: Number(p.idCulture),
          realisee: true,
        });
    await trx("recolte").insert({
      idAction,
      idCulture: Number(p.idCulture),
      dicIdTypeSortie: Number(type.id),
      rendement: figure.rendement,
      dicLlUnite: type.unite,
    });
  }
}
