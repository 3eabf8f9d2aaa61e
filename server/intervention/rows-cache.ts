import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import { packRows, type PackedRows } from "~/components/grid/packed-rows";
import type { Db } from "../db/knex";
import { listInterventions, type InterventionRow } from "./repo";

const gzip = promisify(gzipCallback);

/**
 * The interventions screen's rows, kept per campaign version (decision 0063, issue 11): reading and packing the 2,000
 * rows of a large campaign cost most of the loader's time. The database moves `version_interventions.version` on in
 * the transaction of every write that changes those rows (triggers, migration 20261128_0022_perf), and the counter
 * is read on every request before the rows: an answer is served only under the version it was read after, so never
 * after a committed write, in any process or container. A write that commits between reading the counter and reading
 * the rows only makes the kept answer newer than its version; the next request sees the new version and reads again.
 *
 * Kept per database handle (tests open several), never inside a transaction (its writes may roll back), a few
 * answers per process (the newest used). Since decision 0076 the rows travel in their own request
 * (app/routes/au-champs/interventions-lignes.ts): the kept answer holds the JSON text and, made once, its gzip.
 */

type Entry = { version: number; packed: Promise<PackedRows<InterventionRow>>; gzipped?: Promise<Buffer> };

const MAX_ENTRIES = 32;
const caches = new WeakMap<object, Map<string, Entry>>();

/** The campaign's interventions version: 0 before its first write. */
export async function interventionsVersion(db: Db, idCampagne: number): Promise<number> {
  const row = await db("version_interventions").where({ idCampagne }).first("version");
  return row ? Number(row.version) : 0;
}

const inTransaction = (db: Db) => !!(db as { isTransaction?: boolean }).isTransaction;

/** The kept entry of the rows under `version` (read before them by the caller), made when missing or older. */
function entryOf(db: Db, idCampagne: number, idParcelles: number[], version: number): Entry {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const key = `${idCampagne}:${idParcelles.join(",")}`;
  const kept = cache.get(key);
  if (kept && kept.version === version) {
    cache.delete(key); // the newest used last
    cache.set(key, kept);
    return kept;
  }
  const entry: Entry = { version, packed: listInterventions(db, idCampagne, idParcelles).then((rows) => packRows(rows)) };
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  entry.packed.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return entry;
}

/** The packed rows of `listInterventions(db, idCampagne, idParcelles)`, from the kept answer when the campaign has not changed. */
export async function packedInterventions(db: Db, idCampagne: number, idParcelles: number[], version?: number): Promise<PackedRows<InterventionRow>> {
  if (inTransaction(db)) return packRows(await listInterventions(db, idCampagne, idParcelles));
  return entryOf(db, idCampagne, idParcelles, version ?? (await interventionsVersion(db, idCampagne))).packed;
}

/**
 * The rows of `idParcelles` as the rows request sends them under `version` (read by the caller before): the JSON
 * text, and its gzip made once per kept answer (a 2,000-row answer is 380 kB; gzip cost 3 ms a request).
 */
export async function interventionsAnswer(db: Db, idCampagne: number, idParcelles: number[], version: number): Promise<{ json: string; gzipped: () => Promise<Buffer> }> {
  if (inTransaction(db)) {
    const json = packRows(await listInterventions(db, idCampagne, idParcelles));
    return { json, gzipped: () => gzip(json) };
  }
  const entry = entryOf(db, idCampagne, idParcelles, version);
  const json = await entry.packed;
  return { json, gzipped: () => (entry.gzipped ??= gzip(json)) };
}

/** A validator of the rows request (RFC 9110 entity tag): the campaign, its interventions version and the plots shown. */
export function interventionsTag(idCampagne: number, idParcelles: number[], version: number): string {
  const plots = createHash("sha1").update(idParcelles.join(",")).digest("base64url").slice(0, 16);
  return `"i${ROWS_FORMAT}-${idCampagne}-${version}-${plots}"`;
}

/** Moved on when the rows' shape changes, so a browser's copy made by an older server is not kept. */
const ROWS_FORMAT = 1;
