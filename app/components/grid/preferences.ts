import { browserStorage, type PrefsStorage } from "../table-prefs";

/**
 * A grid's column widths and order, kept in the browser for each table apart (C-CONST-17), under
 * "sillon.grid.<tableId>" (DataTable's own preferences are "sillon.table.<tableId>"). A stored value is never
 * trusted: an unknown column is dropped, a new column takes its default place, a width is bounded.
 */

export type GridPrefs = { widths: Record<string, number>; order: string[] | null };

export const GRID_PREFS_PREFIX = "sillon.grid.";
export const MIN_COLUMN_WIDTH = 50;
export const MAX_COLUMN_WIDTH = 800;

export const gridPrefsKey = (tableId: string) => `${GRID_PREFS_PREFIX}${tableId}`;

const emptyPrefs = (): GridPrefs => ({ widths: {}, order: null });

export const clampWidth = (w: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, w)));

export function parseGridPrefs(raw: string | null | undefined): GridPrefs {
  if (!raw) return emptyPrefs();
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return emptyPrefs();
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return emptyPrefs();
  const d = data as Record<string, unknown>;
  const widths: Record<string, number> = {};
  if (d.widths && typeof d.widths === "object" && !Array.isArray(d.widths)) {
    for (const [id, w] of Object.entries(d.widths)) if (typeof w === "number" && Number.isFinite(w)) widths[id] = clampWidth(w);
  }
  const order = Array.isArray(d.order) ? [...new Set(d.order.filter((c): c is string => typeof c === "string"))] : null;
  return { widths, order };
}

export function loadGridPrefs(tableId: string, storage: PrefsStorage | null = browserStorage()): GridPrefs {
  if (!storage) return emptyPrefs();
  try {
    return parseGridPrefs(storage.getItem(gridPrefsKey(tableId)));
  } catch {
    return emptyPrefs();
  }
}

/** Stores the preferences; a full or refused storage is ignored (preferences are a comfort). */
export function saveGridPrefs(tableId: string, prefs: GridPrefs, storage: PrefsStorage | null = browserStorage()): void {
  if (!storage) return;
  try {
    storage.setItem(gridPrefsKey(tableId), JSON.stringify(prefs));
  } catch {
    // quota exceeded or storage disabled
  }
}

/**
 * The column ids in the order to show: the stored order for the columns it knows, and each column it does not
 * know right after the column that precedes it in the screen's own order.
 */
export function orderedIds(defaultIds: readonly string[], order: readonly string[] | null): string[] {
  if (!order) return [...defaultIds];
  const known = new Set(defaultIds);
  const result = order.filter((id) => known.has(id));
  defaultIds.forEach((id, i) => {
    if (result.includes(id)) return;
    const previous = i > 0 ? result.indexOf(defaultIds[i - 1]) : -1;
    result.splice(previous + 1, 0, id);
  });
  return result;
}

/** Moves the column at `from` to `to` (indexes of the shown order). */
export function moveColumn(order: readonly string[], from: number, to: number): string[] {
  const next = [...order];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

export const withWidth = (prefs: GridPrefs, id: string, width: number): GridPrefs => ({ ...prefs, widths: { ...prefs.widths, [id]: clampWidth(width) } });
