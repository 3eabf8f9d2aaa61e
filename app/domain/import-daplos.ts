import { z } from "zod";
import { optionalNumber, requiredNumber } from "./validation";

/**
 * The Daplos import form (spec 3 §2.10, §5, §9; decisions 0094, 0108): a destination network and a `.dap` or `.edi`
 * flat file or an eDaplos `.xml` message, both required; and the states of an import record (§4.5). Shared by the import screen and the service.
 */

export const EXTENSIONS_DAPLOS = [".dap", ".edi", ".xml"] as const;

/** The extension is .dap or .edi (C-DAP-07) or, for eDaplos, .xml (decision 0108), in any case; the content is checked by the reader. */
export const estFichierDaplos = (nom: string) => EXTENSIONS_DAPLOS.some((e) => nom.toLowerCase().endsWith(e));

/** A file as the form or the route hands it over: its name and size (the bytes travel apart). */
const fichier = z.preprocess(
  (v) => (v && typeof v === "object" && "name" in v ? { name: (v as { name: unknown }).name, size: (v as { size?: unknown }).size } : v),
  z
    .object({ name: z.string(), size: z.number().optional() }, { error: "warning.required" })
    .refine((f) => f.name.trim().length > 0 && f.size !== 0, "warning.required")
    .refine((f) => estFichierDaplos(f.name), "daplos.extension"),
);

export const ImportDaplosSchema = z.object({
  idOad: requiredNumber({ integer: true, min: 1 }),
  idDossier: optionalNumber({ integer: true, min: 1 }),
  fichier,
});
export type ImportDaplosInput = z.infer<typeof ImportDaplosSchema>;

export type EtatImport = "en_cours" | "termine" | "echec";

/** §4.5: in progress without an end date, finished with one, failed when the message holds the word echec. */
export function etatImport(row: { dtFinImport: string | null; message: string | null }): EtatImport {
  if (row.message && /echec|échec/i.test(row.message)) return "echec";
  return row.dtFinImport ? "termine" : "en_cours";
}
