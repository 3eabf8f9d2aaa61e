import { describe, expect, test } from "vitest";
import type { GridColumnDef } from "./columns";
import { matchChoice, normalizeLabel, parseTsv, pasteBlock, readCell, readDate, readNumber } from "./paste";

const operation: GridColumnDef = {
  id: "idOperation",
  kind: "choice",
  title: "Opération",
  options: [
    { value: 1, label: "Labour" },
    { value: 2, label: "Déchaumage" },
    { value: 3, label: "Semis direct" },
  ],
};
const columns: GridColumnDef[] = [
  { id: "date", kind: "date", title: "Date" },
  operation,
  { id: "passes", kind: "computed", title: "Passages", value: () => 1 },
  { id: "frequence", kind: "number", title: "Fréquence", decimals: 2 },
  { id: "realise", kind: "boolean", title: "Réalisé" },
  { id: "remarque", kind: "text", title: "Remarque" },
];

describe("grid paste: TSV as Excel and LibreOffice write it", () => {
  test("[issue11-grid] tab-separated rows, CRLF or LF, a final line break adds no row, empty cells kept", () => {
    expect(parseTsv("a\tb\r\nc\td\r\n")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseTsv("a\tb\nc\td")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseTsv("a\t\tc\n\tx\t")).toEqual([
      ["a", "", "c"],
      ["", "x", ""],
    ]);
    expect(parseTsv("seul")).toEqual([["seul"]]);
    expect(parseTsv("")).toEqual([]);
    expect(parseTsv("a\n\nb\n")).toEqual([["a"], [""], ["b"]]);
  });

  test("[issue11-grid] quoted cells hold line breaks, tabs and doubled quotes; a stray quote is kept as text", () => {
    expect(parseTsv('"ligne 1\nligne 2"\tx\r\n"dit ""oui"""\t"a\tb"\r\n')).toEqual([
      ["ligne 1\nligne 2", "x"],
      ['dit "oui"', "a\tb"],
    ]);
    expect(parseTsv('5" de pluie\tx')).toEqual([['5" de pluie', "x"]]);
    expect(parseTsv('"a"b\tc')).toEqual([['"a"b', "c"]]);
  });
});

describe("grid paste: values by column kind", () => {
  test("[issue11-grid] French decimals and grouping, English grouping, a unit after the number", () => {
    expect(readNumber("1,5", "fr")).toBe(1.5);
    expect(readNumber("1 234,5", "fr")).toBe(1234.5);
    expect(readNumber("1\u202f234,5", "fr")).toBe(1234.5);
    expect(readNumber("-0,25", "fr")).toBe(-0.25);
    expect(readNumber("1.5", "fr")).toBe(1.5);
    expect(readNumber("1,234.5", "en")).toBe(1234.5);
    expect(readNumber("12,5 kg/ha", "fr", "kg/ha")).toBe(12.5);
    expect(readNumber("abc", "fr")).toBe("abc");
    expect(readNumber("1e3", "fr")).toBe("1e3");
  });

  test("[C-INT-16] dates dd/mm/yyyy (and d/m/yyyy, dd-mm-yyyy, dd.mm.yyyy, yyyy-mm-dd) become yyyy-mm-dd; a wrong date stays text", () => {
    expect(readDate("05/03/2025")).toBe("2025-03-05");
    expect(readDate("5/3/2025")).toBe("2025-03-05");
    expect(readDate("05-03-2025")).toBe("2025-03-05");
    expect(readDate("05.03.2025")).toBe("2025-03-05");
    expect(readDate("2025-03-05")).toBe("2025-03-05");
    expect(readDate("31/02/2025")).toBe("31/02/2025");
  });

  test("[issue29-excel] Excel's own formats: currency, percent, any space as thousands separator, French three decimals", () => {
    expect(readNumber("12,50 €", "fr")).toBe(12.5);
    expect(readNumber("12,50\u00a0€", "fr")).toBe(12.5);
    expect(readNumber("€12.50", "en")).toBe(12.5);
    expect(readNumber("€1,234.50", "en")).toBe(1234.5);
    expect(readNumber("1\u00a0234,50 €", "fr")).toBe(1234.5);
    expect(readNumber("1\u202f234\u202f567,5", "fr")).toBe(1234567.5);
    expect(readNumber("-3,5 €", "fr")).toBe(-3.5);
    expect(readNumber("12,50 EUR", "fr")).toBe(12.5);
    expect(readNumber("15 %", "fr")).toBe(15);
    expect(readNumber("15\u202f%", "fr")).toBe(15);
    expect(readNumber("33,5%", "fr")).toBe(33.5);
    // The French decimal comma, whatever the number of decimals: "1,250" is one and a quarter, not a thousand.
    expect(readNumber("1,250", "fr")).toBe(1.25);
    expect(readNumber("0,125", "fr")).toBe(0.125);
    // English grouping only in English.
    expect(readNumber("1,250", "en")).toBe(1250);
    expect(readNumber("12 € 50", "fr")).toBe("12 € 50");
    expect(readNumber("€", "fr")).toBe("€");
    expect(readNumber("%", "fr")).toBe("%");
  });

  test("[issue29-excel] short dates: a two-digit year is of the 2000s, a day and month alone take the campaign's year", () => {
    expect(readDate("15/3/25")).toBe("2025-03-15");
    expect(readDate("15/03/25")).toBe("2025-03-15");
    expect(readDate("15.03.25")).toBe("2025-03-15");
    expect(readDate("15/03", 2025)).toBe("2025-03-15");
    expect(readDate("5/3", 2026)).toBe("2026-03-05");
    // Without a year to give, a day and month stay text (the cell says the date is wrong).
    expect(readDate("15/03")).toBe("15/03");
    expect(readDate("31/02", 2025)).toBe("31/02");
    expect(readCell({ id: "date", kind: "date", title: "Date", year: 2025 }, "15/03", "fr")).toBe("2025-03-15");
    expect(readCell({ id: "dose", kind: "number", title: "Prix", unit: "€/t" }, "187,50 €/t", "fr")).toBe(187.5);
  });

  test("[issue11-grid] choices match their label whatever the case, accents and spaces; else the code; else the text stays", () => {
    expect(normalizeLabel("  Déchaumage  ")).toBe("dechaumage");
    expect(matchChoice(operation as never, "DECHAUMAGE")?.value).toBe(2);
    expect(matchChoice(operation as never, "semis   DIRECT")?.value).toBe(3);
    expect(matchChoice(operation as never, "3")?.value).toBe(3);
    expect(readCell(operation, "déchaumage", "fr")).toBe(2);
    expect(readCell(operation, "Binage", "fr")).toBe("Binage");
  });

  test("[issue11-grid] booleans, text, and blanks", () => {
    const realise = columns[4];
    expect(["oui", "VRAI", "1", "x", "true"].map((t) => readCell(realise, t, "fr"))).toEqual([true, true, true, true, true]);
    expect(["non", "faux", "0"].map((t) => readCell(realise, t, "fr"))).toEqual([false, false, false]);
    expect(readCell(realise, "peut-être", "fr")).toBe("peut-être");
    expect(readCell(columns[5], " texte libre ", "fr")).toBe(" texte libre ");
    expect(readCell(columns[3], "  ", "fr")).toBeUndefined();
  });

  test("[issue11-grid] a block lands from the target cell, skips computed and read-only columns, and counts the rows to append", () => {
    const block = parseTsv("05/03/2025\tlabour\t9\t1,5\n06/03/2025\tsemis direct\t9\t2\n07/03/2025\tdéchaumage\t9\t0,5\n");
    const { edits, appendCount } = pasteBlock(block, { row: 1, col: 0 }, columns, 2, "fr");
    expect(appendCount).toBe(2);
    expect(edits.filter((e) => e.row === 1)).toEqual([
      { row: 1, field: "date", value: "2025-03-05" },
      { row: 1, field: "idOperation", value: 1 },
      { row: 1, field: "frequence", value: 1.5 },
    ]);
    expect(edits.filter((e) => e.row === 3).map((e) => e.value)).toEqual(["2025-03-07", 2, 0.5]);
    expect(edits.some((e) => e.field === "passes")).toBe(false);
    // Beyond the last column, cells are dropped; a read-only grid takes nothing.
    expect(pasteBlock([["1", "x", "y"]], { row: 0, col: 5 }, columns, 2, "fr").edits).toEqual([{ row: 0, field: "remarque", value: "1" }]);
    expect(pasteBlock(block, { row: 0, col: 0 }, columns, 2, "fr", true)).toEqual({ edits: [], appendCount: 0 });
  });
});
