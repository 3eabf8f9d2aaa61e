import { z } from "zod";
import { noControlCharacter, rowId } from "./validation";

/**
 * The export request (spec 1 §3 "Export request payload", §7 POST session_exports; A-EXPORT-11, 12): what the raw-data
 * export screen (nature 0) and the result export dialog (nature 1) post. Lists travel as JSON texts.
 */
export const NATURE_DONNEES_BRUTES = 0;
export const NATURE_CALCUL = 1;
export const VERSION_EXPORT_DEFAUT = 2;
export const STATUT_SESSION = { termine: 0, enCours: 1, erreur: 2 } as const;

const ids = z.array(rowId()).max(500, "warning.too-many");
const jsonIds = z
  .string()
  .max(10_000)
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "warning.invalid" });
      return z.NEVER;
    }
  })
  .pipe(ids);

export const DemandeExportSchema = z.object({
  libelle: z.string().trim().max(200, "warning.invalid").check(noControlCharacter()).optional().default(""),
  nature: z.coerce.number().int().min(0).max(1),
  version: z.coerce.number().int().min(1).max(2).default(VERSION_EXPORT_DEFAUT),
  anglais: z.preprocess((v) => v === true || v === "true" || v === "1" || v === "on", z.boolean()).default(false),
  campagnes: jsonIds.refine((l) => l.length > 0, "warning.required"),
  groupes: jsonIds.refine((l) => l.length > 0, "warning.required"),
  series: jsonIds.optional(),
  /** Nature 1: the result-export options, a JSON object of booleans. */
  options: z
    .string()
    .max(2000)
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      try {
        return z.record(z.string(), z.boolean()).parse(JSON.parse(s));
      } catch {
        ctx.addIssue({ code: "custom", message: "warning.invalid" });
        return z.NEVER;
      }
    }),
});
export type DemandeExport = z.infer<typeof DemandeExportSchema>;

/** The session's status text (A-EXPORT-17..19): download at 0, error at 2, in progress otherwise. */
export function etatSession(s: { statut: number | null; dtFinSession: string | null }): "termine" | "erreur" | "en-cours" {
  if (s.statut === STATUT_SESSION.termine) return "termine";
  if (s.statut === STATUT_SESSION.erreur) return "erreur";
  return "en-cours";
}
