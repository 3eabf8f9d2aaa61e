import { z } from "zod";
import { optionalNumber, optionalText, requiredNumber, requiredText } from "./validation";

/** The chapter whose panel also holds the objective indicators (spec 3 §2.6, §9). */
export const CHAPITRE_OBJECTIFS = 2246;

/** The chapters shown: every chapter of the reference list but the last (spec 3 §2.6, §9; C-PROTO-03). */
export function chapitresAffiches<T>(chapitres: readonly T[]): T[] {
  return chapitres.slice(0, Math.max(0, chapitres.length - 1));
}

/** A protocol entry (spec 3 §3.9, §5): its chapter, a label (required) and a description. */
export const ProtocoleSchema = z.object({
  dicIdChapitreProtocole: requiredNumber({ integer: true }),
  pexLibelle: requiredText({ max: 255 }),
  pexValTexte: optionalText({ max: 10000, multiline: true }),
});
export type ProtocoleInput = z.infer<typeof ProtocoleSchema>;

/** An objective indicator (spec 3 §3.9, §5): the indicator required, its value numeric or empty. */
export const IndicateurObjectifSchema = z.object({
  idIndicateur: requiredNumber({ integer: true }),
  value: optionalNumber({ max: 9_999_999_999 }),
});
export type IndicateurObjectifInput = z.infer<typeof IndicateurObjectifSchema>;
