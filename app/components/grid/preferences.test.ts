import { describe, expect, test } from "vitest";
import { gridPrefsKey, loadGridPrefs, moveColumn, orderedIds, parseGridPrefs, saveGridPrefs, withWidth } from "./preferences";

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("grid preferences", () => {
  test("[C-CONST-17] widths and order persist in the browser for each table apart", () => {
    const storage = memoryStorage();
    saveGridPrefs("interventions", withWidth({ widths: {}, order: ["b", "a"] }, "a", 180), storage);
    saveGridPrefs("prix", { widths: { x: 90 }, order: null }, storage);
    expect(loadGridPrefs("interventions", storage)).toEqual({ widths: { a: 180 }, order: ["b", "a"] });
    expect(loadGridPrefs("prix", storage)).toEqual({ widths: { x: 90 }, order: null });
    expect([...storage.data.keys()]).toEqual([gridPrefsKey("interventions"), gridPrefsKey("prix")]);
    expect(gridPrefsKey("prix")).toBe("sillon.grid.prix");
  });

  test("[C-CONST-17] a stored value is never trusted: corrupt JSON, bad widths and duplicates fall back", () => {
    expect(parseGridPrefs("{not json")).toEqual({ widths: {}, order: null });
    expect(parseGridPrefs(JSON.stringify({ widths: { a: 5, b: 5000, c: "x" }, order: ["a", "a", 3, "b"] }))).toEqual({
      widths: { a: 50, b: 800 },
      order: ["a", "b"],
    });
    expect(loadGridPrefs("x", null)).toEqual({ widths: {}, order: null });
    const throwing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("full");
      },
    };
    expect(loadGridPrefs("x", throwing)).toEqual({ widths: {}, order: null });
    expect(() => saveGridPrefs("x", { widths: {}, order: null }, throwing)).not.toThrow();
  });

  test("[C-CONST-17] the stored order drops unknown columns and places new ones after their neighbour", () => {
    expect(orderedIds(["a", "b", "c"], null)).toEqual(["a", "b", "c"]);
    expect(orderedIds(["a", "b", "c", "d"], ["c", "gone", "a", "b"])).toEqual(["c", "d", "a", "b"]);
    expect(orderedIds(["new", "a", "b"], ["b", "a"])).toEqual(["new", "b", "a"]);
    expect(moveColumn(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveColumn(["a", "b", "c"], 0, 9)).toEqual(["a", "b", "c"]);
  });
});
