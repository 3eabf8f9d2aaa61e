import { toIso } from "../../db/dialect";
import type { Db } from "../../db/knex";
import { inChunks } from "../../db/chunks";
import { insertId } from "../../db/insert-id";

/** The SQL of the Daplos import (migration 0029): its history rows, the source keys, and the campaign rows it finds or adds. */

export type NatureCle = "exploitation" | "parcelle" | "action";

const num = (v: unknown) => (v == null ? null : Number(v));

/** Rows a key points at, by key (one query per nature). */
export async function clesConnues(db: Db, idOad: number, nature: NatureCle, cles: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const chunk of inChunks(cles)) {
    const rows = await db("import_daplos_cle").where({ idOad, nature }).whereIn("cle", chunk).select("cle", "idCible");
    for (const r of rows) out.set(String(r.cle), Number(r.idCible));
  }
  return out;
}

/**
 * The keys an import writes, kept while it runs and written at its end in a few set-based statements (an upsert per
 * chunk, a delete per chunk of forgotten keys) instead of two statements per plot and per event. The last word on a
 * key wins: retained, or forgotten (an event deleted by the file).
 */
export class TamponCles {
  private readonly cles = new Map<string, { nature: NatureCle; cle: string; idCible: number | null }>();
  constructor(private readonly idOad: number) {}

  retenir(nature: NatureCle, cle: string, idCible: number): void {
    this.cles.set(`${nature}|${cle}`, { nature, cle, idCible });
  }

  oublier(nature: NatureCle, cle: string): void {
    this.cles.set(`${nature}|${cle}`, { nature, cle, idCible: null });
  }

  async ecrire(db: Db): Promise<void> {
    const now = new Date();
    const gardees = [...this.cles.values()].filter((c) => c.idCible != null);
    for (const chunk of inChunks(gardees, 200))
      await db("import_daplos_cle")
        .insert(chunk.map((c) => ({ idOad: this.idOad, nature: c.nature, cle: c.cle, idCible: c.idCible, updatedAt: now })))
        .onConflict(["idOad", "nature", "cle"])
        .merge(["idCible", "updatedAt"]);
    const oubliees = [...this.cles.values()].filter((c) => c.idCible == null);
    for (const nature of new Set(oubliees.map((c) => c.nature)))
      for (const chunk of inChunks(oubliees.filter((c) => c.nature === nature).map((c) => c.cle)))
        await db("import_daplos_cle").where({ idOad: this.idOad, nature }).whereIn("cle", chunk).delete();
    this.cles.clear();
  }
}

/** Deletes an event of the campaign (the file's deletion record). */
export async function supprimerAction(db: Db, idCampagne: number, id: number): Promise<void> {
  await db("action").where({ id, idCampagne }).delete();
}

/** What the file says of an event that has no column of the intervention form: its title and operation label. */
export async function marquerEvenement(db: Db, id: number, v: { intituleEvenement: string | null; libelleOperationSource: string }): Promise<void> {
  await db("action").where({ id }).update(v);
}

/** The stage of the crop's scale (culture.idEchelleStadeAee) whose BBCH code is `code`; null when the crop has no scale or the scale no such stage. */
export async function stadeParCode(db: Db, idCulture: number, code: string): Promise<number | null> {
  const r = await db("stade_culture as s")
    .join("culture as c", "c.idEchelleStadeAee", "s.idEchelleStadeAee")
    .where({ "c.id": idCulture, "s.code": code })
    .orderBy("s.id")
    .first("s.id");
  return r ? Number(r.id) : null;
}

/** Ids among `ids` that still exist in `table` (a key whose row was deleted since is forgotten by the caller). */
export async function existants(db: Db, table: string, ids: number[], where: Record<string, unknown> = {}): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const out = new Set<number>();
  for (const chunk of inChunks(ids)) for (const id of await db(table).where(where).whereIn("id", chunk).pluck("id")) out.add(Number(id));
  return out;
}

/** The folders of a network the user has a right on, in his order. */
export async function dossiersDuReseau(db: Db, idUser: number, idOad: number): Promise<number[]> {
  return (
    await db("utilisateur_dossier as ud")
      .join("dossier as d", "d.id", "ud.idDossier")
      .where({ "ud.idUser": idUser, "d.idOad": idOad })
      .orderBy([{ column: "ud.ordre" }, { column: "d.id" }])
      .pluck("d.id")
  ).map(Number);
}

export async function dossierDuReseau(db: Db, idDossier: number, idOad: number): Promise<boolean> {
  return !!(await db("dossier").where({ id: idDossier, idOad }).first("id"));
}

/** The folders through which a farm is reached. */
export async function dossiersDeExploitation(db: Db, idExploitation: number): Promise<number[]> {
  return (await db("dossier_exploitation").where({ idExploitation }).select("idDossier")).map((r) => Number(r.idDossier));
}

/**
 * The farms reached through a folder whose SIRET (the coordinates' column, stored as its 14 digits) is `siret`: where
 * an import whose farm no key names lands (decision 0138). By id.
 */
export async function exploitationsParSiret(db: Db, idDossier: number, siret: string): Promise<{ id: number; libelle: string }[]> {
  return (
    await db("dossier_exploitation as de")
      .join("exploitation as e", "e.id", "de.idExploitation")
      .where({ "de.idDossier": idDossier, "e.siret": siret })
      .orderBy("e.id")
      .select("e.id", "e.libelle")
  ).map((r) => ({ id: Number(r.id), libelle: String(r.libelle) }));
}

export async function libelleExploitation(db: Db, id: number): Promise<string> {
  return String((await db("exploitation").where({ id }).first("libelle"))?.libelle ?? "");
}

/** The file's SIRET on the farm the import has just created (its coordinates' column). */
export async function ecrireSiret(db: Db, id: number, siret: string): Promise<void> {
  await db("exploitation").where({ id }).update({ siret });
}

/** A campaign's plots, to find the one a plot of the file names when no key does (decision 0138). */
export async function parcellesDeCampagne(db: Db, idCampagne: number): Promise<{ id: number; libelle: string; noIlotPac: string | null }[]> {
  return (await db("parcelle").where({ idCampagne }).orderBy("id").select("id", "libelle", "noIlotPac")).map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    noIlotPac: r.noIlotPac == null ? null : String(r.noIlotPac),
  }));
}

/** The base (not simulation) campaign of a farm for a harvest year. */
export async function campagneDeAnnee(db: Db, idExploitation: number, anneeRecolte: number): Promise<number | null> {
  const c = await db("campagne").where({ idExploitation, anneeRecolte, simulation: false }).orderBy("id").first("id");
  return c ? Number(c.id) : null;
}

/** The campaign's driving mode for one crop (its label the crop's), created when missing. */
export async function modePourCulture(db: Db, idCampagne: number, idCulture: number): Promise<number> {
  const found = await db("mode_conduite as mc")
    .join("mode_conduite_culture as mcc", "mcc.idModeConduite", "mc.id")
    .where({ "mc.idCampagne": idCampagne, "mcc.idCulture": idCulture })
    .orderBy("mc.id")
    .first("mc.id");
  if (found) return Number(found.id);
  const culture = await db("culture").where({ id: idCulture }).first("libelle", "idCatCulture");
  const id = await insertId(db, "mode_conduite", { idCampagne, libelle: String(culture.libelle), remarque: "Import Daplos" });
  await db("mode_conduite_culture").insert({ idModeConduite: id, idCulture, idCatCulture: num(culture.idCatCulture), ordre: 0 });
  return id;
}

/**
 * The campaign's operation of a kind and label (and spray volume, when the file gives one: it is the operation's),
 * created when missing.
 */
export async function operationPour(db: Db, idCampagne: number, idTypeAction: number, libelle: string, volumeBouillie: number | null = null): Promise<number> {
  const q = db("operation_culturale").where({ idCampagne, idTypeAction, libelle });
  if (volumeBouillie != null) q.where({ volumeBouillie });
  const found = await q.orderBy("id").first("id");
  if (found) return Number(found.id);
  return insertId(db, "operation_culturale", {
    idCampagne,
    idTypeAction,
    libelle,
    remarque: "Import Daplos",
    ...(volumeBouillie != null ? { volumeBouillie } : {}),
  });
}

export async function communeExiste(db: Db, codeInsee: string): Promise<boolean> {
  return !!(await db("commune").where({ ci: codeInsee }).first("ci"));
}

/** The reference phyto product of an AMM number (its idProduit), or null. */
export async function phytoParAmm(db: Db, amm: string): Promise<number | null> {
  const p = await db("intrant_phyto").where({ ammProduit: amm }).orderBy("idSource").first("idProduit");
  return p ? Number(p.idProduit) : null;
}

/** The reference seed of a GNIS code for a crop, or null. */
export async function semenceParGnis(db: Db, gnis: string, idCulture: number): Promise<number | null> {
  const s = await db("reference_semence").where({ codeGnis: gnis, idCulture }).first("id");
  return s ? Number(s.id) : null;
}

/** The reference seed of a crop a seed input's label names: the variety's own label, or "<crop> – <variety>" (the seed list's label). */
export async function semenceParLibelle(db: Db, libelle: string, idCulture: number): Promise<number | null> {
  const variete = libelle.includes(" – ") ? libelle.slice(libelle.lastIndexOf(" – ") + 3) : libelle;
  const s = await db("reference_semence")
    .where({ idCulture })
    .whereIn("libelle", [...new Set([libelle, variete])])
    .orderBy("id")
    .first("id");
  return s ? Number(s.id) : null;
}

/** The folder's unreferenced input of a type and label (with its code), created when missing; with a fertiliser's composition. */
export async function intrantDuDossier(
  db: Db,
  v: { idDossier: number; idUser: number; type: number; libelle: string; code: string | null; composition?: Record<string, number> },
): Promise<{ id: number; cree: boolean }> {
  const found = await db("intrant_dossier").where({ idDossier: v.idDossier, dicIdTypeIntrant: v.type, libelle: v.libelle }).orderBy("id").first("id");
  if (found) return { id: Number(found.id), cree: false };
  const id = await insertId(db, "intrant_dossier", {
    idDossier: v.idDossier,
    dicIdTypeIntrant: v.type,
    libelle: v.libelle,
    code: v.code,
    idUser: v.idUser,
    remarque: "Import Daplos",
  });
  if (v.composition) await db("fertilisant_compo_dossier").insert({ idIntrantDossier: id, commentaire: "Import Daplos", ...v.composition });
  return { id, cree: true };
}

/** The first output type of a crop (its harvest's dicIdTypeSortie), or null. */
export async function typeSortieDe(db: Db, idCulture: number): Promise<number | null> {
  const t = await db("culture_type_sortie as cts")
    .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
    .where({ "cts.idCulture": idCulture })
    .orderBy([{ column: "ts.ordre" }, { column: "ts.id" }])
    .first("ts.id");
  return t ? Number(t.id) : null;
}

/** Empties an intervention of its inputs and harvests (with their observation series) before it is written again. */
export async function viderIntervention(db: Db, idAction: number): Promise<void> {
  const series = (await db("recolte").where({ idAction }).whereNotNull("idObservationSerie").select("idObservationSerie")).map((r) =>
    Number(r.idObservationSerie),
  );
  await db("recolte").where({ idAction }).delete();
  if (series.length) await db("observation_serie").whereIn("id", series).delete();
  await db("intrant").where({ idAction }).whereNotNull("idIntrantSemence").delete();
  await db("intrant").where({ idAction }).delete();
}

export async function jetonDe(db: Db, table: string, id: number): Promise<{ id: number; updatedAt: string }> {
  const r = await db(table).where({ id }).first("updatedAt");
  return { id, updatedAt: toIso(r.updatedAt) };
}

// ---- History (spec 3 §3.13)

export type LigneImport = {
  id: number;
  idOad: number;
  idDossier: number | null;
  idUser: number;
  idTache: number | null;
  nomFichier: string;
  dtDebImport: string;
  dtFinImport: string | null;
  message: string | null;
  nbParcellesCreees: number;
  nbInterventionsImportees: number;
  rapport: string | null;
};

const COLONNES = [
  "id",
  "idOad",
  "idDossier",
  "idUser",
  "idTache",
  "nomFichier",
  "dtDebImport",
  "dtFinImport",
  "message",
  "nbParcellesCreees",
  "nbInterventionsImportees",
  "rapport",
];

function ligne(r: Record<string, unknown>): LigneImport {
  return {
    id: Number(r.id),
    idOad: Number(r.idOad),
    idDossier: num(r.idDossier),
    idUser: Number(r.idUser),
    idTache: num(r.idTache),
    nomFichier: String(r.nomFichier),
    dtDebImport: toIso(r.dtDebImport),
    dtFinImport: r.dtFinImport == null ? null : toIso(r.dtFinImport),
    message: r.message == null ? null : String(r.message),
    nbParcellesCreees: Number(r.nbParcellesCreees),
    nbInterventionsImportees: Number(r.nbInterventionsImportees),
    rapport: r.rapport == null ? null : String(r.rapport),
  };
}

export function insertImport(db: Db, v: { idOad: number; idDossier: number | null; idUser: number; nomFichier: string; contenu: string }): Promise<number> {
  return insertId(db, "import_daplos", { ...v, dtDebImport: new Date() });
}

export async function lireImport(db: Db, id: number): Promise<(LigneImport & { contenu: string | null }) | null> {
  const r = await db("import_daplos")
    .where({ id })
    .first([...COLONNES, "contenu"]);
  return r ? { ...ligne(r), contenu: r.contenu == null ? null : String(r.contenu) } : null;
}

export async function majImport(db: Db, id: number, v: Record<string, unknown>): Promise<void> {
  await db("import_daplos")
    .where({ id })
    .update({ ...v, updatedAt: new Date() });
}

export async function listerImports(db: Db, idOad: number, idUser: number | null): Promise<LigneImport[]> {
  const q = db("import_daplos").where({ idOad });
  if (idUser != null) q.andWhere({ idUser });
  return (await q.orderBy("id", "desc").limit(200).select(COLONNES)).map(ligne);
}

/** The campaign's header as the import's write paths take it (undefined when unknown). */
export function findCampagneEnTete(db: Db, id: number) {
  return db("campagne").where({ id }).first("id", "idExploitation", "anneeRecolte", "prefixeCampagne", "apiLibelle", "simulation");
}

/** These networks (oad), id and label, by label. */
export function listOadsOfIds(db: Db, ids: readonly number[]): Promise<{ id: number; libelle: string }[]> {
  return db("oad")
    .whereIn("id", [...ids])
    .orderBy("libelle")
    .select("id", "libelle");
}

/** The unfinished imports of these jobs marked finished with this message, their content dropped. */
export async function failImportsOfTaches(db: Db, idsTache: readonly number[], message: string): Promise<void> {
  await db("import_daplos")
    .whereIn("idTache", [...idsTache])
    .whereNull("dtFinImport")
    .update({ dtFinImport: new Date(), message, contenu: null, updatedAt: new Date() });
}
