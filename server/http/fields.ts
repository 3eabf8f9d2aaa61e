import { z } from "zod";
import { MAX_IDS, optionalNumber, rowId } from "~/domain/validation";
import { ServiceError } from "../errors";

/**
 * The zod fields of the route adapter's envelope: the hidden fields a form or a list posts beside its
 * schema's fields (row id, updatedAt, selected ids as JSON). Every one is bounded, so bad input is a 400.
 */

export { MAX_IDS };

/** A row id (a positive integer the databases store). */
export const idField = rowId();

/** An optional row id: absent or "" for a new row. */
export const optionalIdField = z.preprocess((v) => (v === "" ? undefined : v), idField.optional());

/** An updatedAt token sent back by an edit form: absent (undefined), or the stamp the form was loaded with ("" = null). */
export const stampField = z
  .string()
  .max(64)
  .optional()
  .transform((v) => (v === undefined ? undefined : v || null));

/** The updatedAt token of an edit form (server/db/stale.ts): required, an edit without it is refused (400). */
export const tokenField = z.string({ error: "warning.required" }).min(1, "warning.required").max(64);

/** The token of a form whose row may not exist yet: required too; "" means the form saw no row (null). */
export const rowTokenField = z
  .string({ error: "warning.required" })
  .max(64)
  .transform((v) => v || null);

/** A JSON-encoded field (ids, rows, links); malformed JSON is a 400 with a message, never a 500. */
export function jsonField<T extends z.ZodType>(schema: T, maxLength = 1_000_000) {
  return z
    .string()
    .max(maxLength, "warning.too-many")
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "warning.invalid" });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

/** The ids of the selected rows of a list, sent as a JSON array. */
export const idsField = jsonField(z.array(idField).max(MAX_IDS, "warning.too-many"), MAX_IDS * 12);

const optionalRowId = z.preprocess((v) => (v === null || v === "" ? undefined : v), rowId().optional());
const boundedNumber = optionalNumber();

/**
 * A row id read by hand (a field of an upload, a part of the address): absent or blank gives null; anything but a
 * row id (2^31, "0x1A", "1e3") is a 400 naming the field, before any query (PostgreSQL would refuse it with a 500).
 */
export function fieldId(value: unknown, name: string): number | null {
  const r = optionalRowId.safeParse(typeof value === "string" || typeof value === "number" || value == null ? value : Number.NaN);
  if (!r.success) throw new ServiceError("warning.invalid", 400, { [name]: ["warning.invalid"] });
  return r.data ?? null;
}

/** The row id a route's address names (`:idSerie`): required; else a 400 naming it. */
export function paramId(params: Record<string, string | undefined>, name: string): number {
  const id = fieldId(params[name], name);
  if (id === null) throw new ServiceError("warning.invalid", 400, { [name]: ["warning.required"] });
  return id;
}

/** An id of the query string (?arbre=12): absent or blank gives null; anything but a row id is a 400, never a 500. */
export function queryId(query: URLSearchParams, name: string): number | null {
  return fieldId(query.get(name), name);
}

/** A number of the query string, bounded as every number (validation.ts): absent or blank gives null; else a 400. */
export function queryNumber(query: URLSearchParams, name: string): number | null {
  const r = boundedNumber.safeParse(query.get(name) ?? undefined);
  if (!r.success) throw new ServiceError("warning.invalid", 400, { [name]: ["warning.numeric"] });
  return r.data ?? null;
}

/**
 * Ids of the query string, repeated or in one value separated by commas or underscores (?parcelleId=1&parcelleId=2,
 * ?parcelleId=1,2, ?parcelleId=1_2): each a row id, at most MAX_IDS; else a 400. Long lists are written as one value
 * with underscores (`idsParam`): every repeated name, and every comma (escaped as %2C), costs each layer that parses
 * or writes the address again (decision 0083).
 */
export function queryIds(query: URLSearchParams, name: string): number[] {
  const values = query
    .getAll(name)
    .flatMap((v) => v.split(/[,_]/))
    .filter((v) => v !== "");
  if (values.length > MAX_IDS) throw new ServiceError("warning.too-many", 400, { [name]: ["warning.too-many"] });
  return values.map((v) => {
    const r = idField.safeParse(v);
    if (!r.success) throw new ServiceError("warning.invalid", 400, { [name]: ["warning.invalid"] });
    return r.data;
  });
}
