import { z } from "zod";
import { flag, MAX_IDS, requiredNumber, rowId } from "./validation";

/**
 * Copy and duplication of interventions(spec 3 §2.3, §3.11, §5, §7; decision 0047). One schema per
 * dialog, shared by the browser and the server.
 */

const ids = (requiredKey: string) =>
  z.preprocess((v) => (v == null || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(rowId()).min(1, requiredKey).max(MAX_IDS, "warning.too-many"));

/** Export of the ticked interventions to plots of a folder's campaign (C-COPY-01..04). */
export const ExportInterventionsSchema = z.object({
  actionsSource: ids("warning.required"),
  dossierDestination: rowId(),
  campagneDestination: rowId(),
  parcellesDestination: ids("warning.required"),
  suppressionInterventionsParcellesDst: flag(),
});
export type ExportInterventionsInput = z.infer<typeof ExportInterventionsSchema>;

/** Import into the current plot of ticked interventions of another plot of the farm (C-COPY-05..07). */
export const ImportInterventionsSchema = z.object({
  idParcelle: rowId(),
  campagneSource: rowId(),
  actionsSource: ids("warning.required"),
});
export type ImportInterventionsInput = z.infer<typeof ImportInterventionsSchema>;

/** Duplication of a plot's interventions to plots of another (or the same) farm and campaign (C-COPY-08..13). */
export const DuplicationInterventionsSchema = z
  .object({
    dossierSource: rowId(),
    campagneSource: rowId(),
    parcelleSource: requiredNumber({ integer: true, min: 1 }),
    dossierDestination: rowId(),
    campagneDestination: rowId(),
    parcellesDestination: ids("warning.required"),
    suppressionInterventionsParcellesDst: flag(),
  })
  // The source plot is never a destination (C-COPY-13).
  .refine((v) => !v.parcellesDestination.includes(v.parcelleSource), { path: ["parcellesDestination"], message: "warning.invalid" });
export type DuplicationInterventionsInput = z.infer<typeof DuplicationInterventionsSchema>;

/**
 * Duplication of a campaign's interventions plot by plot (decision 0078): each source plot's interventions to its
 * destination plots, in one call. A source plot is never a destination, and a destination takes one source only.
 */
export const DuplicationCampagneInterventionsSchema = z
  .object({
    dossierSource: rowId(),
    campagneSource: rowId(),
    dossierDestination: rowId(),
    campagneDestination: rowId(),
    paires: z
      .array(z.object({ parcelleSource: rowId(), parcellesDestination: ids("warning.required") }))
      .min(1, "warning.required")
      .max(MAX_IDS, "warning.too-many"),
    suppressionInterventionsParcellesDst: flag(),
  })
  .refine(
    (v) => {
      const sources = new Set(v.paires.map((p) => p.parcelleSource));
      const destinations = v.paires.flatMap((p) => p.parcellesDestination);
      return new Set(destinations).size === destinations.length && destinations.every((d) => !sources.has(d));
    },
    { path: ["paires"], message: "warning.invalid" },
  );
export type DuplicationCampagneInterventionsInput = z.infer<typeof DuplicationCampagneInterventionsSchema>;

/** A plot's name as the duplication of several plots compares it: case, accents and spacing aside. */
export const foldPlotName = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

/**
 * The destination plot offered for each source plot of a duplication of several plots (decision 0123): the first
 * destination plot of the same name (folded), unless it is itself a source plot or already taken by an earlier source;
 * null when there is none.
 */
export function pairPlotsByName(sources: { id: number; libelle: string }[], destinations: { id: number; libelle: string }[]): Map<number, number | null> {
  const sourceIds = new Set(sources.map((s) => s.id));
  const byName = new Map<string, number[]>();
  for (const d of destinations) if (!sourceIds.has(d.id)) byName.set(foldPlotName(d.libelle), [...(byName.get(foldPlotName(d.libelle)) ?? []), d.id]);
  const taken = new Set<number>();
  const out = new Map<number, number | null>();
  for (const s of sources) {
    const found = (byName.get(foldPlotName(s.libelle)) ?? []).find((id) => !taken.has(id)) ?? null;
    if (found != null) taken.add(found);
    out.set(s.id, found);
  }
  return out;
}

/**
 * The form fields of the pairs of a duplication of several plots, as the dialog posts them (one request, read by
 * `DuplicationCampagneInterventionsSchema`): `paires[k].parcelleSource`, `paires[k].parcellesDestination` (repeated).
 */
export function pairesFormFields(paires: { parcelleSource: number; parcellesDestination: number[] }[]): [string, string][] {
  return paires.flatMap((p, k) => [
    [`paires[${k}].parcelleSource`, String(p.parcelleSource)] as [string, string],
    ...p.parcellesDestination.map((d) => [`paires[${k}].parcellesDestination`, String(d)] as [string, string]),
  ]);
}
