import { invalidField, ServiceError } from "../errors";
import { toIso } from "./dialect";
import { isPostgres, type Db } from "./knex";

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
  const query = db(table).where(where).update({ ...values, updatedAt: new Date(Math.max(Date.now(), sent + 1)) });
  if (isPostgres(db)) query.whereRaw("date_trunc('milliseconds', ??) = ?", ["updatedAt", new Date(sent)]);
  else query.where("updatedAt", current.updatedAt);
  if ((await query) === 0) {
    if (await db(table).where(where).first("id")) throw staleError();
    throw new ServiceError(options.notFound ?? "errors.not-found", 404);
  }
}
