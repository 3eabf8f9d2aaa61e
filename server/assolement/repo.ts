import type { Db } from "../db/knex";

/** The category code of main crops in categorie_culture (the others: intermediaire, derobee). */
export const CATEGORIE_PRINCIPALE = "principale";

export type ParcelleSurface = { id: number; surface: number | null; idModeConduite: number | null };
export type ModeConduiteLabel = { id: number; libelle: string };
/** A main crop of a management mode; a row without its own category takes the crop's default one. */
export type CulturePrincipale = { idModeConduite: number; idCulture: number; libelle: string; libelleEn: string | null; ordre: number };

export async function listParcelleSurfaces(db: Db, idCampagne: number): Promise<ParcelleSurface[]> {
  const rows = await db("parcelle").where({ idCampagne }).select("id", "surface", "idModeConduite");
  return rows.map((r) => ({
    id: Number(r.id),
    surface: r.surface == null ? null : Number(r.surface),
    idModeConduite: r.idModeConduite == null ? null : Number(r.idModeConduite),
  }));
}

export async function listModesConduite(db: Db, idCampagne: number): Promise<ModeConduiteLabel[]> {
  const rows = await db("mode_conduite").where({ idCampagne }).select("id", "libelle");
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle) }));
}

export async function listCulturesPrincipales(db: Db, idCampagne: number): Promise<CulturePrincipale[]> {
  const rows = await db("mode_conduite_culture as mcc")
    .join("mode_conduite as mc", "mc.id", "mcc.idModeConduite")
    .join("culture as c", "c.id", "mcc.idCulture")
    .join("categorie_culture as cat", "cat.id", db.raw("coalesce(??, ??)", ["mcc.idCatCulture", "c.idCatCulture"]))
    .where("mc.idCampagne", idCampagne)
    .where("cat.code", CATEGORIE_PRINCIPALE)
    .select("mcc.idModeConduite", "mcc.idCulture", "c.libelle", "c.libelleEn", "mcc.ordre", "mcc.id")
    .orderBy([{ column: "mcc.ordre" }, { column: "mcc.id" }]);
  return rows.map((r) => ({
    idModeConduite: Number(r.idModeConduite),
    idCulture: Number(r.idCulture),
    libelle: String(r.libelle),
    libelleEn: r.libelleEn == null ? null : String(r.libelleEn),
    ordre: Number(r.ordre),
  }));
}
