import { z } from "zod";
import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { displayText, editText, kindError, rowErrors, type GridColumnDef } from "./columns";

type Row = { frequence?: number; taux?: number };
const columns: GridColumnDef<Row>[] = [
  { id: "date", kind: "date", title: "Date" },
  { id: "dose", kind: "number", title: "Dose", unit: "kg/ha", decimals: 1 },
  { id: "op", kind: "choice", title: "Opération", options: [{ value: 1, label: "Labour" }] },
  { id: "realise", kind: "boolean", title: "Réalisé" },
  { id: "passes", kind: "computed", title: "Passages", value: (r) => ((r.frequence ?? 0) * (r.taux ?? 0)) / 100, decimals: 2 },
];
const [date, dose, op, realise, passes] = columns;

describe("grid column kinds", () => {
  test("[C-INT-16] [C-INT-17] a date shows day/month/year, the day as in Paris; numbers in the UI language with their unit", () => {
    expect(displayText(date, "2025-03-05", "fr")).toBe("05/03/2025");
    expect(displayText(date, "2025-12-31", "en")).toBe("31/12/2025");
    expect(displayText(dose, 1234.56, "fr")).toBe("1\u202f234,6 kg/ha");
    expect(displayText(dose, 1234.56, "en")).toBe("1,234.6 kg/ha");
    expect(displayText(op, 1, "fr")).toBe("Labour");
    expect(displayText(realise, true, "fr")).toBe("✓");
    expect(displayText(dose, undefined, "fr")).toBe("");
  });

  test("[issue11-grid] computed columns are recomputed from the row as edited", () => {
    const c = passes as Extract<GridColumnDef<Row>, { kind: "computed" }>;
    expect(displayText(c, c.value({ frequence: 2, taux: 50 }), "fr")).toBe("1");
    expect(displayText(c, c.value({ frequence: 1.5, taux: 50 }), "fr")).toBe("0,75");
  });

  test("[issue11-grid] edited and copied text reads back in a French spreadsheet: decimal comma, no grouping, dates dd/mm/yyyy, labels", () => {
    expect(editText(dose, 1234.5, "fr")).toBe("1234,5");
    expect(editText(dose, 1234.5, "en")).toBe("1234.5");
    expect(editText(date, "2025-03-05", "fr")).toBe("05/03/2025");
    expect(editText(op, 1, "fr")).toBe("Labour");
    expect(editText(realise, false, "fr")).toBe("0");
  });

  test("[issue11-grid] a cell the kind cannot hold, then the row schema, give the reason of each invalid cell", () => {
    expect(kindError(dose, "abc")).toBe("warning.numeric");
    expect(kindError(op, "Binage")).toBe("grid.unknown-choice");
    expect(kindError(date, "31/02/2025")).toBe("warning.date");
    expect(kindError(dose, undefined)).toBeUndefined();
    const labour: GridColumnDef[] = [
      { id: "libelle", kind: "text", title: "Nom" },
      { id: "uta", kind: "number", title: "UTH" },
    ];
    expect(rowErrors(MainOeuvreSchema, labour, { libelle: "", idTypeUser: 951, uta: -1 })).toEqual({ libelle: "warning.required", uta: "warning.positive" });
    expect(rowErrors(MainOeuvreSchema, labour, { libelle: "A", idTypeUser: 951, uta: "x" })).toEqual({ uta: "warning.numeric" });
    expect(rowErrors(MainOeuvreSchema, labour, { libelle: "A", idTypeUser: 951, uta: 1, montant: null })).toEqual({});
    expect(rowErrors(z.object({ a: z.string() }), [], { a: "x", other: 1 })).toEqual({});
  });
});

describe("bounds named in the message (issue 29)", () => {
  test("[issue29-bounds] a refused bound names the field's bounds in the UI language; other keys unchanged", async () => {
    const { errorMessage } = await import("./columns");
    const { optionalNumber, requiredNumber } = await import("~/domain/validation");
    const schema = z.object({ taux: requiredNumber({ min: 0, max: 100 }), dose: optionalNumber({ min: 0.5 }), libre: requiredNumber() });
    expect(errorMessage(schema, "taux", "warning.minmax", "fr")).toEqual({ key: "bornes.minmax", params: { min: "0", max: "100" } });
    expect(errorMessage(schema, "dose", "warning.min", "fr")).toEqual({ key: "bornes.min", params: expect.objectContaining({ min: "0,5" }) });
    expect(errorMessage(schema, "dose", "warning.min", "en")).toEqual({ key: "bornes.min", params: expect.objectContaining({ min: "0.5" }) });
    expect(errorMessage(schema, "libre", "warning.max", "fr")).toEqual({
      key: "bornes.max",
      params: expect.objectContaining({ max: expect.stringMatching(/^99\s999\s999,99$/) }),
    });
    expect(errorMessage(schema, "taux", "warning.numeric", "fr")).toEqual({ key: "warning.numeric" });
    expect(errorMessage(schema, "absent", "warning.minmax", "fr")).toEqual({ key: "warning.minmax" });
    // The grid's own row: the interventions' frequency refused above its bound says it.
    const row = rowErrors(schema, [], { taux: 150, libre: 1 });
    expect(row).toEqual({ taux: "warning.minmax" });
  });
});
