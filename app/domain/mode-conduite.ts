import { z } from "zod";
import { decimalMax, MAX_IDS, optionalNumber, optionalText, requiredArray, requiredNumber, requiredText } from "./validation";

/**
 * Crop management modes (spec 2 §2 "Crops", §3 Crop management mode, Mode-conduite-culture, Crop
 * insurance, §4, §5 Crop and Duplication). One schema for the form, used by the browser (conform) and
 * by the server (the action parses with it). Decisions: docs/decisions/0010-cultures.md.
 */

/** Codes of categorie_culture (seeds/reference/categorie-culture.json; 9017 is the main-crop category). */
export const CATEGORIE_CULTURE = { PRINCIPALE: "principale", INTERMEDIAIRE: "intermediaire", DEROBEE: "derobee" } as const;
export type CodeCategorieCulture = (typeof CATEGORIE_CULTURE)[keyof typeof CATEGORIE_CULTURE];
export const ID_CATEGORIE_PRINCIPALE = 9017;

/** Grazing is counted in days, not tonnes (docs/data-model.md §3). */
export const TYPE_SORTIE_PATURAGE = 671;

/** Franchise (deductible) bounds: a share of the insured yield, in percent (D-CULT-4). */
export const FRANCHISE_MIN = 0;
export const FRANCHISE_MAX = 100;

const id = () => optionalNumber({ integer: true });

/** A crop row (modeConduiteCultureList item): the crop is required (B-CROP-13); category and qualifier optional. */
export const ModeConduiteCultureSchema = z.object({
  id: id(),
  idCulture: requiredNumber({ integer: true }),
  idCatCulture: id(),
  idQualifiant: id(),
});
export type ModeConduiteCultureInput = z.infer<typeof ModeConduiteCultureSchema>;

/** The insurance values typed by the user (the calculated ones come from the estimate). */
export const ASSURANCE_SAISIE = ["mtCotisationAssurance", "mtIndemniteSaisie", "rendementAssure", "mtPrixAssure", "txFranchise"] as const;

const isFilled = (v: unknown) => v !== undefined && v !== null && v !== "";

/** The insurance's fields, every amount numeric (B-INS-09 to B-INS-11). */
export const AssuranceFields = z.object({
  idCulture: id(),
  idTypeSortie: id(),
  mtCotisationAssurance: optionalNumber({ min: 0 }),
  mtIndemniteSaisie: optionalNumber({ min: 0 }),
  rendementAssure: optionalNumber({ min: 0, max: decimalMax(10, 3) }),
  mtPrixAssure: optionalNumber({ min: 0 }),
  txFranchise: optionalNumber({ min: FRANCHISE_MIN, max: FRANCHISE_MAX }),
});

/** The insured crop is required as soon as any value is filled; the output type is required once a crop is chosen. */
export function assuranceRules(a: z.infer<typeof AssuranceFields>, ctx: z.RefinementCtx): void {
  const anyValue = ASSURANCE_SAISIE.some((k) => isFilled(a[k])) || isFilled(a.idTypeSortie);
  if (anyValue && !isFilled(a.idCulture)) ctx.addIssue({ code: "custom", message: "warning.required", path: ["idCulture"] });
  if (isFilled(a.idCulture) && !isFilled(a.idTypeSortie)) ctx.addIssue({ code: "custom", message: "warning.required", path: ["idTypeSortie"] });
}

/** The crop insurance panel of the mode's form: its fields and rules, an absent panel being an empty one. */
export const AssuranceSchema = z.preprocess((v) => (v === undefined || v === null || v === "" ? {} : v), AssuranceFields).superRefine(assuranceRules);
export type AssuranceInput = z.infer<typeof AssuranceSchema>;

/** True when the panel holds an insurance to store (an insured crop; the rules above make it complete). */
export const hasAssurance = (a: AssuranceInput | undefined): boolean => isFilled(a?.idCulture);

/** The crop management mode form (B-CROP-02, B-CROP-11 to B-CROP-13, B-INS-09 to B-INS-11). */
export const ModeConduiteSchema = z.object({
  libelle: requiredText({ max: 255 }),
  aideCouplee: optionalNumber(),
  dicIdCatCompetilis: id(),
  remarque: optionalText({ max: 4000, multiline: true }),
  cultures: z.preprocess((v) => (v === undefined || v === null || v === "" ? [] : v), z.array(ModeConduiteCultureSchema).max(MAX_IDS, "warning.too-many")),
  assurance: AssuranceSchema,
});
export type ModeConduiteInput = z.infer<typeof ModeConduiteSchema>;

/** The estimate request (B-INS-05, B-INS-06): crop, output type and management mode all set. */
export const EstimationSchema = z.object({
  idModeConduite: requiredNumber({ integer: true }),
  idCulture: requiredNumber({ integer: true }),
  idTypeSortie: requiredNumber({ integer: true }),
  rendementAssure: optionalNumber({ min: 0, max: decimalMax(10, 3) }),
  txFranchise: optionalNumber({ min: FRANCHISE_MIN, max: FRANCHISE_MAX }),
  mtPrixAssure: optionalNumber({ min: 0 }),
});
export type EstimationInput = z.infer<typeof EstimationSchema>;

/** The duplication dialog (spec 2 §2, §5 Duplication; B-CROP-14, B-CROP-15): ticked modes, folder, farm, at least one campaign. */
export const DuplicationModeConduiteSchema = z.object({
  ids: requiredArray(requiredNumber({ integer: true })),
  idDossier: requiredNumber({ integer: true }),
  idExploitation: requiredNumber({ integer: true }),
  campagnes: requiredArray(requiredNumber({ integer: true })),
});
export type DuplicationModeConduiteInput = z.infer<typeof DuplicationModeConduiteSchema>;

export type NbCultures = { nbCulturesPrincipales: number; nbCulturesIntermediaires: number; nbCulturesDerobees: number };

/**
 * The counts of a mode (B-CROP-05): its rows by crop category. A row without a category counts in its
 * crop's default category (`categorieParDefaut`); a row with neither is not counted.
 */
export function compterCultures(
  rows: readonly { idCulture?: number | null; idCatCulture?: number | null }[],
  codeDeCategorie: (idCatCulture: number) => string | undefined,
  categorieParDefaut: (idCulture: number) => number | null | undefined = () => null,
): NbCultures {
  const counts: NbCultures = { nbCulturesPrincipales: 0, nbCulturesIntermediaires: 0, nbCulturesDerobees: 0 };
  for (const row of rows) {
    const idCat = row.idCatCulture ?? (row.idCulture != null ? categorieParDefaut(row.idCulture) : null);
    const code = idCat != null ? codeDeCategorie(idCat) : undefined;
    if (code === CATEGORIE_CULTURE.PRINCIPALE) counts.nbCulturesPrincipales += 1;
    else if (code === CATEGORIE_CULTURE.INTERMEDIAIRE) counts.nbCulturesIntermediaires += 1;
    else if (code === CATEGORIE_CULTURE.DEROBEE) counts.nbCulturesDerobees += 1;
  }
  return counts;
}
