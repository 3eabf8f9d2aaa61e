import { describe, expect, test } from "vitest";
import type { GridColumnDef } from "./columns";
import { fillEdits, type CellRect } from "./fill";

type Row = Record<string, unknown>;
const columns: GridColumnDef<Row>[] = [
  { id: "date", kind: "date", title: "Date" },
  { id: "dose", kind: "number", title: "Dose" },
  { id: "passages", kind: "computed", title: "Passages", value: () => 1 },
  { id: "note", kind: "text", title: "Note" },
  { id: "fixe", kind: "text", title: "Fixe", readOnly: true },
  { id: "fait", kind: "boolean", title: "Fait" },
];
const rows: Row[] = [
  { date: "2025-03-15", dose: 120, note: "a", fixe: "x", fait: true },
  { date: "2025-03-20", dose: 80, note: "b", fixe: "y", fait: false },
  { date: undefined, dose: undefined, note: undefined, fixe: "z", fait: false },
  { date: undefined, dose: 5, note: "d", fixe: "w", fait: false },
];
const keys = [11, 12, -1, 14];
const fill = (source: CellRect, destination: CellRect) =>
  fillEdits({ source, destination, columns, keys, valueAt: (key, field) => rows[keys.indexOf(key)][field], language: "fr" });

describe("the fill handle (issue 29): the selection's values copied where it is dragged", () => {
  test("dragging one cell down copies its value into each cell below, the new row too", () => {
    expect(fill({ x: 1, y: 0, width: 1, height: 1 }, { x: 1, y: 0, width: 1, height: 4 })).toEqual([
      { key: 12, field: "dose", value: 120 },
      { key: -1, field: "dose", value: 120 },
      { key: 14, field: "dose", value: 120 },
    ]);
  });

  test("a pattern of two rows repeats, down and up alike", () => {
    expect(fill({ x: 3, y: 0, width: 1, height: 2 }, { x: 3, y: 0, width: 1, height: 4 }).map((e) => e.value)).toEqual(["a", "b"]);
    expect(fill({ x: 3, y: 2, width: 1, height: 2 }, { x: 3, y: 0, width: 1, height: 4 })).toEqual([
      { key: 11, field: "note", value: undefined },
      { key: 12, field: "note", value: "d" },
    ]);
  });

  test("computed and read-only columns are left alone; dates and booleans copied as they are", () => {
    const edits = fill({ x: 0, y: 0, width: 6, height: 1 }, { x: 0, y: 0, width: 6, height: 2 });
    expect(edits).toEqual([
      { key: 12, field: "date", value: "2025-03-15" },
      { key: 12, field: "dose", value: 120 },
      { key: 12, field: "note", value: "a" },
      { key: 12, field: "fait", value: true },
    ]);
  });

  test("filling right reads the value as the next column's kind (a number into a text column)", () => {
    expect(fill({ x: 1, y: 0, width: 1, height: 1 }, { x: 1, y: 0, width: 3, height: 1 })).toEqual([{ key: 11, field: "note", value: "120" }]);
  });

  test("rows the grid has not, and an empty pattern, fill nothing", () => {
    expect(fill({ x: 1, y: 0, width: 1, height: 1 }, { x: 1, y: 3, width: 1, height: 5 })).toEqual([{ key: 14, field: "dose", value: 120 }]);
    expect(fill({ x: 1, y: 0, width: 0, height: 1 }, { x: 1, y: 0, width: 1, height: 3 })).toEqual([]);
  });
});
