import type { GridColumn } from "@glideapps/glide-data-grid";
import { useCallback, useMemo, useState } from "react";
import type { GridColumnDef } from "./columns";
import { loadGridPrefs, moveColumn, orderedIds, saveGridPrefs, withWidth, type GridPrefs } from "./preferences";
import type { GridRow } from "./types";

const DEFAULT_WIDTH = 140;

/**
 * The table's column widths and order as the user left them (preferences.ts, kept in the browser per table): the
 * columns in their order (`shown`), Glide's columns with their widths, and the handlers of a resize and a move.
 */
export function useGridPreferences<R extends GridRow>(tableId: string, columns: readonly GridColumnDef<R>[]) {
  const [prefs, setPrefs] = useState<GridPrefs>(() => loadGridPrefs(tableId));
  const shown = useMemo(() => {
    const byId = new Map(columns.map((c) => [c.id, c]));
    return orderedIds(
      columns.map((c) => c.id),
      prefs.order,
    ).map((id) => byId.get(id)!);
  }, [columns, prefs.order]);
  const updatePrefs = useCallback(
    (next: GridPrefs) => {
      setPrefs(next);
      saveGridPrefs(tableId, next);
    },
    [tableId],
  );
  const gridColumns = useMemo<GridColumn[]>(
    () => shown.map((c) => ({ id: c.id, title: c.title, width: prefs.widths[c.id] ?? c.width ?? DEFAULT_WIDTH })),
    [shown, prefs.widths],
  );
  /** While dragging: the width shown; at the end, kept. */
  const onColumnResize = (column: GridColumn, size: number) => setPrefs((p) => withWidth(p, String(column.id), size));
  const onColumnResizeEnd = (column: GridColumn, size: number) => updatePrefs(withWidth(prefs, String(column.id), size));
  const onColumnMoved = (from: number, to: number) =>
    updatePrefs({
      ...prefs,
      order: moveColumn(
        shown.map((c) => c.id),
        from,
        to,
      ),
    });
  return { shown, gridColumns, onColumnResize, onColumnResizeEnd, onColumnMoved };
}
