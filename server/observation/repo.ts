import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { champPlacette, ELEMENT } from "~/domain/observation";
import { inChunks } from "../db/chunks";

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
