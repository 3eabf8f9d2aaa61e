import { describe, expect, test } from "vitest";
import type { z } from "zod";
import {
  bytesMatchExtension,
  champsDuType,
  extensionAcceptee,
  HorizonSchema,
  nomAffiche,
  observationRowSchema,
  SerieSchema,
  serieSelonType,
  typeFromBytes,
} from "./observation";

describe("observation domain", () => {
  test("[B-OBS-16] [B-OBS-17] [B-OBS-18] [B-OBS-19] [B-OBS-20] the fields each type shows", () => {
    for (const t of [1130, 1128, 1133]) expect(champsDuType(t)).toEqual({ organe: true, stade: true, laboratoire: true });
    for (const t of [3040, 1127, 1126]) expect(champsDuType(t)).toEqual({ organe: true, stade: true, laboratoire: false });
    expect(champsDuType(1124)).toEqual({ organe: false, stade: true, laboratoire: true });
    expect(champsDuType(1125)).toEqual({ organe: false, stade: true, laboratoire: false });
    expect(champsDuType(1131)).toEqual({ organe: false, stade: false, laboratoire: false });
  });

  test("[B-OBS-21] [B-OBS-26] [B-OBS-27] [B-OBS-24] a series needs a plot, a valid date, a type and a label; without a crop there is no stage", () => {
    expect(SerieSchema.safeParse({ date: "01/02/2025", dicIdTypeSerie: 1130, nom: "x" }).success).toBe(false);
    expect(SerieSchema.safeParse({ idParcelle: 1, date: "31/02/2025", dicIdTypeSerie: 1130, nom: "x" }).success).toBe(false);
    expect(SerieSchema.safeParse({ idParcelle: 1, date: "01/02/2025", nom: "x" }).success).toBe(false);
    expect(SerieSchema.safeParse({ idParcelle: 1, date: "01/02/2025", dicIdTypeSerie: 1130, nom: " " }).success).toBe(false);
    const v = SerieSchema.parse({ idParcelle: 1, date: "01/02/2025", dicIdTypeSerie: "1125", nom: "x", idStade: "3", organeEtudie: "2", placettes: "4,5" });
    expect(serieSelonType(v)).toMatchObject({ idStade: undefined, organeEtudie: undefined, placettes: [] });
  });

  test("[B-OBS-44] [B-OBS-47] [B-PLAC-10] a row needs an element; values and placette values are numbers", () => {
    const schema = observationRowSchema([7]);
    expect(schema.safeParse({ valeur: 1 }).success).toBe(false);
    expect(schema.safeParse({ element: 2100, valeur: "abc" }).success).toBe(false);
    expect(schema.safeParse({ element: 2100, p7: "x" }).success).toBe(false);
    expect(schema.parse({ element: 2100, valeur: "1,5", p7: "2,25" })).toMatchObject({ valeur: 1.5, p7: 2.25 });
  });

  test("[B-HOR-06] [B-HOR-07] [B-HOR-08] [B-HOR-09] a horizon needs a label, numeric limits, the upper not below the lower", () => {
    expect(HorizonSchema.safeParse({ name: "" }).success).toBe(false);
    expect(HorizonSchema.safeParse({ name: "A", limiteSup: "x" }).success).toBe(false);
    const r = HorizonSchema.safeParse({ name: "A", limiteSup: 10, limiteInf: 20 });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["limiteSup", "observations.horizon.sup-sous-inf"],
      ["limiteInf", "observations.horizon.inf-sur-sup"],
    ]);
    expect(HorizonSchema.safeParse({ name: "A", limiteSup: 30, limiteInf: 0 }).success).toBe(true);
  });

  test("[B-FILE-04] accepted extensions, and the type read from the bytes", () => {
    for (const n of ["a.pdf", "a.DOCX", "a.csv", "a.png", "a.jpg", "a.jpeg", "a.xlsx", "a.xls", "a.xlsm"]) expect(extensionAcceptee(n)).toBe(true);
    for (const n of ["a.exe", "a.pdf.exe", "a", "a.html"]) expect(extensionAcceptee(n)).toBe(false);
    expect(typeFromBytes(new TextEncoder().encode("%PDF-1.7"))).toBe("pdf");
    expect(bytesMatchExtension("pdf", new Uint8Array([0x4d, 0x5a]))).toBe(false);
    expect(bytesMatchExtension("xlsx", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1]))).toBe(true);
    expect(bytesMatchExtension("xls", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe(true);
    expect(bytesMatchExtension("csv", new TextEncoder().encode("a;b\n1;2"))).toBe(true);
    expect(bytesMatchExtension("csv", new Uint8Array([0x61, 0, 0x62]))).toBe(false);
    expect(nomAffiche("C:\\dossier\\rapport.pdf")).toBe("rapport.pdf");
  });
});

describe("observation values' bounds (issue 29)", () => {
  test("[issue29-bounds] a value and a placette's value are bounded by what decimal(14, 4) stores: inside accepted, outside refused with the bounds to name", async () => {
    const { VALEUR_MAX } = await import("./observation");
    const { numberBounds } = await import("./validation");
    const schema = observationRowSchema([7]);
    expect(VALEUR_MAX).toBe(9999999999.9999);
    const ok = schema.safeParse({ element: 2101, valeur: "9 999 999 999,9999", p7: -VALEUR_MAX });
    expect(ok.success).toBe(true);
    const high = schema.safeParse({ element: 2101, valeur: VALEUR_MAX + 1 });
    expect(high.success ? [] : high.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([["valeur", "warning.minmax"]]);
    const low = schema.safeParse({ element: 2101, p7: "-10 000 000 000" });
    expect(low.success ? [] : low.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([["p7", "warning.minmax"]]);
    expect(numberBounds(schema.shape.valeur)).toEqual({ min: -VALEUR_MAX, max: VALEUR_MAX });
    expect(numberBounds((schema.shape as Record<string, z.ZodType>).p7)).toEqual({ min: -VALEUR_MAX, max: VALEUR_MAX });
    // The element is a number without bounds of its own: the integer column's.
    expect(numberBounds(schema.shape.unite)).toBeUndefined();
  });
});
