import { z } from "zod";
import { ELEMENTS, TYPE_INTRANT, type Element } from "./intrant";
import { decimalMax, flag, optionalNumber, optionalText, requiredNumber, requiredText } from "./validation";

/**
 * Unreferenced inputs of a folder (spec 3 §2.2, §3.5, §4.2, §5, §9; decision 0032): an input absent from the
 * reference catalogues, declared by the folder (origin 777) for seed, phyto, fertiliser or other input.
 */

/** The kinds of unreferenced input (C-UNREF-03). */
export const TYPES_INTRANT_DOSSIER = [TYPE_INTRANT.SEMENCE, TYPE_INTRANT.PHYTO, TYPE_INTRANT.FERTILISANT, TYPE_INTRANT.AUTRE] as const;
export type TypeIntrantDossier = (typeof TYPES_INTRANT_DOSSIER)[number];

/** Active-matter units of a phyto (spec 3 §9, C-UNREF-22). */
export const UNITES_MATIERE_ACTIVE = ["g/L", "%", "g/kg", "autre"] as const;

/** The warning before the dialog opens from an intervention (spec 3 §8, C-UNREF-04). */
export const CONFIRMATION_NON_REFERENCE = { titre: "ui.warning", texte: "interventions.show-unreferenced-input-confirmation" } as const;
/** A fertiliser's composition must total 100 % (spec 3 §5, C-UNREF-21). */
export const COMPOSITION_TOTAL_ERROR = "intrants-dossier.composition-100";

const percent = () => optionalNumber({ min: 0, max: 100 });
const composition = Object.fromEntries(ELEMENTS.map((e) => [e, percent()])) as Record<Element, ReturnType<typeof percent>>;

/** The sum of a composition's percentages given, to 3 decimals. */
export const totalComposition = (v: Partial<Record<Element, number | null | undefined>>) => Number(ELEMENTS.reduce((s, e) => s + (v[e] ?? 0), 0).toFixed(3));

/**
 * The dialog (C-UNREF-14..21): name required; the type required by kind (the species of a seed, the product type
 * of a phyto, the type of a fertiliser); the AMM code digits only; active matter and percentages numeric; a
 * fertiliser's composition, when given, totals 100 %.
 */
export const IntrantDossierSchema = z
  .object({
    dicIdTypeIntrant: requiredNumber({ integer: true }).refine((v) => (TYPES_INTRANT_DOSSIER as readonly number[]).includes(v), "warning.invalid"),
    libelle: requiredText({ max: 255 }),
    idCulture: optionalNumber({ integer: true, min: 1 }),
    idCategorie: optionalNumber({ integer: true, min: 1 }),
    code: optionalText({ max: 60 }),
    matiereActive: optionalNumber({ min: 0, max: decimalMax(12, 4) }),
    uniteMatActive: z.preprocess((v) => (v === "" ? undefined : v), z.enum(UNITES_MATIERE_ACTIVE, { error: "warning.invalid" }).optional()),
    biocontrole: flag(),
    remarque: optionalText({ max: 2000, multiline: true }),
    ...composition,
  })
  .superRefine((v, ctx) => {
    const need = (path: "idCulture" | "idCategorie") => {
      if (v[path] == null) ctx.addIssue({ code: "custom", path: [path], message: "warning.required" });
    };
    if (v.dicIdTypeIntrant === TYPE_INTRANT.SEMENCE) need("idCulture");
    if (v.dicIdTypeIntrant === TYPE_INTRANT.PHYTO || v.dicIdTypeIntrant === TYPE_INTRANT.FERTILISANT) need("idCategorie");
    if (v.dicIdTypeIntrant === TYPE_INTRANT.PHYTO && v.code != null && !/^\d+$/.test(v.code))
      ctx.addIssue({ code: "custom", path: ["code"], message: "warning.numeric" });
    if (v.dicIdTypeIntrant === TYPE_INTRANT.FERTILISANT && ELEMENTS.some((e) => v[e] != null) && Math.abs(totalComposition(v) - 100) > 0.001) {
      ctx.addIssue({ code: "custom", path: ["n"], message: COMPOSITION_TOTAL_ERROR });
    }
  });
export type IntrantDossierInput = z.infer<typeof IntrantDossierSchema>;
