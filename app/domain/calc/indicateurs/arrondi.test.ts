import { describe, expect, test } from "vitest";
import { arrondiCompletude, arrondiIndicateur, decimalesIndicateur, formatTableurIndicateur } from "./arrondi";

describe("rounding of an indicator's figure by its unit (issue 29)", () => {
  test("[issue29-exports] two decimals at most for every indicator unit, as the screens show them", () => {
    expect(arrondiIndicateur(3.426573, "doses de référence/ha")).toBe(3.43);
    expect(arrondiIndicateur(-1234.5678, "€/ha")).toBe(-1234.57);
    expect(arrondiIndicateur(0.005, "kg N/ha")).toBe(0.01);
    expect(arrondiIndicateur(1.005, "h/ha")).toBe(1.01);
    expect(arrondiIndicateur(12, "t/ha")).toBe(12);
    for (const u of ["€/ha", "€/t", "kg N/kg N", "MJ/ha", "kg CO2e/ha", "L/ha", "passages"]) expect(decimalesIndicateur(u)).toBe(2);
  });

  test("[issue29-exports] a percentage and a completeness are whole numbers; no figure stays empty", () => {
    expect(arrondiIndicateur(73.6842, "%")).toBe(74);
    expect(arrondiCompletude(66.666)).toBe(67);
    expect(arrondiCompletude(100)).toBe(100);
    expect(arrondiIndicateur(null, "€/ha")).toBeNull();
    expect(arrondiIndicateur(Number.NaN, "€/ha")).toBeNull();
    expect(arrondiIndicateur(Number.POSITIVE_INFINITY, "€/ha")).toBeNull();
    expect(Object.is(arrondiIndicateur(-0.001, "€/ha"), -0)).toBe(false);
  });

  test("[issue29-exports] the spreadsheet format shows the same decimals", () => {
    expect(formatTableurIndicateur("€/ha")).toBe("#,##0.##");
    expect(formatTableurIndicateur("%")).toBe("#,##0");
  });
});
