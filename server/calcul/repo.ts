import type { Db } from "../db/knex";

/** The campaign's simulation flag as stored (undefined for an unknown campaign). */
export function simulationFlagOf(db: Db, idCampagne: number): Promise<{ simulation: unknown } | undefined> {
  return db("campagne").where({ id: idCampagne }).first("simulation");
}
