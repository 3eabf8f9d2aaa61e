import type { Db } from "../db/knex";

/** How long the database may take to answer the health check before the app is reported unhealthy. */
export const HEALTH_TIMEOUT_MS = 2000;

/**
 * Whether the database answers (issue 16: the container's HEALTHCHECK asks /healthz). A trivial query within
 * HEALTH_TIMEOUT_MS; any failure is "no", without details (they would tell an outsider about the database).
 */
export async function databaseAnswers(db: Db, timeoutMs = HEALTH_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([db.raw("select 1").then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
