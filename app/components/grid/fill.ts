import { editText, isEditable, type GridColumnDef } from "./columns";
import { readCell } from "./paste";
import type { CellEdit, RowKey } from "./patches";

/**
 * The fill (issue 29, decision 0115): the cells of a selection copied over the cells it is stretched to, as Excel's
 * fill handle does. One logic for the drag of the handle (the selection's bottom-right corner) and for Ctrl+D /
 * Ctrl+R, which Glide both hands over as a pattern and a destination. Pure: no Glide, no React.
 */

/** A rectangle of cells: columns x..x+width-1 of the shown columns, rows y..y+height-1 of the grid's rows. */
export type CellRect = { x: number; y: number; width: number; height: number };

const inRect = (col: number, row: number, r: CellRect) => col >= r.x && col < r.x + r.width && row >= r.y && row < r.y + r.height;
/** The pattern's offset of a destination cell, repeating the pattern up and left as well as down and right. */
const offset = (at: number, start: number, size: number) => (((at - start) % size) + size) % size;

/**
 * The edits that fill `destination` (which holds the pattern `source`) with the pattern, repeated: a cell takes
 * the value of the pattern's cell in its column (filling down or up) or in its row (filling right or left).
 * Read-only and computed columns, cells of the pattern itself and rows the grid has not are left alone; a value
 * copied into a column of another kind goes through its text, as a paste would (a number into a text column).
 */
export function fillEdits<R>({
  source,
  destination,
  columns,
  keys,
  valueAt,
  language,
}: {
  source: CellRect;
  destination: CellRect;
  columns: readonly GridColumnDef<R>[];
  keys: readonly RowKey[];
  /** The value a row holds in a field, as edited. */
  valueAt: (key: RowKey, field: string) => unknown;
  language: string;
}): CellEdit[] {
  if (source.width < 1 || source.height < 1) return [];
  const edits: CellEdit[] = [];
  for (let row = destination.y; row < destination.y + destination.height; row++) {
    const key = keys[row];
    if (key === undefined) continue;
    for (let col = destination.x; col < destination.x + destination.width; col++) {
      const column = columns[col];
      if (!column || !isEditable(column) || inRect(col, row, source)) continue;
      const from = columns[source.x + offset(col, source.x, source.width)];
      const fromKey = keys[source.y + offset(row, source.y, source.height)];
      if (!from || fromKey === undefined || from.kind === "computed") continue;
      const value = valueAt(fromKey, from.id);
      edits.push({
        key,
        field: column.id,
        value: from.kind === column.kind ? value : readCell(column, editText(from, value, language), language),
      });
    }
  }
  return edits;
}
