import type { Knex } from "knex";
import { invalidField, ServiceError } from "../errors";
import { toIso } from "./dialect";
import { columnName, isPostgres, type Db } from "./knex";

/**
 * The stale check of every edit (issue 10, defect 4): a form sends back the updatedAt it was loaded with,
 * and the row is written only if it still holds that stamp. The check is the UPDATE's own WHERE, so two
 * saves of one loaded form cannot both pass, whatever their timing (a read-then-compare could on PostgreSQL).
 */

/** The row an edit writes: its id and the updatedAt token its form was loaded with (required). */
export type Token = { id: number; updatedAt: string };

export const STALE = "errors.stale";

/** The one refusal of a save made from data that changed since it was loaded. */
export const staleError = () => new ServiceError(STALE, 409);

/**
 * For a row read but not written by a save (or expected absent: `expected` null, the form saw no row):
 * refuses the save when the row changed since the form loaded it.
 */
export function assertUnchanged(current: { updatedAt: string } | undefined, expected: string | null): void {
  if (expected === null ? current !== undefined : !current || !sameStamp(current.updatedAt, expected)) throw staleError();
}

/** An edit without its token (or with one that is no date) is a refused form, never an unchecked overwrite. */
function parseStamp(token: string | undefined): number {
  const ms = typeof token === "string" && token ? Date.parse(token) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidField("updatedAt", token ? "warning.invalid" : "warning.required");
  return ms;
}

const sameStamp = (stored: unknown, token: string) => toIso(stored) === new Date(parseStamp(token)).toISOString();

/**
 * Writes `values` to the row `token.id` of `table` and moves its updatedAt on, only if the row still holds the
 * token's stamp. No row written: the row changed (errors.stale, 409), or it is gone (`notFound`, 404).
 * `scope` adds conditions the row must meet (its campaign, its farm).
 *
 * Stamps: PostgreSQL keeps microseconds (rows stamped by the default CURRENT_TIMESTAMP) where the token has
 * milliseconds, so the comparison truncates; SQLite holds either the default's "YYYY-MM-DD HH:MM:SS" text
 * or the milliseconds knex binds for a Date, so the stored value read in this transaction is matched as is
 * (SQLite runs one writer at a time, so nothing changes it between the read and the write). The new stamp
 * is later than the token, so a save never writes back the stamp it was checked against.
 */
export async function updateIfUnchanged(
  db: Db,
  table: string,
  token: Token,
  values: Record<string, unknown>,
  options: { notFound?: string; scope?: Record<string, unknown> } = {},
): Promise<void> {
  const sent = parseStamp(token.updatedAt);
  const where = { ...options.scope, id: token.id };
  const current = await db(table).where(where).first("updatedAt");
  if (!current) throw new ServiceError(options.notFound ?? "errors.not-found", 404);
  if (!sameStamp(current.updatedAt, token.updatedAt)) throw staleError();
  const query = db(table)
    .where(where)
    .update({ ...values, updatedAt: new Date(Math.max(Date.now(), sent + 1)) });
  if (isPostgres(db)) query.whereRaw("date_trunc('milliseconds', ??) = ?", ["updatedAt", new Date(sent)]);
  else query.where("updatedAt", current.updatedAt);
  if ((await query) === 0) {
    if (await db(table).where(where).first("id")) throw staleError();
    throw new ServiceError(options.notFound ?? "errors.not-found", 404);
  }
}

/** One row of a many-row stale-checked write: its token and the values to write. */
export type TokenWrite = { token: Token; values: Record<string, unknown> };

/** A row a many-row write did not write: changed since it was loaded (errors.stale), or gone (errors.not-found). */
export type RefusedWrite = { index: number; id: number; key: typeof STALE | "errors.not-found" };

/** A value PostgreSQL's JSON record reading gives back as the driver would have bound it. */
const plainValue = (v: unknown) =>
  v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)) || v instanceof Date;

const BATCH = 1000;

/**
 * The stale check of `updateIfUnchanged` for many rows of one table at once (a grid's save): each row is written
 * only if it still holds its token's stamp, within `scope`. Nothing is thrown for a refused row: the rows not
 * written are returned (stale or gone), in the order given, and the caller refuses the whole transaction. A token
 * that is no date throws the refused form, as the one-row helper does.
 *
 * On PostgreSQL the rows go in one statement per set of written columns (a round trip per row cost 1 ms each:
 * 612 ms for 500 rows): `UPDATE … FROM jsonb_populate_recordset(NULL::table, rows)` typed by the table itself,
 * `WHERE t.id = v.id AND date_trunc('milliseconds', t.updated_at) = v.updated_at`, `RETURNING id`; the rows not
 * returned are then told apart (gone or changed). `index`: the row's position in `writes`. Each row's new stamp is later than its token, as one by one.
 * A row seen twice goes in a later statement, so that it is refused as stale as it was one row at a time. On SQLite
 * (in process, no round trip) and for values that are not plain (a Buffer, an object), rows go one by one.
 */
export async function updateManyIfUnchanged(
  db: Db,
  table: string,
  writes: TokenWrite[],
  options: { scope?: Record<string, unknown> } = {},
): Promise<RefusedWrite[]> {
  const sent = writes.map((w) => parseStamp(w.token.updatedAt));
  const refused = new Map<number, RefusedWrite>();
  const oneByOne = async (i: number) => {
    try {
      await updateIfUnchanged(db, table, writes[i].token, writes[i].values, { scope: options.scope });
    } catch (e) {
      if (!(e instanceof ServiceError) || (e.key !== STALE && e.status !== 404)) throw e;
      refused.set(i, { index: i, id: writes[i].token.id, key: e.key === STALE ? STALE : "errors.not-found" });
    }
  };
  if (!isPostgres(db)) {
    for (let i = 0; i < writes.length; i++) await oneByOne(i);
    return [...refused.values()];
  }

  // Statements: rows with the same written columns, each id once per statement; in the order given.
  type Batch = { fields: string[]; rows: number[]; ids: Set<number> };
  const batches: Batch[] = [];
  const single: number[] = [];
  writes.forEach((w, i) => {
    const fields = Object.keys(w.values).filter((k) => w.values[k] !== undefined && k !== "updatedAt" && k !== "id");
    if (!fields.every((k) => plainValue(w.values[k]))) return void single.push(i);
    const signature = fields.join("\u0000");
    let batch = batches.find((b) => b.fields.join("\u0000") === signature && !b.ids.has(w.token.id) && b.rows.length < BATCH);
    if (!batch) batches.push((batch = { fields, rows: [], ids: new Set() }));
    batch.rows.push(i);
    batch.ids.add(w.token.id);
  });

  const scope = Object.entries(options.scope ?? {});
  for (const batch of batches) {
    const records = batch.rows.map((i) => {
      const r: Record<string, unknown> = { id: writes[i].token.id, [columnName("updatedAt")]: new Date(sent[i]).toISOString() };
      for (const f of batch.fields) {
        const v = writes[i].values[f];
        r[columnName(f)] = v instanceof Date ? v.toISOString() : v;
      }
      return r;
    });
    const set = batch.fields.map(() => "?? = v.??").join(", ");
    const sql =
      `UPDATE ?? AS t SET ${set}${batch.fields.length ? ", " : ""}?? = GREATEST(?::timestamptz, v.?? + interval '1 millisecond') ` +
      `FROM jsonb_populate_recordset(NULL::??, ?::jsonb) AS v ` +
      `WHERE t.id = v.id AND date_trunc('milliseconds', t.??) = v.??${scope.map(() => " AND t.?? = ?").join("")} RETURNING t.id`;
    const bindings: Knex.RawBinding[] = [
      table,
      ...batch.fields.flatMap((f) => [f, f]),
      "updatedAt",
      new Date(),
      "updatedAt",
      table,
      JSON.stringify(records),
      "updatedAt",
      "updatedAt",
      ...scope.flatMap(([k, v]) => [k, v as Knex.RawBinding]),
    ];
    const result = (await db.raw(sql, bindings)) as { rows: { id: unknown }[] };
    const written = new Set(result.rows.map((r) => Number(r.id)));
    const missing = batch.rows.filter((i) => !written.has(writes[i].token.id));
    if (!missing.length) continue;
    const present = new Set(
      (
        await db(table)
          .where(options.scope ?? {})
          .whereIn(
            "id",
            missing.map((i) => writes[i].token.id),
          )
          .pluck("id")
      ).map(Number),
    );
    for (const i of missing) refused.set(i, { index: i, id: writes[i].token.id, key: present.has(writes[i].token.id) ? STALE : "errors.not-found" });
  }
  for (const i of single) await oneByOne(i);
  return [...refused.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
}
