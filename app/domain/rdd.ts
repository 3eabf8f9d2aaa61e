import { z } from "zod";
import { CONDITION_TYPES } from "./rdd-conditions";
import { dateString, flag, optionalNumber, optionalText, requiredArray, requiredNumber, requiredText, rowId } from "./validation";

/**
 * Decision rules and their evaluations (spec 3 §3.10, §4.4, §5; decision 0041).
 *
 * The driving-mode field holds mode ids, or the macro-rule option, which is exclusive: choosing it replaces
 * every other choice (C-RDD-09). Its fixed id is not shown by the spec; here it is 0 (never a row id), stored as
 * the rule's macro_regle flag.
 */
export const MACRO_REGLE = 0;

/** The driving modes after a change of the multi-select: the macro rule, just chosen, replaces the others; a mode chosen after it replaces it. */
export function nextModes(previous: number[], chosen: number[]): number[] {
  const added = chosen.filter((m) => !previous.includes(m));
  if (added.includes(MACRO_REGLE)) return [MACRO_REGLE];
  if (chosen.includes(MACRO_REGLE) && chosen.length > 1) return chosen.filter((m) => m !== MACRO_REGLE);
  return chosen;
}

/** The crops offered for the chosen modes: those common to every chosen mode (C-RDD-10); all crops of the campaign's modes for the macro rule. */
export function culturesCommunes(modes: number[], culturesParMode: Record<number, number[]>): number[] {
  const real = modes.filter((m) => m !== MACRO_REGLE);
  if (real.length === 0) {
    if (modes.includes(MACRO_REGLE)) return [...new Set(Object.values(culturesParMode).flat())].sort((a, b) => a - b);
    return [];
  }
  const [first, ...rest] = real.map((m) => culturesParMode[m] ?? []);
  return [...new Set(first)].filter((c) => rest.every((l) => l.includes(c))).sort((a, b) => a - b);
}

/** The chosen crop, kept only while it is still offered (C-RDD-11). */
export function cultureValide(idCulture: number | undefined | null, modes: number[], culturesParMode: Record<number, number[]>): number | undefined {
  if (idCulture == null) return undefined;
  return culturesCommunes(modes, culturesParMode).includes(idCulture) ? idCulture : undefined;
}

const modeId = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
  z.number({ error: "warning.invalid" }).int("warning.invalid").min(0, "warning.invalid").max(2_147_483_647, "warning.invalid"),
);

/** The rule form (spec 3 §5): label, type and driving mode required. */
export const RddSchema = z
  .object({
    libelle: requiredText({ max: 255 }),
    dicIdTypeRdd: requiredNumber({ integer: true }),
    modeConduite: requiredArray(modeId),
    idCulture: z.preprocess((v) => (v === "" || v == null ? undefined : v), rowId().optional()),
    aModifier: flag(),
    objectif: optionalText({ max: 4000, multiline: true }),
    evaluation: optionalText({ max: 4000, multiline: true }),
    solution: optionalText({ max: 4000, multiline: true }),
    // The machine-checkable condition (rdd-conditions.ts): its type, and the products or the days it needs.
    conditionType: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.enum(CONDITION_TYPES, { error: "warning.invalid" }).optional()),
    conditionProduits: optionalText({ max: 2000, multiline: true }),
    conditionJours: optionalNumber({ integer: true, max: 3650 }),
    // The threshold of the N and IFT conditions (kg N/ha, doses/ha), the date and operation of "done by a date".
    conditionMax: optionalNumber({ min: 0, max: 100000 }),
    conditionDate: z.preprocess((v) => (v === "" || v == null ? undefined : v), dateString().optional()),
    conditionOperation: optionalText({ max: 255 }),
  })
  .superRefine((v, ctx) => {
    if (v.conditionType === "produit_interdit" && !v.conditionProduits)
      ctx.addIssue({ code: "custom", path: ["conditionProduits"], message: "warning.required" });
    if (v.conditionType === "delai_min" && v.conditionJours == null) ctx.addIssue({ code: "custom", path: ["conditionJours"], message: "warning.required" });
    if ((v.conditionType === "azote_mineral_max" || v.conditionType === "ift_max") && v.conditionMax == null)
      ctx.addIssue({ code: "custom", path: ["conditionMax"], message: "warning.required" });
    if (v.conditionType === "realisee_avant" && v.conditionDate == null) ctx.addIssue({ code: "custom", path: ["conditionDate"], message: "warning.required" });
    if (v.modeConduite.includes(MACRO_REGLE) && v.modeConduite.length > 1) ctx.addIssue({ code: "custom", path: ["modeConduite"], message: "warning.invalid" });
  });
export type RddInput = z.infer<typeof RddSchema>;

/** The gap questions' options (spec 3 §3.10, §9): 0 yes, 1 no, 2 partially. */
export const ECARTS = [0, 1, 2] as const;
const ecart = z.preprocess(
  (v) => (v === "" || v == null ? undefined : typeof v === "string" ? Number(v) : v),
  z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "warning.invalid" }).optional(),
);

/** The evaluation dialog (spec 3 §5): at least one rule; the gap answers; one scope, an intervention or a plot. */
export const EvaluationSchema = z.object({
  rdds: requiredArray(rowId()),
  ecartSolution: ecart,
  explicationEcart: optionalText({ max: 4000, multiline: true }),
  ecartResultat: ecart,
  justification: optionalText({ max: 4000, multiline: true }),
  aModifier: flag(),
});
export type EvaluationInput = z.infer<typeof EvaluationSchema>;

/** Where an evaluation applies: exactly one of an intervention (action) and a plot (C-EVAL-09). */
export type Cible = { idAction: number } | { idParcelle: number };

/** Bulk add (spec 3 §5): at least one intervention or plot ticked. */
export const BulkEvaluationSchema = z.object({ cibles: requiredArray(rowId()) });
