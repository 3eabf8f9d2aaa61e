import { SOIL_FIELDS } from "~/domain/caracteristiques-pedologiques";
import { CHARGES, typeOfGeometrie, type HistoriqueLink, type HistoriquePlot, type ParcelleInput } from "~/domain/parcelle";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { returnedId } from "../db/insert-id";

/** Plots of a campaign (spec 2 §3 Plot) with the labels of their mode and group (table columns, §2). */

const num = (v: unknown): number | null => (v == null ? null : Number(v));
const text = (v: unknown): string | null => (v == null ? null : String(v));

const PLAIN_COLUMNS = [
  "libelle",
  "idModeConduite",
  "idLot",
  "surface",
  "objectifRendement",
  "remarque",
  ...CHARGES,
  "idSpecificitePrairie",
  "tauxLegumineuse",
  "idTypeModeConduite",
  "idGestionResidus",
  "idResidusCultureInter",
  "codePostal",
  "codeInsee",
  "noIlotPac",
  "surfaceReelle",
  "geometrie",
  ...SOIL_FIELDS,
] as const;
const BOOLEAN_COLUMNS = ["irrigable", "drainee", "jachere"] as const;
const NUMERIC = new Set<string>([
  "idModeConduite",
  "idLot",
  "surface",
  "objectifRendement",
  ...CHARGES,
  "idSpecificitePrairie",
  "tauxLegumineuse",
  "idTypeModeConduite",
  "idGestionResidus",
  "idResidusCultureInter",
  "surfaceReelle",
  ...SOIL_FIELDS,
]);

export type ParcelleRow = {
  id: number;
  idCampagne: number;
  typeGeometrie: string | null;
  idPlotSource: number | null;
  anneeDerniereAction: number | null;
  libelleModeConduite: string | null;
  libelleLot: string | null;
  libelleCommune: string | null;
  parcellesHistorique: number[];
  updatedAt: string;
  irrigable: boolean;
  drainee: boolean;
  jachere: boolean;
  libelle: string;
} & {
  [K in Exclude<(typeof PLAIN_COLUMNS)[number], "libelle">]: K extends "remarque" | "codePostal" | "codeInsee" | "noIlotPac" | "geometrie"
    ? string | null
    : number | null;
};

function fromRow(r: Record<string, unknown>, historique: number[]): ParcelleRow {
  const row: Record<string, unknown> = {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    typeGeometrie: text(r.typeGeometrie),
    idPlotSource: num(r.idPlotSource),
    anneeDerniereAction: num(r.anneeDerniereAction),
    libelleModeConduite: text(r.libelleModeConduite),
    libelleLot: text(r.libelleLot),
    libelleCommune: text(r.libelleCommune),
    parcellesHistorique: historique,
    updatedAt: toIso(r.updatedAt),
  };
  for (const c of PLAIN_COLUMNS) row[c] = NUMERIC.has(c) ? num(r[c]) : text(r[c]);
  for (const c of BOOLEAN_COLUMNS) row[c] = bool(r[c]);
  row.libelle = String(r.libelle);
  return row as ParcelleRow;
}

const selectColumns = [
  "p.id",
  "p.idCampagne",
  "p.typeGeometrie",
  "p.idPlotSource",
  "p.anneeDerniereAction",
  "p.updatedAt",
  ...PLAIN_COLUMNS.map((c) => `p.${c}`),
  ...BOOLEAN_COLUMNS.map((c) => `p.${c}`),
  "m.libelle as libelleModeConduite",
  "l.libelle as libelleLot",
  "co.lbl as libelleCommune",
];

function plotsQuery(db: Db) {
  return db("parcelle as p")
    .leftJoin("mode_conduite as m", "m.id", "p.idModeConduite")
    .leftJoin("lot_parcelle as l", "l.id", "p.idLot")
    .leftJoin("commune as co", "co.ci", "p.codeInsee")
    .select(selectColumns);
}

async function historiqueOf(db: Db, ids: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (!ids.length) return map;
  const rows = await db("parcelle_historique").whereIn("idParcelle", ids).orderBy("idParcelleHistorique").select("idParcelle", "idParcelleHistorique");
  for (const r of rows) {
    const list = map.get(Number(r.idParcelle)) ?? [];
    list.push(Number(r.idParcelleHistorique));
    map.set(Number(r.idParcelle), list);
  }
  return map;
}

/** Newest first: a created plot comes at the top of the list (spec 2 §2). */
export async function listParcelles(db: Db, idCampagne: number): Promise<ParcelleRow[]> {
  const rows = await plotsQuery(db).where("p.idCampagne", idCampagne).orderBy("p.id", "desc");
  const historique = await historiqueOf(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => fromRow(r, historique.get(Number(r.id)) ?? []));
}

export function parcelleValues(i: ParcelleInput): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const c of PLAIN_COLUMNS) values[c] = (i as Record<string, unknown>)[c] ?? null;
  for (const c of BOOLEAN_COLUMNS) values[c] = i[c];
  values.typeGeometrie = typeOfGeometrie(i.geometrie);
  return values;
}

export async function insertParcelle(db: Db, idCampagne: number, values: Record<string, unknown>): Promise<number> {
  const [r] = await db("parcelle")
    .insert({ idCampagne, ...values })
    .returning("id");
  return returnedId(r);
}

/** Updates a plot of the campaign unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateParcelle(db: Db, idCampagne: number, token: Token, values: Record<string, unknown>, notFound: string): Promise<void> {
  await updateIfUnchanged(db, "parcelle", token, values, { notFound, scope: { idCampagne } });
}

export async function deleteParcelle(db: Db, idCampagne: number, id: number): Promise<number> {
  return db("parcelle").where({ id, idCampagne }).delete();
}

/** Replaces the history links of a plot. */
export async function replaceHistorique(db: Db, idParcelle: number, ids: number[]): Promise<void> {
  await db("parcelle_historique").where({ idParcelle }).delete();
  if (ids.length) await db("parcelle_historique").insert(ids.map((idParcelleHistorique) => ({ idParcelle, idParcelleHistorique })));
}

/** Ids among `ids` that are plots of the campaign. */
export async function plotIdsOfCampaign(db: Db, idCampagne: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db("parcelle").where({ idCampagne }).whereIn("id", ids).select("id")).map((r) => Number(r.id));
}

/** The plots offered in the history multi-select: those of the history campaign (B-HIST-01). */
export async function listPlotsForHistory(db: Db, idCampagne: number) {
  const rows = await db("parcelle")
    .where({ idCampagne })
    .orderBy([{ column: "libelle" }, { column: "id" }])
    .select("id", "libelle", "surface", "idModeConduite");
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle), surface: num(r.surface) }));
}

/** Plots with their campaign year, for the history tree. */
export async function historyPlots(db: Db, ids: number[]): Promise<HistoriquePlot[]> {
  if (!ids.length) return [];
  const rows = await db("parcelle as p")
    .join("campagne as c", "c.id", "p.idCampagne")
    .whereIn("p.id", ids)
    .select("p.id", "p.libelle", "c.anneeRecolte", "c.apiLibelle", "c.simulation");
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle), anneeRecolte: num(r.anneeRecolte), libelleCampagne: text(r.apiLibelle) || null }));
}

export async function historyLinksOf(db: Db, ids: number[]): Promise<HistoriqueLink[]> {
  if (!ids.length) return [];
  return (await db("parcelle_historique").whereIn("idParcelle", ids).select("idParcelle", "idParcelleHistorique")).map((r) => ({
    idParcelle: Number(r.idParcelle),
    idParcelleHistorique: Number(r.idParcelleHistorique),
  }));
}

// ---- Reference lists and options of the form

export async function listModes(db: Db, idCampagne: number) {
  return (await db("mode_conduite").where({ idCampagne }).orderBy("libelle").select("id", "libelle")).map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
  }));
}

export async function listLots(db: Db, idCampagne: number) {
  return (await db("lot_parcelle").where({ idCampagne }).orderBy("libelle").select("id", "libelle")).map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
  }));
}

export async function existsInCampaign(db: Db, table: "mode_conduite" | "lot_parcelle", idCampagne: number, id: number): Promise<boolean> {
  return !!(await db(table).where({ id, idCampagne }).first("id"));
}

export type CommuneCentre = { ci: string; cp: string; codesPostaux: string[]; lbl: string; lat: number | null; lon: number | null };

export async function listCommunesWithCentre(db: Db, numDept: string): Promise<CommuneCentre[]> {
  const rows = await db("commune")
    .where({ numDept })
    .select("ci", "cp", "codesPostaux", "lbl", "lat", "lon")
    .orderBy([{ column: "lbl" }, { column: "ci" }]);
  return rows.map((r) => ({
    ci: String(r.ci),
    cp: String(r.cp),
    codesPostaux: String(r.codesPostaux ?? "")
      .split(",")
      .filter(Boolean),
    lbl: String(r.lbl),
    lat: num(r.lat),
    lon: num(r.lon),
  }));
}

export async function findCommuneByInsee(db: Db, ci: string) {
  const r = await db("commune").where({ ci }).first("ci", "cp", "codesPostaux", "numDept");
  return r
    ? {
        ci: String(r.ci),
        cp: String(r.cp),
        codesPostaux: String(r.codesPostaux ?? "")
          .split(",")
          .filter(Boolean),
        numDept: String(r.numDept),
      }
    : undefined;
}

// ---- Interventions (table action): date update

export type ActionDate = { id: number; date: unknown; anneeRecolte: number };

export async function actionsOfYear(db: Db, idParcelle: number, anneeRecolte: number): Promise<ActionDate[]> {
  return (await db("action").where({ idParcelle, anneeRecolte }).select("id", "date", "anneeRecolte")).map((r) => ({
    id: Number(r.id),
    date: r.date,
    anneeRecolte: Number(r.anneeRecolte),
  }));
}

export async function moveAction(db: Db, id: number, date: unknown, anneeRecolte: number): Promise<void> {
  await db("action").where({ id }).update({ date, anneeRecolte, updatedAt: new Date() });
}

export async function setAnneeDerniereAction(db: Db, idParcelle: number, annee: number): Promise<void> {
  await db("parcelle").where({ id: idParcelle }).update({ anneeDerniereAction: annee, updatedAt: new Date() });
}

/** The campaign's harvest year and history campaign (the campaign of the plots' history links). */
export async function campaignYearAndHistory(db: Db, idCampagne: number) {
  const c = await db("campagne").where({ id: idCampagne }).first("id", "anneeRecolte", "idCampagneHistoParcelle", "idExploitation");
  return { anneeRecolte: Number(c.anneeRecolte), idCampagneHistoParcelle: c.idCampagneHistoParcelle == null ? null : Number(c.idCampagneHistoParcelle) };
}

/** The farm's INSEE and postal codes (the defaults of a new plot). */
export async function farmCodesOf(db: Db, idExploitation: number) {
  const f = await db("exploitation").where({ id: idExploitation }).first("codeInsee", "codePostal");
  return { codeInsee: (f?.codeInsee as string | null) ?? null, codePostal: (f?.codePostal as string | null) ?? null };
}

/** The campaign's last-action year: its stored one, else the latest harvest year of its interventions, else null. */
export async function lastActionYearOfCampaign(db: Db, idCampagne: number): Promise<number | null> {
  const campagne = await db("campagne").where({ id: idCampagne }).first("anneeDerniereAction");
  const latest = await db("action").where({ idCampagne }).max({ m: "anneeRecolte" }).first();
  return campagne?.anneeDerniereAction != null ? Number(campagne.anneeDerniereAction) : latest?.m != null ? Number(latest.m) : null;
}

/** The campaign's interventions of one harvest year (ids and dates). */
export async function actionsOfCampaignYear(db: Db, idCampagne: number, anneeRecolte: number): Promise<{ id: number; date: unknown }[]> {
  return db("action").where({ idCampagne, anneeRecolte }).select("id", "date");
}

/** Sets the last-action year of the campaign and of each of its plots. */
export async function setCampaignAnneeDerniereAction(db: Db, idCampagne: number, annee: number): Promise<void> {
  await db("campagne").where({ id: idCampagne }).update({ anneeDerniereAction: annee, updatedAt: new Date() });
  await db("parcelle").where({ idCampagne }).update({ anneeDerniereAction: annee, updatedAt: new Date() });
}

// ---- Cost centres (affectation_culture_cible)

export type ModeCulture = { idModeConduite: number; idCulture: number; libelle: string; libelleEn: string | null; principale: boolean };

/** The crops of the campaign's modes, in row order; `principale` when the row (or else the crop) is in the main-crop category. */
export async function cropsOfModes(db: Db, idCampagne: number): Promise<ModeCulture[]> {
  const rows = await db("mode_conduite_culture as mcc")
    .join("mode_conduite as m", "m.id", "mcc.idModeConduite")
    .join("culture as c", "c.id", "mcc.idCulture")
    .leftJoin("categorie_culture as rc", "rc.id", "mcc.idCatCulture")
    .leftJoin("categorie_culture as cc", "cc.id", "c.idCatCulture")
    .where("m.idCampagne", idCampagne)
    .orderBy([{ column: "mcc.idModeConduite" }, { column: "mcc.ordre" }, { column: "mcc.id" }])
    .select("mcc.idModeConduite", "mcc.idCulture", "c.libelle", "c.libelleEn", "rc.code as rowCat", "cc.code as cropCat");
  return rows.map((r) => ({
    idModeConduite: Number(r.idModeConduite),
    idCulture: Number(r.idCulture),
    libelle: String(r.libelle),
    libelleEn: text(r.libelleEn),
    principale: (r.rowCat ?? r.cropCat) === "principale",
  }));
}

export async function affectationsOf(db: Db, idCampagne: number): Promise<Map<number, number>> {
  const rows = await db("affectation_culture_cible as a")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .where("p.idCampagne", idCampagne)
    .select("a.idParcelle", "a.idCulture");
  return new Map(rows.map((r) => [Number(r.idParcelle), Number(r.idCulture)]));
}

export async function setAffectation(db: Db, idParcelle: number, idCulture: number | null): Promise<void> {
  await db("affectation_culture_cible").where({ idParcelle }).delete();
  if (idCulture != null) await db("affectation_culture_cible").insert({ idParcelle, idCulture });
}

/** The campaign of a plot (the API names a plot, decision 0098); null when there is no such plot. */
export async function campaignOfParcelle(db: Db, id: number): Promise<number | null> {
  const r = await db("parcelle").where({ id }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}
