import { z } from "zod";
import { INT_MAX, MAX_IDS, rowId } from "./validation";

/**
 * The body of a grid's save (docs/architecture.md, "A grid"): the changed rows as patches, each with its id, the
 * updatedAt token it was loaded with (the stale check, server/db/stale.ts) and its values, checked with the row
 * schema the form uses. The browser builds it (app/components/grid/patches.ts), the route action reads it from a
 * form field holding JSON (`jsonField(rowPatchesSchema(RowSchema))`), the server applies it
 * (server/db/row-patches.ts).
 *
 * - `id` > 0: an existing row, whose `updatedAt` is required (an edit without its token is refused);
 * - `id` < 0 or null: a row appended in the grid (a negative id is the grid's temporary id, which the answer
 *   gives back with the new id); `updatedAt` is then null or absent.
 */

/** The field of the form the grid posts, holding the patches as JSON. */
export const PATCHES_FIELD = "patches";

/** At most this many rows in one save (a paste of a whole season): more is refused before any query. */
export const MAX_PATCHES = MAX_IDS;

const tempId = z.number({ error: "warning.invalid" }).int("warning.invalid").lt(0, "warning.invalid").gte(-INT_MAX, "warning.invalid");

/** A patch's row: an existing id, a temporary (negative) id, or null. */
export const patchIdSchema = z.union([rowId(), tempId, z.null()], { error: "warning.invalid" });

const token = z.string().max(64).nullish();

/** A patch whose values are not judged yet: the envelope the server checks row by row (server/db/row-patches.ts). */
export const rawPatchSchema = z.object({
  id: patchIdSchema,
  updatedAt: token,
  values: z.record(z.string(), z.unknown()),
});
export type RawRowPatch = z.infer<typeof rawPatchSchema>;

/** The key that names a patch's row in answers and field errors: its id, or "@<index>" for a new row without one. */
export const patchKey = (patch: { id: number | null }, index: number) => (patch.id === null ? `@${index}` : String(patch.id));

function checkEnvelope(patches: readonly { id: number | null; updatedAt?: string | null }[], ctx: z.RefinementCtx, at: string[] = ["patches"]) {
  const seen = new Set<number>();
  patches.forEach((p, i) => {
    if (p.id !== null && p.id > 0 && !p.updatedAt) ctx.addIssue({ code: "custom", message: "warning.required", path: [...at, i, "updatedAt"] });
    if (p.id !== null) {
      if (seen.has(p.id)) ctx.addIssue({ code: "custom", message: "warning.invalid", path: [...at, i, "id"] });
      seen.add(p.id);
    }
  });
}

/** The envelope alone (ids, tokens, bounds), values unjudged: what the server helper reads before its row checks. */
export const rawPatchesSchema = z
  .object({ patches: z.array(rawPatchSchema).max(MAX_PATCHES, "warning.too-many") })
  .superRefine((v, ctx) => checkEnvelope(v.patches, ctx));

/**
 * The patches of a grid whose rows follow `rowSchema`: `[{ id, updatedAt, values }]`, each row's values parsed by
 * the schema (its French decimals, dates, bounds), updatedAt required for an existing row, each id once. What the
 * form field `patches` holds as JSON: a route reads it with `jsonField(rowPatchListSchema(RowSchema))`.
 */
export function rowPatchListSchema<S extends z.ZodType>(rowSchema: S) {
  return z
    .array(z.object({ id: patchIdSchema, updatedAt: token, values: rowSchema }))
    .max(MAX_PATCHES, "warning.too-many")
    .superRefine((patches, ctx) => checkEnvelope(patches, ctx, []));
}

/** The whole body of a save, `{ patches: [...] }`, as the route's envelope reads it and the server helper checks it. */
export function rowPatchesSchema<S extends z.ZodType>(rowSchema: S) {
  return z.object({ patches: rowPatchListSchema(rowSchema) });
}
export type RowPatches<S extends z.ZodType> = z.output<ReturnType<typeof rowPatchesSchema<S>>>;

/**
 * A row a grid's save did not write (decision 0100): changed by someone else since it was loaded (`errors.stale`,
 * with the row as it is now: its new token and its values, the row schema's fields) or removed meanwhile
 * (`errors.not-found`, no values). The other rows of the save are written; the grid keeps this row's edits and
 * offers to keep them (over the new token) or to take the stored values.
 */
export type RowConflict = {
  /** The patch's position in the list sent. */
  index: number;
  id: number;
  key: "errors.stale" | "errors.not-found";
  /** How the row is named in messages (its label), when the screen gives one. */
  label?: string;
  updatedAt: string | null;
  values: Record<string, unknown> | null;
};
