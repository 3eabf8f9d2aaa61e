import { cultureValide, MACRO_REGLE, type Cible, type EvaluationInput, type RddInput } from "~/domain/rdd";
import { besoinIndicateurs, conditionInput, verifierCondition, type Condition } from "~/domain/rdd-conditions";
import { calculerParcelle } from "~/domain/calc/indicateurs/moteur";
import { instantaneCampagne } from "../calcul/instantane";
import { campaignContext, writableCampaign } from "../access/description";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { failingWith, invalidField, ServiceError } from "../errors";
import {
  culturesParMode,
  deleteEvaluation,
  plotFacts,
  deleteOtherEvaluationOfRule,
  deleteRdds,
  findActionWithMode,
  findEvaluation,
  findPlotWithMode,
  interventionsOfPlot,
  findRdd,
  insertRdd,
  listCulturesOf,
  listEvaluations,
  listModes,
  listRdds,
  listTypesRdd,
  plotsOfMode,
  typeRddExists,
  updateEvaluation,
  updateRdd,
  upsertEvaluation,
} from "./repo";
import type { Scope } from "../access/scope";

/** The rules' and evaluations' error keys (spec 3 §8 names none for them; decision 0041). */
export const RDD_LOAD_ERROR = "rdd.errors.load";
export const RDD_SAVE_ERROR = "rdd.errors.save";
export const RDD_DELETE_ERROR = "rdd.errors.delete";
export const EVAL_LOAD_ERROR = "rdd.errors.eval-load";
export const EVAL_SAVE_ERROR = "rdd.errors.eval-save";

/** The decision rules screen (spec 3 §2.8): the rules of the selected campaign (optionally of one driving mode), the lists of the form. */
export async function getRdds(scope: Scope, filter: { modeConduite?: number | null } = {}) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(RDD_LOAD_ERROR, async () => {
    const parMode = await culturesParMode(db, ctx.idCampagne);
    const cultures = await listCulturesOf(db, [...new Set(Object.values(parMode).flat())]);
    return {
      rows: await listRdds(db, ctx.idCampagne, { modeConduite: filter.modeConduite }),
      canWrite: ctx.abilities.canWriteDescriptif,
      types: await listTypesRdd(db),
      modes: await listModes(db, ctx.idCampagne),
      cultures,
      culturesParMode: parMode,
    };
  });
}

/** What the schema cannot check: the modes are the campaign's, the type exists, the crop is common to the chosen modes. */
async function checkRdd(db: Db, idCampagne: number, input: RddInput) {
  const modes = (await listModes(db, idCampagne)).map((m) => m.id);
  if (input.modeConduite.some((m) => m !== MACRO_REGLE && !modes.includes(m))) throw invalidField("modeConduite");
  if (!(await typeRddExists(db, input.dicIdTypeRdd))) throw invalidField("dicIdTypeRdd");
  if (input.idCulture != null && cultureValide(input.idCulture, input.modeConduite, await culturesParMode(db, idCampagne)) === undefined)
    throw invalidField("idCulture");
}

/** Creates (no id) or updates (id + updatedAt, the stale check) a rule of the selected campaign. */
export async function saveRdd(scope: Scope, input: RddInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await checkRdd(db, ctx.idCampagne, input);
  return failingWith(RDD_SAVE_ERROR, () =>
    db.transaction(async (trx) => {
      if (!existing) return insertRdd(trx, ctx.idCampagne, input);
      await updateRdd(trx, ctx.idCampagne, existing, input);
      return existing.id;
    }),
  );
}

/** Duplicates one rule (its modes, crop and texts), the copy coming at the top of the list. */
export async function duplicateRdd(scope: Scope, id: number): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const rule = await findRdd(db, id);
  if (!rule || rule.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  return failingWith(RDD_SAVE_ERROR, () =>
    db.transaction((trx) =>
      insertRdd(trx, ctx.idCampagne, {
        libelle: `${rule.libelle} (copie)`.slice(0, 255),
        dicIdTypeRdd: rule.dicIdTypeRdd,
        modeConduite: rule.modeConduite,
        idCulture: rule.idCulture ?? undefined,
        aModifier: rule.aModifier,
        objectif: rule.objectif ?? undefined,
        evaluation: rule.evaluation ?? undefined,
        solution: rule.solution ?? undefined,
        ...conditionInput(rule.condition),
      }),
    ),
  );
}

/** Deletes rules of the selected campaign (their evaluations go with them): all, or none when one is not there. */
export async function removeRdds(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  await failingWith(RDD_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      if ((await deleteRdds(trx, ctx.idCampagne, unique)) !== unique.length) throw new ServiceError("errors.not-found", 404);
    }),
  );
}

// ---- Evaluations (spec 3 §2.9)

async function actionOf(db: Db, idCampagne: number, idAction: number) {
  const a = await findActionWithMode(db, idCampagne, idAction);
  if (!a) throw new ServiceError("errors.not-found", 404);
  return a;
}

async function plotOf(db: Db, idCampagne: number, idParcelle: number) {
  const p = await findPlotWithMode(db, idCampagne, idParcelle);
  if (!p) throw new ServiceError("errors.not-found", 404);
  return p;
}

/**
 * The two evaluation panels of an intervention (spec 3 §2.9): its evaluations, its plot's evaluations, the rules of the plot's
 * driving mode not yet evaluated on the plot (C-EVAL-03), the rules the dialog offers, and the targets of the bulk-add dialogs:
 * the other interventions of the plot, and the plots of the same management mode (C-EVAL-05, 06).
 */
export async function getEvaluations(scope: Scope, idAction: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const action = await actionOf(db, ctx.idCampagne, idAction);
  return failingWith(EVAL_LOAD_ERROR, async () => {
    const rules = await listRdds(db, ctx.idCampagne, { modeConduite: action.idModeConduite ?? -1 });
    const actionEvaluations = await listEvaluations(db, ctx.idCampagne, { idAction });
    const plotEvaluations = await listEvaluations(db, ctx.idCampagne, { idParcelle: action.idParcelle });
    const onPlot = new Set(plotEvaluations.map((e) => e.idRdd));
    const interventions = await interventionsOfPlot(db, ctx.idCampagne, action.idParcelle);
    const plots = action.idModeConduite == null ? [] : await plotsOfMode(db, ctx.idCampagne, action.idModeConduite);
    // Beyond the spec: the rules with a machine-checkable condition, checked on this plot's recorded interventions.
    const verdicts = await verdictsOfPlot(db, ctx.idCampagne, action.idParcelle, rules);
    return {
      idAction,
      idParcelle: action.idParcelle,
      canWrite: ctx.abilities.canWriteDescriptif,
      verdicts,
      rules: rules.map((r) => ({ id: r.id, libelle: r.libelle, objectif: r.objectif, solution: r.solution })),
      actionEvaluations,
      plotEvaluations,
      notEvaluated: rules.filter((r) => !onPlot.has(r.id)).map((r) => ({ id: r.id, libelle: r.libelle, objectif: r.objectif })),
      interventions: interventions.filter((i) => i.id !== idAction),
      plots: plots.filter((p) => p.id !== action.idParcelle),
    };
  });
}

/** Today in Paris, yyyy-mm-dd (the date of a "done by a date" condition is a calendar day). */
const todayParis = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

/**
 * Beyond the spec (decisions 0041, 0060): the rules with a machine-checkable condition that apply to the plot, checked on
 * its recorded interventions. A rule naming a crop applies only to a plot of that crop (its cost centre, the crop the
 * indicators use). The N and IFT conditions read the plot's indicators from the engine over the snapshot the plot's
 * indicator panel uses (server/calcul/instantane.ts, calculerParcelle), so a verdict compares the figure the panel shows.
 */
export async function verdictsOfPlot(
  db: Db,
  idCampagne: number,
  idParcelle: number,
  rules: { id: number; libelle: string; idCulture: number | null; condition: Condition | null }[],
  aujourdhui = todayParis(),
) {
  const conditioned = rules.filter((r) => r.condition);
  if (!conditioned.length) return [];
  const facts = await plotFacts(db, idParcelle);
  const instantane = await instantaneCampagne(db, idCampagne, { idParcelle });
  const parcelle = instantane.parcelles[0];
  const applicable = conditioned.filter((r) => r.idCulture == null || r.idCulture === parcelle?.idCulture);
  const indicateurs =
    parcelle && applicable.some((r) => besoinIndicateurs(r.condition!))
      ? calculerParcelle(instantane, idParcelle, { parIntervention: false }).indicateurs
      : undefined;
  return applicable.map((r) => ({
    idRdd: r.id,
    libelle: r.libelle,
    condition: r.condition!,
    ...verifierCondition(r.condition!, facts, { indicateurs, aujourdhui }),
  }));
}

/** The rule is the campaign's and applies to the plot's driving mode (one of its modes, or a macro rule). */
async function checkRule(db: Db, idCampagne: number, idRdd: number, idModeConduite: number | null) {
  const rule = await findRdd(db, idRdd);
  if (!rule || rule.idCampagne !== idCampagne) throw invalidField("rdds");
  if (!rule.macroRegle && (idModeConduite == null || !rule.modeConduite.includes(idModeConduite))) throw invalidField("rdds");
}

async function checkCible(db: Db, idCampagne: number, cible: Cible) {
  return "idAction" in cible
    ? (await actionOf(db, idCampagne, cible.idAction)).idModeConduite
    : (await plotOf(db, idCampagne, cible.idParcelle)).idModeConduite;
}

/**
 * The evaluation dialog's save: one evaluation per chosen rule on the intervention or the plot (exactly one scope, C-EVAL-09).
 * A rule already evaluated there has its evaluation updated (each rule once per target); with `existing` (the evaluation opened
 * from a table), that row is updated with the stale check, and may move between the intervention and its plot (C-EVAL-08).
 */
export async function saveEvaluation(scope: Scope, cible: Cible, input: EvaluationInput, existing?: Token): Promise<number[]> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const mode = await checkCible(db, ctx.idCampagne, cible);
  for (const idRdd of input.rdds) await checkRule(db, ctx.idCampagne, idRdd, mode);
  if (existing) {
    const current = await findEvaluation(db, existing.id);
    if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
    if (input.rdds.length !== 1) throw invalidField("rdds");
  }
  return failingWith(EVAL_SAVE_ERROR, () =>
    db.transaction(async (trx) => {
      if (existing) {
        await deleteOtherEvaluationOfRule(trx, input.rdds[0], cible, existing.id);
        await updateEvaluation(trx, existing, input.rdds[0], cible, input);
        return [existing.id];
      }
      const ids: number[] = [];
      for (const idRdd of input.rdds) ids.push(await upsertEvaluation(trx, idRdd, cible, input));
      return ids;
    }),
  );
}

/**
 * Bulk add (spec 3 §2.9): copies an evaluation to chosen interventions (of the campaign, their plot's mode must be one the rule
 * applies to), or to chosen plots of the same management mode as the evaluated one (C-EVAL-06).
 */
export async function copyEvaluation(scope: Scope, idEvaluation: number, vers: "action" | "parcelle", cibles: number[]): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const source = await findEvaluation(db, idEvaluation);
  if (!source || source.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  const sourceMode =
    source.idAction != null
      ? (await actionOf(db, ctx.idCampagne, source.idAction)).idModeConduite
      : (await plotOf(db, ctx.idCampagne, source.idParcelle!)).idModeConduite;
  const unique = [...new Set(cibles)];
  for (const id of unique) {
    const mode = await checkCible(db, ctx.idCampagne, vers === "action" ? { idAction: id } : { idParcelle: id });
    if (vers === "parcelle" && mode !== sourceMode) throw invalidField("cibles");
    await checkRule(db, ctx.idCampagne, source.idRdd, mode).catch(() => {
      throw invalidField("cibles");
    });
  }
  return failingWith(EVAL_SAVE_ERROR, () =>
    db.transaction(async (trx) => {
      for (const id of unique) await upsertEvaluation(trx, source.idRdd, vers === "action" ? { idAction: id } : { idParcelle: id }, source);
      return unique.length;
    }),
  );
}

export async function removeEvaluation(scope: Scope, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const current = await findEvaluation(db, id);
  if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  await failingWith(EVAL_SAVE_ERROR, () => deleteEvaluation(db, id));
}

/** The campaign of a rule (the API's `campaign` of rdds/{id}; issue 27). */
export async function rddCampaign(db: Db, id: number): Promise<number | null> {
  return (await findRdd(db, id))?.idCampagne ?? null;
}

/** One rule of the scope's campaign (GET rdds/{id}); 404 when it is not one of it. */
export async function getRdd(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  const rule = await failingWith(RDD_LOAD_ERROR, () => findRdd(scope.db, id));
  if (!rule || rule.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  return rule;
}

// ---- The evaluation calls of the JSON API (spec 3 §7, C-API-31; issue 27)

/** GET rdd_evaluations?action= or ?parcelle=, rdds/{id}/rdd_evaluations: the evaluations of one target or one rule of the scope's campaign. */
export async function listEvaluationsOf(scope: Scope, filter: { idAction: number } | { idParcelle: number } | { idRdd: number }) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  if ("idAction" in filter) await actionOf(db, ctx.idCampagne, filter.idAction);
  else if ("idParcelle" in filter) await plotOf(db, ctx.idCampagne, filter.idParcelle);
  else if ((await findRdd(db, filter.idRdd))?.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  return failingWith(EVAL_LOAD_ERROR, () => listEvaluations(db, ctx.idCampagne, filter));
}

/** One evaluation of the scope's campaign; 404 when it is not one of it. */
export async function getEvaluation(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  const e = await failingWith(EVAL_LOAD_ERROR, () => findEvaluation(scope.db, id));
  if (!e || e.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  const { idCampagne: _c, ...row } = e;
  void _c;
  return row;
}

/** The campaign of an evaluation (the API's `campaign` of rdd_evaluations/{id}). */
export async function evaluationCampaign(db: Db, id: number): Promise<number | null> {
  return (await findEvaluation(db, id))?.idCampagne ?? null;
}
