import { describe, expect, test } from "vitest";
import { afterSave, conflictFields, keepMine, resolveAll, takeTheirs } from "./conflicts";
import { applyEdits, emptyBuffer, toPatches, type Values } from "./patches";

const loaded: Record<number, Values & { updatedAt: string }> = {
  1: { updatedAt: "2026-01-01T00:00:00.000Z", frequence: 1, tauxSurface: 1 },
  2: { updatedAt: "2026-01-01T00:00:00.000Z", frequence: 1, tauxSurface: 1 },
  3: { updatedAt: "2026-01-01T00:00:00.000Z", frequence: 1, tauxSurface: 1 },
};
const base = (k: number) => loaded[k];
const fields = ["frequence", "tauxSurface"];

/** Rows 1, 2, 3 edited; the save answered row 2 as changed by someone else (frequence 7, new token). */
function saved() {
  const { buffer } = applyEdits(emptyBuffer(), base, [
    { key: 1, field: "frequence", value: 4 },
    { key: 2, field: "frequence", value: 5 },
    { key: 3, field: "frequence", value: 6 },
  ]);
  const patches = toPatches(buffer, base, fields);
  const theirs = { index: 1, id: 2, key: "errors.stale" as const, updatedAt: "2026-02-01T00:00:00.000Z", values: { frequence: 7, tauxSurface: 0.5 } };
  return { patches, ...afterSave(buffer, patches, [theirs]) };
}

describe("grid conflicts (decision 0100)", () => {
  test("[issue29-conflicts] after a save with one stale row, only that row's edits stay, with the other user's version beside them", () => {
    const { buffer, conflicts } = saved();
    expect([...buffer.changed.keys()]).toEqual([2]);
    expect(buffer.changed.get(2)).toEqual({ frequence: 5 });
    expect(buffer.undo).toEqual([]);
    expect(conflicts.get(2)).toMatchObject({ key: "errors.stale", theirs: { frequence: 7, tauxSurface: 0.5 } });
    // Only the field both edited differs; the surface rate the user left alone takes the stored value.
    expect(conflictFields(buffer, 2, conflicts.get(2)!, fields)).toEqual(["frequence"]);
  });

  test("[issue29-conflicts] keep mine: the next save carries the new token, the user's edit and the other user's other fields", () => {
    const { buffer, conflicts } = saved();
    const kept = keepMine(buffer, 2, conflicts.get(2)!);
    expect(toPatches(kept, base, fields)).toEqual([{ id: 2, updatedAt: "2026-02-01T00:00:00.000Z", values: { frequence: 5, tauxSurface: 0.5 } }]);
  });

  test("[issue29-conflicts] take theirs: the row's edits are dropped, nothing is left to save", () => {
    const { buffer } = saved();
    const taken = takeTheirs(buffer, 2);
    expect(taken.changed.size).toBe(0);
    expect(toPatches(taken, base, fields)).toEqual([]);
  });

  test("[issue29-conflicts] keep mine when the other user typed the same values: nothing left to save", () => {
    const { buffer } = saved();
    const same = keepMine(buffer, 2, { key: "errors.stale", updatedAt: "2026-02-01T00:00:00.000Z", theirs: { frequence: 5, tauxSurface: 1 } });
    expect(same.changed.size).toBe(0);
  });

  test("[issue29-conflicts] all at once; a removed row is not dropped by 'keep mine' (its edits would be lost)", () => {
    const { buffer: b0 } = applyEdits(emptyBuffer(), base, [
      { key: 1, field: "frequence", value: 4 },
      { key: 2, field: "frequence", value: 5 },
    ]);
    const patches = toPatches(b0, base, fields);
    const { buffer, conflicts } = afterSave(b0, patches, [
      { index: 0, id: 1, key: "errors.stale", updatedAt: "2026-02-01T00:00:00.000Z", values: { frequence: 9, tauxSurface: 1 } },
      { index: 1, id: 2, key: "errors.not-found", updatedAt: null, values: null },
    ]);
    const mine = resolveAll(buffer, conflicts, "mine");
    expect([...mine.conflicts.keys()]).toEqual([2]);
    expect(toPatches(mine.buffer, base, fields)).toEqual([
      { id: 1, updatedAt: "2026-02-01T00:00:00.000Z", values: { frequence: 4, tauxSurface: 1 } },
      { id: 2, updatedAt: "2026-01-01T00:00:00.000Z", values: { frequence: 5, tauxSurface: 1 } },
    ]);
    const theirs = resolveAll(buffer, conflicts, "theirs");
    expect(theirs.conflicts.size).toBe(0);
    expect(theirs.buffer.changed.size).toBe(0);
  });
});
