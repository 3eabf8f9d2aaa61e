import { encodeInterventions, type EncodedInterventions } from "~/domain/contracts/interventions-codec";
import type { Db } from "../db/knex";
import { keptPerVersion } from "../db/kept-per-version";
import { listInterventions, type InterventionRow } from "./repo";

/**
 * The interventions screen's rows, kept per campaign version (decision 0063, issue 11): reading and packing the 2,000
 * rows of a large campaign cost most of the loader's time. The database moves `version_interventions.version` on in
 * the transaction of every write that changes those rows (triggers, migration 20261128_0022_perf), and the counter
 * is read on every request before the rows (server/db/kept-per-version.ts): an answer is served only under the
 * version it was read after, so never after a committed write, in any process or container.
 * Encoded by app/components/interventions/rows-codec.ts (decision 0076).
 *
 * After a write (the campaign's counter moved), the rows are kept per plot under the plot's own counter
 * (`version_interventions_parcelle`, moved by the triggers of migration 20261202_0042; decision 0122, issue 30): the
 * plots' counters are read in one query, only the plots whose counter moved are read again, and the answer is the
 * kept plots' rows and the new ones merged in the screen's order (date, then id). A save costs its plots' rows, not
 * the campaign's.
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
  return keptRows(db, `${idCampagne}:${idParcelles.join(",")}`, v, async () => encodeInterventions(await interventionsByPlot(db, idCampagne, idParcelles)));
}

/** A plot's rows as read after its counter stood at `version`. */
type PlotRows = { version: number; rows: readonly InterventionRow[] };

/** Per database handle, per campaign (the least recently used dropped past `MAX_CAMPAIGNS`), per plot. */
const keptPlots = new WeakMap<object, Map<number, Map<number, PlotRows>>>();
const MAX_CAMPAIGNS = 32;

/** The plots' interventions version: 0 before their first write. */
export async function plotVersions(db: Db, idParcelles: number[]): Promise<Map<number, number>> {
  const rows = idParcelles.length ? await db("version_interventions_parcelle").whereIn("idParcelle", idParcelles).select("idParcelle", "version") : [];
  return new Map(rows.map((r) => [Number(r.idParcelle), Number(r.version)]));
}

/**
 * `listInterventions(db, idCampagne, idParcelles)`, reading again only the plots whose counter moved since their rows
 * were kept. As with the campaign's counter, the plots' counters are read before their rows: a write committed in
 * between only makes the kept rows newer than their version, and the next request reads them again.
 */
export async function interventionsByPlot(db: Db, idCampagne: number, idParcelles: number[]): Promise<InterventionRow[]> {
  if ((db as { isTransaction?: boolean }).isTransaction || idParcelles.length === 0) return listInterventions(db, idCampagne, idParcelles);
  let handle = keptPlots.get(db);
  if (!handle) keptPlots.set(db, (handle = new Map()));
  let plots = handle.get(idCampagne);
  handle.delete(idCampagne); // the newest used last
  handle.set(idCampagne, (plots ??= new Map()));
  if (handle.size > MAX_CAMPAIGNS) handle.delete(handle.keys().next().value as number);

  const versions = await plotVersions(db, idParcelles);
  const stale = idParcelles.filter((id) => plots.get(id)?.version !== (versions.get(id) ?? 0));
  if (stale.length > 0) {
    const read = await listInterventions(db, idCampagne, stale);
    const byPlot = new Map<number, InterventionRow[]>(stale.map((id) => [id, []]));
    for (const row of read) byPlot.get(row.idParcelle)?.push(Object.freeze(row));
    for (const [id, rows] of byPlot) plots.set(id, { version: versions.get(id) ?? 0, rows: Object.freeze(rows) });
  }
  if (idParcelles.length === 1) return [...plots.get(idParcelles[0])!.rows];
  const rows: InterventionRow[] = [];
  for (const id of idParcelles) rows.push(...plots.get(id)!.rows);
  // The screen's order, as listInterventions reads it: by date, then id.
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
}
