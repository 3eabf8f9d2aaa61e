import { z } from "zod";
import { optionalNumber, optionalText, requiredNumber } from "./validation";

/**
 * The economic characteristics of a campaign (spec 2 §2 "Economic characteristics", §3 Campaign
 * characteristics, §5 Economic, §6 Administrator, §9 Economic bounds and defaults).
 *
 * - Every field is numeric (B-ECO-06); amounts are bounded by what the column can hold.
 * - Three cards are for administrators only (B-ECO-04, B-ECO-05): the long-term loan (rate 0–100,
 *   duration 1–20 years, replacement value "ivan" 0–100, all required), the short-term rate (0–100,
 *   required) and duration (required, numeric), and the own-capital remuneration (rate and ivan
 *   0–100, required). For other users these fields are neither shown nor required, and the server
 *   keeps their stored values.
 * - Defaults when empty (§9), used by the calculations and shown in the form:
 *   diverse costs 4,600 € per farm + 45 €/ha, land rent 100 €/ha.
 */

export const TAUX_MIN = 0;
export const TAUX_MAX = 100;
/** Long-term loan duration, years (spec 2 §5, §9). */
export const LONG_TERME_DUREE_MIN = 1;
export const LONG_TERME_DUREE_MAX = 20;
/** Replacement value ("ivan"), percent (spec 2 §9). */
export const IVAN_MIN = 0;
export const IVAN_MAX = 100;
/** What a decimal(12,2) amount column holds. */
export const MONTANT_MAX = 9_999_999_999.99;
/** Short-term duration: what its decimal(6,2) column holds; negative durations make no sense. */
export const COURT_TERME_DUREE_MAX = 9_999.99;
/** Fuel price, €/L: what its decimal(10,4) column holds. */
export const PRIX_FIOUL_MAX = 999_999.9999;

/** Defaults when empty (spec 2 §9; B-CONST-05, B-CONST-06). */
export const CHARGES_DIVERSES_PAR_EXPLOITATION = 4_600;
export const CHARGES_DIVERSES_PAR_HA = 45;
export const FERMAGE_MOYEN_DEFAUT = 100;

/** Diverse costs, €: the value entered, or 4,600 € + 45 €/ha × surface when empty (null without a surface). */
export function chargesDiversesEffectives(value: number | null | undefined, surfaceHa: number | null | undefined): number | null {
  if (value != null) return value;
  if (surfaceHa == null || !Number.isFinite(surfaceHa)) return null;
  return CHARGES_DIVERSES_PAR_EXPLOITATION + CHARGES_DIVERSES_PAR_HA * surfaceHa;
}

/** Average land rent, €/ha: the value entered, or 100 €/ha when empty. */
export function fermageMoyenEffectif(value: number | null | undefined): number {
  return value ?? FERMAGE_MOYEN_DEFAUT;
}

const montant = () => optionalNumber({ min: -MONTANT_MAX, max: MONTANT_MAX });
const taux = () => requiredNumber({ min: TAUX_MIN, max: TAUX_MAX });
const ivan = () => requiredNumber({ min: IVAN_MIN, max: IVAN_MAX });

/** Fields every writer edits. */
const commonShape = {
  cotisationMsa: montant(),
  fermageMoyen: montant(),
  chargesDiverses: montant(),
  aidesDecouplees: montant(),
  courtTermeSomme: montant(),
  chargesMainOeuvreSalarialePermanente: montant(),
  chargesMainOeuvreSalarialeOccasionnel: montant(),
  chargesMainOeuvreFamiliale: montant(),
  prixFioul: optionalNumber({ min: 0, max: PRIX_FIOUL_MAX }),
  remarqueAnnuelle: optionalText({ max: 10_000, multiline: true }),
};

/** The administrator-only cards (spec 2 §2, §5, §6). */
const adminShape = {
  longTermeTaux: taux(),
  longTermeDuree: requiredNumber({ integer: true, min: LONG_TERME_DUREE_MIN, max: LONG_TERME_DUREE_MAX }),
  longTermeIvan: ivan(),
  courtTermeTaux: taux(),
  courtTermeDuree: requiredNumber({ min: 0, max: COURT_TERME_DUREE_MAX }),
  remunerationCapitauxPropreTaux: taux(),
  remunerationCapitauxPropreIvan: ivan(),
};

export const ADMIN_FIELDS = Object.keys(adminShape) as (keyof typeof adminShape)[];
export const COMMON_FIELDS = Object.keys(commonShape) as (keyof typeof commonShape)[];

export const CaracteristiquesSchema = z.object(commonShape);
export const CaracteristiquesAdminSchema = z.object({ ...commonShape, ...adminShape });

/** The form's schema for this user: administrators get the admin-only cards, others do not (their values are dropped). */
export function caracteristiquesSchema(isAdmin: boolean) {
  return isAdmin ? CaracteristiquesAdminSchema : CaracteristiquesSchema;
}

export type CaracteristiquesInput = z.infer<typeof CaracteristiquesSchema> & Partial<z.infer<typeof CaracteristiquesAdminSchema>>;

/** Labour norms stored with the characteristics (spec 2 §3 "the matching norme* fields"), €. */
export type NormesCharges = {
  normeChargesMainOeuvreSalarialePermanente: number | null;
  normeChargesMainOeuvreSalarialeOccasionnel: number | null;
  normeChargesMainOeuvreFamiliale: number | null;
};
