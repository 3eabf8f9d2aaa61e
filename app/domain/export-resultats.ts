import { z } from "zod";
import { GROUPES_INDICATEURS } from "./calc/indicateurs/catalogue";
import { flag, MAX_IDS, optionalText, rowId } from "./validation";

/**
 * The export-result form (spec 3 §3.15, §5, §9; checklist C-REXP-01..09): one schema for the dialog (conform)
 * and the server (the job's parameters). Decision 0058 says what each option writes.
 */

/** Export nature (spec 3 §3.15, §9): 0 raw data, 1 calculation results. */
export const NATURE_DONNEES_BRUTES = 0;
export const NATURE_CALCUL = 1;

/** The options of the form that tick a part of the workbook, in the dialog's order. */
export const OPTIONS_CONTENU = ["prevu", "realise", "alertes", "rendements", "donneesBrutes", "tcd1", "tcd2"] as const;
/** The levels (one sheet each), in the workbook's order. */
export const NIVEAUX_EXPORT = ["parcelle", "lot", "modeConduite", "culture", "exploitation"] as const;
export type NiveauExport = (typeof NIVEAUX_EXPORT)[number];

/** Repeated form values (one name, several checkboxes) or a typed list; nothing gives []. */
const liste = <T extends z.ZodType>(item: T, requis: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(item).min(1, requis).max(MAX_IDS, "warning.too-many"),
  );

export const ExportResultatsSchema = z
  .object({
    libelle: optionalText({ max: 100 }),
    version: z.preprocess((v) => (v === undefined || v === "" ? 2 : Number(v)), z.union([z.literal(1), z.literal(2)], { error: "warning.invalid" })),
    prevu: flag(),
    realise: flag(),
    alertes: flag(),
    rendements: flag(),
    donneesBrutes: flag(),
    tcd1: flag(),
    tcd2: flag(),
    parcelle: flag(),
    lot: flag(),
    modeConduite: flag(),
    culture: flag(),
    exploitation: flag(),
    groupes: liste(z.enum(GROUPES_INDICATEURS, { error: "warning.invalid" }), "exportResultats.groupe-requis"),
    nature: z.preprocess((v) => (v === undefined || v === "" ? NATURE_CALCUL : Number(v)), z.literal(NATURE_CALCUL, { error: "warning.invalid" })),
    calculsSeries: liste(rowId(), "exportResultats.serie-requise"),
    /** Sent when the locale is English (spec 3 §7): the workbook's texts in English. */
    anglais: flag(),
  })
  .superRefine((v, ctx) => {
    if (!v.prevu && !v.realise) ctx.addIssue({ code: "custom", path: ["realise"], message: "exportResultats.realisation-requise" });
    if (!NIVEAUX_EXPORT.some((n) => v[n])) ctx.addIssue({ code: "custom", path: ["exploitation"], message: "exportResultats.niveau-requis" });
  });

export type ExportResultats = z.output<typeof ExportResultatsSchema>;

/**
 * The form's initial values (spec 3 §9, C-REXP-03..05): every option ticked, nature 1, version 2, every group.
 * The series are those the screen ticked.
 */
export function valeursInitialesExport(calculsSeries: number[]): ExportResultats {
  return {
    libelle: undefined,
    version: 2,
    prevu: true,
    realise: true,
    alertes: true,
    rendements: true,
    donneesBrutes: true,
    tcd1: true,
    tcd2: true,
    parcelle: true,
    lot: true,
    modeConduite: true,
    culture: true,
    exploitation: true,
    groupes: [...GROUPES_INDICATEURS],
    nature: NATURE_CALCUL,
    calculsSeries,
    anglais: false,
  };
}

/** A ticked series as the refusal of duplicates needs it: its farm and its campaign label. */
export type SerieCochee = { id: number; idExploitation: number; exploitation: string; campagne: string };

/**
 * Two ticked series of the same farm and the same campaign label cannot go into one file (spec 3 §5, spec 1 §5;
 * C-REXP-08, A-PUB-09): the pairs found, as "farm — campaign" labels (empty when the export may go on).
 */
export function doublonsSeries(series: SerieCochee[]): string[] {
  const vues = new Map<string, number>();
  const doublons: string[] = [];
  for (const s of series) {
    const cle = `${s.idExploitation}\u0000${s.campagne}`;
    const n = (vues.get(cle) ?? 0) + 1;
    vues.set(cle, n);
    if (n === 2) doublons.push(`${s.exploitation} — ${s.campagne}`);
  }
  return doublons;
}

/** The product-style prefix of the workbook's name (spec 3 §9, C-REXP-19). */
export const PREFIXE_CLASSEUR = "Sillon";

/**
 * The workbook's file name (spec 3 §9, C-REXP-19): the product prefix, the words "export des indicateurs"
 * ("indicators export" in English) and the date (yyyy-mm-dd, Paris time), e.g.
 * "Sillon_export_des_indicateurs_2026-11-26.xlsx". Decision 0057: an .xlsx, not a macro-enabled .xlsm.
 */
export function nomClasseurResultats(date: Date, anglais = false): string {
  const jour = new Intl.DateTimeFormat("fr-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
  return `${PREFIXE_CLASSEUR}_${anglais ? "indicators_export" : "export_des_indicateurs"}_${jour}.xlsx`;
}
