import { z } from "zod";
import { dateString, decimalMax, flag, optional, optionalNumber, optionalText, requiredNumber, siret } from "./validation";

/**
 * Interventions (spec 3 §3.1, §4.1, §5 Interventions, §9). One schema for a row of the interventions grid,
 * the intervention form and the server's single and bulk saves (and later the importers and the API).
 */

/** Upper bounds of the decimal columns of `action` (migration 0005). */
export const LIMITES_ACTION = {
  debit: decimalMax(8, 3),
  frequence: decimalMax(8, 3),
  tauxSurface: decimalMax(6, 4),
} as const;

/** A new intervention (spec 3 §4.1): frequency 1, surface rate 1, done, not planned. */
export const NOUVELLE_INTERVENTION = { frequence: 1, tauxSurface: 1, realisee: true, prevue: false } as const;

export const InterventionSchema = z.object({
  idParcelle: requiredNumber({ integer: true, min: 1 }),
  date: dateString(),
  idOperationCulturale: requiredNumber({ integer: true, min: 1 }),
  idCultureConcernee: optionalNumber({ integer: true, min: 1 }),
  debit: optionalNumber({ min: 0, max: LIMITES_ACTION.debit }),
  frequence: requiredNumber({ min: 0, max: LIMITES_ACTION.frequence }),
  tauxSurface: requiredNumber({ min: 0, max: LIMITES_ACTION.tauxSurface }),
  realisee: flag(),
  prevue: flag(),
});
export type InterventionInput = z.infer<typeof InterventionSchema>;

const usable = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n) && n !== 0;

/**
 * Number of passes (spec 3 §3.1, C-FORM-14..16): frequency × surface rate when both are set and non-zero,
 * otherwise whichever one is, otherwise none.
 */
export function nombrePassages(frequence: number | null | undefined, tauxSurface: number | null | undefined): number | null {
  if (usable(frequence) && usable(tauxSurface)) return Number((frequence * tauxSurface).toFixed(6));
  if (usable(frequence)) return frequence;
  if (usable(tauxSurface)) return tauxSurface;
  return null;
}

export type Marqueur = "P" | "R" | "P/R" | "";

/** The planned/done marker (spec 3 §9, C-INT-07): P planned, R done (réalisée), P/R both. */
export function marqueur(realisee: boolean, prevue: boolean): Marqueur {
  if (realisee && prevue) return "P/R";
  if (prevue) return "P";
  if (realisee) return "R";
  return "";
}

/**
 * The work rate a new intervention starts with (C-FORM-10, 11): the operation's actual rate when it has one,
 * else its calculated rate.
 */
export function debitParDefaut(operation: { debitReel?: number | null; debitCalcule?: number | null } | null | undefined): number | null {
  if (!operation) return null;
  return operation.debitReel ?? operation.debitCalcule ?? null;
}

/**
 * The work-rate warning (C-FORM-09): shown when the operation was changed and the intervention's own rate
 * differs from the new operation's rate.
 */
export function debitDiffere(operationChangee: boolean, debit: number | null | undefined, debitOperation: number | null | undefined): boolean {
  if (!operationChangee || debit == null || debitOperation == null) return false;
  return Math.abs(debit - debitOperation) > 1e-9;
}

/** "HH:MM" on 24 hours (a leading zero may be left out: "7:30"), as "07:30"; null when not a time of day. */
export function toHeure(value: string): string | null {
  const m = /^(\d{1,2})[:hH](\d{2})$/.exec(value.trim());
  if (!m) return null;
  const [h, min] = [Number(m[1]), Number(m[2])];
  return h <= 23 && min <= 59 ? `${String(h).padStart(2, "0")}:${m[2]}` : null;
}

const heure = () =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .string({ error: "warning.invalid" })
      .transform((s, ctx) => toHeure(s) ?? (ctx.issues.push({ code: "custom", message: "warning.invalid", input: s }), z.NEVER))
      .optional(),
  );

/** A treatment ends after it starts (same day: the register records the date of use once). The register's one time rule. */
export function finApresDebut(v: { heureDebut?: string; heureFin?: string }, ctx: z.RefinementCtx): void {
  if (v.heureDebut && v.heureFin && v.heureFin <= v.heureDebut) ctx.addIssue({ code: "custom", path: ["heureFin"], message: "warning.invalid" });
}

/**
 * What the plant-protection register needs of an intervention beyond the grid's columns (issue 28, decisions
 * 0104-0105): the start and end time (where the use requires it), the BBCH stage chosen in the crop's scale with the
 * free-text stage kept beside it, the contractor's SIRET when a contractor treated, the early re-entry after the
 * treatment, and the lot of treated seed sown. One schema for the intervention form, the grid, the importers and the
 * API; every field may be empty (an empty field is stored empty).
 */
export const RegistreInterventionSchema = z
  .object({
    heureDebut: heure(),
    heureFin: heure(),
    idStadeCulture: optionalNumber({ integer: true, min: 1 }),
    precisionStade: optionalText({ max: 255 }),
    siretPrestataire: optional(siret()),
    rentreeAnticipee: flag(),
    lotSemences: optionalText({ max: 60 }),
  })
  .superRefine(finApresDebut);
export type RegistreInterventionInput = z.infer<typeof RegistreInterventionSchema>;

/**
 * An intervention with the register's fields (issue 28, decisions 0116, 0125): one schema for the grid's cells and
 * patches, the intervention form, the JSON API's writes and the server's saves. The grid and the form send every field
 * of the row, so the register's fields are sent as loaded and never blanked by an edit of another field.
 */
export const InterventionGrilleSchema = InterventionSchema.extend(RegistreInterventionSchema.shape).superRefine(finApresDebut);
export type InterventionGrilleInput = z.infer<typeof InterventionGrilleSchema>;
