import { z } from "zod";
import { ELEMENTS, TYPE_INTRANT } from "~/domain/intrant";
import { IntrantDossierSchema } from "~/domain/intrant-dossier";
import { rowId } from "~/domain/validation";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { invalidField, parse, parseStrict, ServiceError } from "../errors";
import { compositionIdDe, intrantDeComposition } from "./repo";
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

// ---- fertilisant_compo_dossiers (decision 0141): a folder fertiliser's composition, written through the input's dialog

/** The unreferenced input a body names (`intrantDossier`), checked before anything else. */
export function intrantDossierOf(v: unknown): number {
  const r = rowId().safeParse(v);
  if (!r.success) throw invalidField("intrantDossier", v == null ? "warning.required" : "warning.invalid");
  return r.data;
}

/** The unreferenced input of a composition row (null: none). */
export function intrantOfComposition(db: Db, id: number): Promise<number | null> {
  return intrantDeComposition(db, id);
}

/** The composition of a fertiliser of the campaign's folder: its row id (null: none yet), the percentages, the input's token. */
export async function getFertilisantCompo(scope: Scope, idIntrantDossier: number) {
  const d = await getIntrantDossier(scope, idIntrantDossier);
  if (d.dicIdTypeIntrant !== TYPE_INTRANT.FERTILISANT) throw new ServiceError("errors.not-found", 404);
  return {
    id: await compositionIdDe(scope.db, idIntrantDossier),
    intrantDossier: d.id,
    ...Object.fromEntries(ELEMENTS.map((e) => [e, d.composition?.[e] ?? null])),
    updatedAt: d.updatedAt,
  };
}

const CompositionBody = z.strictObject(Object.fromEntries(ELEMENTS.map((e) => [e, z.unknown().optional()])));

/**
 * Writes the percentages of a folder fertiliser: the unreferenced input's dialog fields as stored, the percentages
 * changed, parsed with its schema (a total of 100 %) and saved by its service (animation right, the inputs made
 * from it updated too), the input's updatedAt as read (stale: 409).
 */
export async function saveFertilisantCompo(scope: Scope, idIntrantDossier: number, values: Record<string, unknown>, updatedAt: unknown) {
  const sent = parseStrict(CompositionBody, values);
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  const d = await getIntrantDossier(scope, idIntrantDossier);
  if (d.dicIdTypeIntrant !== TYPE_INTRANT.FERTILISANT) throw invalidField("intrantDossier");
  const fields: Record<string, unknown> = {
    dicIdTypeIntrant: d.dicIdTypeIntrant,
    libelle: d.libelle,
    idCategorie: d.idCategorie ?? undefined,
    code: d.code ?? undefined,
    remarque: d.remarque ?? undefined,
    ...Object.fromEntries(ELEMENTS.map((e) => [e, (e in sent ? sent[e] : d.composition?.[e]) ?? undefined])),
  };
  await updateIntrantDossier(scope, { id: idIntrantDossier, updatedAt }, parse(IntrantDossierSchema, fields));
  return getFertilisantCompo(scope, idIntrantDossier);
}
