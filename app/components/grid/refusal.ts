import type { RowKey, RowPatch } from "./patches";

/** `patches.3` or `patches.3.values.uta` → the patch index and the field ("" for the row). */
export function parseErrorPath(path: string): { index: number; field: string } | undefined {
  const m = /^patches[.[](\d+)\]?(?:\.values\.(\w+))?(?:\.(\w+))?$/.exec(path);
  return m ? { index: Number(m[1]), field: m[2] ?? m[3] ?? "" } : undefined;
}

/**
 * The cells a refused save names (its field errors keyed `patches.<index>.values.<field>`), by row then column: a
 * field the grid does not show, or the row itself, marks the row's first editable column (`fallbackColumn`). A path
 * that names no sent patch is left out.
 */
export function refusedCells(
  fieldErrors: Record<string, string[]>,
  patches: readonly RowPatch[],
  shownColumns: readonly string[],
  fallbackColumn: string,
): Map<RowKey, Record<string, string>> {
  const marked = new Map<RowKey, Record<string, string>>();
  for (const [path, messages] of Object.entries(fieldErrors)) {
    const at = parseErrorPath(path);
    const patch = at ? patches[at.index] : undefined;
    if (!at || !patch) continue;
    const columnId = at.field && shownColumns.includes(at.field) ? at.field : fallbackColumn;
    marked.set(patch.id, { ...marked.get(patch.id), [columnId]: messages[0] });
  }
  return marked;
}
