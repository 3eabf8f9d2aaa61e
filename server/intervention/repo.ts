import type { InterventionInput, RegistreInterventionInput } from "~/domain/intervention";
import { nombrePassages } from "~/domain/intervention";
import { ORIGINE_INTRANT, type IntrantDetail } from "~/domain/intrant";
import { nomSerieRecolte, type RecolteDetail } from "~/domain/recolte";
import type { InterventionRow, RegistreChamps } from "~/domain/contracts/interventions";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import type { Knex } from "knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { returnedId } from "../db/insert-id";

export type { InterventionRow };

const num = (v: unknown) => (v == null ? null : Number(v));

const ACTION_COLUMNS = [
  "id",
  "updatedAt",
  "idParcelle",
  "date",
  "idOperationCulturale",
  "idCultureConcernee",
  "debit",
  "frequence",
  "tauxSurface",
  "nombrePassage",
  "realisee",
  "prevue",
  // The register's fields (issue 28), the grid's columns too.
  "heureDebut",
  "heureFin",
  "idStadeCulture",
  "precisionStade",
  "siretPrestataire",
  "rentreeAnticipee",
  "lotSemences",
];

const text = (v: unknown) => (v == null || v === "" ? undefined : String(v));

/** The register's fields of a stored intervention, only those filled (the rows' cache and the grid's cells). */
function registreFromRow(r: Record<string, unknown>): RegistreChamps {
  const out: RegistreChamps = {};
  const set = <K extends keyof RegistreChamps>(k: K, v: RegistreChamps[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set("heureDebut", text(r.heureDebut));
  set("heureFin", text(r.heureFin));
  set("idStadeCulture", r.idStadeCulture == null ? undefined : Number(r.idStadeCulture));
  set("precisionStade", text(r.precisionStade));
  set("siretPrestataire", text(r.siretPrestataire));
  set("rentreeAnticipee", r.rentreeAnticipee == null ? undefined : bool(r.rentreeAnticipee));
  set("lotSemences", text(r.lotSemences));
  return out;
}

function fromRow(r: Record<string, unknown>): Omit<InterventionRow, "intrants" | "recoltes" | "rdd"> {
  return {
    id: Number(r.id),
    updatedAt: toIso(r.updatedAt),
    idParcelle: Number(r.idParcelle),
    date: String(r.date).slice(0, 10),
    idOperationCulturale: num(r.idOperationCulturale),
    idCultureConcernee: num(r.idCultureConcernee),
    debit: num(r.debit),
    frequence: Number(r.frequence),
    tauxSurface: Number(r.tauxSurface),
    nombrePassage: num(r.nombrePassage),
    realisee: bool(r.realisee),
    prevue: bool(r.prevue),
    ...registreFromRow(r),
  };
}

/** The interventions of some plots of a campaign, by date then id, with their inputs detail and RDD flag. */
export async function listInterventions(db: Db, idCampagne: number, idParcelles: number[]): Promise<InterventionRow[]> {
  if (idParcelles.length === 0) return [];
  const actions = await db("action")
    .where({ idCampagne })
    .whereIn("idParcelle", idParcelles)
    .orderBy([{ column: "date" }, { column: "id" }])
    .select(ACTION_COLUMNS);
  const details = new Map<number, IntrantDetail[]>();
  const recoltes = new Map<number, RecolteDetail[]>();
  const evaluated = new Set<number>();
  // The inputs, harvests and evaluations of the same interventions, found by the same conditions (a join, not a list of ids).
  const ofShown = (q: Knex.QueryBuilder, column: string) =>
    q.join("action as a", "a.id", column).where("a.idCampagne", idCampagne).whereIn("a.idParcelle", idParcelles);
  const intrants = await ofShown(db("intrant as i").join("categorie_intrant as c", "c.id", "i.idCategorie"), "i.idAction")
    .orderBy("i.id", "desc")
    .select("i.id", "i.idAction", "c.idTypeIntrant", "i.libelleIntrant", "i.quantite", "i.dicLlUnite", "i.dicIdOrigineIntrant", "i.idIntrant");
  for (const r of intrants) {
    const list = details.get(Number(r.idAction)) ?? [];
    list.push({
      id: Number(r.id),
      type: Number(r.idTypeIntrant),
      libelle: String(r.libelleIntrant),
      quantite: num(r.quantite),
      unite: (r.dicLlUnite as string | null) ?? null,
      ...(Number(r.dicIdOrigineIntrant) === ORIGINE_INTRANT.DOSSIER && r.idIntrant != null ? { idIntrantDossier: Number(r.idIntrant) } : {}),
    });
    details.set(Number(r.idAction), list);
  }
  // The harvest products (decision 0031): "crop - output type (qualifier)", yield and unit.
  const harvests = await ofShown(
    db("recolte as r")
      .join("culture as c", "c.id", "r.idCulture")
      .join("type_sortie as ts", "ts.id", "r.dicIdTypeSortie")
      .leftJoin("qualifiant_recolte as q", "q.id", "r.idQualifiantRecolte"),
    "r.idAction",
  )
    .orderBy("r.id", "desc")
    .select("r.id", "r.idAction", "c.libelle as culture", "ts.libelle as typeSortie", "q.qrdNom", "r.rendement", "r.dicLlUnite");
  for (const r of harvests) {
    const list = recoltes.get(Number(r.idAction)) ?? [];
    list.push({
      id: Number(r.id),
      libelle: nomSerieRecolte(String(r.culture), String(r.typeSortie), (r.qrdNom as string | null) ?? null),
      rendement: num(r.rendement),
      unite: String(r.dicLlUnite),
    });
    recoltes.set(Number(r.idAction), list);
  }
  for (const r of await ofShown(db("rdd_evaluation as e"), "e.idAction").distinct("e.idAction")) evaluated.add(Number(r.idAction));
  // One object literal per row (not a spread of fromRow's): V8 then gives every row the same fast shape, and packing
  // 2,000 rows (server/intervention/rows-cache.ts) took 5 to 7 times longer over the spread objects (issue 30).
  return actions.map((a) => {
    const r = fromRow(a);
    const id = r.id;
    const row: InterventionRow = {
      id,
      updatedAt: r.updatedAt,
      idParcelle: r.idParcelle,
      date: r.date,
      idOperationCulturale: r.idOperationCulturale,
      idCultureConcernee: r.idCultureConcernee,
      debit: r.debit,
      frequence: r.frequence,
      tauxSurface: r.tauxSurface,
      nombrePassage: r.nombrePassage,
      realisee: r.realisee,
      prevue: r.prevue,
      intrants: details.get(id) ?? [],
      recoltes: recoltes.get(id) ?? [],
      rdd: evaluated.has(id),
    };
    // The register's fields only on the few rows that have them (issue 28), so most rows keep the one shape.
    const registre = registreFromRow(a);
    return Object.keys(registre).length ? Object.assign(row, registre) : row;
  });
}

export async function findIntervention(
  db: Db,
  id: number,
): Promise<(Omit<InterventionRow, "intrants" | "recoltes" | "rdd"> & { idCampagne: number }) | undefined> {
  const r = await db("action")
    .where({ id })
    .first([...ACTION_COLUMNS, "idCampagne"]);
  return r ? { ...fromRow(r), idCampagne: Number(r.idCampagne) } : undefined;
}

/** The stored columns of an intervention: the harvest year is the campaign's, the passes computed (spec 3 §3.1). */
export function actionValues(input: InterventionInput, context: { anneeRecolte: number; idTypeAction: number | null }) {
  return {
    idParcelle: input.idParcelle,
    date: input.date,
    anneeRecolte: context.anneeRecolte,
    idOperationCulturale: input.idOperationCulturale,
    dicIdTypeAction: context.idTypeAction,
    idCultureConcernee: input.idCultureConcernee ?? null,
    debit: input.debit ?? null,
    frequence: input.frequence,
    tauxSurface: input.tauxSurface,
    nombrePassage: nombrePassages(input.frequence, input.tauxSurface),
    realisee: input.realisee,
    prevue: input.prevue,
  };
}

/** The stored register columns of an intervention (migration 0034): an empty field is stored as null. */
export function registreValues(input: RegistreInterventionInput) {
  return {
    heureDebut: input.heureDebut ?? null,
    heureFin: input.heureFin ?? null,
    idStadeCulture: input.idStadeCulture ?? null,
    precisionStade: input.precisionStade ?? null,
    siretPrestataire: input.siretPrestataire ?? null,
    rentreeAnticipee: input.rentreeAnticipee,
    lotSemences: input.lotSemences ?? null,
  };
}

/** An intervention's stored columns, with its register columns when the save carries them. */
type ActionValues = ReturnType<typeof actionValues> & { [K in keyof ReturnType<typeof registreValues>]?: ReturnType<typeof registreValues>[K] | null };

export async function insertIntervention(db: Db, idCampagne: number, values: ActionValues): Promise<number> {
  const [r] = await db("action")
    .insert({ idCampagne, ...values })
    .returning("id");
  return returnedId(r);
}

/** Writes the row unless it changed since it was loaded (server/db/stale.ts); only within its campaign. */
export async function updateIntervention(db: Db, idCampagne: number, token: Token, values: ActionValues): Promise<void> {
  await updateIfUnchanged(db, "action", token, values, { scope: { idCampagne } });
}

export async function deleteInterventions(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  // Their harvests go with them (cascade), and so do the harvests' observation series (decision 0031).
  const series = db("recolte as r")
    .join("action as a", "a.id", "r.idAction")
    .where("a.idCampagne", idCampagne)
    .whereIn("a.id", ids)
    .whereNotNull("r.idObservationSerie")
    .select("r.idObservationSerie");
  await db("observation_serie").where({ idCampagne }).whereIn("id", series).delete();
  return db("action").where({ idCampagne }).whereIn("id", ids).delete();
}

export async function updatedAtOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  const rows = ids.length ? await db("action").whereIn("id", ids).select("id", "updatedAt") : [];
  return new Map(rows.map((r) => [Number(r.id), toIso(r.updatedAt)]));
}

// --- The screen's choices and the links a save checks (server/intervention/service.ts) ---

/** The campaign's plots as the screen's filter lists them, by label then id. */
export function listParcellesChoixOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  return db("parcelle")
    .where({ idCampagne })
    .orderBy([{ column: "libelle" }, { column: "id" }])
    .select("id", "libelle", "irrigable", "surface", "idModeConduite");
}

/** The campaign's machinery, id and label. */
export function listMaterielsLibellesOfCampagne(db: Db, idCampagne: number): Promise<{ id: number; libelle: string }[]> {
  return db("parc_materiel").where({ idCampagne }).select("id", "libelle");
}

/** The campaign's labour, id and label. */
export function listMainOeuvresLibellesOfCampagne(db: Db, idCampagne: number): Promise<{ id: number; libelle: string }[]> {
  return db("main_oeuvre").where({ idCampagne }).select("id", "libelle");
}

/** The BBCH stages of the scales of the crops of the campaign's management modes, by scale, order and id. */
export function listStadesOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  const scales = db("culture as c")
    .join("mode_conduite_culture as mcc", "mcc.idCulture", "c.id")
    .join("mode_conduite as mc", "mc.id", "mcc.idModeConduite")
    .where("mc.idCampagne", idCampagne)
    .whereNotNull("c.idEchelleStadeAee")
    .select("c.idEchelleStadeAee");
  return db("stade_culture").whereIn("idEchelleStadeAee", scales).orderBy(["idEchelleStadeAee", "ordre", "id"]).select("id", "libelle", "libelleEn", "code");
}

/** The crops of the campaign's management modes and the inter-crop ones, by order then label. */
export function listCulturesChoixOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  return db("culture as c")
    .where("c.interculture", true)
    .orWhereIn(
      "c.id",
      db("mode_conduite_culture as mcc").join("mode_conduite as mc", "mc.id", "mcc.idModeConduite").where("mc.idCampagne", idCampagne).select("mcc.idCulture"),
    )
    .orderBy([{ column: "c.ordre" }, { column: "c.libelle" }])
    .select("c.id", "c.libelle", "c.libelleEn", "c.interculture");
}

/** The ids of the campaign's plots. */
export function listParcelleIdsOfCampagne(db: Db, idCampagne: number): Promise<unknown[]> {
  return db("parcelle").where({ idCampagne }).pluck("id");
}

/** The campaign's operations with their action type and work rates. */
export function listOperationsDebitsOfCampagne(db: Db, idCampagne: number): Promise<Record<string, unknown>[]> {
  return db("operation_culturale").where({ idCampagne }).select("id", "idTypeAction", "debitReel", "debitCalcule");
}
