import type { Db } from "./knex";

/**
 * Answers kept in memory under a version the database holds (decisions 0063, 0083): the caller reads the version
 * (a counter moved by triggers in every writing transaction) before asking, and an answer is served again only under
 * the version it was read after. A write committed between reading the version and reading the answer only makes the
 * kept answer newer than its version; the next request sees the new version and reads again. So no answer is served
 * after a committed write, in any server process or container.
 *
 * Kept per database handle (tests open several), never inside a transaction (its writes may roll back); concurrent
 * requests of one version share one read; at most `max` answers per handle, the least recently used dropped; a
 * failed read is not kept. A kept answer is shared by every request of the process: it is frozen, so that no caller
 * can change what the next one is given.
 */
export function keptPerVersion<T>(max = 32) {
  type Entry = { version: string; value: Promise<T> };
  const caches = new WeakMap<object, Map<string, Entry>>();
  return function kept(db: Db, key: string, version: number | string, read: () => Promise<T>): Promise<T> {
    if ((db as { isTransaction?: boolean }).isTransaction) return read();
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new Map()));
    const v = String(version);
    const found = cache.get(key);
    cache.delete(key); // the newest used last
    if (found && found.version === v) {
      cache.set(key, found);
      return found.value;
    }
    const entry: Entry = { version: v, value: read().then(deepFreeze) };
    cache.set(key, entry);
    if (cache.size > max) cache.delete(cache.keys().next().value as string);
    const own = cache;
    entry.value.catch(() => {
      if (own.get(key) === entry) own.delete(key);
    });
    return entry.value;
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Both change counters of a campaign in one read: interventions (decision 0063) and the calculation's other data (0072); 0 before the first write. */
export async function campaignVersions(db: Db, idCampagne: number): Promise<{ interventions: number; donnees: number }> {
  const row = (await db
    .select(
      db("version_interventions").where({ idCampagne }).select("version").as("interventions"),
      db("version_donnees_calcul").where({ idCampagne }).select("version").as("donnees"),
    )
    .first()) as { interventions: unknown; donnees: unknown } | undefined;
  return { interventions: Number(row?.interventions ?? 0), donnees: Number(row?.donnees ?? 0) };
}
