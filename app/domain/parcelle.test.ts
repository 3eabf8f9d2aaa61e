import { describe, expect, test } from "vitest";
import {
  AffectationsSchema,
  buildHistoriqueTree,
  CHARGE_UNIT,
  CHARGES,
  departementOfInsee,
  MajDatesSchema,
  ParcelleSchema,
  shiftYears,
  surfaceOfGeometrie,
  typeOfGeometrie,
  withDerivedSurfaces,
} from "./parcelle";
import { validate } from "./validation";

const errorsOf = (input: Record<string, unknown>) => {
  const r = validate(ParcelleSchema, input);
  return r.success ? {} : r.fieldErrors;
};

describe("plot form", () => {
  test("[B-PLOT-12] the name is required", () => {
    expect(errorsOf({})).toMatchObject({ libelle: ["warning.required"] });
    expect(errorsOf({ libelle: "   " })).toMatchObject({ libelle: ["warning.required"] });
    expect(errorsOf({ libelle: "Les Grands Champs", surface: "4" })).toEqual({});
  });

  test("[B-PLOT-13] [B-PLOT-14] [B-PLOT-15] surface, yield target and real surface must be numeric (French decimals accepted)", () => {
    expect(errorsOf({ libelle: "P", surface: "abc", objectifRendement: "8t", surfaceReelle: "1.2.3" })).toEqual({
      surface: ["warning.numeric"],
      objectifRendement: ["warning.numeric"],
      surfaceReelle: ["warning.numeric"],
    });
    const r = validate(ParcelleSchema, { libelle: "P", surface: "12,5", objectifRendement: "8.7", surfaceReelle: "12,48" });
    expect(r.success && [r.data.surface, r.data.objectifRendement, r.data.surfaceReelle]).toEqual([12.5, 8.7, 12.48]);
  });

  test("[B-PLOT-16] every charge field must be numeric; €/ha except storage in €/t", () => {
    const bad = Object.fromEntries(CHARGES.map((c) => [c, "beaucoup"]));
    expect(errorsOf({ libelle: "P", surface: "1", ...bad })).toEqual(Object.fromEntries(CHARGES.map((c) => [c, ["warning.numeric"]])));
    expect(CHARGES).toHaveLength(9);
    expect(CHARGE_UNIT.chargesStockage).toBe("€/t");
    expect(CHARGES.filter((c) => CHARGE_UNIT[c] === "€/ha")).toHaveLength(8);
  });

  test("[B-PLOT-10] [B-PLOT-18] the form carries booleans, pickers, geodata, soil and history links", () => {
    const r = validate(ParcelleSchema, {
      libelle: "La Remise",
      surface: "3",
      irrigable: "on",
      idModeConduite: "4",
      idLot: "2",
      tauxLegumineuse: "1",
      codeInsee: "2A004",
      codePostal: "20167",
      noIlotPac: "12",
      geometrie: JSON.stringify({ type: "Point", coordinates: [2.2, 48.5] }),
      idTypeSolArvalis: "3",
      parcellesHistorique: ["7", "9", "7"],
    });
    expect(r.success).toBe(true);
    if (!r.success) return;
    expect(r.data).toMatchObject({
      irrigable: true,
      drainee: false,
      jachere: false,
      idModeConduite: 4,
      idLot: 2,
      tauxLegumineuse: 1,
      codeInsee: "2A004",
      idTypeSolArvalis: 3,
      parcellesHistorique: [7, 9],
    });
    expect(validate(ParcelleSchema, { libelle: "P", surface: 1, parcellesHistorique: "[3,4]" })).toMatchObject({
      success: true,
      data: { parcellesHistorique: [3, 4] },
    });
    expect(validate(ParcelleSchema, { libelle: "P", surface: 1 })).toMatchObject({ success: true, data: { parcellesHistorique: [] } });
  });

  test("bad codes and a geometry that is not a GeoJSON polygon or point are refused", () => {
    expect(errorsOf({ libelle: "P", surface: "1", codeInsee: "2800", codePostal: "28OOO", geometrie: '{"type":"LineString","coordinates":[]}' })).toEqual({
      codeInsee: ["warning.invalid"],
      codePostal: ["warning.invalid"],
      geometrie: ["warning.invalid"],
    });
    expect(
      typeOfGeometrie(
        JSON.stringify({
          type: "Polygon",
          coordinates: [
            [
              [2, 48],
              [2.1, 48],
              [2, 48.1],
              [2, 48],
            ],
          ],
        }),
      ),
    ).toBe("polygon");
    expect(typeOfGeometrie("not json")).toBeNull();
  });
});

describe("plot surfaces (docs/decisions/0023-plot-surface.md)", () => {
  // About 100 m × 100 m near Chartres: one hectare, give or take the projection.
  const square = JSON.stringify({
    type: "Polygon",
    coordinates: [
      [
        [1.48, 48.44],
        [1.481356, 48.44],
        [1.481356, 48.440899],
        [1.48, 48.440899],
        [1.48, 48.44],
      ],
    ],
  });
  const point = JSON.stringify({ type: "Point", coordinates: [1.48, 48.44] });

  test("[issue10] a plot cannot be saved without a surface the crop-area total can use: required and above 0", () => {
    expect(errorsOf({ libelle: "P" })).toEqual({ surface: ["warning.required"] });
    expect(errorsOf({ libelle: "P", surface: "" })).toEqual({ surface: ["warning.required"] });
    expect(errorsOf({ libelle: "P", surface: "0" })).toEqual({ surface: ["warning.positive"] });
    expect(errorsOf({ libelle: "P", geometrie: point })).toEqual({ surface: ["warning.required"] });
  });

  test("[issue10] [B-MAP-13] a drawn polygon's area is the real surface, and the surface when none is typed", () => {
    expect(surfaceOfGeometrie(square)).toBe(1);
    expect(surfaceOfGeometrie(point)).toBeNull();
    const r = validate(ParcelleSchema, { libelle: "P", geometrie: square, surfaceReelle: "" });
    expect(r.success && [r.data.surface, r.data.surfaceReelle]).toEqual([1, 1]);
    // A typed surface is kept; the real surface is always the polygon's, whatever was typed.
    const typed = validate(ParcelleSchema, { libelle: "P", surface: "1,2", surfaceReelle: "7", geometrie: square });
    expect(typed.success && [typed.data.surface, typed.data.surfaceReelle]).toEqual([1.2, 1]);
  });

  test("[issue10] without a polygon, a blank surface takes the typed real surface (a declared area)", () => {
    const r = validate(ParcelleSchema, { libelle: "P", surfaceReelle: "3,5", geometrie: point });
    expect(r.success && [r.data.surface, r.data.surfaceReelle]).toEqual([3.5, 3.5]);
    expect(withDerivedSurfaces("not an object")).toBe("not an object");
  });
});

describe("department of a commune", () => {
  test("[B-MAP-07] the department is the first two characters of the INSEE code; Corsica keeps 2A/2B, overseas has three digits", () => {
    expect(departementOfInsee("28085")).toBe("28");
    expect(departementOfInsee("2A004")).toBe("2A");
    expect(departementOfInsee("2B033")).toBe("2B");
    expect(departementOfInsee("97105")).toBe("971");
    expect(departementOfInsee("97502")).toBe("975");
    expect(departementOfInsee("")).toBeNull();
    expect(departementOfInsee(null)).toBeNull();
  });
});

describe("date-update modal", () => {
  test("[B-PLOT-06] initial and final years are required", () => {
    const r = validate(MajDatesSchema, { ids: ["1"] });
    expect(r.success ? {} : r.fieldErrors).toEqual({ anneeInitiale: ["warning.required"], anneeFinale: ["warning.required"] });
  });

  test("[B-PLOT-07] initial and final years must be numeric", () => {
    const r = validate(MajDatesSchema, { ids: ["1"], anneeInitiale: "deux mille", anneeFinale: "2025a" });
    expect(r.success ? {} : r.fieldErrors).toEqual({ anneeInitiale: ["warning.numeric"], anneeFinale: ["warning.numeric"] });
    const ok = validate(MajDatesSchema, { ids: ["1", "2"], anneeInitiale: "2024", anneeFinale: "2025" });
    expect(ok).toMatchObject({ success: true, data: { ids: [1, 2], anneeInitiale: 2024, anneeFinale: 2025 } });
    expect(ok.success && shiftYears(ok.data)).toBe(1);
  });

  test("at least one plot is ticked", () => {
    const r = validate(MajDatesSchema, { anneeInitiale: "2024", anneeFinale: "2025" });
    expect(r.success ? {} : r.fieldErrors).toEqual({ ids: ["warning.required"] });
  });
});

describe("cost centres", () => {
  test("one target crop per plot; empty removes it", () => {
    expect(
      AffectationsSchema.parse([
        { idParcelle: "3", idCulture: "12" },
        { idParcelle: 4, idCulture: "" },
      ]),
    ).toEqual([
      { idParcelle: 3, idCulture: 12 },
      { idParcelle: 4, idCulture: null },
    ]);
  });
});

describe("history tree", () => {
  const plots = [
    { id: 1, libelle: "Grand Champ 2025", anneeRecolte: 2025 },
    { id: 2, libelle: "Grand Champ nord 2024", anneeRecolte: 2024 },
    { id: 3, libelle: "Grand Champ sud 2024", anneeRecolte: 2024 },
    { id: 4, libelle: "Grand Champ 2023", anneeRecolte: 2023 },
    { id: 5, libelle: "La Mare 2022", anneeRecolte: 2022 },
  ];

  test("[B-HIST-05] generations N-1, N-2 and so on follow the links; a plot split in two shows once per generation", () => {
    const links = [
      { idParcelle: 1, idParcelleHistorique: 2 },
      { idParcelle: 1, idParcelleHistorique: 3 },
      { idParcelle: 2, idParcelleHistorique: 4 },
      { idParcelle: 3, idParcelleHistorique: 4 },
      { idParcelle: 4, idParcelleHistorique: 5 },
    ];
    const tree = buildHistoriqueTree(1, plots, links)!;
    expect(tree.generations.map((g) => g.map((n) => n.id))).toEqual([[2, 3], [4], [5]]);
    expect(tree.root.children.map((c) => [c.id, c.generation, c.children.map((x) => x.id)])).toEqual([
      [2, 1, [4]],
      [3, 1, [4]],
    ]);
  });

  test("a cycle in bad data is not followed, unknown plots are skipped, an unknown root gives null", () => {
    const tree = buildHistoriqueTree(1, plots, [
      { idParcelle: 1, idParcelleHistorique: 2 },
      { idParcelle: 2, idParcelleHistorique: 1 },
      { idParcelle: 2, idParcelleHistorique: 99 },
    ])!;
    expect(tree.generations.map((g) => g.map((n) => n.id))).toEqual([[2]]);
    expect(buildHistoriqueTree(1, plots, [])?.generations).toEqual([]);
    expect(buildHistoriqueTree(42, plots, [])).toBeNull();
  });
});
