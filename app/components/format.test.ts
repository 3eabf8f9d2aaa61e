import { describe, expect, test } from "vitest";
import { formatDateTime, formatEuro, formatNumber, formatPercent, formuleNpk, numberLocale, numberText, parisYear } from "./format";

/** Intl separates thousands with a narrow no-break space in French: compared as a plain space. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

describe("numbers follow the UI language (issue 10)", () => {
  test("French writes a decimal comma and groups with spaces; English a decimal point and commas", () => {
    expect(plain(formatNumber(1234.567, "fr"))).toBe("1 234,57");
    expect(formatNumber(1234.567, "en")).toBe("1,234.57");
    expect(formatNumber(0.5, "en", 3, 2)).toBe("0.50");
    expect(formatNumber(null, "en")).toBe("");
    expect(formatNumber(Number.NaN, "fr")).toBe("");
  });

  test("[A-CONST-12] amounts in euros in either language", () => {
    expect(plain(formatEuro(1234.5, "fr"))).toBe("1 234,50 €");
    expect(formatEuro(1234.5, "en")).toBe("€1,234.50");
    expect(formatEuro(undefined, "en")).toBe("");
  });

  test("percentages out of 100, to one decimal by default", () => {
    expect(plain(formatPercent(73.66, "fr"))).toBe("73,7 %");
    expect(formatPercent(73.66, "en")).toBe("73.7%");
  });

  test("the dev locale writes numbers the French way; a form's input gets the language's decimal sign", () => {
    expect(numberLocale("dev")).toBe("fr-FR");
    expect(numberText(2.5, "fr")).toBe("2,5");
    expect(numberText(2.5, "en")).toBe("2.5");
    expect(numberText(null, "en")).toBeUndefined();
  });
});

describe("dates and times are Paris time on the server and in the browser (issue 10, hydration)", () => {
  test("[A-CONST-11] a UTC instant late in the evening is the next day in Paris", () => {
    expect(formatDateTime("2026-11-25T23:43:00.000Z")).toBe("26/11/2026 00:43");
    expect(formatDateTime("2026-07-01T08:05:00.000Z")).toBe("01/07/2026 10:05");
  });
  test("the year turns at midnight in Paris, not in UTC", () => {
    expect(parisYear(new Date("2026-12-31T23:30:00.000Z"))).toBe(2027);
    expect(parisYear(new Date("2026-12-31T22:30:00.000Z"))).toBe(2026);
  });
});

describe("a fertiliser's grade", () => {
  test("[B-PLOT-04] the N-P2O5-K2O grade follows the UI language", () => {
    expect(formuleNpk({ n: 33.5 }, "fr")).toBe("33,5-0-0");
    expect(formuleNpk({ n: 15, p2o5: 15, k2o: 15 }, "en")).toBe("15-15-15");
  });
});
