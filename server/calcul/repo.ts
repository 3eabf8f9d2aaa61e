import { ELEMENTS } from "~/domain/intrant";
import type { Db } from "../db/knex";

/** The campaign's simulation flag as stored (undefined for an unknown campaign). */
export function simulationFlagOf(db: Db, idCampagne: number): Promise<{ simulation: unknown } | undefined> {
  return db("campagne").where({ id: idCampagne }).first("simulation");
}

// --- The campaign's snapshot (server/calcul/instantane.ts, decision 0081) ---

/** What a snapshot reads: the campaign, and one plot's interventions (with that plot alone, or every plot). */
export type LectureInstantane = { idCampagne: number; idParcelle?: number; toutesLesParcelles?: boolean };

/** The campaign's harvest year and farm, with the farm's label (undefined when unknown). */
export function findCampagneWithExploitation(db: Db, idCampagne: number): Promise<Record<string, unknown> | undefined> {
  return db("campagne as c")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .where("c.id", idCampagne)
    .first("c.anneeRecolte", "c.idExploitation", "e.libelle");
}

/** The plots (area, management mode and its label) by id: one plot's snapshot holds that plot only, or every plot. */
export function listParcellesOfInstantane(db: Db, l: LectureInstantane): Promise<Record<string, unknown>[]> {
  const q = db("parcelle as p").leftJoin("mode_conduite as m", "m.id", "p.idModeConduite").where("p.idCampagne", l.idCampagne);
  if (l.idParcelle != null && !l.toutesLesParcelles) q.where("p.id", l.idParcelle);
  return q.orderBy("p.id").select("p.id", "p.libelle", "p.surface", "p.idModeConduite", "m.libelle as mode");
}

/** The interventions of the campaign (of the plot), by date then id. */
export function listActionsOfInstantane(db: Db, l: LectureInstantane): Promise<Record<string, unknown>[]> {
  const q = db("action").where({ idCampagne: l.idCampagne });
  if (l.idParcelle != null) q.where({ idParcelle: l.idParcelle });
  return q
    .orderBy([{ column: "date" }, { column: "id" }])
    .select(
      "id",
      "idParcelle",
      "date",
      "realisee",
      "prevue",
      "frequence",
      "tauxSurface",
      "debit",
      "consoCarburant",
      "idOperationCulturale",
      "idCultureConcernee",
    );
}

/** A query joined to the interventions (`column` their id) of the campaign (of the plot). */
function ofActions(q: ReturnType<Db>, column: string, l: LectureInstantane) {
  q.join("action as a", "a.id", column).where("a.idCampagne", l.idCampagne);
  if (l.idParcelle != null) q.where("a.idParcelle", l.idParcelle);
  return q;
}

/** The interventions' inputs with their category's type and IFT family, by id. */
export function listIntrantsOfInstantane(db: Db, l: LectureInstantane): Promise<Record<string, unknown>[]> {
  return ofActions(db("intrant as i").join("categorie_intrant as c", "c.id", "i.idCategorie"), "i.idAction", l)
    .orderBy("i.id")
    .select(
      "i.id",
      "i.idAction",
      "i.idCategorie",
      "c.idTypeIntrant",
      "c.familleIft",
      "i.libelleIntrant",
      "i.codeIntrant",
      "i.quantite",
      "i.dicLlUnite",
      "i.dicIdOrigineIntrant",
      "i.idIntrant",
      "i.idIntrantSemence",
    );
}

/**
 * The compositions of the inputs that have one, apart: joined to every input row they tripled the rows' columns,
 * mostly empty (a third of the snapshot's time on the bench campaign).
 */
export function listCompositionsOfInstantane(db: Db, l: LectureInstantane): Promise<Record<string, unknown>[]> {
  return ofActions(db("caracteristique_intrant as ci").join("intrant as i", "i.id", "ci.idIntrant"), "i.idAction", l).select(
    "ci.idIntrant",
    ...ELEMENTS.map((e) => `ci.${e}`),
  );
}

/** The inputs' targets, by input then rank. */
export function listCiblesOfInstantane(db: Db, l: LectureInstantane): Promise<Record<string, unknown>[]> {
  return ofActions(
    db("intrant_cible_cible as cc").join("intrant_cible as ic", "ic.id", "cc.idIntrantCible").join("intrant as i", "i.id", "ic.idIntrant"),
    "i.idAction",
    l,
  )
    .orderBy([{ column: "ic.idIntrant" }, { column: "cc.rang" }])
    .select("ic.idIntrant", "cc.idCible");
}

/** The interventions' harvests with their crop's label and plot, by id. */
export function listRecoltesOfInstantane(db: Db, l: LectureInstantane): Promise<Record<string, unknown>[]> {
  return ofActions(db("recolte as r").join("culture as c", "c.id", "r.idCulture"), "r.idAction", l)
    .orderBy("r.id")
    .select(
      "r.id",
      "r.idAction",
      "a.idParcelle",
      "r.idCulture",
      "c.libelle as culture",
      "r.dicIdTypeSortie",
      "r.idQualifiantRecolte",
      "r.rendement",
      "r.dicLlUnite",
    );
}

/** The campaign's supply prices that have one. */
export function listPrixApproOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  return db("prix_appro").where({ idCampagne }).whereNotNull("prixAchat").select("id", "cle", "prixAchat", "unite", "libelleIntrantConcat");
}

/** The campaign's sale prices that have one. */
export function listPrixVenteOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  return db("prix_vente").where({ idCampagne }).whereNotNull("prixVente").select("id", "cle", "prixVente");
}

/** These crops, id and label. */
export function listCulturesLibellesOfIds(db: Db, ids: readonly number[]): Promise<Record<string, unknown>[]> {
  return db("culture")
    .whereIn("id", [...ids])
    .select("id", "libelle");
}
