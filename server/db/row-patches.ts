import { z } from "zod";
import { rowPatchesSchema, type RowConflict } from "~/domain/grid-patches";
import { INVALID_FORM } from "~/domain/validation";
import { isServiceError, ServiceError } from "../errors";
import { toIso } from "./dialect";
import type { Db } from "./knex";
import { STALE, updateManyIfUnchanged } from "./stale";
import { inChunks } from "./chunks";
import { returnedId } from "./insert-id";

/**
 * The save of a grid (docs/architecture.md, "A grid"; decisions 0027, 0100): a list of row patches applied in ONE
 * transaction; an invalid row refuses them all, a stale row is set aside and the others are written.
 *
 * 1. Every row is checked before anything is written: the row schema (the form's), then `check` (rules the schema
 *    cannot judge, such as a reference of another campaign). Refused: 400 warning.invalid-form with the errors
 *    of every row, keyed `patches.<index>.values.<field>` (`patches.<index>` for the row itself).
 * 2. New rows (id < 0 or null) are inserted with `scope`'s values (their campaign); existing rows are written with
 *    the one stale check, `updateIfUnchanged`, within `scope`. Every row is tried: a row changed since it was
 *    loaded (or gone) is not written, and the others are (decision 0100: a conflict on one row loses no work on
 *    the others); the answer's `conflicts` give each such row as it is now (its token and values), so that the
 *    grid shows both versions and the user keeps theirs or takes the stored one.
 * 3. The answer gives each saved row its id and new updatedAt, so the grid refreshes its tokens and replaces the
 *    temporary ids of the rows it appended.
 */

export const STALE_ROWS = "grid.stale-rows";

/** What a grid's save answers: the rows written, and the rows set aside as changed or removed meanwhile. */
export type GridSaveResult = { saved: SavedRow[]; conflicts: RowConflict[] };

/** A conflicting row as it is now: its token and its values as the grid holds them (the row schema's fields). */
export type CurrentRow = { updatedAt: string; values: Record<string, unknown> };

export type SavedRow = {
  /** The patch's position in the list. */
  index: number;
  /** The id the patch carried: the row's id, the grid's temporary (negative) id, or null. */
  sentId: number | null;
  id: number;
  updatedAt: string;
  inserted: boolean;
};

export type RowPatchOptions<S extends z.ZodType> = {
  table: string;
  /** The row schema, the form's; a z.object unless `columns` is given. */
  schema: S;
  /** The patches as posted (parsed again here: a caller other than a route, an importer or a test, is checked too). */
  patches: unknown;
  /** Conditions every written row meets, and values every new row gets (e.g. `{ idCampagne }`). */
  scope?: Record<string, unknown>;
  /**
   * The columns a row's values are written to; by default each field of the schema, null when empty. Read in the
   * transaction, before anything is written: it may look rows up (a reference within the campaign) and refuse a
   * row by throwing a ServiceError with field errors, which then name that row's fields (every row is checked).
   */
  columns?: (values: z.output<S>, trx: Db, index: number) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Rules the schema cannot judge, read in the transaction: errors keyed by patch index then field ("" for the row). */
  check?: (trx: Db, rows: { index: number; id: number | null; values: z.output<S> }[]) => Promise<Record<number, Record<string, string>>>;
  /** How a stale row is named in the message (default: its id). Read from the row as it is now. */
  describe?: (row: Record<string, unknown>) => string;
  /** The columns `describe` reads. */
  describeColumns?: string[];
  /**
   * The rows set aside as stale, as the grid shows them (by id): by default the row schema's fields read from the
   * table's columns of the same names (numbers read back as numbers, dates as yyyy-mm-dd).
   */
  current?: (trx: Db, ids: number[]) => Promise<Map<number, CurrentRow>>;
};

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** A stored value as the grid holds it: a decimal PostgreSQL gives as text → number; a Date → yyyy-mm-dd. */
function gridValue(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) return toIso(v).slice(0, 10);
  if (typeof v === "string" && NUMERIC.test(v)) return Number(v);
  return v;
}

/** The default reading of the conflicting rows: the schema's fields that are columns of the table. */
async function readCurrent(trx: Db, table: string, schema: z.ZodType, ids: number[]): Promise<Map<number, CurrentRow>> {
  const fields = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const out = new Map<number, CurrentRow>();
  for (const chunk of inChunks(ids)) {
    for (const r of (await trx(table).whereIn("id", chunk).select("*")) as Record<string, unknown>[]) {
      const values: Record<string, unknown> = {};
      for (const f of fields) if (f in r && r[f] !== null) values[f] = gridValue(r[f]);
      out.set(Number(r.id), { updatedAt: toIso(r.updatedAt), values });
    }
  }
  return out;
}

/** Issues keyed by dotted path, as the route adapter answers a refused envelope (server/http/answers.ts). */
function dottedErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const keys = (out[issue.path.join(".") || "form"] ??= []);
    const message = issue.message.startsWith("warning.") || issue.message.startsWith("grid.") ? issue.message : "warning.invalid";
    if (!keys.includes(message)) keys.push(message);
  }
  return out;
}

const isNew = (id: number | null) => id === null || id < 0;

function defaultColumns(schema: z.ZodType) {
  if (!(schema instanceof z.ZodObject)) throw new Error("applyRowPatches: a schema that is not a z.object needs `columns`");
  const fields = Object.keys(schema.shape);
  return (values: Record<string, unknown>) => Object.fromEntries(fields.map((f) => [f, values[f] ?? null]));
}

async function stamps(trx: Db, table: string, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const chunk of inChunks(ids)) {
    for (const r of await trx(table).whereIn("id", chunk).select("id", "updatedAt")) out.set(Number(r.id), toIso(r.updatedAt));
  }
  return out;
}

/**
 * Applies the patches (see the module's comment): throws a ServiceError for an invalid row, having written nothing;
 * otherwise writes every row that is not stale and answers the others as conflicts.
 */
export async function applyRowPatches<S extends z.ZodType>(db: Db, options: RowPatchOptions<S>): Promise<GridSaveResult> {
  const { table, schema, scope = {} } = options;
  const parsed = rowPatchesSchema(schema).safeParse({ patches: options.patches });
  if (!parsed.success) throw new ServiceError(INVALID_FORM, 400, dottedErrors(parsed.error));
  const rows = parsed.data.patches.map((p, index) => ({
    index,
    id: p.id,
    updatedAt: p.updatedAt ?? null,
    values: (p as { values: unknown }).values as z.output<S>,
  }));
  const columnsOf = options.columns ?? (defaultColumns(schema) as (v: z.output<S>) => Record<string, unknown>);
  const rowKey = (index: number, field: string) => (field ? `patches.${index}.values.${field}` : `patches.${index}`);

  return db.transaction(async (trx) => {
    const fieldErrors: Record<string, string[]> = {};
    const refuse = (index: number, field: string, key: string) => (fieldErrors[rowKey(index, field)] ??= []).push(key);
    if (options.check) {
      const errors = await options.check(trx, rows);
      for (const [index, fields] of Object.entries(errors)) for (const [field, key] of Object.entries(fields)) refuse(Number(index), field, key);
    }
    // Every row's columns before any write, so that the refusal names the errors of all the rows.
    const columns: Record<string, unknown>[] = [];
    for (const row of rows) {
      try {
        columns[row.index] = await columnsOf(row.values, trx, row.index);
      } catch (e) {
        if (!isServiceError(e) || !e.fieldErrors) throw e;
        for (const [field, keys] of Object.entries(e.fieldErrors)) for (const key of keys) refuse(row.index, field, key);
      }
    }
    if (Object.keys(fieldErrors).length) throw new ServiceError(INVALID_FORM, 400, fieldErrors);

    const written: { index: number; sentId: number | null; id: number; inserted: boolean }[] = [];
    const updates: { index: number; id: number; updatedAt: string | null }[] = [];
    for (const row of rows) {
      const values = columns[row.index];
      if (isNew(row.id)) {
        const [r] = await trx(table)
          .insert({ ...values, ...scope })
          .returning("id");
        written.push({ index: row.index, sentId: row.id, id: returnedId(r), inserted: true });
      } else updates.push({ index: row.index, id: row.id as number, updatedAt: row.updatedAt });
    }
    // Every row is tried: the rows changed (or removed) since they were loaded are set aside, the others written.
    const outcome = await updateManyIfUnchanged(
      trx,
      table,
      updates.map((u) => ({ token: { id: u.id, updatedAt: u.updatedAt ?? "" }, values: columns[u.index] })),
      { scope },
    );
    const refusedAt = new Map(outcome.map((r) => [r.index, r]));
    const refused: { index: number; id: number; key: string }[] = [];
    updates.forEach((u, i) => {
      const r = refusedAt.get(i);
      if (r) refused.push({ index: u.index, id: u.id, key: r.key });
      else written.push({ index: u.index, sentId: u.id, id: u.id, inserted: false });
    });
    written.sort((a, b) => a.index - b.index);

    const conflicts: RowConflict[] = [];
    if (refused.length) {
      const ids = refused.map((r) => r.id);
      let names = new Map<number, string>();
      if (options.describe) {
        const current = await trx(table)
          .where(scope)
          .whereIn("id", ids)
          .select(["id", ...(options.describeColumns ?? [])]);
        names = new Map(current.map((r: Record<string, unknown>) => [Number(r.id), options.describe!(r)]));
      }
      const stale = refused.filter((r) => r.key === STALE).map((r) => r.id);
      const now = stale.length ? await (options.current ? options.current(trx, stale) : readCurrent(trx, table, schema, stale)) : new Map<number, CurrentRow>();
      for (const r of refused) {
        const row = r.key === STALE ? now.get(r.id) : undefined;
        conflicts.push({
          index: r.index,
          id: r.id,
          key: row ? STALE : "errors.not-found",
          ...(names.has(r.id) ? { label: names.get(r.id) } : {}),
          updatedAt: row?.updatedAt ?? null,
          values: row?.values ?? null,
        });
      }
    }

    const now = await stamps(
      trx,
      table,
      written.map((w) => w.id),
    );
    return { saved: written.map((w) => ({ ...w, updatedAt: now.get(w.id)! })), conflicts };
  });
}
