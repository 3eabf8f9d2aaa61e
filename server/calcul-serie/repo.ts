import type { Knex } from "knex";
import type { FigureSerie } from "~/domain/calc/comparaison";
import { GROUPES_SERIE } from "~/domain/calc/serie";
import { columnName, isPostgres, type Db } from "../db/knex";
import { returnedId } from "../db/insert-id";
import { PERIMEE_SQL } from "./perimee";

/** The SQL of calculation series and their result rows (spec 3 §3.14, §4.7); rights and rules are in ./service.ts. */

// ---- Campaigns and rights' inputs

/** The campaign with what a series needs of it (its farm, year, labels, simulation flag), or undefined. */
export function campagneDeCalcul(db: Db, idCampagne: number) {
  return db("campagne as c")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .where("c.id", idCampagne)
    .first("c.id", "c.idExploitation", "c.anneeRecolte", "c.prefixeCampagne", "c.apiLibelle", "c.simulation", "e.libelle as exploitation");
}

/** The farm of a campaign, or null when there is no such campaign. */
export async function exploitationDeCampagne(db: Db, idCampagne: number): Promise<number | null> {
  const c = await db("campagne").where({ id: idCampagne }).first("idExploitation");
  return c ? Number(c.idExploitation) : null;
}

/** The folders through which the user reaches the farm, in their order. */
export async function dossiersVersExploitation(db: Db, idUser: number, idExploitation: number): Promise<number[]> {
  return (
    await db("utilisateur_dossier as ud")
      .join("dossier_exploitation as de", "de.idDossier", "ud.idDossier")
      .where({ "ud.idUser": idUser, "de.idExploitation": idExploitation })
      .orderBy("ud.idDossier")
      .select("ud.idDossier")
  ).map((r) => Number(r.idDossier));
}

// ---- Series rows

/** Deletes the campaign's unpublished series that are not running, and creates the new one with its groups (one transaction). */
export async function creerSerie(db: Db, idCampagne: number, idUtilisateur: number | null): Promise<number> {
  return db.transaction(async (trx) => {
    await trx("calcul_serie").where({ idCampagne, publication: false }).whereNot({ statut: "en_cours" }).delete();
    const nb = Number((await trx("parcelle").where({ idCampagne }).count({ n: "*" }))[0].n);
    const [r] = await trx("calcul_serie").insert({ idCampagne, idUtilisateur, nbParcellesATraiter: nb, statut: "en_cours" }).returning("id");
    const id = returnedId(r);
    await trx("calcul_serie_groupe").insert(GROUPES_SERIE.map((g) => ({ idCalculSerie: id, idGroupe: g.id, publie: false })));
    return id;
  });
}

export async function majSerie(db: Db, id: number, maj: Record<string, unknown>): Promise<void> {
  await db("calcul_serie").where({ id }).update(maj);
}

/** The campaign of a series, or null when there is none. */
export async function campagneDeSerie(db: Db, idSerie: number): Promise<number | null> {
  const r = await db("calcul_serie").where({ id: idSerie }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** On start-up: runs left 'en_cours' by a stopped server are marked failed; their number. */
export function marquerSeriesInterrompues(db: Db): Promise<number> {
  return db("calcul_serie").where({ statut: "en_cours" }).update({ statut: "erreur", erreur: "interrompu", dtFin: new Date() });
}

/** Series with their campaign's labels, their farm and whether the campaign changed since (decision 0072). */
export const seriesQuery = (db: Db) =>
  db("calcul_serie as s")
    .join("campagne as c", "c.id", "s.idCampagne")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .select(
      "s.*",
      "c.idExploitation",
      "c.anneeRecolte",
      "c.prefixeCampagne",
      "c.apiLibelle",
      "c.simulation",
      "e.libelle as exploitation",
      db.raw(`${PERIMEE_SQL} as perimee`),
    );

export async function campagneExiste(db: Db, idCampagne: number): Promise<boolean> {
  return (await db("campagne").where({ id: idCampagne }).first("id")) != null;
}

export function groupesStockes(db: Db, idSerie: number): Promise<{ idGroupe: unknown; publie: unknown }[]> {
  return db("calcul_serie_groupe").where({ idCalculSerie: idSerie }).select("idGroupe", "publie");
}

export async function majGroupe(db: Db, idSerie: number, idGroupe: number, publie: boolean): Promise<void> {
  await db("calcul_serie_groupe").where({ idCalculSerie: idSerie, idGroupe }).update({ publie, updatedAt: new Date() });
}

/** The campaign's flags from its series: indicateur_publie when one is published, serie_valide when one is validated. */
export async function majDrapeauxCampagne(db: Db, idCampagne: number, bool: (v: unknown) => boolean): Promise<void> {
  const series = await db("calcul_serie").where({ idCampagne }).select("publication", "visaAnimateur");
  await db("campagne")
    .where({ id: idCampagne })
    .update({
      indicateurPublie: series.some((s) => bool(s.publication)),
      serieValide: series.some((s) => bool(s.visaAnimateur)),
    });
}

// ---- Result rows

/** The columns of a stored result row, in the order `LignesStockees.valeurs` holds them. */
export const COLONNES_RESULTAT = [
  "idCalculSerie",
  "niveau",
  "idEntite",
  "idParcelle",
  "code",
  "idGroupe",
  "valeur",
  "unite",
  "completude",
  "nbManquants",
  "explication",
] as const;

/** The result rows of a run, their values one after the other (no object per row: 100,000 rows on the bench campaign). */
export type LignesStockees = { nombre: number; valeurs: unknown[]; groupes: Map<string, number | null> };

/** Rows per INSERT: 11 columns each, 22,000 values, under SQLite's 32,766 bound variables and PostgreSQL's 65,535. */
const LOT = 2000;

/** Rows per INSERT on PostgreSQL: one array per column, so no bound-variable limit (decision 0081). */
const LOT_PG = 25000;
const TYPES_PG: Record<(typeof COLONNES_RESULTAT)[number], string> = {
  idCalculSerie: "int",
  niveau: "text",
  idEntite: "text",
  idParcelle: "int",
  code: "text",
  idGroupe: "int",
  valeur: "float8",
  unite: "text",
  completude: "float8",
  nbManquants: "int",
  explication: "text",
};

/**
 * Writes the result rows in statements of LOT rows: the INSERT text is made once per size and the values bound in a
 * flat list (knex's insert builder re-read every row's keys: a fifth of the series' time on the bench campaign). On
 * PostgreSQL one `insert ... select * from unnest($1::int[], $2::text[], ...)` per LOT_PG rows binds 11 arrays instead
 * of 22,000 values per statement (decision 0081).
 */
async function insererLignes(trx: Db, lignes: LignesStockees): Promise<void> {
  const largeur = COLONNES_RESULTAT.length;
  const colonnes = COLONNES_RESULTAT.map(columnName).join(", ");
  if (isPostgres(trx)) {
    const sql = `insert into calcul_resultat (${colonnes}) select * from unnest(${COLONNES_RESULTAT.map((c) => `?::${TYPES_PG[c]}[]`).join(", ")})`;
    for (let k = 0; k < lignes.nombre; k += LOT_PG) {
      const n = Math.min(LOT_PG, lignes.nombre - k);
      const tableaux: unknown[][] = COLONNES_RESULTAT.map(() => new Array<unknown>(n));
      for (let i = 0; i < n; i++) {
        const base = (k + i) * largeur;
        for (let j = 0; j < largeur; j++) tableaux[j][i] = lignes.valeurs[base + j];
      }
      await trx.raw(sql, tableaux as unknown as Knex.RawBinding[]);
    }
    return;
  }
  const tete = `insert into calcul_resultat (${colonnes}) values `;
  const tuple = `(${COLONNES_RESULTAT.map(() => "?").join(", ")})`;
  const textes = new Map<number, string>();
  for (let k = 0; k < lignes.nombre; k += LOT) {
    const n = Math.min(LOT, lignes.nombre - k);
    let sql = textes.get(n);
    if (!sql) textes.set(n, (sql = tete + Array.from({ length: n }, () => tuple).join(", ")));
    await trx.raw(sql, lignes.valeurs.slice(k * largeur, (k + n) * largeur) as Knex.RawBinding[]);
  }
}

/** The end of a run, in one transaction: the series' rows replaced by the run's, the series marked finished. */
export async function stockerResultats(db: Db, idSerie: number, lignes: LignesStockees, fin: { total: number; reussies: number }): Promise<void> {
  await db.transaction(async (trx) => {
    await trx("calcul_resultat").where({ idCalculSerie: idSerie }).delete();
    await insererLignes(trx, lignes);
    await trx("calcul_serie").where({ id: idSerie }).update({
      statut: "termine",
      nbParcellesTraitees: fin.total,
      nbParcellesTraiteesReussies: fin.reussies,
      dtFin: new Date(),
      updatedAt: new Date(),
    });
  });
}

/** The rows of the given levels and codes of a series, in their order of writing. */
export function resultatsDe(db: Db, idSerie: number, niveaux: string[], codes: string[]) {
  return db("calcul_resultat")
    .where({ idCalculSerie: idSerie })
    .whereIn("niveau", niveaux)
    .whereIn("code", codes)
    .orderBy("id")
    .select("niveau", "idEntite", "code", "valeur", "unite", "completude", "nbManquants");
}

/** One row of a series (all its columns), or undefined. */
export function resultat(db: Db, idSerie: number, q: { niveau: string; idEntite: string; code: string }) {
  return db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: q.niveau, idEntite: q.idEntite, code: q.code }).first();
}

/** The crop rows of one code of a series with their stored explanation (they name their plots). */
export function explicationsCultures(db: Db, idSerie: number, code: string): Promise<{ idEntite: unknown; explication: unknown }[]> {
  return db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "culture", code }).select("idEntite", "explication");
}

/** Plots as they are now, by id (a deleted plot is absent). */
export async function parcellesParId(db: Db, ids: number[]): Promise<Map<number, { libelle: string; surface: number | null }>> {
  if (!ids.length) return new Map();
  return new Map(
    (await db("parcelle").whereIn("id", ids).select("id", "libelle", "surface")).map((p) => [
      Number(p.id),
      { libelle: String(p.libelle), surface: p.surface == null ? null : Number(p.surface) },
    ]),
  );
}

/** Crop labels by id (as text, the result rows' entity ids). */
export async function libellesCultures(db: Db, ids: number[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  return new Map((await db("culture").whereIn("id", ids).select("id", "libelle")).map((c) => [String(c.id), String(c.libelle)]));
}

// ---- Campaign against simulation (comparaison.ts)

const NIVEAUX_COMPARES = ["exploitation", "culture"] as const;

/** A campaign as the comparison reads it (its flags as stored). */
export type CampagneRow = {
  id: number;
  idExploitation: number;
  anneeRecolte: number;
  simulation: unknown;
  idCampagneSource: number | null;
  prefixeCampagne: string | null;
  apiLibelle: string | null;
};

const COLONNES_CAMPAGNE = ["id", "idExploitation", "anneeRecolte", "simulation", "idCampagneSource", "prefixeCampagne", "apiLibelle"] as const;

/** The campaign of a series, as the comparison reads it. */
export async function campagneComparee(db: Db, idCampagne: number): Promise<CampagneRow> {
  return (await db("campagne")
    .where({ id: idCampagne })
    .first(...COLONNES_CAMPAGNE)) as CampagneRow;
}

/** The other campaigns of the same farm and harvest year, by id. */
export async function autresCampagnesDeLAnnee(db: Db, c: CampagneRow): Promise<CampagneRow[]> {
  return (await db("campagne")
    .where({ idExploitation: c.idExploitation, anneeRecolte: c.anneeRecolte })
    .whereNot({ id: c.id })
    .orderBy("id")
    .select(...COLONNES_CAMPAGNE)) as CampagneRow[];
}

/** The latest finished series of a campaign. */
export async function derniereSerieTerminee(db: Db, idCampagne: number) {
  return db("calcul_serie")
    .where({ idCampagne, statut: "termine" })
    .orderBy([
      { column: "dtFin", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .first("id", "dtFin", "publication", "visaAnimateur");
}

/** The farm and crop figures of a series, in stored order. */
export async function figuresDeSerie(db: Db, idSerie: number): Promise<FigureSerie[]> {
  const rows = await db("calcul_resultat")
    .where({ idCalculSerie: idSerie })
    .whereIn("niveau", NIVEAUX_COMPARES)
    .orderBy("id")
    .select("niveau", "idEntite", "code", "valeur", "unite", "completude", "nbManquants");
  return rows.map((r) => ({
    niveau: String(r.niveau),
    idEntite: String(r.idEntite),
    code: String(r.code),
    valeur: r.valeur == null ? null : Number(r.valeur),
    unite: String(r.unite),
    completude: Number(r.completude),
    nbManquants: Number(r.nbManquants),
  }));
}

// ---- Launch of series (lancement.ts) and the pre-check's complements (complements.ts)

/** The series a launch job created so far, by id. */
export async function seriesDeTache(db: Db, idTache: number): Promise<{ id: number; idCampagne: number }[]> {
  const rows = await db("calcul_serie").where({ idTache }).orderBy("id").select("id", "idCampagne");
  return rows.map((r) => ({ id: Number(r.id), idCampagne: Number(r.idCampagne) }));
}

/** The number of plots of each campaign that has some (a campaign without plots is absent). */
export async function nombresDeParcelles(db: Db, idCampagnes: number[]): Promise<{ idCampagne: number; n: number | string }[]> {
  return db("parcelle").whereIn("idCampagne", idCampagnes).groupBy("idCampagne").select("idCampagne", db.raw("count(*) as n"));
}

/** The version counter of the reference lists (0 before the first import). */
export async function versionReferentiels(db: Db): Promise<number> {
  const r = await db("version_referentiels").where({ id: 1 }).first("version");
  return Number(r?.version ?? 0);
}

/** A finished job of this user and type (its stored result), undefined otherwise. */
export function tacheTerminee(db: Db, q: { id: number; idUtilisateur: number; type: string }): Promise<{ resultat: unknown } | undefined> {
  return db("tache").where({ id: q.id, idUtilisateur: q.idUtilisateur, type: q.type, etat: "terminee" }).first("resultat");
}

/** The campaign's long-term loan duration as stored (undefined without characteristics). */
export async function longTermeDureeStockee(db: Db, idCampagne: number): Promise<unknown> {
  const c = await db("caracteristique").where({ idCampagne }).first("longTermeDuree");
  return c?.longTermeDuree;
}
