import { ELEMENTS_FERTILISANT, TYPE_INTRANT_FERTILISANT, type CompositionFertilisant } from "~/domain/eges";
import type { Db } from "../db/knex";

/** Folder inputs (intrant_dossier) and their fertiliser compositions (fertilisant_compo_dossier), spec 3 §3.5. */

const num = (v: unknown) => (v == null ? null : Number(v));

export type FertilisantDossier = {
  id: number;
  libelle: string;
  idComposition: number | null;
  codeEges: string | null;
  categorieEges: string | null;
  composition: CompositionFertilisant;
};

/** The fertilisers of a folder, with their composition (none when the input has no composition row), by name. */
export async function listFertilisantsDossier(db: Db, idDossier: number): Promise<FertilisantDossier[]> {
  const rows = await db("intrant_dossier as i")
    .leftJoin("fertilisant_compo_dossier as c", "c.id_intrant_dossier", "i.id")
    .where({ "i.id_dossier": idDossier, "i.dic_id_type_intrant": TYPE_INTRANT_FERTILISANT })
    .orderBy([{ column: "i.libelle" }, { column: "i.id" }])
    .select("i.id", "i.libelle", "c.id as id_composition", "c.code_eges", "c.categorie_eges", ...ELEMENTS_FERTILISANT.map((e) => `c.${e}`));
  return rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    idComposition: num(r.idComposition),
    codeEges: (r.codeEges as string | null) ?? null,
    categorieEges: (r.categorieEges as string | null) ?? null,
    composition: Object.fromEntries(ELEMENTS_FERTILISANT.map((e) => [e, num(r[e])])),
  }));
}

export async function setCategorieEges(db: Db, idComposition: number, categorieEges: string): Promise<void> {
  await db("fertilisant_compo_dossier").where({ id: idComposition }).update({ categorieEges, updatedAt: new Date() });
}

export type CategorieEgesRow = { code: string; libelle: string; libelleEn: string | null; confiance: string | null };

export async function listCategoriesEges(db: Db): Promise<CategorieEgesRow[]> {
  return db("categorie_eges").orderBy("ordre").select("code", "libelle", "libelleEn", "confiance");
}

/** The id of an unreferenced input's composition row, or null when it has none. */
export async function compositionIdDe(db: Db, idIntrantDossier: number): Promise<number | null> {
  const r = await db("fertilisant_compo_dossier").where({ idIntrantDossier }).first("id");
  return r ? Number(r.id) : null;
}

/** The unreferenced input of a composition row, or null. */
export async function intrantDeComposition(db: Db, id: number): Promise<number | null> {
  const r = await db("fertilisant_compo_dossier").where({ id }).first("idIntrantDossier");
  return r ? Number(r.idIntrantDossier) : null;
}
