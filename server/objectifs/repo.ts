import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { PERIMEE_SQL } from "../calcul-serie/perimee";

/** The objective indicators of campaigns (spec 3 §3.9) with their reference row: name, unit, code. */
export async function listObjectifsCampagnes(db: Db, idCampagnes: number[]) {
  if (!idCampagnes.length) return [];
  const rows = await db("indicateur_objectif as o")
    .join("indicateur as i", "i.id", "o.idIndicateur")
    .whereIn("o.idCampagne", idCampagnes)
    .orderBy([{ column: "i.indOrdre" }, { column: "i.id" }, { column: "o.id" }])
    .select("o.id", "o.idCampagne", "o.idIndicateur", "o.value", "i.indNom", "i.indNomEn", "i.dicLlUnite", "i.indCode");
  return rows.map((r) => ({
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    idIndicateur: Number(r.idIndicateur),
    valeur: r.value == null ? null : Number(r.value),
    indNom: String(r.indNom),
    indNomEn: (r.indNomEn as string | null) ?? null,
    unite: (r.dicLlUnite as string | null) ?? "",
    indCode: (r.indCode as string | null) ?? null,
  }));
}

/** The campaigns of a farm that are not simulations, oldest harvest first. */
export async function listCampagnesExploitation(db: Db, idExploitation: number) {
  const rows = await db("campagne")
    .where({ idExploitation })
    .orderBy([{ column: "anneeRecolte" }, { column: "id" }])
    .select("id", "anneeRecolte", "prefixeCampagne", "apiLibelle", "simulation");
  return rows
    .filter((r) => !bool(r.simulation))
    .map((r) => ({
      id: Number(r.id),
      anneeRecolte: Number(r.anneeRecolte),
      prefixeCampagne: String(r.prefixeCampagne ?? ""),
      apiLibelle: String(r.apiLibelle ?? ""),
    }));
}

/** The finished series of campaigns, newest first, with their visibility flags and out-of-date state (decision 0072). */
export async function listSeriesTerminees(db: Db, idCampagnes: number[]) {
  if (!idCampagnes.length) return [];
  const rows = await db("calcul_serie as s")
    .whereIn("s.idCampagne", idCampagnes)
    .where("s.statut", "termine")
    .orderBy([
      { column: "s.createdAt", order: "desc" },
      { column: "s.id", order: "desc" },
    ])
    .select("s.id", "s.idCampagne", "s.publication", "s.visaAnimateur", "s.dtFin", db.raw(`${PERIMEE_SQL} as perimee`));
  return rows.map((r) => ({
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    publication: bool(r.publication),
    visaAnimateur: bool(r.visaAnimateur),
    dtFin: r.dtFin == null ? null : toIso(r.dtFin),
    perimee: bool(r.perimee),
  }));
}

/** The stored figures of series for some codes and levels. */
export async function listResultats(db: Db, idSeries: number[], codes: string[], niveaux: string[]) {
  if (!idSeries.length || !codes.length) return [];
  const rows = await db("calcul_resultat")
    .whereIn("idCalculSerie", idSeries)
    .whereIn("code", codes)
    .whereIn("niveau", niveaux)
    .select("idCalculSerie", "niveau", "idEntite", "code", "valeur", "unite", "completude");
  return rows.map((r) => ({
    idSerie: Number(r.idCalculSerie),
    niveau: String(r.niveau),
    idEntite: String(r.idEntite),
    code: String(r.code),
    valeur: r.valeur == null ? null : Number(r.valeur),
    unite: String(r.unite ?? ""),
    completude: Number(r.completude),
  }));
}

/** Plot labels and areas, and the crop each plot had (its crop management's crop). */
export async function listParcellesLibelles(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return (await db("parcelle").whereIn("id", ids).select("id", "libelle")).map((r) => ({ id: Number(r.id), libelle: String(r.libelle) }));
}

export async function listCulturesLibelles(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return (await db("culture").whereIn("id", ids).select("id", "libelle")).map((r) => ({ id: Number(r.id), libelle: String(r.libelle) }));
}

/** The campaign's farm, its label parts and the farm's name (undefined for an unknown campaign). */
export async function campagneAvecExploitation(db: Db, idCampagne: number) {
  return db("campagne as c")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .where("c.id", idCampagne)
    .first("c.idExploitation", "c.prefixeCampagne", "c.apiLibelle", "e.libelle as exploitation");
}
