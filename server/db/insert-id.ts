import type { Db } from "./knex";

/** The id of an inserted row: PostgreSQL's `returning` gives `{ id }`, SQLite's (through knex) the bare number. */
export function returnedId(row: unknown): number {
  return Number(typeof row === "object" && row !== null ? (row as { id: number }).id : row);
}

/** Inserts one row and answers its id, on both databases. */
export async function insertId(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return returnedId(r);
}
