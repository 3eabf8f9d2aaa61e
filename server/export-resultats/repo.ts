import type { Db } from "../db/knex";

/** A calculation series with its campaign and farm, as the result export checks it (undefined when unknown). */
export function findSerieWithCampagne(db: Db, id: number): Promise<Record<string, unknown> | undefined> {
  return db("calcul_serie as s")
    .join("campagne as c", "c.id", "s.idCampagne")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .where("s.id", id)
    .first(
      "s.id",
      "s.idCampagne",
      "s.statut",
      "s.publication",
      "s.visaAnimateur",
      "s.idUtilisateur",
      "c.idExploitation",
      "c.prefixeCampagne",
      "c.apiLibelle",
      "c.simulation",
      "e.libelle as exploitation",
    );
}

/** The groups of one series with their published flag. */
export function listGroupesOfSerie(db: Db, idCalculSerie: number): Promise<{ idGroupe: number; publie: unknown }[]> {
  return db("calcul_serie_groupe").where({ idCalculSerie }).select("idGroupe", "publie");
}

/** The groups of these series with their published flag. */
export function listGroupesOfSeries(db: Db, ids: readonly number[]): Promise<{ idCalculSerie: number; idGroupe: number; publie: unknown }[]> {
  return db("calcul_serie_groupe")
    .whereIn("idCalculSerie", [...ids])
    .select("idCalculSerie", "idGroupe", "publie");
}

/** The result rows of one series in these groups, counted per level: rows (n) and distinct entities (e). */
export function countResultatsByNiveau(
  db: Db,
  idCalculSerie: number,
  groupes: readonly number[],
): Promise<{ niveau: string; n: number | string; e: number | string }[]> {
  return db("calcul_resultat")
    .where({ idCalculSerie })
    .whereIn("idGroupe", [...groupes])
    .groupBy("niveau")
    .select("niveau")
    .count({ n: "*" })
    .countDistinct({ e: "idEntite" }) as unknown as Promise<{ niveau: string; n: number | string; e: number | string }[]>;
}

/** The result rows of one series in these groups, in id order. */
export function listResultatsOfSerie(db: Db, idCalculSerie: number, groupes: readonly number[]): Promise<Record<string, unknown>[]> {
  return db("calcul_resultat")
    .where({ idCalculSerie })
    .whereIn("idGroupe", [...groupes])
    .orderBy("id")
    .select("niveau", "idEntite", "idParcelle", "code", "valeur", "unite", "completude", "nbManquants");
}

/** The campaign's plots with their plot group. */
export function listParcellesLotsOfCampagne(db: Db, idCampagne: number): Promise<{ id: number; idLot: number | null }[]> {
  return db("parcelle").where({ idCampagne }).select("id", "idLot");
}

/** The campaign's plot groups, id and label. */
export function listLotsOfCampagne(db: Db, idCampagne: number): Promise<{ id: number; libelle: string }[]> {
  return db("lot_parcelle").where({ idCampagne }).select("id", "libelle");
}

/** The campaign's management modes, id and label. */
export function listModesConduiteOfCampagne(db: Db, idCampagne: number): Promise<{ id: number; libelle: string }[]> {
  return db("mode_conduite").where({ idCampagne }).select("id", "libelle");
}

/** These crops, id and both labels. */
export function listCulturesOfIds(db: Db, ids: readonly number[]): Promise<{ id: number; libelle: string; libelleEn: string | null }[]> {
  return db("culture")
    .whereIn("id", [...ids])
    .select("id", "libelle", "libelleEn");
}

/** The harvests of the campaign's interventions with their crop and output type (both labels), by plot then id. */
export function listRecoltesOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  return db("recolte as r")
    .join("action as a", "a.id", "r.idAction")
    .leftJoin("culture as c", "c.id", "r.idCulture")
    .leftJoin("type_sortie as d", "d.id", "r.dicIdTypeSortie")
    .where("a.idCampagne", idCampagne)
    .orderBy([{ column: "a.idParcelle" }, { column: "r.id" }])
    .select(
      "a.idParcelle",
      "a.realisee",
      "a.prevue",
      "c.libelle as culture",
      "c.libelleEn as cultureEn",
      "d.libelle as typeSortie",
      "d.libelleEn as typeSortieEn",
      "r.rendement",
      "r.dicLlUnite",
    );
}
