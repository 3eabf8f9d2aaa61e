import { rowId } from "~/domain/validation";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { ServiceError, invalidField } from "../errors";
import { parseIntrant } from "../intervention/saison";
import { getIntrant, saveIntrant } from "./service";

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
