import { z } from "zod";
import { rowId } from "~/domain/validation";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { ServiceError, invalidField, parseStrict } from "../errors";
import { intrantCampaign, parseIntrant } from "../intervention/saison";
import {
  getCaracteristiqueIntrant,
  getCiblesIntrant,
  getIntrant,
  intrantOfCaracteristique,
  intrantOfCible,
  saveCaracteristiqueIntrant,
  saveCiblesIntrant,
  saveIntrant,
} from "./service";

/**
 * What the JSON API adds to the inputs (issue 27, decision 0112): an input created or updated from `{ type, ...the
 * input form's fields of that type }` through the dialog's service (saveIntrant: rights, lock, catalogue checks,
 * characteristics and targets in one transaction), and the campaign of the intervention a body names.
 */

/** The intervention a body names (`idAction`), checked before anything else. */
export function idActionOf(body: Record<string, unknown>): number {
  const r = rowId().safeParse(body.idAction);
  if (!r.success) throw invalidField("idAction", body.idAction == null ? "warning.required" : "warning.invalid");
  return r.data;
}

async function idActionOfIntrant(db: Db, id: number): Promise<number> {
  const r = await db("intrant").where({ id }).first("idAction");
  if (!r) throw new ServiceError("errors.not-found", 404);
  return Number(r.idAction);
}

/** POST intrants: a new input of the intervention idAction; answers it as its dialog reads it. */
export async function createIntrantApi(scope: Scope, body: Record<string, unknown>) {
  const { idAction: _a, ...raw } = body;
  void _a;
  const idAction = idActionOf(body);
  const { kind, values } = parseIntrant(raw);
  return getIntrant(scope, await saveIntrant(scope, idAction, kind, values));
}

/** PATCH intrants/{id}: the input's fields of its type (the same type: another is a 404), updatedAt as read. */
export async function updateIntrantApi(scope: Scope, id: number, body: Record<string, unknown>) {
  const { updatedAt, ...raw } = body;
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  const { kind, values } = parseIntrant(raw);
  await saveIntrant(scope, await idActionOfIntrant(scope.db, id), kind, values, { id, updatedAt });
  return getIntrant(scope, id);
}

// ---- characteristics and targets on their own (decision 0141)

const orNotFound = (id: number | null): number => {
  if (id == null) throw new ServiceError("errors.not-found", 404);
  return id;
};

/** The input of a characteristics row (404: none). */
export async function intrantOfCaracteristiqueRow(db: Db, id: number): Promise<number> {
  return orNotFound(await intrantOfCaracteristique(db, id));
}

/** The input of a targets row (404: none). */
export async function intrantOfCibleRow(db: Db, id: number): Promise<number> {
  return orNotFound(await intrantOfCible(db, id));
}

/** The campaign of a characteristics row, through its input. */
export async function caracteristiqueIntrantCampaign(db: Db, id: number): Promise<number | null> {
  const idIntrant = await intrantOfCaracteristique(db, id);
  return idIntrant == null ? null : intrantCampaign(db, idIntrant);
}

/** The campaign of a targets row, through its input. */
export async function cibleIntrantCampaign(db: Db, id: number): Promise<number | null> {
  const idIntrant = await intrantOfCible(db, id);
  return idIntrant == null ? null : intrantCampaign(db, idIntrant);
}

/** The input a body names (`intrant`), checked before anything else. */
export function intrantOf(body: Record<string, unknown>): number {
  const r = rowId().safeParse(body.intrant);
  if (!r.success) throw invalidField("intrant", body.intrant == null ? "warning.required" : "warning.invalid");
  return r.data;
}

const token = (updatedAt: unknown): string => {
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  return updatedAt;
};

/** POST/PATCH caracteristique_intrants: the input's characteristic fields, its updatedAt as read; answers the row. */
export async function saveCaracteristiqueIntrantApi(scope: Scope, idIntrant: number, body: Record<string, unknown>) {
  const { intrant: _i, updatedAt, ...values } = body;
  void _i;
  await saveCaracteristiqueIntrant(scope, idIntrant, values, token(updatedAt));
  return getCaracteristiqueIntrant(scope, idIntrant);
}

/** An empty target id (null, "") is dropped (C-API-09); the others are row ids. */
const IdCibles = z.array(z.preprocess((v) => (v === "" ? null : v), rowId().nullable())).max(20, "warning.too-many");

/**
 * POST/PATCH intrant_cibles: the input's targets (idCibles), its updatedAt as read; answers the row. uniteRefCible1
 * is accepted as the spec sends it but not stored: the unit is the first target's reference dose's, copied at save.
 */
export async function saveCiblesIntrantApi(scope: Scope, idIntrant: number, body: Record<string, unknown>) {
  const { idCibles, updatedAt } = parseStrict(
    z.strictObject({
      intrant: z.unknown().optional(),
      id: z.unknown().optional(),
      uniteRefCible1: z.string().max(60).nullable().optional(),
      idCibles: IdCibles,
      updatedAt: z.unknown(),
    }),
    body,
  );
  await saveCiblesIntrant(scope, idIntrant, idCibles, token(updatedAt));
  return getCiblesIntrant(scope, idIntrant);
}
