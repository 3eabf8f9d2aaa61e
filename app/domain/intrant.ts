import { z } from "zod";
import { convertirDose } from "./calc/indicateurs/ift-doses";
import { decimalMax, optionalNumber, requiredNumber, requiredText } from "./validation";

/**
 * Inputs of an intervention (spec 3 §2.2, §3.2–3.3, §4.1, §5, §9): the five dialogs' schemas (browser and
 * server) and the conversions they show.
 */

/** Input type codes (spec 3 §9). */
export const TYPE_INTRANT = { SEMENCE: 538, PHYTO: 539, FERTILISANT: 540, EAU: 542, AUTRE: 543 } as const;
export type TypeIntrant = (typeof TYPE_INTRANT)[keyof typeof TYPE_INTRANT];
export const TYPES_INTRANT = Object.values(TYPE_INTRANT) as TypeIntrant[];

/** Input origins (spec 3 §9): 773 reference with a reference price, 776 reference, 777 the folder's own input. */
export const ORIGINE_INTRANT = { REFERENCE_PRIX: 773, REFERENCE: 776, DOSSIER: 777 } as const;
export const ORIGINES_INTRANT = Object.values(ORIGINE_INTRANT);

/** Water is the reference input 20011 of origin 776 (C-WATER-06). */
export const EAU = { idIntrant: 20011, origine: ORIGINE_INTRANT.REFERENCE } as const;

/** Fertiliser type 657 (solid organic products) defaults to t/ha, the others to kg/ha (C-FERT-11, 12). */
export const TYPE_FERTILISANT_TONNES = 657;

export const UNITES = {
  semence: ["l/q", "kg/q", "l/ha", "kg/ha"],
  // Per-hectolitre doses as labels give them (decision 0085): converted through the operation's spray volume.
  phyto: ["l/ha", "kg/ha", "l/hl", "kg/hl"],
  fertilisant: ["l/ha", "kg/ha", "t/ha"],
  eau: ["mm"],
  autre: ["autre"],
} as const;
export const UNITE_SEMENCE_DEFAUT = "kg/ha";

/** Up to four targets per phyto input, the first being the main one (spec 3 §9). */
export const MAX_CIBLES = 4;

/** Composition elements (spec 3 §9): the first four shown, the others in the expandable trace-element list. */
export const ELEMENTS_PRINCIPAUX = ["n", "p2o5", "k2o", "so3"] as const;
export const OLIGO_ELEMENTS = ["mgo", "cao", "na2o", "cu", "mn", "b", "fe", "mo", "co"] as const;
export const ELEMENTS = [...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS] as const;
export type Element = (typeof ELEMENTS)[number];

export const SUM_PERCENTAGE_ERROR = "interventions.confirm-error-sum-percentage";

const QUANTITE_MAX = decimalMax(14, 4);
const quantite = () => requiredNumber({ min: 0, max: QUANTITE_MAX });
const id = () => requiredNumber({ integer: true, min: 1 });
const optionalId = () => optionalNumber({ integer: true, min: 1 });
const unit = <T extends readonly [string, ...string[]]>(units: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.enum(units, { error: (iss) => (iss.input === undefined ? "warning.required" : "warning.invalid") }));
const percent = () => optionalNumber({ min: 0, max: 100 });
const origine = () => requiredNumber({ integer: true }).refine((v) => (ORIGINES_INTRANT as number[]).includes(v), "warning.invalid");

/** The catalogue row an input names (its origin says which catalogue). */
const produit = { idIntrant: id(), origine: origine() };

/** Seed (538): species, variety, dose and unit, the seed shares, and a treatment on a new seed only. */
export const SemenceSchema = z
  .object({
    idCulture: id(),
    ...produit,
    quantite: quantite(),
    dicLlUnite: unit(UNITES.semence),
    semenceFerme: percent(),
    semenceCertifiee: percent(),
    semenceOgm: percent(),
    idTraitement: optionalId(),
    origineTraitement: optionalNumber({ integer: true }),
    quantiteTraitement: optionalNumber({ min: 0, max: QUANTITE_MAX }),
    uniteTraitement: z.preprocess((v) => (v === "" ? undefined : v), z.enum(UNITES.phyto, { error: "warning.invalid" }).optional()),
  })
  .superRefine((v, ctx) => {
    // Farm-saved plus certified seed total 100 (C-SEED-15), as soon as one share is given.
    if ((v.semenceFerme != null || v.semenceCertifiee != null) && (v.semenceFerme ?? 0) + (v.semenceCertifiee ?? 0) !== 100) {
      ctx.addIssue({ code: "custom", path: ["semenceCertifiee"], message: SUM_PERCENTAGE_ERROR });
    }
    if (v.idTraitement != null) {
      if (v.quantiteTraitement == null) ctx.addIssue({ code: "custom", path: ["quantiteTraitement"], message: "warning.required" });
      if (v.uniteTraitement == null) ctx.addIssue({ code: "custom", path: ["uniteTraitement"], message: "warning.required" });
    }
  });
export type SemenceInput = z.infer<typeof SemenceSchema>;

/** Phyto (539): product, applied dose and unit, up to four distinct targets; the dose per reference unit numeric. */
export const PhytoSchema = z
  .object({
    ...produit,
    quantite: quantite(),
    dicLlUnite: unit(UNITES.phyto),
    cible1: optionalId(),
    cible2: optionalId(),
    cible3: optionalId(),
    cible4: optionalId(),
    doseReference: optionalNumber({ min: 0, max: QUANTITE_MAX }),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    for (const key of ["cible1", "cible2", "cible3", "cible4"] as const) {
      const c = v[key];
      if (c == null) continue;
      if (seen.has(c)) ctx.addIssue({ code: "custom", path: [key], message: "warning.invalid" });
      seen.add(c);
    }
  });
export type PhytoInput = z.infer<typeof PhytoSchema>;

/** The targets of a phyto input in their order, the first being the main one (gaps closed). */
export const ciblesOf = (v: Pick<PhytoInput, "cible1" | "cible2" | "cible3" | "cible4">): number[] =>
  [v.cible1, v.cible2, v.cible3, v.cible4].filter((c): c is number => c != null);

const composition = Object.fromEntries(ELEMENTS.map((e) => [e, percent()])) as Record<Element, ReturnType<typeof percent>>;

/** Fertiliser (540): type, product, dose and unit; the custom composition numeric (%). */
export const FertilisantSchema = z.object({
  idCategorie: id(),
  ...produit,
  quantite: quantite(),
  dicLlUnite: unit(UNITES.fertilisant),
  ...composition,
});
export type FertilisantInput = z.infer<typeof FertilisantSchema>;

/** Water (542): type and quantity in mm. */
export const EauSchema = z.object({
  idCategorie: id(),
  quantite: quantite(),
  dicLlUnite: unit(UNITES.eau),
});
export type EauInput = z.infer<typeof EauSchema>;

/** Other input (543): name and quantity, unit 'autre'; the reference row when picked from the list. */
export const AutreSchema = z.object({
  idCategorie: id(),
  libelle: requiredText({ max: 255 }),
  idIntrant: optionalId(),
  quantite: quantite(),
  dicLlUnite: unit(UNITES.autre),
});
export type AutreInput = z.infer<typeof AutreSchema>;

/** The unit a fertiliser type starts with (C-FERT-09, 11, 12). */
export const uniteFertilisantParDefaut = (idCategorie: number | null | undefined): "t/ha" | "kg/ha" =>
  idCategorie === TYPE_FERTILISANT_TONNES ? "t/ha" : "kg/ha";

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/**
 * The applied dose in the reference dose's unit (C-CONST-01..03): l/ha against L/HL, or kg/ha against KG/HL,
 * is 100 × dose / spray volume (L/ha); l/hl against L/HA is dose × spray volume / 100; the same base is the dose
 * itself; any other pair is the dose itself (C-CONST-03: the engine counts it by default, AV4). Null when a spray
 * volume is needed and missing. The engine's own conversion (calc/indicateurs/ift-doses.ts), so the dialog shows
 * what the IFT divides.
 */
export function doseEnUniteReference(
  dose: number,
  unite: string,
  uniteReference: string | null | undefined,
  volumeBouillie: number | null | undefined,
): number | null {
  const c = convertirDose(dose, unite, uniteReference, volumeBouillie);
  if ("valeur" in c) return c.valeur;
  return c.raison === "volumeBouillie" ? null : dose;
}

/** A composition percentage as kg/ha of the element (C-CONST-04, 05): dose × % / 100, × 1000 for t/ha; 2 decimals. */
export function compositionKgHa(dose: number, pourcentage: number, unite: string): number {
  const kg = (dose * pourcentage) / 100;
  return round(unite === "t/ha" ? kg * 1000 : kg, 2);
}

export const MESURES_CONVERSION = ["grains-m2", "grains-ha", "dose-ha"] as const;
export type MesureConversion = (typeof MESURES_CONVERSION)[number];
export const CONVERSION_ERRORS = {
  densitePmg: "Veuillez sélectionner une densité et un PMG!",
  dose: "Veuillez sélectionner une quantité de graines/dose!",
} as const;

/**
 * The seed conversion sub-form (C-CONST-06..08, C-SEED-20..22), result to 3 decimals:
 * Grains/m2 = density × TGW / 100; Grains/ha = density × TGW / 1,000,000; Dose/ha = density × grain dose × TGW / 1,000,000 (kg/ha).
 */
export function conversionSemence(
  mesure: MesureConversion,
  v: { densite?: number | null; pmg?: number | null; doseGrains?: number | null },
): { ok: true; value: number } | { ok: false; error: string } {
  if (v.densite == null || v.pmg == null) return { ok: false, error: CONVERSION_ERRORS.densitePmg };
  if (mesure === "grains-m2") return { ok: true, value: round((v.densite * v.pmg) / 100, 3) };
  if (mesure === "grains-ha") return { ok: true, value: round((v.densite * v.pmg) / 1_000_000, 3) };
  if (v.doseGrains == null) return { ok: false, error: CONVERSION_ERRORS.dose };
  return { ok: true, value: round((v.densite * v.doseGrains * v.pmg) / 1_000_000, 3) };
}

/** Quantities are shown to 4 decimals (C-CONST-09). */
export const QUANTITE_DECIMALES = 4;

export type IntrantDetail = {
  id: number;
  type: number;
  libelle: string;
  quantite: number | null;
  unite: string | null;
  /** Set for an input made from an unreferenced input of the folder (origin 777): that input's id (decision 0032). */
  idIntrantDossier?: number;
};
