import { db } from "../db";
import { env } from "../env";
import { demarrerExecuteur } from "./runner";

/**
 * Started once by server/start.js in the primary process, after the database is ready (decision 0051). A job cut
 * short by a stop of the container is marked 'echec' by the next start (or by another container's runner).
 */
export async function demarrerTaches(): Promise<void> {
  await demarrerExecuteur(db(), { concurrence: env().TACHES_CONCURRENCE });
}
