import { z } from "zod";
import { LIMITES_MATERIEL, TYPE_PROPRIETE, TYPES_POMPE, annualUseMax, type Materiel, type TypePropriete } from "./calc/materiel";
import { optionalNumber, optionalText, requiredArray, requiredNumber, requiredText, toNumber } from "./validation";

/**
 * The machinery fleet screen (parc matériel) of spec 2: the machine form (§3 Machine, §4 machine form
 * rules, §5 Machine, §9 machine limits) and the duplication dialog (§2, §5 Duplication). One schema per
 * form, used by the browser (conform) and by the server (the action parses with the same schema).
 * The formulas and the form rules themselves live in ./calc/materiel.ts.
 *
 * Decisions (docs/decisions/0009-parc-materiel.md):
 * - D-PM-1 A machine's wear life, obsolescence life and resale rate may be left empty: the
 *   calculation then uses those of its reference (vieUsure, vieObsolescence, tauxRevente), which the
 *   form shows as placeholders. The characteristic fills only the fields spec 2 §4 lists.
 * - D-PM-2 Bounds the spec leaves open: co-ownership is a percentage (integer 0–100); weight, power,
 *   flow, costs, new price and depreciation duration cannot be negative; the depreciation duration is
 *   a whole number of years (its column is an integer).
 * - D-PM-3 The power field is shown only for categories 1, 2, 8, 12, 13, 17: for the other
 *   categories the server stores no power (a machine with power is a tractor or self-propelled).
 *   Co-ownership is stored only for own machines (null for ETA and CUMA, spec 2 §4).
 */

/** Ownership codes in display order (B-MACH-04). */
export const TYPES_PROPRIETE: readonly TypePropriete[] = [TYPE_PROPRIETE.PROPRE, TYPE_PROPRIETE.ETA, TYPE_PROPRIETE.CUMA];

/** Pump types (B-MACH-07): g diesel, e electric. */
export const POMPES: readonly string[] = [TYPES_POMPE.GAZOLE, TYPES_POMPE.ELECTRIQUE];

/** Age choices (B-MACH-08): bought new (n) or used (o, occasion). */
export const NEUF_OCCASION = { NEUF: "n", OCCASION: "o" } as const;
export const NEUF_OCCASION_CHOIX: readonly string[] = [NEUF_OCCASION.NEUF, NEUF_OCCASION.OCCASION];

/** Co-ownership share, % (D-PM-2). */
export const COPROPRIETE = { min: 0, max: 100 } as const;

/** What the decimal columns of parc_materiel hold (costs and new price decimal(12,2), power (8,2), flow (10,3)). */
const MONTANT_MAX = 9_999_999_999.99;
const PUISSANCE_MAX = 999_999.99;
const DEBIT_MAX = 9_999_999.999;
/** Weight in kg and depreciation duration in years: integer columns. */
const POIDS_MAX = 2_147_483_647;
const DUREE_AMORTISSEMENT_MAX = 100;

const oneOf =
  <T extends string | number>(values: readonly T[]) =>
  (v: T | undefined) =>
    v === undefined || values.includes(v);

/**
 * The machine form (spec 2 §5 Machine; B-MACH-20 to B-MACH-28, B-CONST-01 to B-CONST-03).
 * Numbers accept the French decimal comma. noCategorie and idenBasemeq are not part of it: the server
 * derives them from the chosen category and characteristic.
 */
export const ParcMaterielSchema = z
  .object({
    libelle: requiredText({ max: 255 }),
    noClasse: requiredNumber({ integer: true }),
    idCategorieMateriel: requiredNumber({ integer: true }),
    idBasemeq: requiredNumber({ integer: true }),
    typePropriete: requiredNumber({ integer: true }).refine((v) => (TYPES_PROPRIETE as readonly number[]).includes(v), "warning.invalid"),
    copropriete: optionalNumber({ integer: true, ...COPROPRIETE }),
    poids: optionalNumber({ integer: true, min: 0, max: POIDS_MAX }),
    puissance: optionalNumber({ min: 0, max: PUISSANCE_MAX }),
    debit: optionalNumber({ min: 0, max: DEBIT_MAX }),
    neufOccasion: optionalText().refine(oneOf(NEUF_OCCASION_CHOIX), "warning.invalid"),
    ageAchat: optionalNumber({ integer: true, ...LIMITES_MATERIEL.ageAchat }),
    typePompe: optionalText().refine(oneOf(POMPES), "warning.invalid"),
    coutEntretienReparation: optionalNumber({ min: 0, max: MONTANT_MAX }),
    coutLocation: optionalNumber({ min: 0, max: MONTANT_MAX }),
    prixAchat: optionalNumber({ integer: true, ...LIMITES_MATERIEL.prixAchat }),
    prixNeuf: optionalNumber({ min: 0, max: MONTANT_MAX }),
    // The upper bound depends on the category (traction or not): checked below.
    utilisationAnnuelle: optionalNumber({ integer: true }),
    usure: optionalNumber({ integer: true, ...LIMITES_MATERIEL.usure }),
    obsolescence: optionalNumber({ integer: true, ...LIMITES_MATERIEL.obsolescence }),
    dureeAmortissement: optionalNumber({ integer: true, min: 0, max: DUREE_AMORTISSEMENT_MAX }),
    tauxRevente: optionalNumber(LIMITES_MATERIEL.tauxRevente),
    remarque: optionalText({ max: 4000, multiline: true }),
  })
  .superRefine(
    (data, ctx) => {
      const use = data.utilisationAnnuelle;
      if (typeof use !== "number" || !Number.isInteger(use)) return;
      const category = typeof data.idCategorieMateriel === "number" ? data.idCategorieMateriel : null;
      if (use < LIMITES_MATERIEL.utilisationAnnuelleTraction.min || use > annualUseMax(category)) {
        ctx.addIssue({ code: "custom", message: "warning.minmax", path: ["utilisationAnnuelle"] });
      }
    },
    // Also when another field failed, so the user sees every error at once.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
export type ParcMaterielInput = z.infer<typeof ParcMaterielSchema>;

/** The duplication dialog (spec 2 §2, §5 Duplication; B-MACH-29, B-MACH-30): ticked machines, folder, farm, at least one campaign. */
export const DuplicationParcMaterielSchema = z.object({
  ids: requiredArray(requiredNumber({ integer: true })),
  idDossier: requiredNumber({ integer: true }),
  idExploitation: requiredNumber({ integer: true }),
  campagnes: requiredArray(requiredNumber({ integer: true })),
});
export type DuplicationParcMaterielInput = z.infer<typeof DuplicationParcMaterielSchema>;

/** The reference lives of D-PM-1. */
export type ReferenceVies = { vieUsure?: number | null; vieObsolescence?: number | null; tauxRevente?: number | null };

type Num = number | null | undefined;
/** The machine fields the calculation reads, as stored or as typed in the form. */
export type MachineValues = {
  idCategorieMateriel?: Num;
  typePropriete: TypePropriete;
  copropriete?: Num;
  puissance?: Num;
  debit?: Num;
  prixAchat?: Num;
  prixNeuf?: Num;
  ageAchat?: Num;
  utilisationAnnuelle?: Num;
  utilisationAnnuelleCalculeeP?: Num;
  utilisationAnnuelleCalculeeR?: Num;
  usure?: Num;
  obsolescence?: Num;
  dureeAmortissement?: Num;
  tauxRevente?: Num;
  coutEntretienReparation?: Num;
  coutLocation?: Num;
};

/** The machine as machineCosts reads it: its own lives and resale rate, else those of its reference (D-PM-1). */
export function materielForCalc(m: MachineValues, reference?: ReferenceVies | null): Materiel {
  return {
    ...m,
    usure: m.usure ?? reference?.vieUsure ?? null,
    obsolescence: m.obsolescence ?? reference?.vieObsolescence ?? null,
    tauxRevente: m.tauxRevente ?? reference?.tauxRevente ?? null,
  };
}

/** A form value ("12,5", "", undefined) as a number for the live calculation; null when empty or not numeric. */
export function formNumber(value: unknown): number | null {
  const n = toNumber(value);
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}
