import { z } from "zod";
import { DEFAUTS_OPERATION, isIrrigationType, type TypeAction } from "./calc/operation";
import { isTractionCategory, isTractor } from "./calc/materiel";
import { decimalMax, flag, MAX_IDS, optionalNumber, optionalText, requiredNumber, requiredText } from "./validation";

/**
 * The cultural operation form of spec 2 (§2 Cultural operations, §3 Cultural operation, §4 form rules,
 * §5 Cultural operation, §9 defaults and units). One schema, used by the browser (conform) and by the
 * server (the action parses with the same schema; the service then recomputes the calculated work rate
 * and fuel reference itself and checks the "required only when no calculated value" rules again).
 * The formulas live in ./calc/operation.ts and ./calc/materiel.ts.
 *
 * Decisions (docs/decisions/0008-operations-culturales.md):
 * - D-OC-1 Bounds the spec leaves open: work rate, fuel use, depth, irrigation flow and spray volume
 *   cannot be negative (warning.min) and stay within their decimal columns; the share of surface
 *   worked is typed in percent, 0 to 100 (warning.minmax), and stored as a share, 0 to 1.
 * - D-OC-2 The type's flags decide which of depth, irrigation flow and spray volume apply: the other
 *   ones are shown greyed and stored as their reset values (depth 0, flow empty); the spray volume is
 *   1000 L/ha on a spraying type and empty otherwise (issue 10: no 1000 L/ha on every operation).
 * - D-OC-3 The tractor list offers the machines with power above 0 (B-OPS-16); the towed-equipment
 *   list offers the other machines of the campaign except traction machines (category 1).
 */

/** Upper bounds of the decimal columns of operation_culturale (D-OC-1). */
export const LIMITES_OPERATION = {
  debit: 9_999_999.999,
  carburant: 99_999_999.99,
  profondeurTravail: 9_999.99,
  debitIrrigation: 99_999_999.99,
  volumeBouillie: 99_999_999.99,
  /** The form asks the share of surface worked in percent (0 to 100); it is stored as a share (0 to 1). */
  proportionSurfaceTravaillee: { min: 0, max: 100 },
} as const;

/** Ids of a multiple choice (checkboxes with one name): nothing ticked gives []. */
const idList = () =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(requiredNumber({ integer: true, min: 1 })).max(MAX_IDS, "warning.too-many"),
  );

type RequiredActuals = {
  debitReel?: number | null;
  debitCalcule?: number | null;
  consoCarburantReelle?: number | null;
  consoCarburantCalculee?: number | null;
};

/**
 * The actual work rate is required only when there is no calculated one (B-OPS-30); the actual fuel use
 * only when there is no reference value (B-OPS-32). Field errors, as conform and ServiceError carry them.
 */
export function requiredActualErrors(v: RequiredActuals): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (v.debitReel == null && v.debitCalcule == null) errors.debitReel = ["warning.required"];
  if (v.consoCarburantReelle == null && v.consoCarburantCalculee == null) errors.consoCarburantReelle = ["warning.required"];
  return errors;
}

/**
 * The operation form (spec 2 §5 Cultural operation; B-OPS-27 to B-OPS-36). Numbers accept the French
 * decimal comma. debitCalcule and consoCarburantCalculee are the reference values the form shows
 * (hidden inputs): they only decide whether the actual values are required; the server recomputes them.
 */
export const OperationCulturaleSchema = z
  .object({
    idTypeAction: requiredNumber({ integer: true }),
    libelle: requiredText({ max: 255 }),
    remarque: optionalText({ max: 4000, multiline: true }),
    materielTractant: optionalNumber({ integer: true, min: 1 }),
    materielTractes: idList(),
    /** true = external workforce (contractor), B-OPS-06. */
    eta: flag(),
    mainOeuvre: idList(),
    debitReel: optionalNumber({ min: 0, max: LIMITES_OPERATION.debit, notZero: true }),
    debitCalcule: optionalNumber({ max: decimalMax(10, 3) }),
    consoCarburantReelle: optionalNumber({ min: 0, max: LIMITES_OPERATION.carburant }),
    consoCarburantCalculee: optionalNumber(),
    profondeurTravail: optionalNumber({ min: 0, max: LIMITES_OPERATION.profondeurTravail }),
    debitIrrigation: optionalNumber({ min: 0, max: LIMITES_OPERATION.debitIrrigation, notZero: true }),
    volumeBouillie: optionalNumber({ min: 0, max: LIMITES_OPERATION.volumeBouillie }),
    proportionSurfaceTravaillee: optionalNumber(LIMITES_OPERATION.proportionSurfaceTravaillee).transform((p) => (p == null ? p : Math.round(p * 100) / 10_000)),
    /** The answer to "propagate the new work rate to the linked interventions?" (B-OPS-25, B-OPS-26). */
    repercutAction: flag(),
  })
  .superRefine(
    (data, ctx) => {
      const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
      const errors = requiredActualErrors({
        debitReel: num(data.debitReel),
        debitCalcule: num(data.debitCalcule),
        consoCarburantReelle: num(data.consoCarburantReelle),
        consoCarburantCalculee: num(data.consoCarburantCalculee),
      });
      // Only where the field has no error of its own (a non-numeric value already says so).
      for (const [path, [message]] of Object.entries(errors)) {
        const raw = (data as Record<string, unknown>)[path];
        if (raw === undefined) ctx.addIssue({ code: "custom", message, path: [path] });
      }
    },
    // Also when another field failed, so the user sees every error at once.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
export type OperationCulturaleInput = z.infer<typeof OperationCulturaleSchema>;

/** A new operation starts with depth 0, spray volume 1000 L/ha and share of surface 1 (B-OPS-11). */
export function newOperationDefaults() {
  return { ...DEFAUTS_OPERATION, eta: false };
}

/** What changing the type resets (B-OPS-13): depth 0, irrigation flow empty, spray volume 1000. */
export function resetsOnTypeChange(): { profondeurTravail: number; debitIrrigation: null; volumeBouillie: number } {
  return { profondeurTravail: DEFAUTS_OPERATION.profondeurTravail, debitIrrigation: null, volumeBouillie: DEFAUTS_OPERATION.volumeBouillie };
}

/** The flags of a type that make depth, irrigation flow and spray volume apply (D-OC-2). */
export function appliesToType(type: TypeAction | null | undefined) {
  return {
    profondeurTravail: type?.profondeurTravail === true,
    debitIrrigation: isIrrigationType(type),
    volumeBouillie: type?.volumeBouillie === true,
  };
}

type MachineChoice = { id: number; puissance?: number | null; idCategorieMateriel?: number | null; debit?: number | null };

/** Machines offered as tractor: power above 0 (B-OPS-16; D-OC-3). */
export function tractorChoices<T extends MachineChoice>(machines: readonly T[]): T[] {
  return machines.filter((m) => isTractor(m));
}

/** Machines offered as towed equipment: every other machine except traction machines (D-OC-3). */
export function towedChoices<T extends MachineChoice>(machines: readonly T[], idTractant: number | null | undefined): T[] {
  return machines.filter((m) => m.id !== idTractant && !isTractionCategory(m.idCategorieMateriel));
}

/**
 * On an irrigation type, choosing towed equipment sets the irrigation flow to the first chosen item's
 * flow (B-OPS-15); undefined means "leave the flow as it is" (not irrigation, or nothing chosen).
 */
export function irrigationFlowFromTowed<T extends MachineChoice>(type: TypeAction | null | undefined, chosen: readonly T[]): number | null | undefined {
  if (!isIrrigationType(type) || chosen.length === 0) return undefined;
  return chosen[0].debit ?? null;
}

/** The switch changes: switching the workforce flag clears the workforce list (B-OPS-14). */
export function workforceAfterSwitch(): number[] {
  return [];
}
