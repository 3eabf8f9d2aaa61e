import type { Db } from "./knex";
import { isPostgres } from "./knex";

/**
 * Several servers started at once on one PostgreSQL database (the scale-out of docs/operations.md) prepare it
 * one after the other: the first migrates, upserts the reference lists and loads the demo data; the others wait,
 * then find nothing left to do. knex's own migration lock refuses a second migrator at once instead of making it
 * wait, and the demo data's "is the database empty?" check would race. The lock is a PostgreSQL advisory lock
 * held by one pooled connection for the time of the set-up (released with that session if the server dies).
 * SQLite needs none: its file belongs to one server, whose primary process alone prepares it (decision 0024).
 */
const SETUP_LOCK_KEY = 7_342_001; // any constant of this application's own

export async function withSetupLock<T>(db: Db, prepare: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return prepare();
  const connection = await db.client.acquireConnection();
  try {
    await connection.query("SELECT pg_advisory_lock($1)", [SETUP_LOCK_KEY]);
    try {
      return await prepare();
    } finally {
      await connection.query("SELECT pg_advisory_unlock($1)", [SETUP_LOCK_KEY]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}
