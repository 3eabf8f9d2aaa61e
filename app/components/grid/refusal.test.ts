import { describe, expect, it } from "vitest";
import { parseErrorPath, refusedCells } from "./refusal";

describe("a refused grid save", () => {
  it("reads the patch index and the field of an error path", () => {
    expect(parseErrorPath("patches.3.values.uta")).toEqual({ index: 3, field: "uta" });
    expect(parseErrorPath("patches[2]")).toEqual({ index: 2, field: "" });
    expect(parseErrorPath("patches.0.updatedAt")).toEqual({ index: 0, field: "updatedAt" });
    expect(parseErrorPath("libelle")).toBeUndefined();
  });

  it("[issue11-grid] marks the named cells of the sent rows; a hidden field or the row itself marks the first editable column", () => {
    const patches = [
      { id: 10, updatedAt: "t", values: {} },
      { id: -1, updatedAt: null, values: {} },
    ];
    const marked = refusedCells(
      {
        "patches.0.values.uta": ["warning.numeric"],
        "patches.0.values.cache": ["warning.required"],
        "patches.1": ["grid.stale-rows"],
        "patches.7.values.uta": ["x"],
      },
      patches,
      ["libelle", "uta"],
      "libelle",
    );
    expect([...marked]).toEqual([
      [10, { uta: "warning.numeric", libelle: "warning.required" }],
      [-1, { libelle: "grid.stale-rows" }],
    ]);
  });
});
