import { ELEMENTS } from "~/domain/intrant";
import type { Db } from "../db/knex";
import { insertId } from "../db/insert-id";

/** The SQL of the inputs of interventions and of the catalogue rows they name (spec 3 §4.1); rules are in ./service.ts. */

const num = (v: unknown) => (v == null ? null : Number(v));
const textOrNull = (v: unknown) => (v == null ? null : String(v));

/** An intervention of the campaign with its crop, or null. */
export async function actionDeCampagne(db: Db, idCampagne: number, idAction: number): Promise<{ id: number; idCulture: number | null } | null> {
  const a = await db("action").where({ id: idAction, idCampagne }).first("id", "idCultureConcernee");
  return a ? { id: Number(a.id), idCulture: num(a.idCultureConcernee) } : null;
}

/** An input category of the type, or null. */
export async function categorieDeType(db: Db, idCategorie: number, idTypeIntrant: number): Promise<{ id: number; libelle: string } | null> {
  const c = await db("categorie_intrant").where({ id: idCategorie, idTypeIntrant }).first("id", "libelle");
  return c ? { id: Number(c.id), libelle: String(c.libelle) } : null;
}

// ---- Catalogue rows an input names

export async function intrantDuDossier(db: Db, idDossier: number | null, id: number, type: number): Promise<{ libelle: string; code: string | null } | null> {
  const d = await db("intrant_dossier").where({ id, idDossier, dicIdTypeIntrant: type }).first("libelle", "code");
  return d ? { libelle: String(d.libelle), code: textOrNull(d.code) } : null;
}

/** A phyto product by its AMM number (the first source's row). */
export async function produitPhyto(db: Db, idProduit: number): Promise<{ nom: string; amm: string | null; idCategorie: number | null } | null> {
  const p = await db("intrant_phyto").where({ idProduit }).orderBy("idSource").first("nomProduit", "ammProduit", "dicIdTypeIntrant");
  return p ? { nom: String(p.nomProduit), amm: textOrNull(p.ammProduit), idCategorie: num(p.dicIdTypeIntrant) } : null;
}

export async function fertilisantReference(db: Db, id: number): Promise<{ libelle: string; idTypeFertilisant: number | null } | null> {
  const f = await db("reference_fertilisant").where({ id }).first("libelle", "idTypeFertilisant");
  return f ? { libelle: String(f.libelle), idTypeFertilisant: num(f.idTypeFertilisant) } : null;
}

export async function semenceReference(db: Db, id: number): Promise<{ libelle: string; idCulture: number | null; codeGnis: string | null } | null> {
  const s = await db("reference_semence").where({ id }).first("libelle", "idCulture", "codeGnis");
  return s ? { libelle: String(s.libelle), idCulture: num(s.idCulture), codeGnis: textOrNull(s.codeGnis) } : null;
}

export async function autreIntrantReference(db: Db, id: number): Promise<{ nom: string; code: string | null; idCategorie: number | null } | null> {
  const o = await db("reference_autre_intrant").where({ id }).first("intNom", "intCode", "dicIdTypeIntrant");
  return o ? { nom: String(o.intNom), code: textOrNull(o.intCode), idCategorie: num(o.dicIdTypeIntrant) } : null;
}

export async function ciblesConnues(db: Db, ids: number[]): Promise<Set<number>> {
  return new Set((await db("cible").whereIn("id", ids).pluck("id")).map(Number));
}

/**
 * The composition of a fertiliser (percentages by element): the reference list's row, or that of a folder's own
 * product (fertilisant_compo_dossier). Undefined when it has none.
 */
export async function compositionFertilisant(
  db: Db,
  source: { dossier: number | null } | "reference",
  idIntrant: number,
): Promise<Record<string, number | null> | undefined> {
  const row =
    source === "reference"
      ? await db("reference_fertilisant")
          .where({ id: idIntrant })
          .first([...ELEMENTS])
      : await db("fertilisant_compo_dossier as c")
          .join("intrant_dossier as i", "i.id", "c.idIntrantDossier")
          .where({ "c.idIntrantDossier": idIntrant, "i.idDossier": source.dossier })
          .first(ELEMENTS.map((e) => `c.${e}`));
  return row ? Object.fromEntries(ELEMENTS.map((e) => [e, num(row[e])])) : undefined;
}

// ---- Inputs

export const insertIntrant = (db: Db, row: Record<string, unknown>) => insertId(db, "intrant", row);

/** The input type of an input of the intervention, or null when it is not the intervention's. */
export async function typeIntrantDe(db: Db, id: number, idAction: number): Promise<number | null> {
  const r = await db("intrant as i")
    .join("categorie_intrant as c", "c.id", "i.idCategorie")
    .where({ "i.id": id, "i.idAction": idAction })
    .first("c.idTypeIntrant");
  return r ? Number(r.idTypeIntrant) : null;
}

/** Deletes an input of the campaign; the number of rows deleted (0 when it is another campaign's). */
export function deleteIntrantDeCampagne(db: Db, idCampagne: number, id: number): Promise<number> {
  return db("intrant").where({ id }).whereIn("idAction", db("action").where({ idCampagne }).select("id")).delete();
}

/** An input of the campaign (all its columns and its type), or undefined. */
export function intrantDeCampagne(db: Db, idCampagne: number, id: number) {
  return db("intrant as i")
    .join("categorie_intrant as c", "c.id", "i.idCategorie")
    .join("action as a", "a.id", "i.idAction")
    .where({ "i.id": id, "a.idCampagne": idCampagne })
    .first("i.*", "c.idTypeIntrant");
}

export const caracteristiqueDe = (db: Db, idIntrant: number) => db("caracteristique_intrant").where({ idIntrant }).first();

/** Updates the input's characteristics row, or creates it. */
export async function upsertCaracteristique(db: Db, idIntrant: number, values: Record<string, unknown>): Promise<void> {
  const updated = await db("caracteristique_intrant")
    .where({ idIntrant })
    .update({ ...values, updatedAt: new Date() });
  if (!updated) await db("caracteristique_intrant").insert({ idIntrant, ...values });
}

/** The targets of an input in their order, with the reference dose copied at save. */
export async function ciblesDe(db: Db, idIntrant: number): Promise<{ id: number; libelle: string; doseRef: number | null; uniteRef: string | null }[]> {
  return (
    await db("intrant_cible as ic")
      .join("intrant_cible_cible as icc", "icc.idIntrantCible", "ic.id")
      .join("cible as c", "c.id", "icc.idCible")
      .where("ic.idIntrant", idIntrant)
      .orderBy("icc.rang")
      .select("icc.idCible", "c.libelle", "icc.doseRef", "icc.uniteRef")
  ).map((c) => ({ id: Number(c.idCible), libelle: String(c.libelle), doseRef: num(c.doseRef), uniteRef: textOrNull(c.uniteRef) }));
}

/** Replaces an input's targets: one intrant_cible row and its ranked targets with their reference doses. */
export async function replaceCibles(db: Db, idIntrant: number, cibles: { idCible: number; doseRef: number | null; uniteRef: string | null }[]): Promise<void> {
  await db("intrant_cible").where({ idIntrant }).delete();
  if (!cibles.length) return;
  const idIntrantCible = await insertId(db, "intrant_cible", { idIntrant, uniteRefCible1: cibles[0].uniteRef });
  await db("intrant_cible_cible").insert(cibles.map((c, i) => ({ idIntrantCible, idCible: c.idCible, rang: i + 1, doseRef: c.doseRef, uniteRef: c.uniteRef })));
}

/** The ids of an intervention's inputs that have a category (those the dialogs and the grid edit), newest first. */
export async function idsIntrantsDeAction(db: Db, idAction: number): Promise<number[]> {
  return (
    await db("intrant as i").join("categorie_intrant as c", "c.id", "i.idCategorie").where("i.idAction", idAction).orderBy("i.id", "desc").select("i.id")
  ).map((r) => Number(r.id));
}

/** The input a characteristics row belongs to, or null. */
export async function intrantDeCaracteristique(db: Db, id: number): Promise<number | null> {
  const r = await db("caracteristique_intrant").where({ id }).first("idIntrant");
  return r ? Number(r.idIntrant) : null;
}

/** The input a targets row (intrant_cible) belongs to, or null. */
export async function intrantDeCible(db: Db, id: number): Promise<number | null> {
  const r = await db("intrant_cible").where({ id }).first("idIntrant");
  return r ? Number(r.idIntrant) : null;
}

/** The targets row of an input (its id and the reference unit of its first target), or undefined. */
export async function cibleRowDe(db: Db, idIntrant: number): Promise<{ id: number; uniteRefCible1: string | null } | undefined> {
  const r = await db("intrant_cible").where({ idIntrant }).first("id", "uniteRefCible1");
  return r ? { id: Number(r.id), uniteRefCible1: textOrNull(r.uniteRefCible1) } : undefined;
}
