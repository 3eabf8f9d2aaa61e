import { IntrantDossierSchema } from "~/domain/intrant-dossier";
import { rowId } from "~/domain/validation";
import type { Scope } from "../access/scope";
import { invalidField, parse } from "../errors";
import { createIntrantDossier, getIntrantDossier, updateIntrantDossier } from "./non-reference";

/**
 * What the JSON API adds to the unreferenced inputs (issue 27, decision 0112): the folder's inputs written from the
 * dialog's fields through its service; the folder is the one through which the user works the campaign `campagne`.
 */

/** The campaign a body names (`campagne`), checked before anything else. */
export function campagneOf(body: Record<string, unknown>): number {
  const r = rowId().safeParse(body.campagne);
  if (!r.success) throw invalidField("campagne", body.campagne == null ? "warning.required" : "warning.invalid");
  return r.data;
}

/** POST intrant_dossiers: a new unreferenced input (origin 777) of the campaign's folder, answered as its dialog reads it. */
export async function createIntrantDossierApi(scope: Scope, body: Record<string, unknown>) {
  const { campagne: _c, ...raw } = body;
  void _c;
  return getIntrantDossier(scope, await createIntrantDossier(scope, parse(IntrantDossierSchema.strict(), raw)));
}

/** PATCH intrant_dossiers/{id}: its fields (a fertiliser's percentages too), updatedAt as read; the inputs using it are relabelled. */
export async function updateIntrantDossierApi(scope: Scope, id: number, body: Record<string, unknown>) {
  const { campagne: _c, updatedAt, ...raw } = body;
  void _c;
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  const { relabelled } = await updateIntrantDossier(scope, { id, updatedAt }, parse(IntrantDossierSchema.strict(), raw));
  return { ...(await getIntrantDossier(scope, id)), relabelled };
}
