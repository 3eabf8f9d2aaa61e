import { describe, expect, it } from "vitest";
import { packRows, unpackRows } from "./packed-rows";

describe("packed rows", () => {
  it("gives back the rows as they were, absent fields absent and nulls null", () => {
    const rows = [
      { id: 1, date: "2025-03-01", frequence: 1.5, realisee: true, idCultureConcernee: null, intrants: [{ id: 9, libelle: "Ammonitrate 33,5", quantite: 150 }] },
      { id: 2, date: "2025-03-02", frequence: 1, realisee: false, intrants: [] },
    ];
    const packed = packRows(rows);
    expect(typeof packed).toBe("string");
    const back = unpackRows(packed);
    expect(back).toEqual(rows);
    expect("idCultureConcernee" in back[1]).toBe(false);
    expect(back[0].idCultureConcernee).toBeNull();
  });
});
