import { Popover, PopoverButton, PopoverPanel } from "@headlessui/react";
import { createContext, useContext, useEffect, useId, useMemo, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon } from "./icons";
import {
  DEFAULT_TABLE_PREFS,
  ROWS_PER_PAGE_OPTIONS,
  isRowsPerPage,
  loadTablePrefs,
  nextSort,
  normalizePrefs,
  pageOfIndex,
  paginate,
  saveTablePrefs,
  sortRows,
  toggleColumn,
  visibleColumnIds,
  type SortValue,
  type TablePrefs,
} from "./table-prefs";

export type RowId = string | number;

export type DataTableColumn<T> = {
  id: string;
  /** Already translated. */
  header: ReactNode;
  /** Plain text for the columns menu when header is not a string. */
  label?: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable. */
  sortValue?: (row: T) => SortValue;
  /** Hidden until the user shows it in the columns menu. */
  optional?: boolean;
  /** Cannot be hidden. */
  alwaysVisible?: boolean;
  align?: "left" | "center" | "right";
  className?: string;
};

export type DataTableProps<T> = {
  /** Names the stored preferences ("sillon.table.<tableId>") and the test ids. */
  tableId: string;
  columns: DataTableColumn<T>[];
  rows: readonly T[];
  getRowId: (row: T) => RowId;
  /** Accessible name of the table. */
  label?: string;
  selectedId?: RowId | null;
  /** Called with the clicked row, or null when the selected row is clicked again. */
  onSelect?: (row: T | null) => void;
  checkable?: boolean;
  checkedIds?: readonly RowId[];
  onCheckedChange?: (ids: RowId[]) => void;
  /** Explicit read-only state (A-RIGHTS-27); defaults to the TableAccessProvider's (A-RIGHTS-26). */
  readOnly?: boolean;
  /** Rendered above the table, e.g. New and Delete buttons. */
  toolbar?: ReactNode;
  emptyText?: ReactNode;
};

// --- read-only default (A-RIGHTS-26, A-RIGHTS-27) --------------------------------------------

const TableAccessContext = createContext<boolean>(false);

/**
 * Sets the default read-only state of every DataTable below it, e.g. on the description layout:
 * `<TableAccessProvider readOnly={!abilities.canWriteDescriptif}>`. Without a provider tables are
 * writable; a table's own readOnly prop always wins.
 */
export function TableAccessProvider({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  return <TableAccessContext.Provider value={readOnly}>{children}</TableAccessContext.Provider>;
}

/** The read-only state a table uses: the explicit one if given, else the inherited default. */
export function resolveReadOnly(explicit: boolean | undefined, inherited: boolean): boolean {
  return explicit ?? inherited;
}

/** The read-only state tables get here, for a screen's own New/Delete buttons. */
export function useTableReadOnly(explicit?: boolean): boolean {
  return resolveReadOnly(explicit, useContext(TableAccessContext));
}

// --- pure helpers of the component ---------------------------------------------------------

export function sameId(a: RowId | null | undefined, b: RowId | null | undefined): boolean {
  return a != null && b != null && String(a) === String(b);
}

/** The header checkbox: ticks every row, or unticks all when every row is already ticked. */
export function toggleAllChecked(allIds: readonly RowId[], checked: readonly RowId[]): RowId[] {
  const all = allIds.length > 0 && allIds.every((id) => checked.some((c) => sameId(c, id)));
  return all ? [] : [...allIds];
}

export function toggleChecked(checked: readonly RowId[], id: RowId): RowId[] {
  return checked.some((c) => sameId(c, id)) ? checked.filter((c) => !sameId(c, id)) : [...checked, id];
}

function ariaSort(direction: "asc" | "desc" | undefined): "ascending" | "descending" | "none" {
  return direction === "asc" ? "ascending" : direction === "desc" ? "descending" : "none";
}

const ALIGN = { left: "text-left", center: "text-center", right: "text-right" } as const;
function cx(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}

const INTERACTIVE = "a,button,input,select,textarea,label,[data-no-row-select]";

/**
 * The table of every list screen (spec 1 §9, spec 2 §2): sortable headers, optional columns, rows
 * per page 1/5/10/15/all (default all), selection by click or keyboard, tick boxes, and
 * preferences stored per table in the browser (read after mount, so server and client render alike).
 */
export function DataTable<T>({
  tableId,
  columns,
  rows,
  getRowId,
  label,
  selectedId = null,
  onSelect,
  checkable = false,
  checkedIds = [],
  onCheckedChange,
  readOnly: readOnlyProp,
  toolbar,
  emptyText,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const uid = useId();
  const readOnly = useTableReadOnly(readOnlyProp);
  const [storedPrefs, setStoredPrefs] = useState<TablePrefs>(DEFAULT_TABLE_PREFS);
  const [pageState, setPageState] = useState(0);

  useEffect(() => {
    setStoredPrefs(loadTablePrefs(tableId));
  }, [tableId]);

  const prefs = useMemo(() => normalizePrefs(storedPrefs, columns), [storedPrefs, columns]);
  const visibleIds = visibleColumnIds(columns, prefs.visibleColumns);
  const shown = columns.filter((c) => visibleIds.includes(c.id));
  const hideable = columns.filter((c) => !c.alwaysVisible);

  const sorted = useMemo(() => sortRows(rows, columns, prefs.sort), [rows, columns, prefs.sort]);
  const selectedIndex = selectedId == null ? -1 : sorted.findIndex((r) => sameId(getRowId(r), selectedId));

  // Show the selected row: after a reload, a create (new row on top) or a change of page size or sort.
  useEffect(() => {
    if (selectedIndex >= 0) setPageState(pageOfIndex(selectedIndex, prefs.rowsPerPage));
  }, [selectedIndex, prefs.rowsPerPage]);

  const page = paginate(sorted, pageState, prefs.rowsPerPage);

  function update(change: Partial<TablePrefs>) {
    const next = { ...prefs, ...change };
    setStoredPrefs(next);
    saveTablePrefs(tableId, next);
  }

  const allIds = sorted.map(getRowId);
  const checkedCount = allIds.filter((id) => checkedIds.some((c) => sameId(c, id))).length;
  const allChecked = allIds.length > 0 && checkedCount === allIds.length;
  const someChecked = checkedCount > 0 && !allChecked;
  const colCount = shown.length + (checkable ? 1 : 0);

  function select(row: T) {
    if (!onSelect) return;
    onSelect(sameId(getRowId(row), selectedId) ? null : row);
  }

  function onRowClick(e: MouseEvent<HTMLTableRowElement>, row: T) {
    const target = e.target as Element;
    const interactive = target.closest(INTERACTIVE);
    if (interactive && interactive !== e.currentTarget && e.currentTarget.contains(interactive)) return;
    select(row);
  }

  function onRowKeyDown(e: KeyboardEvent<HTMLTableRowElement>, row: T) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const sibling = e.key === "ArrowDown" ? e.currentTarget.nextElementSibling : e.currentTarget.previousElementSibling;
      if (sibling instanceof HTMLElement && sibling.tabIndex >= 0) {
        e.preventDefault();
        sibling.focus();
      }
      return;
    }
    if ((e.key === "Enter" || e.key === " ") && e.target === e.currentTarget) {
      e.preventDefault();
      select(row);
    }
  }

  return (
    <div className="flex flex-col gap-2" data-testid={`table-${tableId}`}>
      {toolbar || hideable.length ? (
        <div className="flex flex-wrap items-center gap-2">
          <div className="flex flex-1 flex-wrap items-center gap-2">{toolbar}</div>
          {hideable.length ? (
            <Popover className="relative">
              <PopoverButton className="btn-secondary" data-testid="columns-menu">
                {t("table.columns")}
                <ChevronDownIcon width={16} height={16} />
              </PopoverButton>
              <PopoverPanel
                anchor="bottom end"
                className="z-50 mt-1 min-w-56 rounded border border-stone-200 bg-white p-2 text-sm text-stone-900 shadow-lg"
                data-testid="columns-menu-panel"
              >
                <fieldset>
                  <legend className="sr-only">{t("table.columns")}</legend>
                  {hideable.map((c) => (
                    <label key={c.id} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 hover:bg-stone-100">
                      <input
                        type="checkbox"
                        checked={visibleIds.includes(c.id)}
                        onChange={() => update({ visibleColumns: toggleColumn(columns, prefs.visibleColumns, c.id) })}
                        data-testid={`column-toggle-${c.id}`}
                      />
                      {c.label ?? c.header}
                    </label>
                  ))}
                </fieldset>
              </PopoverPanel>
            </Popover>
          ) : null}
        </div>
      ) : null}

      <div className="overflow-x-auto rounded-md border border-stone-200 bg-white">
        <table className="w-full border-collapse text-sm" aria-label={label}>
          <thead className="bg-stone-50 text-stone-700">
            <tr>
              {checkable ? (
                <th scope="col" className="w-8 px-2 py-2">
                  <input
                    type="checkbox"
                    aria-label={t("table.all")}
                    checked={allChecked}
                    ref={(el) => {
                      if (el) el.indeterminate = someChecked;
                    }}
                    disabled={readOnly || allIds.length === 0}
                    onChange={() => onCheckedChange?.(toggleAllChecked(allIds, checkedIds))}
                    data-testid="check-all"
                  />
                </th>
              ) : null}
              {shown.map((c) => {
                const direction = prefs.sort?.column === c.id ? prefs.sort.direction : undefined;
                const align = ALIGN[c.align ?? "left"];
                return (
                  <th key={c.id} scope="col" className={cx("px-2 py-2 font-medium", align)} aria-sort={c.sortValue ? ariaSort(direction) : undefined}>
                    {c.sortValue ? (
                      <button
                        type="button"
                        className={cx("inline-flex items-center gap-1 rounded hover:text-sillon-800", c.align === "right" && "flex-row-reverse")}
                        title={direction === "asc" ? t("table.sort-desc") : t("table.sort-asc")}
                        onClick={() => update({ sort: nextSort(prefs.sort, c.id) })}
                        data-testid={`sort-${c.id}`}
                      >
                        {c.header}
                        <span aria-hidden="true" className={direction ? "text-sillon-700" : "text-stone-300"}>
                          {direction === "desc" ? "▼" : "▲"}
                        </span>
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {page.rows.length === 0 ? (
              <tr>
                <td colSpan={Math.max(1, colCount)} className="px-2 py-4 text-center text-stone-500" data-testid="table-empty">
                  {emptyText ?? t("table.empty")}
                </td>
              </tr>
            ) : (
              page.rows.map((row) => {
                const id = getRowId(row);
                const selected = sameId(id, selectedId);
                const checked = checkedIds.some((c) => sameId(c, id));
                const firstCellId = `${uid}-${id}`;
                return (
                  <tr
                    key={String(id)}
                    tabIndex={0}
                    aria-selected={onSelect ? selected : undefined}
                    data-selected={selected || undefined}
                    data-testid={`row-${id}`}
                    className={cx(
                      "border-t border-stone-200 outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sillon-600",
                      onSelect && "cursor-pointer",
                      selected ? "bg-sillon-100" : "hover:bg-stone-50",
                    )}
                    onClick={(e) => onRowClick(e, row)}
                    onKeyDown={(e) => onRowKeyDown(e, row)}
                  >
                    {checkable ? (
                      <td className="w-8 px-2 py-1.5" data-no-row-select>
                        <input
                          type="checkbox"
                          aria-labelledby={shown.length ? firstCellId : undefined}
                          checked={checked}
                          disabled={readOnly}
                          onChange={() => onCheckedChange?.(toggleChecked(checkedIds, id))}
                          data-testid={`check-${id}`}
                        />
                      </td>
                    ) : null}
                    {shown.map((c, i) => (
                      <td key={c.id} id={i === 0 ? firstCellId : undefined} className={cx("px-2 py-1.5", ALIGN[c.align ?? "left"], c.className)}>
                        {c.cell(row)}
                      </td>
                    ))}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <div className="flex flex-wrap items-center justify-end gap-3 text-sm text-stone-700">
        <label className="flex items-center gap-2">
          {t("table.rows-per-page")}
          <select
            className="rounded border border-stone-300 bg-white px-2 py-1 text-sm"
            value={String(prefs.rowsPerPage)}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (!isRowsPerPage(n)) return;
              setPageState(selectedIndex >= 0 ? pageOfIndex(selectedIndex, n) : 0);
              update({ rowsPerPage: n });
            }}
            data-testid="rows-per-page"
          >
            {ROWS_PER_PAGE_OPTIONS.map((n) => (
              <option key={n} value={String(n)}>
                {n === 0 ? t("table.all") : n}
              </option>
            ))}
          </select>
        </label>
        <span data-testid="page-range">{t("table.range", { from: page.from, to: page.to, total: page.total })}</span>
        <button
          type="button"
          className="btn-icon"
          aria-label={t("table.previous")}
          disabled={page.page === 0}
          onClick={() => setPageState(page.page - 1)}
          data-testid="page-previous"
        >
          <ChevronLeftIcon />
        </button>
        <button
          type="button"
          className="btn-icon"
          aria-label={t("table.next")}
          disabled={page.page >= page.pageCount - 1}
          onClick={() => setPageState(page.page + 1)}
          data-testid="page-next"
        >
          <ChevronRightIcon />
        </button>
      </div>
    </div>
  );
}
