import type { Cible, RddInput } from "~/domain/rdd";
import { MACRO_REGLE } from "~/domain/rdd";
import { conditionOf, parseCondition, type Condition } from "~/domain/rdd-conditions";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { insertId } from "../db/insert-id";

const text = (v: unknown) => (v == null ? null : String(v));
const int = (v: unknown) => (v == null ? null : Number(v));

// ---- Reference lists and the campaign's modes with their crops

export type Libelle = { id: number; libelle: string; libelleEn: string | null };

export async function listTypesRdd(db: Db): Promise<Libelle[]> {
  return (
    await db("type_rdd")
      .orderBy([{ column: "ordre" }, { column: "id" }])
      .select("id", "libelle", "libelleEn")
  ).map((r) => ({ id: Number(r.id), libelle: r.libelle, libelleEn: r.libelleEn ?? null }));
}

export async function listModes(db: Db, idCampagne: number): Promise<{ id: number; libelle: string }[]> {
  return (await db("mode_conduite").where({ idCampagne }).orderBy(["libelle", "id"]).select("id", "libelle")).map((r) => ({
    id: Number(r.id),
    libelle: r.libelle,
  }));
}

/** The crops of each mode of the campaign (the crops-by-driving-mode lookup of spec 3 §7). */
export async function culturesParMode(db: Db, idCampagne: number): Promise<Record<number, number[]>> {
  const rows = await db("mode_conduite_culture as c")
    .join("mode_conduite as m", "m.id", "c.idModeConduite")
    .where("m.idCampagne", idCampagne)
    .select("c.idModeConduite", "c.idCulture");
  const out: Record<number, number[]> = {};
  for (const r of rows) {
    const cultures = (out[Number(r.idModeConduite)] ??= []);
    if (!cultures.includes(Number(r.idCulture))) cultures.push(Number(r.idCulture));
  }
  return out;
}

export async function listCulturesOf(db: Db, ids: number[]): Promise<Libelle[]> {
  if (ids.length === 0) return [];
  return (
    await db("culture")
      .whereIn("id", ids)
      .orderBy([{ column: "ordre" }, { column: "libelle" }])
      .select("id", "libelle", "libelleEn")
  ).map((r) => ({ id: Number(r.id), libelle: r.libelle, libelleEn: r.libelleEn ?? null }));
}

// ---- Rules

export type RddRow = {
  id: number;
  idCampagne: number;
  libelle: string;
  dicIdTypeRdd: number;
  idCulture: number | null;
  aModifier: boolean;
  objectif: string | null;
  evaluation: string | null;
  solution: string | null;
  macroRegle: boolean;
  modeConduite: number[];
  updatedAt: string;
  condition: Condition | null;
};

function fromRdd(r: Record<string, unknown>, modes: number[]): RddRow {
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    libelle: String(r.libelle),
    dicIdTypeRdd: Number(r.dicIdTypeRdd),
    idCulture: int(r.idCulture),
    aModifier: bool(r.aModifier),
    objectif: text(r.objectif),
    evaluation: text(r.evaluation),
    solution: text(r.solution),
    macroRegle: bool(r.macroRegle),
    modeConduite: bool(r.macroRegle) ? [MACRO_REGLE] : modes,
    updatedAt: toIso(r.updatedAt),
    condition: parseCondition(r.condition),
  };
}

/**
 * The rules of a campaign, newest first (a new rule comes at the top, spec 3 §4.4). With `modeConduite`, only the
 * rules that name that mode, and the macro rules, which apply to every mode (C-RDD-15).
 */
export async function listRdds(db: Db, idCampagne: number, filter: { modeConduite?: number | null; ids?: number[] } = {}): Promise<RddRow[]> {
  const q = db("rdd").where({ idCampagne }).orderBy("id", "desc").select("*");
  if (filter.ids) q.whereIn("id", filter.ids);
  if (filter.modeConduite != null) {
    const m = filter.modeConduite;
    q.where((w) => w.where("macroRegle", true).orWhereIn("id", db("rdd_mode_conduite").where("idModeConduite", m).select("idRdd")));
  }
  const rows = await q;
  const links = rows.length
    ? await db("rdd_mode_conduite")
        .whereIn(
          "idRdd",
          rows.map((r) => r.id),
        )
        .orderBy("id")
        .select("idRdd", "idModeConduite")
    : [];
  const modes = new Map<number, number[]>();
  for (const l of links) (modes.get(Number(l.idRdd)) ?? modes.set(Number(l.idRdd), []).get(Number(l.idRdd))!).push(Number(l.idModeConduite));
  return rows.map((r) => fromRdd(r, modes.get(Number(r.id)) ?? []));
}

export async function findRdd(db: Db, id: number): Promise<RddRow | undefined> {
  const r = await db("rdd").where({ id }).first();
  if (!r) return undefined;
  const modes = (await db("rdd_mode_conduite").where({ idRdd: id }).orderBy("id").select("idModeConduite")).map((m) => Number(m.idModeConduite));
  return fromRdd(r, modes);
}

const rddValues = (i: RddInput) => ({
  libelle: i.libelle,
  dicIdTypeRdd: i.dicIdTypeRdd,
  idCulture: i.idCulture ?? null,
  aModifier: i.aModifier,
  objectif: i.objectif ?? null,
  evaluation: i.evaluation ?? null,
  solution: i.solution ?? null,
  macroRegle: i.modeConduite.includes(MACRO_REGLE),
  condition: (() => {
    const c = conditionOf(i);
    return c ? JSON.stringify(c) : null;
  })(),
});

async function writeModes(db: Db, idRdd: number, modes: number[]) {
  await db("rdd_mode_conduite").where({ idRdd }).delete();
  const real = modes.filter((m) => m !== MACRO_REGLE);
  if (real.length) await db("rdd_mode_conduite").insert(real.map((idModeConduite) => ({ idRdd, idModeConduite })));
}

export async function insertRdd(db: Db, idCampagne: number, input: RddInput): Promise<number> {
  const id = await insertId(db, "rdd", { idCampagne, ...rddValues(input) });
  await writeModes(db, id, input.modeConduite);
  return id;
}

export async function updateRdd(db: Db, idCampagne: number, token: Token, input: RddInput): Promise<void> {
  await updateIfUnchanged(db, "rdd", token, rddValues(input), { scope: { idCampagne } });
  await writeModes(db, token.id, input.modeConduite);
}

export async function deleteRdds(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  return db("rdd").where({ idCampagne }).whereIn("id", ids).delete();
}

// ---- Evaluations

export type EvaluationRow = {
  id: number;
  idRdd: number;
  rddLibelle: string;
  idAction: number | null;
  idParcelle: number | null;
  ecartSolution: number | null;
  explicationEcart: string | null;
  ecartResultat: number | null;
  justification: string | null;
  aModifier: boolean;
  updatedAt: string;
};

const evalColumns = [
  "e.id",
  "e.idRdd",
  "r.libelle as rddLibelle",
  "e.idAction",
  "e.idParcelle",
  "e.ecartSolution",
  "e.explicationEcart",
  "e.ecartResultat",
  "e.justification",
  "e.aModifier",
  "e.updatedAt",
];
function fromEval(r: Record<string, unknown>): EvaluationRow {
  return {
    id: Number(r.id),
    idRdd: Number(r.idRdd),
    rddLibelle: String(r.rddLibelle),
    idAction: int(r.idAction),
    idParcelle: int(r.idParcelle),
    ecartSolution: int(r.ecartSolution),
    explicationEcart: text(r.explicationEcart),
    ecartResultat: int(r.ecartResultat),
    justification: text(r.justification),
    aModifier: bool(r.aModifier),
    updatedAt: toIso(r.updatedAt),
  };
}

/** rdd_evaluations filtered by action or by parcelle (C-EVAL-13), within the campaign's rules. */
export async function listEvaluations(
  db: Db,
  idCampagne: number,
  filter: { idAction: number } | { idParcelle: number } | { idRdd: number },
): Promise<EvaluationRow[]> {
  const q = db("rdd_evaluation as e").join("rdd as r", "r.id", "e.idRdd").where("r.idCampagne", idCampagne).orderBy("e.id", "desc").select(evalColumns);
  if ("idAction" in filter) q.where("e.idAction", filter.idAction);
  else if ("idRdd" in filter) q.where("e.idRdd", filter.idRdd);
  else q.where("e.idParcelle", filter.idParcelle);
  return (await q).map(fromEval);
}

export async function findEvaluation(db: Db, id: number): Promise<(EvaluationRow & { idCampagne: number }) | undefined> {
  const r = await db("rdd_evaluation as e")
    .join("rdd as r", "r.id", "e.idRdd")
    .where("e.id", id)
    .first([...evalColumns, "r.idCampagne"]);
  return r ? { ...fromEval(r), idCampagne: Number(r.idCampagne) } : undefined;
}

export type EvalValues = {
  ecartSolution?: number | null;
  explicationEcart?: string | null;
  ecartResultat?: number | null;
  justification?: string | null;
  aModifier: boolean;
};
const evalValues = (i: EvalValues) => ({
  ecartSolution: i.ecartSolution ?? null,
  explicationEcart: i.explicationEcart ?? null,
  ecartResultat: i.ecartResultat ?? null,
  justification: i.justification ?? null,
  aModifier: i.aModifier,
});

/** Writes the evaluation of one rule on one intervention or plot: updates the one there is (each rule once per target), or creates it. */
export async function upsertEvaluation(db: Db, idRdd: number, cible: { idAction: number } | { idParcelle: number }, input: EvalValues): Promise<number> {
  const where = "idAction" in cible ? { idRdd, idAction: cible.idAction } : { idRdd, idParcelle: cible.idParcelle };
  const existing = await db("rdd_evaluation").where(where).first("id");
  if (existing) {
    await db("rdd_evaluation")
      .where({ id: existing.id })
      .update({ ...evalValues(input), updatedAt: new Date() });
    return Number(existing.id);
  }
  return insertId(db, "rdd_evaluation", {
    ...where,
    idAction: "idAction" in cible ? cible.idAction : null,
    idParcelle: "idParcelle" in cible ? cible.idParcelle : null,
    ...evalValues(input),
  });
}

export async function updateEvaluation(
  db: Db,
  token: Token,
  idRdd: number,
  cible: { idAction: number } | { idParcelle: number },
  input: EvalValues,
): Promise<void> {
  await updateIfUnchanged(db, "rdd_evaluation", token, {
    idRdd,
    idAction: "idAction" in cible ? cible.idAction : null,
    idParcelle: "idParcelle" in cible ? cible.idParcelle : null,
    ...evalValues(input),
  });
}

export async function deleteEvaluation(db: Db, id: number): Promise<number> {
  return db("rdd_evaluation").where({ id }).delete();
}

/** The interventions of a plot with their products, for the rule conditions (a product is its catalogue row, or its name). */
export async function plotFacts(db: Db, idParcelle: number) {
  const actions = await db("action as a")
    .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .where({ "a.idParcelle": idParcelle })
    .orderBy([{ column: "a.date" }, { column: "a.id" }])
    .select("a.id", "a.date", "a.realisee", "a.prevue", "o.libelle as operation");
  const inputs = actions.length
    ? await db("intrant")
        .whereIn(
          "idAction",
          actions.map((a) => a.id),
        )
        .orderBy("id")
        .select("idAction", "idIntrant", "dicIdOrigineIntrant", "libelleIntrant")
    : [];
  return actions.map((a) => ({
    id: Number(a.id),
    date: (a.date instanceof Date ? a.date.toISOString() : String(a.date)).slice(0, 10),
    realisee: bool(a.realisee),
    prevue: bool(a.prevue),
    operation: (a.operation as string | null) ?? null,
    produits: inputs
      .filter((i) => Number(i.idAction) === Number(a.id))
      .map((i) => ({
        cle: i.idIntrant != null ? `${i.dicIdOrigineIntrant ?? ""}:${i.idIntrant}` : `nom:${String(i.libelleIntrant).toLowerCase()}`,
        libelle: String(i.libelleIntrant),
      })),
  }));
}

/** Whether a rule type of the reference list has this id. */
export async function typeRddExists(db: Db, id: number): Promise<boolean> {
  return !!(await db("type_rdd").where({ id }).first("id"));
}

/** An intervention of the campaign with its plot and the plot's management mode (undefined when not the campaign's). */
export async function findActionWithMode(db: Db, idCampagne: number, idAction: number) {
  const a = await db("action as a")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .where({ "a.id": idAction, "a.idCampagne": idCampagne })
    .first("a.id", "a.idParcelle", "p.idModeConduite");
  if (!a) return undefined;
  return { id: Number(a.id), idParcelle: Number(a.idParcelle), idModeConduite: a.idModeConduite == null ? null : Number(a.idModeConduite) };
}

/** A plot of the campaign with its management mode (undefined when not the campaign's). */
export async function findPlotWithMode(db: Db, idCampagne: number, idParcelle: number) {
  const p = await db("parcelle").where({ id: idParcelle, idCampagne }).first("id", "idModeConduite", "libelle");
  if (!p) return undefined;
  return { id: Number(p.id), idModeConduite: p.idModeConduite == null ? null : Number(p.idModeConduite), libelle: String(p.libelle) };
}

/** The plot's interventions by date, with their operation's label (the bulk-add dialog's targets, C-EVAL-05). */
export async function interventionsOfPlot(db: Db, idCampagne: number, idParcelle: number): Promise<{ id: number; date: string; libelle: string }[]> {
  return (
    await db("action as a")
      .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
      .where({ "a.idParcelle": idParcelle, "a.idCampagne": idCampagne })
      .orderBy([{ column: "a.date" }, { column: "a.id" }])
      .select("a.id", "a.date", "o.libelle")
  ).map((r) => ({
    id: Number(r.id),
    date: String(r.date instanceof Date ? r.date.toISOString().slice(0, 10) : r.date).slice(0, 10),
    libelle: (r.libelle as string | null) ?? "",
  }));
}

/** The campaign's plots of one management mode by label (the bulk-add dialog's targets, C-EVAL-06). */
export async function plotsOfMode(db: Db, idCampagne: number, idModeConduite: number): Promise<{ id: number; libelle: string }[]> {
  return (await db("parcelle").where({ idCampagne, idModeConduite }).orderBy(["libelle", "id"]).select("id", "libelle")).map((p) => ({
    id: Number(p.id),
    libelle: String(p.libelle),
  }));
}

/** Deletes the evaluation of this rule on the same target other than `exceptId` (an edit that moves onto it replaces it). */
export async function deleteOtherEvaluationOfRule(db: Db, idRdd: number, cible: Cible, exceptId: number): Promise<void> {
  const clash = await db("rdd_evaluation")
    .where({ idRdd, ...("idAction" in cible ? { idAction: cible.idAction } : { idParcelle: cible.idParcelle }) })
    .whereNot("id", exceptId)
    .first("id");
  if (clash) await db("rdd_evaluation").where({ id: clash.id }).delete();
}
