import { encodeInterventions, type EncodedInterventions } from "~/domain/contracts/interventions-codec";
import type { Db } from "../db/knex";
import { keptPerVersion } from "../db/kept-per-version";
import { listInterventions } from "./repo";

/**
 * The interventions screen's rows, kept per campaign version (decision 0063, issue 11): reading and packing the 2,000
 * rows of a large campaign cost most of the loader's time. The database moves `version_interventions.version` on in
 * the transaction of every write that changes those rows (triggers, migration 20261128_0022_perf), and the counter
 * is read on every request before the rows (server/db/kept-per-version.ts): an answer is served only under the
 * version it was read after, so never after a committed write, in any process or container.
 * Encoded by app/components/interventions/rows-codec.ts (decision 0076).
 */
const keptRows = keptPerVersion<EncodedInterventions>();

/** The campaign's interventions version: 0 before its first write. */
export async function interventionsVersion(db: Db, idCampagne: number): Promise<number> {
  const row = await db("version_interventions").where({ idCampagne }).first("version");
  return row ? Number(row.version) : 0;
}

/**
 * The packed rows of `listInterventions(db, idCampagne, idParcelles)`, from the kept answer when the campaign has not
 * changed. `version`: the campaign's interventions version read by the caller before (read here otherwise).
 */
export async function packedInterventions(db: Db, idCampagne: number, idParcelles: number[], version?: number): Promise<EncodedInterventions> {
  const v = version ?? (await interventionsVersion(db, idCampagne));
  return keptRows(db, `${idCampagne}:${idParcelles.join(",")}`, v, async () => encodeInterventions(await listInterventions(db, idCampagne, idParcelles)));
}
