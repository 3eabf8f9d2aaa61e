/**
 * Per-table preferences (spec 1 §9, spec 2 §2): visible columns, rows per page and sort, kept in the
 * browser under "sillon.table.<tableId>", plus the pure sorting and paging helpers of DataTable.
 *
 * Decisions:
 * - Stored values are never trusted: a missing, corrupt or stale entry (unknown column, page size no
 *   longer offered, column no longer sortable) falls back to the default for that field only.
 * - visibleColumns null means "the table's default": every column except the optional ones.
 *   Always-visible columns are shown whatever is stored.
 * - Sorting is stable; empty values (null, undefined, "", NaN) come last in both directions.
 * - Pages are 0-based here; the range shown to users is 1-based.
 */

export const ROWS_PER_PAGE_OPTIONS = [1, 5, 10, 15, 0] as const;
export type RowsPerPage = (typeof ROWS_PER_PAGE_OPTIONS)[number];
/** 0 means all rows (A-CONST-07). */
export const DEFAULT_ROWS_PER_PAGE: RowsPerPage = 0;

export type SortDirection = "asc" | "desc";
export type SortState = { column: string; direction: SortDirection } | null;
export type SortValue = string | number | null | undefined;

export type TablePrefs = {
  /** Ids of the visible columns; null = the table's default. */
  visibleColumns: string[] | null;
  rowsPerPage: RowsPerPage;
  sort: SortState;
};

/** What the helpers need to know of a column. */
export type PrefColumn<T = unknown> = {
  id: string;
  optional?: boolean;
  alwaysVisible?: boolean;
  sortValue?: (row: T) => SortValue;
};

export const DEFAULT_TABLE_PREFS: Readonly<TablePrefs> = Object.freeze({ visibleColumns: null, rowsPerPage: DEFAULT_ROWS_PER_PAGE, sort: null });

export const TABLE_PREFS_PREFIX = "sillon.table.";

export function tablePrefsKey(tableId: string): string {
  return `${TABLE_PREFS_PREFIX}${tableId}`;
}

export function isRowsPerPage(value: unknown): value is RowsPerPage {
  return typeof value === "number" && (ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);
}

function isSortState(value: unknown): value is NonNullable<SortState> {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v.column === "string" && v.column !== "" && (v.direction === "asc" || v.direction === "desc");
}

/** Reads a stored value; anything unreadable gives the default for that field. */
export function parseTablePrefs(raw: string | null | undefined): TablePrefs {
  if (!raw) return { ...DEFAULT_TABLE_PREFS };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_TABLE_PREFS };
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return { ...DEFAULT_TABLE_PREFS };
  const d = data as Record<string, unknown>;
  const visibleColumns = Array.isArray(d.visibleColumns) ? d.visibleColumns.filter((c): c is string => typeof c === "string") : null;
  return {
    visibleColumns,
    rowsPerPage: isRowsPerPage(d.rowsPerPage) ? d.rowsPerPage : DEFAULT_ROWS_PER_PAGE,
    sort: isSortState(d.sort) ? { column: d.sort.column, direction: d.sort.direction } : null,
  };
}

/** The ids of the columns to show, in column order. */
export function visibleColumnIds(columns: readonly PrefColumn<never>[], visible: readonly string[] | null): string[] {
  return columns.filter((c) => c.alwaysVisible || (visible ? visible.includes(c.id) : !c.optional)).map((c) => c.id);
}

/** Shows or hides one column; always-visible and unknown columns are left as they are. */
export function toggleColumn(columns: readonly PrefColumn<never>[], visible: readonly string[] | null, id: string): string[] {
  const current = visibleColumnIds(columns, visible);
  const column = columns.find((c) => c.id === id);
  if (!column || column.alwaysVisible) return current;
  const next = current.includes(id) ? current.filter((c) => c !== id) : [...current, id];
  return columns.filter((c) => next.includes(c.id)).map((c) => c.id);
}

/** Keeps a sort only if its column exists and can be sorted. */
export function normalizeSort(sort: SortState, columns: readonly PrefColumn<never>[]): SortState {
  if (!sort) return null;
  const column = columns.find((c) => c.id === sort.column);
  return column?.sortValue ? sort : null;
}

/** Stored preferences checked against the table's current columns. */
export function normalizePrefs(prefs: TablePrefs, columns: readonly PrefColumn<never>[]): TablePrefs {
  const known = new Set(columns.map((c) => c.id));
  return {
    visibleColumns: prefs.visibleColumns ? prefs.visibleColumns.filter((id) => known.has(id)) : null,
    rowsPerPage: isRowsPerPage(prefs.rowsPerPage) ? prefs.rowsPerPage : DEFAULT_ROWS_PER_PAGE,
    sort: normalizeSort(prefs.sort, columns),
  };
}

/** A header click: a new column sorts ascending, the sorted column flips direction. */
export function nextSort(current: SortState, column: string): NonNullable<SortState> {
  if (current?.column === column) return { column, direction: current.direction === "asc" ? "desc" : "asc" };
  return { column, direction: "asc" };
}

// --- sorting --------------------------------------------------------------------------------

const collator = new Intl.Collator("fr", { numeric: true });

function isEmpty(v: SortValue): v is null | undefined {
  return v === null || v === undefined || v === "" || (typeof v === "number" && Number.isNaN(v));
}

/** Compares two non-empty values: numbers numerically, anything else with French collation. */
export function compareValues(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}

/** A sorted copy of rows (stable); the input is returned as a copy when there is nothing to sort by. */
export function sortRows<T>(rows: readonly T[], columns: readonly PrefColumn<T>[], sort: SortState): T[] {
  const column = sort ? columns.find((c) => c.id === sort.column) : undefined;
  const sortValue = column?.sortValue;
  if (!sort || !sortValue) return [...rows];
  const factor = sort.direction === "desc" ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, value: sortValue(row) }))
    .sort((x, y) => {
      const ex = isEmpty(x.value);
      const ey = isEmpty(y.value);
      if (ex || ey) return ex === ey ? x.index - y.index : ex ? 1 : -1;
      return factor * compareValues(x.value as string | number, y.value as string | number) || x.index - y.index;
    })
    .map((e) => e.row);
}

// --- paging ---------------------------------------------------------------------------------

export type Page<T> = {
  rows: T[];
  /** 0-based, clamped to the existing pages. */
  page: number;
  pageCount: number;
  /** 1-based first row shown, 0 when there are no rows. */
  from: number;
  /** 1-based last row shown, 0 when there are no rows. */
  to: number;
  total: number;
};

/** One page of rows; perPage 0 shows every row on a single page. */
export function paginate<T>(rows: readonly T[], page: number, perPage: number): Page<T> {
  const total = rows.length;
  const size = perPage > 0 ? Math.floor(perPage) : total;
  const pageCount = size > 0 ? Math.max(1, Math.ceil(total / size)) : 1;
  const p = Math.min(Math.max(0, Math.floor(Number.isFinite(page) ? page : 0)), pageCount - 1);
  const start = p * size;
  const slice = rows.slice(start, start + size);
  return { rows: slice, page: p, pageCount, from: slice.length ? start + 1 : 0, to: start + slice.length, total };
}

/** The 0-based page holding the row at index (0 when not found or when every row is shown). */
export function pageOfIndex(index: number, perPage: number): number {
  return index < 0 || perPage <= 0 ? 0 : Math.floor(index / perPage);
}

// --- storage --------------------------------------------------------------------------------

export type PrefsStorage = Pick<Storage, "getItem" | "setItem">;

/** The browser's localStorage, or null where it is missing or refused (server, privacy modes). */
export function browserStorage(): PrefsStorage | null {
  try {
    const s = (globalThis as { localStorage?: PrefsStorage }).localStorage;
    return s && typeof s.getItem === "function" && typeof s.setItem === "function" ? s : null;
  } catch {
    return null;
  }
}

export function loadTablePrefs(tableId: string, storage: PrefsStorage | null = browserStorage()): TablePrefs {
  if (!storage) return { ...DEFAULT_TABLE_PREFS };
  try {
    return parseTablePrefs(storage.getItem(tablePrefsKey(tableId)));
  } catch {
    return { ...DEFAULT_TABLE_PREFS };
  }
}

/** Stores the preferences; a full or refused storage is ignored (preferences are a comfort). */
export function saveTablePrefs(tableId: string, prefs: TablePrefs, storage: PrefsStorage | null = browserStorage()): void {
  if (!storage) return;
  try {
    storage.setItem(tablePrefsKey(tableId), JSON.stringify({ visibleColumns: prefs.visibleColumns, rowsPerPage: prefs.rowsPerPage, sort: prefs.sort }));
  } catch {
    // quota exceeded or storage disabled
  }
}

/** Loads, merges a change and stores; returns the new preferences. */
export function updateTablePrefs(tableId: string, change: Partial<TablePrefs>, storage: PrefsStorage | null = browserStorage()): TablePrefs {
  const next = { ...loadTablePrefs(tableId, storage), ...change };
  saveTablePrefs(tableId, next, storage);
  return next;
}
