import { CARACTERISTIQUE_RECOLTE, UNITE_ANIMAUX, type RecolteStockee } from "~/domain/recolte";
import type { Db } from "../db/knex";
import { insertId } from "../db/insert-id";

/** The SQL of harvests and harvest qualifiers (spec 3 §2.2, §4.1, §4.2); rights and rules are in ./service.ts. */

const num = (v: unknown) => (v == null ? null : Number(v));
const text = (v: unknown) => (v == null ? null : String(v));

export type Qualifiant = { id: number; qrdNom: string; utilise: boolean };
export type CultureRecolte = { id: number; libelle: string; libelleEn: string | null; idCatCulture: number | null; campagne: boolean };
export type TypeSortie = { id: number; libelle: string; libelleEn: string | null; unite: string };
export type Libelle = { id: number; libelle: string; libelleEn: string | null };

// ---- Qualifiers

export async function qualifiantsOf(db: Db, idDossier: number): Promise<Qualifiant[]> {
  const rows = await db("qualifiant_recolte as q")
    .where("q.idDossier", idDossier)
    .select("q.id", "q.qrdNom", db.raw("exists (select 1 from recolte r where r.id_qualifiant_recolte = q.id) as utilise"))
    .orderBy("q.qrdNom");
  return rows.map((r) => ({ id: Number(r.id), qrdNom: String(r.qrdNom), utilise: r.utilise === true || Number(r.utilise) === 1 }));
}

/** The name of a qualifier of the folder, or null when it is not one of the folder's. */
export async function qualifiantNom(db: Db, idDossier: number, id: number): Promise<string | null> {
  const q = await db("qualifiant_recolte").where({ id, idDossier }).first("qrdNom");
  return q ? String(q.qrdNom) : null;
}

export async function qualifiantNomme(db: Db, idDossier: number, qrdNom: string): Promise<number | null> {
  const same = await db("qualifiant_recolte").where({ idDossier, qrdNom }).first("id");
  return same ? Number(same.id) : null;
}

export const insertQualifiant = (db: Db, idDossier: number, qrdNom: string) => insertId(db, "qualifiant_recolte", { idDossier, qrdNom });

/** Whether a harvest or a sale price uses the qualifier (prices are kept per qualifier, decision 0034). */
export async function qualifiantUtilise(db: Db, id: number): Promise<boolean> {
  const used = (await db("recolte").where({ idQualifiantRecolte: id }).first("id")) ?? (await db("prix_vente").where({ idQualifiantRecolte: id }).first("id"));
  return used != null;
}

export const deleteQualifiant = (db: Db, idDossier: number, id: number) => db("qualifiant_recolte").where({ id, idDossier }).delete();

// ---- Reference lists of the harvest dialog

export async function categoriesCulture(db: Db): Promise<Libelle[]> {
  return (await db("categorie_culture").orderBy("ordre").select("id", "libelle", "libelleEn")).map((c) => ({
    id: Number(c.id),
    libelle: String(c.libelle),
    libelleEn: text(c.libelleEn),
  }));
}

/** The crops of the campaign's management modes with their category there (the last non-null one wins). */
export async function culturesDesModes(db: Db, idCampagne: number): Promise<Map<number, number | null>> {
  const enCampagne = new Map<number, number | null>();
  for (const r of await db("mode_conduite_culture as mcc")
    .join("mode_conduite as mc", "mc.id", "mcc.idModeConduite")
    .where("mc.idCampagne", idCampagne)
    .select("mcc.idCulture", "mcc.idCatCulture")) {
    if (!enCampagne.has(Number(r.idCulture)) || r.idCatCulture != null) enCampagne.set(Number(r.idCulture), num(r.idCatCulture));
  }
  return enCampagne;
}

/** The main crops (not catch crops), in the reference's order. */
export async function culturesPrincipales(db: Db): Promise<{ id: number; libelle: string; libelleEn: string | null; idCatCulture: number | null }[]> {
  return (
    await db("culture")
      .where("interculture", false)
      .orderBy([{ column: "ordre" }, { column: "libelle" }])
      .select("id", "libelle", "libelleEn", "idCatCulture")
  ).map((c) => ({ id: Number(c.id), libelle: String(c.libelle), libelleEn: text(c.libelleEn), idCatCulture: num(c.idCatCulture) }));
}

export async function animauxReference(db: Db): Promise<Libelle[]> {
  return (await db("reference_animal").orderBy("ordre").select("id", "libelle", "libelleEn")).map((a) => ({
    id: Number(a.id),
    libelle: String(a.libelle),
    libelleEn: text(a.libelleEn),
  }));
}

export async function animauxConnus(db: Db, ids: number[]): Promise<Set<number>> {
  return new Set((await db("reference_animal").whereIn("id", ids).pluck("id")).map(Number));
}

export async function typesSortieCulture(db: Db, idCulture: number): Promise<TypeSortie[]> {
  return (
    await db("culture_type_sortie as cts")
      .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
      .where("cts.idCulture", idCulture)
      .orderBy([{ column: "ts.ordre" }, { column: "ts.id" }])
      .select("ts.id", "ts.libelle", "ts.libelleEn", "ts.unite")
  ).map((t) => ({ id: Number(t.id), libelle: String(t.libelle), libelleEn: text(t.libelleEn), unite: String(t.unite) }));
}

/** The name of a main crop, or null when the id is not one. */
export async function culturePrincipaleNom(db: Db, idCulture: number): Promise<string | null> {
  const c = await db("culture").where({ id: idCulture, interculture: false }).first("libelle");
  return c ? String(c.libelle) : null;
}

/** An output type of the crop, or null when the crop has no such output. */
export async function typeSortieDeCulture(db: Db, idCulture: number, idTypeSortie: number): Promise<{ libelle: string; unite: string } | null> {
  const t = await db("culture_type_sortie as cts")
    .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
    .where({ "cts.idCulture": idCulture, "ts.id": idTypeSortie })
    .first("ts.libelle", "ts.unite");
  return t ? { libelle: String(t.libelle), unite: String(t.unite) } : null;
}

// ---- Interventions and harvests

/** An intervention of the campaign, or null. */
export async function actionDeCampagne(db: Db, idCampagne: number, idAction: number) {
  const a = await db("action").where({ id: idAction, idCampagne }).first("id", "idParcelle", "date", "idCultureConcernee");
  return a ? { id: Number(a.id), idParcelle: Number(a.idParcelle), date: a.date as unknown, idCultureConcernee: num(a.idCultureConcernee) } : null;
}

/** A harvest row of the campaign (all its columns), or undefined. */
export function recolteDeCampagne(db: Db, idCampagne: number, id: number) {
  return db("recolte as r").join("action as a", "a.id", "r.idAction").where({ "r.id": id, "a.idCampagne": idCampagne }).first("r.*");
}

export function caracteristiquesRecolte(db: Db, idRecolte: number) {
  return db("caracteristique_recolte")
    .where({ idRecolte })
    .orderBy([{ column: "ordre" }, { column: "id" }])
    .select("*");
}

/** The observation series of a harvest of the intervention, or undefined when the harvest is not the intervention's. */
export async function serieDeRecolte(db: Db, id: number, idAction: number): Promise<{ idObservationSerie: number | null } | undefined> {
  const r = await db("recolte").where({ id, idAction }).first("idObservationSerie");
  return r ? { idObservationSerie: num(r.idObservationSerie) } : undefined;
}

export const insertRecolte = (db: Db, row: Record<string, unknown>) => insertId(db, "recolte", row);
export const setSerieRecolte = (db: Db, id: number, idObservationSerie: number | null) => db("recolte").where({ id }).update({ idObservationSerie });
export const deleteRecolte = (db: Db, id: number) => db("recolte").where({ id }).delete();

/** Replaces a harvest's characteristics: the reference humidity (row 0) and one row per animal type. */
export async function replaceCaracteristiques(db: Db, idRecolte: number, stored: RecolteStockee): Promise<void> {
  await db("caracteristique_recolte").where({ idRecolte }).delete();
  const rows: Record<string, unknown>[] = [];
  if (stored.humiditeReference != null) {
    rows.push({
      idRecolte,
      dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.HUMIDITE_REFERENCE,
      valeurNum: stored.humiditeReference,
      dicLlUnite: "%",
      unite: "%",
      ordre: 0,
    });
  }
  stored.animaux.forEach((a, i) =>
    rows.push({
      idRecolte,
      dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.ANIMAUX,
      dicIdModalite: a.dicIdModalite,
      valeurNum: a.nombre,
      dicLlUnite: UNITE_ANIMAUX,
      unite: UNITE_ANIMAUX,
      ordre: i + 1,
    }),
  );
  if (rows.length) await db("caracteristique_recolte").insert(rows);
}

// ---- The harvest's observation series (./serie.ts)

/** The series of the campaign with this id (its row's `id`), undefined when it is not one of it. */
export function serieRecolteDeCampagne(db: Db, idCampagne: number, idSerie: number) {
  return db("observation_serie").where({ id: idSerie, idCampagne }).first("id");
}

/** Deletes a series (its observations go with it). */
export async function deleteSerieRecolte(db: Db, idSerie: unknown): Promise<void> {
  await db("observation_serie").where({ id: idSerie }).delete();
}

/** Rewrites a series' row and clears its observations (written again by the caller). */
export async function updateSerieRecolte(db: Db, idSerie: number, serie: Record<string, unknown>): Promise<void> {
  await db("observation_serie")
    .where({ id: idSerie })
    .update({ ...serie, updatedAt: new Date() });
  await db("observation").where({ idObservationSerie: idSerie }).delete();
}

export const insertSerieRecolte = (db: Db, serie: Record<string, unknown>) => insertId(db, "observation_serie", serie);

export async function insertObservationsRecolte(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db("observation").insert(rows);
}

/** A series' id and name, undefined when there is none. */
export function serieRecolteNom(db: Db, idSerie: number) {
  return db("observation_serie").where({ id: idSerie }).first("id", "nom");
}

/** A series' values by element (not placette values). */
export function observationsRecolte(db: Db, idSerie: number) {
  return db("observation").where({ idObservationSerie: idSerie }).whereNull("idPlacette").select("dicoIdEltObserve", "obsValNum");
}

// ---- The JSON API's reads (./api.ts)

/** The campaign of a harvest (its intervention's), null when there is none. */
export async function campagneDeRecolte(db: Db, id: number): Promise<number | null> {
  const r = await db("recolte as r").join("action as a", "a.id", "r.idAction").where("r.id", id).first("a.idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** The ids of an intervention's harvests, in order. */
export async function recoltesIdsOfAction(db: Db, idAction: number): Promise<number[]> {
  return (await db("recolte").where({ idAction }).orderBy("id").pluck("id")).map(Number);
}

/** The intervention of a harvest, null when there is none. */
export async function actionDeRecolte(db: Db, id: number): Promise<number | null> {
  const r = await db("recolte").where({ id }).first("idAction");
  return r ? Number(r.idAction) : null;
}

/** The harvest a characteristic row belongs to, or null. */
export async function recolteDeCaracteristique(db: Db, id: number): Promise<number | null> {
  const r = await db("caracteristique_recolte").where({ id }).first("idRecolte");
  return r ? Number(r.idRecolte) : null;
}

/** The ids of the campaign's harvests that carry the qualifier, in order. */
export async function recoltesIdsOfQualifiant(db: Db, idCampagne: number, idQualifiantRecolte: number): Promise<number[]> {
  return (
    await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .where({ "a.idCampagne": idCampagne, "r.idQualifiantRecolte": idQualifiantRecolte })
      .orderBy("r.id")
      .pluck("r.id")
  ).map(Number);
}

/** A crop of the reference (main or catch crop), or undefined. */
export async function cultureDe(
  db: Db,
  id: number,
): Promise<{ id: number; libelle: string; libelleEn: string | null; idCatCulture: number | null; interculture: boolean } | undefined> {
  const c = await db("culture").where({ id }).first("id", "libelle", "libelleEn", "idCatCulture", "interculture");
  return c
    ? {
        id: Number(c.id),
        libelle: String(c.libelle),
        libelleEn: text(c.libelleEn),
        idCatCulture: num(c.idCatCulture),
        interculture: c.interculture === true || Number(c.interculture) === 1,
      }
    : undefined;
}
