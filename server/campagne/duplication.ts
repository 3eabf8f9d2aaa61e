import type { Knex } from "knex";
import { returnedId } from "../db/insert-id";

/**
 * Deep copy of everything campaign-scoped (spec 1 §5 new campaign, spec 3 §4.9 farm duplication), as one
 * mechanism to which each functional area registers its tables. A registered table is copied row by row
 * in registration order (parents before children); its foreign keys to other copied tables are remapped
 * through the ids given to the copies.
 */

export type DuplicationOption = "inter" | "obs" | "eltObserve" | "valeur" | "prix";

export type DuplicationContext = {
  trx: Knex.Transaction;
  sourceCampagne: number;
  targetCampagne: number;
  /** Target farm when the copy changes farm (farm duplication); same farm otherwise. */
  targetExploitation: number;
  /** Years between the source and target harvest years (dates of interventions move by it with majDtInter). */
  yearShift: number;
  options: Record<DuplicationOption, boolean> & { majDtInter: boolean };
  /** old id → new id, per copied table. */
  ids: Map<string, Map<number, number>>;
  /** old id → new id of the campaigns copied before this one in the same operation (farm duplication copies several). */
  earlier?: Map<string, Map<number, number>>;
};

export type CampaignTable = {
  table: string;
  /** The column holding the campaign id (camelCase). */
  campagneColumn?: string;
  /** Other copied tables this one refers to: column (camelCase) → table. */
  references?: Record<string, string>;
  /** Copied only when this option was chosen. */
  onlyWith?: DuplicationOption;
  /** Rows to copy, when they are not simply "where campagneColumn = source". */
  select?: (ctx: DuplicationContext) => Promise<Record<string, unknown>[]>;
  /** Adjusts a copied row (dates moved, values cleared, ...). */
  transform?: (row: Record<string, unknown>, ctx: DuplicationContext, source: Record<string, unknown> & { id: number }) => Record<string, unknown>;
};

const registry: CampaignTable[] = [];

export function registerCampaignTable(entry: CampaignTable): void {
  const at = registry.findIndex((e) => e.table === entry.table);
  if (at >= 0) registry[at] = entry;
  else registry.push(entry);
}

export function registeredCampaignTables(): readonly CampaignTable[] {
  return registry;
}

/** Steps run once every registered table is copied (links between copies of different areas), by name. */
const afterCopy = new Map<string, (ctx: DuplicationContext) => Promise<void>>();

export function registerAfterCopy(name: string, step: (ctx: DuplicationContext) => Promise<void>): void {
  afterCopy.set(name, step);
}

export async function copyCampaignContent(ctx: DuplicationContext): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const entry of registry) {
    if (entry.onlyWith && !ctx.options[entry.onlyWith]) continue;
    const campagneColumn = entry.campagneColumn ?? "idCampagne";
    const rows = entry.select ? await entry.select(ctx) : await ctx.trx(entry.table).where(campagneColumn, ctx.sourceCampagne);
    await copyRows(ctx.trx, entry.table, rows, {
      ids: ctx.ids,
      references: entry.references,
      fixed: (row) => {
        if (campagneColumn in row) row[campagneColumn] = ctx.targetCampagne;
        if ("idExploitation" in row) row.idExploitation = ctx.targetExploitation;
      },
      transform: entry.transform && ((row, source) => entry.transform!(row, ctx, source)),
    });
    counts[entry.table] = rows.length;
  }
  for (const step of afterCopy.values()) await step(ctx);
  return counts;
}

/**
 * Inserts copies of `rows` into `table` (the row-copy of campaign duplication, also used by the plot-level copy of
 * interventions, server/copie): the id and timestamps are dropped, `fixed` sets the owner columns, each foreign key
 * named in `references` is remapped through the ids of the copies already made (null when its row was not copied),
 * then `transform` adjusts the row. Records old id → new id in `ids` under the table's name.
 */
export async function copyRows(
  trx: Knex.Transaction,
  table: string,
  rows: Record<string, unknown>[],
  o: {
    ids: Map<string, Map<number, number>>;
    references?: Record<string, string>;
    fixed?: (row: Record<string, unknown>) => void;
    transform?: (row: Record<string, unknown>, source: Record<string, unknown> & { id: number }) => Record<string, unknown>;
  },
): Promise<Map<number, number>> {
  const map = o.ids.get(table) ?? new Map<number, number>();
  o.ids.set(table, map);
  for (const source of rows) {
    const { id, createdAt: _c, updatedAt: _u, ...rest } = source as Record<string, unknown> & { id: number };
    let row: Record<string, unknown> = { ...rest };
    o.fixed?.(row);
    for (const [column, refTable] of Object.entries(o.references ?? {})) {
      const old = row[column];
      if (old == null) continue;
      row[column] = o.ids.get(refTable)?.get(Number(old)) ?? null;
    }
    if (o.transform) row = o.transform(row, source as Record<string, unknown> & { id: number });
    const [inserted] = await trx(table).insert(row).returning("id");
    map.set(id, returnedId(inserted));
  }
  return map;
}

/**
 * Moves a date by whole years; 29 February becomes 28 February when needed. An ISO string (yyyy-mm-dd...) is moved
 * in UTC; a Date in local time, since PostgreSQL's driver hands a DATE column back as a Date at local midnight
 * (moved in UTC, 29 February 2024 00:00 in Paris would become 1 March 2025).
 */
export function shiftDateByYears(value: unknown, years: number): unknown {
  if (value == null || years === 0) return value;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return value;
    const local = new Date(value);
    const month = local.getMonth();
    local.setFullYear(local.getFullYear() + years);
    if (local.getMonth() !== month) local.setDate(0);
    return local;
  }
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime())) return value;
  const month = d.getUTCMonth();
  d.setUTCFullYear(d.getUTCFullYear() + years);
  if (d.getUTCMonth() !== month) d.setUTCDate(0);
  return typeof value === "string" && value.length === 10 ? d.toISOString().slice(0, 10) : d.toISOString();
}
