import type { Db } from "./knex";
import { isPostgres } from "./knex";

/** After rows were inserted with explicit ids, move PostgreSQL's sequence past them (SQLite needs nothing). */
export async function syncIdSequence(db: Db, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  await db.raw(`SELECT setval(pg_get_serial_sequence(?, 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ??), 1))`, [table, table]);
}

/** SQLite hands booleans back as 0/1; PostgreSQL as true/false. */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "true";
}

export function parseJson<T>(value: unknown, fallback: T): T {
  if (value == null) return fallback;
  if (typeof value !== "string") return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** Timestamps as ISO strings: SQLite gives "YYYY-MM-DD HH:MM:SS" in UTC without a zone, PostgreSQL a Date. */
export function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number") return new Date(value).toISOString();
  const s = String(value);
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(s) ? new Date(`${s.replace(" ", "T")}Z`).toISOString() : new Date(s).toISOString();
}
