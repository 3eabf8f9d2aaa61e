import { encodeInterventions, type EncodedInterventions } from "~/components/interventions/rows-codec";
import type { Db } from "../db/knex";
import { listInterventions } from "./repo";

/**
 * The interventions screen's rows, kept per campaign version (decision 0063, issue 11): reading and packing the 2,000
 * rows of a large campaign cost most of the loader's time. The database moves `version_interventions.version` on in
 * the transaction of every write that changes those rows (triggers, migration 20261128_0022_perf), and the counter
 * is read on every request before the rows: an answer is served only under the version it was read after, so never
 * after a committed write, in any process or container. A write that commits between reading the counter and reading
 * the rows only makes the kept answer newer than its version; the next request sees the new version and reads again.
 *
 * Kept per database handle (tests open several), never inside a transaction (its writes may roll back), a few
 * answers per process (the newest used). Encoded by app/components/interventions/rows-codec.ts (decision 0076).
 */

type Entry = { version: number; packed: Promise<EncodedInterventions> };

const MAX_ENTRIES = 32;
const caches = new WeakMap<object, Map<string, Entry>>();

/** The campaign's interventions version: 0 before its first write. */
export async function interventionsVersion(db: Db, idCampagne: number): Promise<number> {
  const row = await db("version_interventions").where({ idCampagne }).first("version");
  return row ? Number(row.version) : 0;
}

/** The packed rows of `listInterventions(db, idCampagne, idParcelles)`, from the kept answer when the campaign has not changed. */
export async function packedInterventions(db: Db, idCampagne: number, idParcelles: number[]): Promise<EncodedInterventions> {
  if ((db as { isTransaction?: boolean }).isTransaction) return encodeInterventions(await listInterventions(db, idCampagne, idParcelles));
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const key = `${idCampagne}:${idParcelles.join(",")}`;
  const version = await interventionsVersion(db, idCampagne);
  const kept = cache.get(key);
  if (kept && kept.version === version) {
    cache.delete(key); // the newest used last
    cache.set(key, kept);
    return kept.packed;
  }
  const entry: Entry = { version, packed: listInterventions(db, idCampagne, idParcelles).then((rows) => encodeInterventions(rows)) };
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  entry.packed.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return entry.packed;
}
