import { describe, expect, test } from "vitest";
import {
  applyEdits,
  canRedo,
  canUndo,
  cellValue,
  currentValues,
  dirtyCount,
  emptyBuffer,
  redo,
  toPatches,
  undo,
  type EditBuffer,
  type Values,
} from "./patches";

const loaded = new Map<number, Values & { updatedAt: string }>([
  [10, { libelle: "A", uta: 1, updatedAt: "2026-01-01T00:00:00.000Z" }],
  [11, { libelle: "B", uta: 2, updatedAt: "2026-01-02T00:00:00.000Z" }],
]);
const base = (key: number) => loaded.get(key);

const edit = (b: EditBuffer, key: number, field: string, value: unknown) => applyEdits(b, base, [{ key, field, value }]).buffer;

describe("grid edit buffer", () => {
  test("[issue11-grid] edits become row patches with the loaded token and every schema field; an edit back to the loaded value is no change", () => {
    let b = edit(emptyBuffer(), 10, "uta", 1.5);
    b = edit(b, 11, "libelle", "B2");
    expect(dirtyCount(b)).toBe(2);
    expect(toPatches(b, base, ["libelle", "uta"])).toEqual([
      { id: 10, updatedAt: "2026-01-01T00:00:00.000Z", values: { libelle: "A", uta: 1.5 } },
      { id: 11, updatedAt: "2026-01-02T00:00:00.000Z", values: { libelle: "B2", uta: 2 } },
    ]);
    b = edit(b, 11, "libelle", "B");
    expect(dirtyCount(b)).toBe(1);
    // The same value again is not a step.
    expect(edit(b, 10, "uta", 1.5)).toBe(b);
  });

  test("[issue11-grid] undo and redo of cell edits, in order; a new edit clears the redo stack", () => {
    let b = edit(emptyBuffer(), 10, "uta", 3);
    b = edit(b, 10, "uta", 4);
    b = edit(b, 11, "libelle", "Z");
    expect(cellValue(b, 10, "uta", base(10))).toBe(4);
    b = undo(b);
    expect(cellValue(b, 11, "libelle", base(11))).toBe("B");
    expect(dirtyCount(b)).toBe(1);
    b = undo(b);
    expect(cellValue(b, 10, "uta", base(10))).toBe(3);
    b = undo(b);
    expect(dirtyCount(b)).toBe(0);
    expect(canUndo(b)).toBe(false);
    b = redo(redo(b));
    expect(cellValue(b, 10, "uta", base(10))).toBe(4);
    expect(canRedo(b)).toBe(true);
    b = edit(b, 10, "libelle", "new");
    expect(canRedo(b)).toBe(false);
  });

  test("[issue11-grid] a pasted block is one step: it appends rows with temporary ids and defaults; its undo removes them", () => {
    let b = edit(emptyBuffer(), 10, "uta", 9);
    const r = applyEdits(
      b,
      base,
      [{ key: 11, field: "uta", value: 5 }],
      [
        { libelle: "", uta: 1 },
        { libelle: "", uta: 1 },
      ],
    );
    expect(r.appendedKeys).toEqual([-1, -2]);
    b = applyEdits(r.buffer, base, [
      { key: -1, field: "libelle", value: "C" },
      { key: -2, field: "libelle", value: "D" },
    ]).buffer;
    expect(currentValues(b, -2, undefined)).toEqual({ libelle: "D", uta: 1 });
    expect(toPatches(b, base, ["libelle", "uta"]).map((p) => [p.id, p.updatedAt, p.values])).toEqual([
      [10, "2026-01-01T00:00:00.000Z", { libelle: "A", uta: 9 }],
      [-1, null, { libelle: "C", uta: 1 }],
      [-2, null, { libelle: "D", uta: 1 }],
      [11, "2026-01-02T00:00:00.000Z", { libelle: "B", uta: 5 }],
    ]);
    b = undo(undo(b));
    expect(b.appended).toEqual([]);
    expect(dirtyCount(b)).toBe(1);
    b = redo(b);
    expect(b.appended).toEqual([-1, -2]);
    expect(currentValues(b, -1, undefined)).toEqual({ libelle: "", uta: 1 });
    // Temporary ids are never reused.
    expect(applyEdits(b, base, [], [{}]).appendedKeys).toEqual([-3]);
  });

  test("[issue11-grid] an emptied cell is sent as absent (the schemas read it as an empty optional field)", () => {
    const b = edit(emptyBuffer(), 10, "libelle", undefined);
    expect(toPatches(b, base, ["libelle", "uta"])).toEqual([{ id: 10, updatedAt: "2026-01-01T00:00:00.000Z", values: { uta: 1 } }]);
  });

  test("[issue11-grid] a reload between the edit and the save does not move the token: the save of old data stays checked", () => {
    const b = edit(emptyBuffer(), 10, "uta", 7);
    // The screen reloads: row 10 changed meanwhile (someone else's save), and row 11 is no longer shown.
    const reloaded = (key: number) => (key === 10 ? { libelle: "Autre", uta: 1, updatedAt: "2026-02-01T00:00:00.000Z" } : undefined);
    expect(toPatches(b, reloaded, ["libelle", "uta"])).toEqual([{ id: 10, updatedAt: "2026-01-01T00:00:00.000Z", values: { libelle: "A", uta: 7 } }]);
    // An edit made after the reload starts from the row as first edited, too.
    const again = applyEdits(b, reloaded, [{ key: 10, field: "libelle", value: "A" }]).buffer;
    expect(again).toBe(b);
  });
});
