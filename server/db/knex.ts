import knexFactory, { type Knex } from "knex";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

// A calendar day (`date` columns) stays the "YYYY-MM-DD" text it is: pg would make it a Date at the server's
// local midnight, a day off wherever the server's zone is not UTC. SQLite stores the same text.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

/**
 * Column names are converted on every identifier written and every key of every row read (a 2,000-row screen
 * reads some 40,000 keys): the few hundred names of the schema are converted once and remembered.
 */
function memoized(convert: (s: string) => string): (s: string) => string {
  const known = new Map<string, string>();
  return (s) => {
    let out = known.get(s);
    if (out === undefined) {
      out = convert(s);
      if (known.size < 20_000) known.set(s, out);
    }
    return out;
  };
}
const toSnake = memoized((s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
/** The column name of a field as the database spells it (knex converts identifiers with it). */
export const columnName = toSnake;
const toCamel = memoized((s) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

function camelizeRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in row) out[toCamel(k)] = row[k];
  return out;
}

function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (value && typeof value === "object" && !(value instanceof Date) && !Buffer.isBuffer(value)) return camelizeRow(value as Record<string, unknown>);
  return value;
}

export function isPostgresUrl(url: string | undefined): boolean {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/** knex config for a DATABASE_URL: postgres://... for PostgreSQL, file:<path> or unset for SQLite. */
export function knexConfig(url: string | undefined, dataDir = "data"): Knex.Config {
  const common: Partial<Knex.Config> = {
    wrapIdentifier: (value, origImpl) => (typeof value !== "string" || value === "*" ? origImpl(value) : origImpl(toSnake(value))),
    postProcessResponse: (result) => camelize(result),
  };
  if (isPostgresUrl(url)) {
    return { ...common, client: "pg", connection: url as string, pool: { min: 0, max: 10 } };
  }
  const filename = url?.startsWith("file:") ? url.slice("file:".length) : path.join(dataDir, "sillon.sqlite");
  if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  return {
    ...common,
    client: "better-sqlite3",
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) => {
        cachePreparedStatements(conn);
        conn.pragma("journal_mode = WAL");
        conn.pragma("foreign_keys = ON");
        conn.pragma("busy_timeout = 5000");
        done(null, conn);
      },
    },
  };
}

type SqliteStatement = unknown;
type SqliteConnection = { pragma: (s: string) => void; prepare: (sql: string) => SqliteStatement };

const PREPARED_CACHE_SIZE = 500;

/**
 * knex prepares every query anew on better-sqlite3, which costs as much as running it for the short
 * queries of a screen. The pool holds one connection and knex runs statements synchronously on it,
 * so a prepared statement can be reused safely; SQLite re-prepares it by itself after a schema change.
 */
function cachePreparedStatements(conn: SqliteConnection) {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, SqliteStatement>();
  conn.prepare = (sql: string) => {
    // Transactions take the write lock when they begin: with several server processes on one file, a
    // transaction that read first could not upgrade to writing once another process had written (SQLite
    // answers SQLITE_BUSY at once then, without waiting busy_timeout); IMMEDIATE waits its turn instead.
    if (sql === "BEGIN;") sql = "BEGIN IMMEDIATE;";
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (cache.size >= PREPARED_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
    }
    return statement;
  };
}

export function createDb(url: string | undefined, dataDir?: string): Db {
  return knexFactory(knexConfig(url, dataDir));
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === "pg";
}
