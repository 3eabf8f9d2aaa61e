import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { champPlacette, ELEMENT } from "~/domain/observation";
import { inChunks } from "../db/chunks";
import { insertId } from "../db/insert-id";

/**
 * The SQL of the observation series (migration 0010, docs/data-model.md §5): series of a plot, their observations
 * as the grid's rows (a row and its placettes' values), horizons with their limits, attached files; and the
 * reference lists of the screen.
 */

const num = (v: unknown) => (v == null ? null : Number(v));
const str = (v: unknown) => (v == null ? null : String(v));

export type SerieRow = {
  id: number;
  updatedAt: string;
  idParcelle: number;
  nom: string;
  date: string;
  dicIdTypeSerie: number;
  idCulture: number | null;
  idStade: number | null;
  idAction: number | null;
  idIntrant: number | null;
  remarque: string | null;
  isPlacetteSelected: boolean;
  organeEtudie: number | null;
  laboratoire: string | null;
  placettes: number[];
  nbObservations: number;
  idUser: number | null;
};

export type ObservationRow = {
  id: number;
  updatedAt: string;
  element: number;
  valeur: number | null;
  unite: string | null;
  remarque: string | null;
  idHorizon: number | null;
  idAdventice: number | null;
  stadeAdventice: number | null;
  classe: string | null;
  /** Plot mode: the plot of the row when it is not the series' own (B-PLAC-07). */
  idParcelle: number;
} & Record<string, unknown>;

export type HorizonRow = { id: number; updatedAt: string; name: string; limiteSup: number | null; limiteInf: number | null; ordre: number };
export type FichierRow = { id: number; nom: string; date: string; taille: number | null; creePar: { id: number | null; nom: string } };
export type PlacetteRow = { id: number; updatedAt: string; libelle: string; geometrie: string | null };

/** Elements of the series form and the horizons, never rows of the observations table. */
export const ELEMENTS_HORS_TABLE = [ELEMENT.organe, ELEMENT.laboratoire, ELEMENT.limiteSup, ELEMENT.limiteInf];

/** The series of a plot, newest first, with their organ, laboratory, chosen placettes and observation count. */
export async function listSeries(db: Db, idCampagne: number, idParcelle: number): Promise<SerieRow[]> {
  const rows = await db("observation_serie")
    .where({ idCampagne, idParcelle })
    .orderBy([
      { column: "date", order: "desc" },
      { column: "id", order: "desc" },
    ]);
  return withDetails(db, rows);
}

export async function findSeries(db: Db, idCampagne: number, ids: number[]): Promise<SerieRow[]> {
  if (!ids.length) return [];
  const rows: Record<string, unknown>[] = [];
  for (const chunk of inChunks(ids)) rows.push(...(await db("observation_serie").where({ idCampagne }).whereIn("id", chunk)));
  return withDetails(db, rows);
}

async function withDetails(db: Db, rows: Record<string, unknown>[]): Promise<SerieRow[]> {
  const ids = rows.map((r) => Number(r.id));
  const organes = new Map<number, number | null>();
  const labos = new Map<number, string | null>();
  const placettes = new Map<number, number[]>();
  const counts = new Map<number, number>();
  // B-PLAC-07 (spec 2 §4): a series is in plot mode if any of its observations belongs to a plot other than the
  // selected one, here a placette (or another plot); the placettes holding values are the series' placettes too.
  const modePlacette = new Set<number>();
  for (const chunk of inChunks(ids)) {
    for (const o of await db("observation")
      .whereIn("idObservationSerie", chunk)
      .whereIn("dicoIdEltObserve", [ELEMENT.organe, ELEMENT.laboratoire])
      .select("idObservationSerie", "dicoIdEltObserve", "obsValNum", "obsValTxt")) {
      if (Number(o.dicoIdEltObserve) === ELEMENT.organe) organes.set(Number(o.idObservationSerie), num(o.obsValNum));
      else labos.set(Number(o.idObservationSerie), str(o.obsValTxt));
    }
    for (const p of await db("observation_serie_placette")
      .whereIn("idObservationSerie", chunk)
      .orderBy(["ordre", "id"])
      .select("idObservationSerie", "idPlacette")) {
      const list = placettes.get(Number(p.idObservationSerie)) ?? [];
      list.push(Number(p.idPlacette));
      placettes.set(Number(p.idObservationSerie), list);
    }
    const ailleurs = await db("observation as o")
      .join("observation_serie as s", "s.id", "o.idObservationSerie")
      .whereIn("o.idObservationSerie", chunk)
      .where((q) => q.whereNotNull("o.idPlacette").orWhere("o.idParcelle", "<>", db.ref("s.idParcelle")))
      .distinct("o.idObservationSerie", "o.idPlacette");
    for (const o of ailleurs) {
      const serie = Number(o.idObservationSerie);
      modePlacette.add(serie);
      if (o.idPlacette == null) continue;
      const list = placettes.get(serie) ?? [];
      if (!list.includes(Number(o.idPlacette))) list.push(Number(o.idPlacette));
      placettes.set(serie, list);
    }
    const c = (await db("observation")
      .whereIn("idObservationSerie", chunk)
      .whereNull("idObservationParent")
      .where((q) => q.whereNull("dicoIdEltObserve").orWhereNotIn("dicoIdEltObserve", ELEMENTS_HORS_TABLE))
      .groupBy("idObservationSerie")
      .select("idObservationSerie")
      .count({ n: "*" })) as unknown as { idObservationSerie: number; n: number | string }[];
    for (const r of c) counts.set(Number(r.idObservationSerie), Number(r.n));
  }
  return rows.map((r) => ({
    id: Number(r.id),
    updatedAt: toIso(r.updatedAt),
    idParcelle: Number(r.idParcelle),
    nom: String(r.nom),
    date: String(r.date).slice(0, 10),
    dicIdTypeSerie: Number(r.dicIdTypeSerie),
    idCulture: num(r.idCulture),
    idStade: num(r.idStade),
    idAction: num(r.idAction),
    idIntrant: num(r.idIntrant),
    remarque: str(r.remarque),
    isPlacetteSelected: bool(r.isPlacetteSelected) || modePlacette.has(Number(r.id)),
    organeEtudie: organes.get(Number(r.id)) ?? null,
    laboratoire: labos.get(Number(r.id)) ?? null,
    placettes: placettes.get(Number(r.id)) ?? [],
    nbObservations: counts.get(Number(r.id)) ?? 0,
    idUser: num(r.idUser),
  }));
}

/**
 * The rows of a series' observations table: each row with its placettes' values as `p<id>` fields
 * (B-PLAC-11: the map placettesValues), weed pick lists as their class (`d<rank>`, `e<rank>`).
 */
export async function listObservations(db: Db, idSerie: number): Promise<ObservationRow[]> {
  const all = await db("observation as o")
    .leftJoin("adventice_densite as d", function () {
      this.on("d.id", "=", "o.obsValNum").andOn("o.dicoIdEltObserve", "=", db.raw("?", [ELEMENT.densiteAdventice]));
    })
    .leftJoin("efficacite_desherbage as e", function () {
      this.on("e.id", "=", "o.obsValNum").andOn("o.dicoIdEltObserve", "=", db.raw("?", [ELEMENT.efficaciteDesherbage]));
    })
    .where("o.idObservationSerie", idSerie)
    .where((q) => q.whereNull("o.dicoIdEltObserve").orWhereNotIn("o.dicoIdEltObserve", ELEMENTS_HORS_TABLE))
    .orderBy([{ column: "o.ordre" }, { column: "o.id" }])
    .select("o.*", "d.ordre as ordreDensite", "e.ordre as ordreEfficacite");
  const rows = new Map<number, ObservationRow>();
  const children: Record<string, unknown>[] = [];
  for (const o of all) {
    if (o.idObservationParent != null) {
      children.push(o);
      continue;
    }
    const element = o.idDossierObservation != null ? -Number(o.idDossierObservation) : Number(o.dicoIdEltObserve);
    const classe = o.ordreDensite != null ? `d${o.ordreDensite}` : o.ordreEfficacite != null ? `e${o.ordreEfficacite}` : null;
    rows.set(Number(o.id), {
      id: Number(o.id),
      updatedAt: toIso(o.updatedAt),
      element,
      valeur: classe ? null : num(o.obsValNum),
      unite: str(o.dicLlUnite),
      remarque: str(o.remarque),
      idHorizon: num(o.idHorizon),
      idAdventice: num(o.idPereStade),
      stadeAdventice: num(o.stadeAdventice),
      classe,
      idParcelle: Number(o.idParcelle),
    });
  }
  for (const c of children) {
    const row = rows.get(Number(c.idObservationParent));
    if (row && c.idPlacette != null) row[champPlacette(Number(c.idPlacette))] = num(c.obsValNum);
  }
  return [...rows.values()];
}

export async function listHorizons(db: Db, idSerie: number): Promise<HorizonRow[]> {
  const horizons = await db("horizon").where({ idParent: idSerie }).orderBy(["ordre", "id"]);
  const limits = await db("observation")
    .where({ idObservationSerie: idSerie })
    .whereNotNull("idHorizon")
    .whereIn("dicoIdEltObserve", [ELEMENT.limiteSup, ELEMENT.limiteInf])
    .select("idHorizon", "dicoIdEltObserve", "obsValNum");
  const of = (id: number, element: number) => num(limits.find((l) => Number(l.idHorizon) === id && Number(l.dicoIdEltObserve) === element)?.obsValNum);
  return horizons.map((h) => ({
    id: Number(h.id),
    updatedAt: toIso(h.updatedAt),
    name: String(h.name),
    ordre: Number(h.ordre),
    limiteSup: of(Number(h.id), ELEMENT.limiteSup),
    limiteInf: of(Number(h.id), ELEMENT.limiteInf),
  }));
}

export async function listFichiers(db: Db, idSerie: number): Promise<FichierRow[]> {
  const rows = await db("fichier_attache_serie as f")
    .leftJoin("utilisateur as u", "u.id", "f.creePar")
    .where("f.idObservationSerie", idSerie)
    .orderBy([
      { column: "f.date", order: "desc" },
      { column: "f.id", order: "desc" },
    ])
    .select("f.id", "f.nom", "f.date", "f.taille", "f.creePar", "u.nom as uNom", "u.prenom as uPrenom");
  return rows.map((r) => ({
    id: Number(r.id),
    nom: String(r.nom),
    date: toIso(r.date),
    taille: num(r.taille),
    creePar: { id: num(r.creePar), nom: [r.uPrenom, r.uNom].filter(Boolean).join(" ") },
  }));
}

export async function listPlacettes(db: Db, idCampagne: number, idParcelle: number): Promise<PlacetteRow[]> {
  const rows = await db("placette").where({ idCampagne, idParcelle }).orderBy(["libelle", "id"]);
  return rows.map((r) => ({ id: Number(r.id), updatedAt: toIso(r.updatedAt), libelle: String(r.libelle), geometrie: str(r.geometrie) }));
}

/** Sets (or clears, with null) the one observation of an element that belongs to the series itself (organ, laboratory). */
export async function setSerieValue(
  db: Db,
  serie: { id: number; idParcelle: number; date: string; idUser: number | null },
  element: number,
  value: { num?: number | null; txt?: string | null },
) {
  const where = { idObservationSerie: serie.id, dicoIdEltObserve: element, idObservationParent: null, idHorizon: null };
  const empty = value.num == null && (value.txt == null || value.txt === "");
  if (empty) {
    await db("observation").where(where).delete();
    return;
  }
  const values = { obsValNum: value.num ?? null, obsValTxt: value.txt ?? null, date: serie.date, idParcelle: serie.idParcelle, updatedAt: new Date() };
  const n = await db("observation").where(where).update(values);
  if (n === 0) await db("observation").insert({ ...where, ...values, idUser: serie.idUser });
}

/** Sets a horizon's limit (an observation of a limit element: B-HOR-04). */
export async function setHorizonLimit(
  db: Db,
  serie: { id: number; idParcelle: number; date: string },
  idHorizon: number,
  element: number,
  value: number | null | undefined,
) {
  const where = { idObservationSerie: serie.id, idHorizon, dicoIdEltObserve: element };
  if (value == null) {
    await db("observation").where(where).delete();
    return;
  }
  const n = await db("observation").where(where).update({ obsValNum: value, updatedAt: new Date() });
  if (n === 0) await db("observation").insert({ ...where, obsValNum: value, idParcelle: serie.idParcelle, date: serie.date, dicLlUnite: "cm" });
}

export { insertId } from "../db/insert-id";

/** The campaign of a series, null when there is none (the API names the series, not the campaign). */
export async function campaignOfSerie(db: Db, id: number): Promise<number | null> {
  const r = await db("observation_serie").where({ id }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** The series and campaign of a row of a series' observations table (not a placette's value), null when there is none. */
export async function serieOfObservation(db: Db, id: number): Promise<{ idSerie: number; idCampagne: number } | null> {
  const r = await db("observation")
    .join("observation_serie", "observation_serie.id", "observation.idObservationSerie")
    .where("observation.id", id)
    .whereNull("observation.idObservationParent")
    .first("observation.idObservationSerie as idSerie", "observation_serie.idCampagne as idCampagne");
  return r ? { idSerie: Number(r.idSerie), idCampagne: Number(r.idCampagne) } : null;
}

// ---- Complement observations (complement_observation: a further value of an observation row; issue 26, B-API-22)

export type ComplementRow = { id: number; idObservation: number; dicoIdEltObserve: number; obsValNum: number | null; updatedAt: string };

/** A complement observation with the series and campaign of its observation, null when there is none. */
export async function findComplement(db: Db, id: number): Promise<(ComplementRow & { idSerie: number; idCampagne: number }) | null> {
  const r = await db("complement_observation as c")
    .join("observation as o", "o.id", "c.idObservation")
    .join("observation_serie as s", "s.id", "o.idObservationSerie")
    .where("c.id", id)
    .first("c.id", "c.idObservation", "c.dicoIdEltObserve", "c.obsValNum", "c.updatedAt", "o.idObservationSerie as idSerie", "s.idCampagne");
  return r
    ? {
        id: Number(r.id),
        idObservation: Number(r.idObservation),
        dicoIdEltObserve: Number(r.dicoIdEltObserve),
        obsValNum: num(r.obsValNum),
        updatedAt: toIso(r.updatedAt),
        idSerie: Number(r.idSerie),
        idCampagne: Number(r.idCampagne),
      }
    : null;
}

export async function elementObserveExists(db: Db, id: number): Promise<boolean> {
  return !!(await db("element_observe").where({ id }).first("id"));
}

// ---- Reference lists of the measures screen (read by the service, which keeps the global ones once per handle)

export type ElementChoix = { idType: number; element: number; libelle: string; libelleEn: string | null; nature: string; unites: string[]; dossier: boolean };
export type AdventiceChoix = {
  id: number;
  libelle: string;
  libelleEn: string | null;
  stades: { id: number; libelle: string; libelleEn: string | null }[];
  densites: { id: number; ordre: number; libelle: string; libelleEn: string | null }[];
};
export type Choix = { id: number; libelle: string; libelleEn: string | null };

/** The global reference lists: observation types, organs, crop stages, weeding efficacy, weeds with their stages and densities. */
export async function listFixedReferences(db: Db) {
  // One query after the other: a transaction (an API call's) runs one at a time on its connection.
  const types = await db("type_observation").orderBy("ordre").select("id", "libelle", "libelleEn", "famille");
  const organes = await db("organe_etudie").orderBy("ordre").select("id", "libelle", "libelleEn");
  const stades = await db("stade_culture").orderBy(["idEchelleStadeAee", "ordre"]).select("id", "libelle", "libelleEn", "idEchelleStadeAee");
  const efficacites = await db("efficacite_desherbage").orderBy("ordre").select("id", "ordre", "libelle", "libelleEn");
  const adventices = await db("adventice").orderBy("ordre").select("id", "libelle", "libelleEn");
  const advStades = await db("adventice_stade").orderBy(["idAdventice", "ordre"]).select("id", "idAdventice", "libelle", "libelleEn");
  const advDensites = await db("adventice_densite").orderBy(["idAdventice", "ordre"]).select("id", "idAdventice", "ordre", "libelle", "libelleEn");
  const tr = (r: Record<string, unknown>): Choix => ({ id: Number(r.id), libelle: String(r.libelle), libelleEn: str(r.libelleEn) });
  return {
    types: types.map((t) => ({ ...tr(t), famille: String(t.famille) })),
    organes: organes.map(tr),
    stades: stades.map((s) => ({ ...tr(s), idEchelleStadeAee: Number(s.idEchelleStadeAee) })),
    efficacites: efficacites.map((e) => ({ ...tr(e), ordre: Number(e.ordre) })),
    adventices: adventices.map((a): AdventiceChoix => ({
      ...tr(a),
      stades: advStades.filter((s) => Number(s.idAdventice) === Number(a.id)).map(tr),
      densites: advDensites.filter((d) => Number(d.idAdventice) === Number(a.id)).map((d) => ({ ...tr(d), ordre: Number(d.ordre) })),
    })),
  };
}

/** The elements offered per observation type: the default rows (no network) and those of the network `idOad`, with the element's label and nature. */
export function listElementOffers(db: Db, idOad: number) {
  return db("admin_oad_observation as a")
    .join("element_observe as e", "e.id", "a.dicoIdEltObserve")
    .where((q) => q.whereNull("a.idOad").orWhere("a.idOad", idOad))
    .select("a.idOad", "a.dicIdTypeObservation", "a.dicoIdEltObserve", "a.unite1", "a.unite2", "a.unite3", "e.libelle", "e.libelleEn", "e.nature");
}

/**
 * The elements a network offers for an observation type (admin_oad_observations): the network's own rows when it has
 * some for the type, else the default rows (no network), with the element's label and order, by element label.
 */
export async function listAdminOadObservations(db: Db, idOad: number, idType: number) {
  const own = await db("admin_oad_observation").where({ idOad, dicIdTypeObservation: idType }).first("id");
  const rows = await db("admin_oad_observation as a")
    .join("element_observe as e", "e.id", "a.dicoIdEltObserve")
    .where("a.dicIdTypeObservation", idType)
    .where((q) => (own ? q.where("a.idOad", idOad) : q.whereNull("a.idOad")))
    .select("a.id", "a.idOad", "a.dicIdTypeObservation", "a.unite1", "a.unite2", "a.unite3", "e.id as eId", "e.libelle", "e.libelleEn", "e.noOrdre");
  return rows.map((r) => ({
    id: Number(r.id),
    idOad: num(r.idOad),
    dicIdTypeObservation: Number(r.dicIdTypeObservation),
    unite1: str(r.unite1),
    unite2: str(r.unite2),
    unite3: str(r.unite3),
    elementObserve: { id: Number(r.eId), libelle: String(r.libelle), libelleEn: str(r.libelleEn), noOrdre: num(r.noOrdre) },
  }));
}

/** The folder's own observation elements, by label. */
export function listDossierObservations(db: Db, idDossier: number) {
  return db("dossier_observation").where({ idDossier }).orderBy("libelle");
}

export function insertDossierObservation(db: Db, values: Record<string, unknown>): Promise<number> {
  return insertId(db, "dossier_observation", values);
}

export async function typeObservationExists(db: Db, id: number): Promise<boolean> {
  return !!(await db("type_observation").where({ id }).first("id"));
}

export async function organeExists(db: Db, id: number): Promise<boolean> {
  return !!(await db("organe_etudie").where({ id }).first("id"));
}

export async function stadeOfEchelleExists(db: Db, idStade: number, idEchelleStadeAee: number): Promise<boolean> {
  return !!(await db("stade_culture").where({ id: idStade, idEchelleStadeAee }).first("id"));
}

/** The crops a series may concern: those of the campaign's management modes, and the Interculture pseudo-crop (B-OBS-06). */
export async function listCulturesOfCampagne(db: Db, idCampagne: number) {
  const rows = await db("culture as c")
    .where("c.interculture", true)
    .orWhereIn(
      "c.id",
      db("mode_conduite_culture as mcc").join("mode_conduite as mc", "mc.id", "mcc.idModeConduite").where("mc.idCampagne", idCampagne).select("mcc.idCulture"),
    )
    .orderBy([{ column: "c.ordre" }, { column: "c.libelle" }])
    .select("c.id", "c.libelle", "c.libelleEn", "c.interculture", "c.idEchelleStadeAee");
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    libelleEn: str(r.libelleEn),
    interculture: !!r.interculture && r.interculture !== "0",
    idEchelleStadeAee: num(r.idEchelleStadeAee),
  }));
}

/** The plot's interventions, for the series' intervention picker (B-OBS-14): date and cultural operation. */
export async function listInterventionsOfParcelle(db: Db, idCampagne: number, idParcelle: number) {
  const rows = await db("action as a")
    .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .where({ "a.idCampagne": idCampagne, "a.idParcelle": idParcelle })
    .orderBy([{ column: "a.date" }, { column: "a.id" }])
    .select("a.id", "a.date", "o.libelle");
  return rows.map((r) => ({ id: Number(r.id), date: String(r.date).slice(0, 10), libelle: str(r.libelle) ?? "" }));
}

export async function actionOfParcelleExists(db: Db, idCampagne: number, idParcelle: number, idAction: number): Promise<boolean> {
  return !!(await db("action").where({ id: idAction, idCampagne, idParcelle }).first("id"));
}

// ---- Plots and management modes of a campaign

export async function listParcellesOfCampagne(db: Db, idCampagne: number) {
  return (
    await db("parcelle")
      .where({ idCampagne })
      .orderBy([{ column: "libelle" }, { column: "id" }])
      .select("id", "libelle", "geometrie", "idModeConduite")
  ).map((p) => ({ id: Number(p.id), libelle: String(p.libelle), geometrie: str(p.geometrie), idModeConduite: num(p.idModeConduite) }));
}

export async function listModesConduite(db: Db, idCampagne: number) {
  return (await db("mode_conduite").where({ idCampagne }).orderBy("libelle").select("id", "libelle")).map((m) => ({
    id: Number(m.id),
    libelle: String(m.libelle),
  }));
}

/** The id of a plot of the campaign, null when it is not one of it. */
export async function parcelleOfCampagne(db: Db, idCampagne: number, idParcelle: number): Promise<number | null> {
  const p = await db("parcelle").where({ id: idParcelle, idCampagne }).first("id");
  return p ? Number(p.id) : null;
}

/** A plot of any campaign with its campaign (the copy's target), undefined when there is none. */
export function findParcelleCampagne(db: Db, idParcelle: number) {
  return db("parcelle").where({ id: idParcelle }).first("id", "idCampagne");
}

/** The farm of a campaign (its row's `idExploitation`). */
export function findCampagneExploitation(db: Db, idCampagne: number) {
  return db("campagne").where({ id: idCampagne }).first("idExploitation");
}

export async function dossierLinksExploitation(db: Db, idDossier: number, idExploitation: unknown): Promise<boolean> {
  return !!(await db("dossier_exploitation").where({ idDossier, idExploitation }).first("idDossier"));
}

/** The plots of the campaigns of harvest year `anneeRecolte` of the folder's farms, by farm and plot label. */
export function listParcellesOfDossierYear(db: Db, idDossier: number, anneeRecolte: number) {
  return db("parcelle as p")
    .join("campagne as c", "c.id", "p.idCampagne")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .join("dossier_exploitation as de", "de.idExploitation", "e.id")
    .where({ "de.idDossier": idDossier, "c.anneeRecolte": anneeRecolte })
    .orderBy([{ column: "e.libelle" }, { column: "p.libelle" }])
    .select("p.id", "p.libelle", "c.id as idCampagne", "e.libelle as exploitation");
}

// ---- Series writes

export function insertSerie(db: Db, values: Record<string, unknown>): Promise<number> {
  return insertId(db, "observation_serie", values);
}

/** Every observation of the series follows its date. */
export async function setObservationsDate(db: Db, idSerie: number, date: string): Promise<void> {
  await db("observation").where({ idObservationSerie: idSerie }).update({ date });
}

/** Takes placettes out of a series: their values, then the selection rows. */
export async function removePlacettesOfSerie(db: Db, idSerie: number, idPlacettes: number[]): Promise<void> {
  await db("observation").where({ idObservationSerie: idSerie }).whereIn("idPlacette", idPlacettes).delete();
  await db("observation_serie_placette").where({ idObservationSerie: idSerie }).whereIn("idPlacette", idPlacettes).delete();
}

/** Adds placettes to a series' selection, one row after the other. */
export async function addPlacettesToSerie(db: Db, idSerie: number, placettes: { idPlacette: number; ordre: number }[]): Promise<void> {
  for (const { idPlacette, ordre } of placettes) await db("observation_serie_placette").insert({ idObservationSerie: idSerie, idPlacette, ordre });
}

/** Of the placettes named, those of the plot of the campaign (their ids). */
export function placettesOfParcelle(db: Db, idCampagne: number, idParcelle: number, ids: number[]) {
  return db("placette").where({ idCampagne, idParcelle }).whereIn("id", ids).pluck("id");
}

/** Of the series named, the ids of those of the campaign. */
export function seriesOfCampagne(db: Db, idCampagne: number, ids: number[]) {
  return db("observation_serie").where({ idCampagne }).whereIn("id", ids).pluck("id");
}

/** The stored paths of the files attached to the series. */
export async function fichierPathsOfSeries(db: Db, ids: number[]): Promise<string[]> {
  return (await db("fichier_attache_serie").whereIn("idObservationSerie", ids).pluck("chemin")).map(String);
}

/** Deletes series (their observations, horizons and file rows go with them). */
export async function deleteSeries(db: Db, ids: number[]): Promise<void> {
  await db("observation_serie").whereIn("id", ids).delete();
}

/** Deletes the series of a plot of a campaign, except those named. */
export async function deleteSeriesOfParcelleExcept(db: Db, idCampagne: number, idParcelle: number, keep: number[]): Promise<void> {
  await db("observation_serie").where({ idParcelle, idCampagne }).whereNotIn("id", keep).delete();
}

// ---- Observation rows

/** The highest `ordre` of a series' observations, 0 when it has none. */
export async function maxObservationOrdre(db: Db, idSerie: number): Promise<number> {
  return Number((await db("observation").where({ idObservationSerie: idSerie }).max({ m: "ordre" }).first())?.m ?? 0);
}

/** The element, folder element, unit and horizon of an observation row (what its placettes' values repeat). */
export function findObservationLinks(db: Db, id: number) {
  return db("observation").where({ id }).first("dicoIdEltObserve", "idDossierObservation", "dicLlUnite", "idHorizon");
}

/** Clears the value of a placette for an observation row. */
export async function deletePlacetteValue(db: Db, idObservationParent: number, idPlacette: number): Promise<void> {
  await db("observation").where({ idObservationParent, idPlacette }).delete();
}

/** Sets the value of a placette for an observation row: its child observation updated, else inserted with `created`. */
export async function setPlacetteValue(
  db: Db,
  idObservationParent: number,
  idPlacette: number,
  cols: Record<string, unknown>,
  created: Record<string, unknown>,
): Promise<void> {
  const where = { idObservationParent, idPlacette };
  const n = await db("observation").where(where).update(cols);
  if (n === 0) await db("observation").insert({ ...where, ...cols, ...created });
}

/** Deletes rows of a series' observations table (not placette values, which go with their row); answers how many. */
export function deleteObservationRows(db: Db, idSerie: number, ids: number[]): Promise<number> {
  return db("observation").where({ idObservationSerie: idSerie }).whereNull("idObservationParent").whereIn("id", ids).delete();
}

/** A series' observation rows as stored (not its placettes' values, nor the form's and horizons' elements), in order. */
export function listObservationRowsToCopy(db: Db, idSerie: number) {
  return db("observation")
    .where({ idObservationSerie: idSerie })
    .whereNull("idObservationParent")
    .where((q) => q.whereNull("dicoIdEltObserve").orWhereNotIn("dicoIdEltObserve", ELEMENTS_HORS_TABLE))
    .orderBy(["ordre", "id"]);
}

export async function insertObservations(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  for (const chunk of inChunks(rows, 200)) await db("observation").insert(chunk);
}

// ---- Placettes and horizons

/** One placette with its plot and campaign (the API's placettes/{id}); undefined when there is none. */
export async function findPlacette(db: Db, id: number): Promise<(PlacetteRow & { idParcelle: number; idCampagne: number }) | undefined> {
  const r = await db("placette").where({ id }).first("id", "updatedAt", "libelle", "geometrie", "idParcelle", "idCampagne");
  if (!r) return undefined;
  return {
    id: Number(r.id),
    updatedAt: toIso(r.updatedAt),
    libelle: String(r.libelle),
    geometrie: str(r.geometrie),
    idParcelle: Number(r.idParcelle),
    idCampagne: Number(r.idCampagne),
  };
}

export function insertPlacette(db: Db, values: Record<string, unknown>): Promise<number> {
  return insertId(db, "placette", values);
}

/** Deletes a placette of the campaign (its values go with it); answers how many. */
export function deletePlacette(db: Db, idCampagne: number, id: number): Promise<number> {
  return db("placette").where({ id, idCampagne }).delete();
}

export async function horizonIdsOfSerie(db: Db, idSerie: number): Promise<number[]> {
  return (await db("horizon").where({ idParent: idSerie }).pluck("id")).map(Number);
}

/** The highest `ordre` of a series' horizons, 0 when it has none. */
export async function maxHorizonOrdre(db: Db, idSerie: number): Promise<number> {
  return Number((await db("horizon").where({ idParent: idSerie }).max({ m: "ordre" }).first())?.m ?? 0);
}

export function insertHorizon(db: Db, values: { idParent: number; idParcelle: number; name: string; ordre: number }): Promise<number> {
  return insertId(db, "horizon", values);
}

/** Deletes a horizon of a series; answers how many. */
export function deleteHorizon(db: Db, idSerie: number, id: number): Promise<number> {
  return db("horizon").where({ id, idParent: idSerie }).delete();
}

export function insertComplement(db: Db, values: { idObservation: number; dicoIdEltObserve: number; obsValNum: number | null }): Promise<number> {
  return insertId(db, "complement_observation", values);
}

// ---- Attached files (./files.ts) and the series' export and import (./transfer.ts)

/** The id of a series of the campaign, null when it is not one of it. */
export async function serieIdOfCampagne(db: Db, idCampagne: number, idSerie: number): Promise<number | null> {
  const s = await db("observation_serie").where({ id: idSerie, idCampagne }).first("id");
  return s ? Number(s.id) : null;
}

/** The campaign of an attached file's series, null when there is none. */
export async function campaignOfFichier(db: Db, id: number): Promise<number | null> {
  const r = await db("fichier_attache_serie as f").join("observation_serie as s", "s.id", "f.idObservationSerie").where("f.id", id).first("s.idCampagne");
  return r ? Number(r.idCampagne) : null;
}

export function insertFichier(db: Db, values: Record<string, unknown>): Promise<number> {
  return insertId(db, "fichier_attache_serie", values);
}

/** A file of a series of the campaign, for its download: name, stored path, type; undefined when there is none. */
export function fichierATelecharger(db: Db, idCampagne: number, id: number) {
  return db("fichier_attache_serie as f")
    .join("observation_serie as s", "s.id", "f.idObservationSerie")
    .where({ "f.id": id, "s.idCampagne": idCampagne })
    .first("f.nom", "f.chemin", "f.typeMime");
}

/** A file of a series of the campaign, for its deletion: stored path and author; undefined when there is none. */
export function fichierEtAuteur(db: Db, idCampagne: number, id: number) {
  return db("fichier_attache_serie as f")
    .join("observation_serie as s", "s.id", "f.idObservationSerie")
    .where({ "f.id": id, "s.idCampagne": idCampagne })
    .first("f.chemin", "f.creePar");
}

export async function deleteFichier(db: Db, id: number): Promise<void> {
  await db("fichier_attache_serie").where({ id }).delete();
}

/** The stored paths of every attached file. */
export async function allFichierPaths(db: Db): Promise<string[]> {
  return (await db("fichier_attache_serie").pluck("chemin")).map(String);
}

/** A series' observation rows with an element of the table (not placette values, form or horizon elements), in order: what an export writes. */
export function listObservationRowsToExport(db: Db, idSerie: number) {
  return db("observation")
    .where({ idObservationSerie: idSerie })
    .whereNull("idObservationParent")
    .whereNotNull("dicoIdEltObserve")
    .whereNotIn("dicoIdEltObserve", ELEMENTS_HORS_TABLE)
    .orderBy(["ordre", "id"]);
}

/** Of the ids named, those that are rows of the reference table `table`. */
export function existingIds(db: Db, table: string, ids: number[]) {
  return db(table).whereIn("id", ids).pluck("id");
}
