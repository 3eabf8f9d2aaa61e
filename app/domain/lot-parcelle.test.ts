import { describe, expect, test } from "vitest";
import { LotParcelleSchema } from "./lot-parcelle";

const errors = (input: Record<string, unknown>) => {
  const r = LotParcelleSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("plot group form", () => {
  test("[B-LOT-05] the name is required; everything else is optional", () => {
    expect(errors({})).toEqual({ libelle: "warning.required" });
    expect(errors({ libelle: "   " })).toEqual({ libelle: "warning.required" });
    expect(errors({ libelle: "Îlot 12" })).toEqual({});
  });

  test("[B-LOT-02] [B-LOT-03] [B-LOT-07] form values become typed values: checkboxes, French decimals, the replicate answer", () => {
    const r = LotParcelleSchema.parse({
      libelle: " Îlot 12 ",
      noIlotPac: "012",
      irrigable: "on",
      reserveUtileMm: "150,5",
      profondeurSolCm: "90",
      idTypeSolArvalis: "2",
      replicate: "true",
    });
    expect(r).toMatchObject({
      libelle: "Îlot 12",
      noIlotPac: "012",
      irrigable: true,
      drainee: false,
      reserveUtileMm: 150.5,
      profondeurSolCm: 90,
      idTypeSolArvalis: 2,
      replicate: true,
    });
    expect(LotParcelleSchema.parse({ libelle: "x" }).replicate).toBe(false);
  });

  test("soil values are checked like the farm's: numeric, within bounds", () => {
    expect(errors({ libelle: "x", reserveUtileMm: "beaucoup" })).toEqual({ reserveUtileMm: "warning.numeric" });
    expect(errors({ libelle: "x", profondeurSolCm: "-1" })).toEqual({ profondeurSolCm: "warning.minmax" });
    expect(errors({ libelle: "x", noIlotPac: "1".repeat(31) })).toEqual({ noIlotPac: "warning.max-characters" });
  });
});
