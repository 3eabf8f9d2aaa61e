import { ELEMENTS_FERTILISANT, TYPE_INTRANT_FERTILISANT, type CompositionFertilisant } from "~/domain/eges";
import { ORIGINE_INTRANT } from "~/domain/intrant";
import type { Db } from "../db/knex";
import { inChunks } from "../db/chunks";
import { insertId } from "../db/insert-id";

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

// --- Unreferenced inputs edited from their dialog (server/intrant-dossier/non-reference.ts) ---

/** The interventions' inputs relabelled or recomposed per statement: a whole folder's in a few statements. */
const LOT_INTRANTS = 5000;

/** The crop of this id when it is not an inter-crop period (its id), else undefined. */
export function findCultureNonInterculture(db: Db, id: number): Promise<{ id: number } | undefined> {
  return db("culture").where({ id, interculture: false }).first("id");
}

/** The category of this id when it is one of this input type (its id), else undefined. */
export function findCategorieOfType(db: Db, id: number, idTypeIntrant: number): Promise<{ id: number } | undefined> {
  return db("categorie_intrant").where({ id, idTypeIntrant }).first("id");
}

/** Inserts an intrant_dossier row and answers its id. */
export function insertIntrantDossier(db: Db, row: Record<string, unknown>): Promise<number> {
  return insertId(db, "intrant_dossier", row);
}

export async function insertCompositionDossier(db: Db, idIntrantDossier: number, composition: Record<string, unknown>): Promise<void> {
  await db("fertilisant_compo_dossier").insert({ idIntrantDossier, ...composition });
}

/** Updates the input's composition; answers how many rows (0: it had none). */
export function updateCompositionDossier(db: Db, idIntrantDossier: number, composition: Record<string, unknown>): Promise<number> {
  return db("fertilisant_compo_dossier")
    .where({ idIntrantDossier })
    .update({ ...composition, updatedAt: new Date() });
}

/** The folder and input type of an intrant_dossier row (undefined when unknown). */
export function findIntrantDossierType(db: Db, id: number): Promise<{ idDossier: number; dicIdTypeIntrant: number } | undefined> {
  return db("intrant_dossier").where({ id }).first("idDossier", "dicIdTypeIntrant");
}

/** The folder's intrant_dossier row of this id, whole (undefined for another folder's or none). */
export function findIntrantDossierOfDossier(db: Db, id: number, idDossier: number): Promise<Record<string, unknown> | undefined> {
  return db("intrant_dossier").where({ id, idDossier }).first();
}

/** The input's fertiliser composition row, whole (undefined when none). */
export function findCompositionDossier(db: Db, idIntrantDossier: number): Promise<Record<string, unknown> | undefined> {
  return db("fertilisant_compo_dossier").where({ idIntrantDossier }).first();
}

/** The ids of the interventions' inputs made from this unreferenced input, in a category of its type. */
export async function listIntrantsOfIntrantDossier(db: Db, idIntrantDossier: number, idTypeIntrant: number): Promise<number[]> {
  const rows = await db("intrant")
    .where({ dicIdOrigineIntrant: ORIGINE_INTRANT.DOSSIER, idIntrant: idIntrantDossier })
    .whereIn("idCategorie", db("categorie_intrant").where({ idTypeIntrant }).select("id"))
    .select("id");
  return rows.map((r) => Number(r.id));
}

/** The label and code of these interventions' inputs. */
export async function relabelIntrants(db: Db, ids: readonly number[], v: { libelleIntrant: unknown; codeIntrant: unknown }): Promise<void> {
  for (const chunk of inChunks(ids, LOT_INTRANTS)) {
    await db("intrant")
      .whereIn("id", chunk)
      .update({ ...v, updatedAt: new Date() });
  }
}

/** The composition of these interventions' inputs (caracteristique_intrant): updated where they have one, else inserted. */
export async function setCompositionOfIntrants(db: Db, ids: readonly number[], composition: Record<string, unknown>): Promise<void> {
  for (const chunk of inChunks(ids, LOT_INTRANTS)) {
    await db("caracteristique_intrant")
      .whereIn("idIntrant", chunk)
      .update({ ...composition, updatedAt: new Date() });
    const have = new Set((await db("caracteristique_intrant").whereIn("idIntrant", chunk).select("idIntrant")).map((r) => Number(r.idIntrant)));
    const missing = chunk.filter((id) => !have.has(id));
    if (missing.length) await db("caracteristique_intrant").insert(missing.map((idIntrant) => ({ idIntrant, ...composition })));
  }
}
