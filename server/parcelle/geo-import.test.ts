import { describe, expect, test } from "vitest";
import { bytesOf, dbf, kmlOf, LAMBERT93_PRJ, rectangle, shp, threeFields, zip } from "../../tests/helpers/geo-files";
import { GeoImportError, IMPORT_MAX_FEATURES, labelOf, parseGeoFile } from "./geo-import";

/** Plot import: reading GeoJSON, KML and zipped shapefiles (docs/decisions/0015-import-parcelles.md). */

async function refusal(name: string, bytes: Uint8Array) {
  const e = await parseGeoFile({ name, bytes }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(GeoImportError);
  return e as GeoImportError;
}

const feature = (geometry: unknown, properties: Record<string, unknown> = {}) => ({ type: "Feature", properties, geometry });
const collection = (...features: unknown[]) => ({ type: "FeatureCollection", features });

describe("GeoJSON", () => {
  test("a FeatureCollection of three fields: labels from the properties, Telepac island number, surfaces in ha with 2 decimals", async () => {
    const { format, candidates } = await parseGeoFile({ name: "champs.geojson", bytes: bytesOf(threeFields()) });
    expect(format).toBe("geojson");
    expect(candidates.map((c) => [c.index, c.libelle, c.noIlotPac, c.typeGeometrie, c.surface, c.refus])).toEqual([
      [0, "Îlot 12 parcelle 1", "12", "polygon", 8.2, null],
      [1, "Les Hauts Vents", "12", "polygon", 4.1, null],
      [2, "La Mare", null, "polygon", 1.64, null],
    ]);
    expect(candidates[2].geometry).toEqual({
      type: "Polygon",
      coordinates: [rectangle(1.49, 48.44, 0.001, 0.002).map(([x, y]) => [Math.round(x * 1e7) / 1e7, Math.round(y * 1e7) / 1e7])],
    });
  });

  test("[issue10] a single Feature, a bare geometry, a Point (no surface: refused, a plot needs one), a UTF-8 byte order mark", async () => {
    const one = await parseGeoFile({ name: "un.json", bytes: bytesOf(feature({ type: "Point", coordinates: [1.5, 48.4, 120] }, { libelle: "Le puits" })) });
    expect(one.candidates).toMatchObject([
      {
        libelle: "Le puits",
        typeGeometrie: "marker",
        surface: null,
        geometry: { type: "Point", coordinates: [1.5, 48.4] },
        refus: { key: "parcelle.import.refus.no-surface" },
      },
    ]);
    const bare = await parseGeoFile({
      name: "forme.GEOJSON",
      bytes: bytesOf("\uFEFF" + JSON.stringify({ type: "Polygon", coordinates: [rectangle(1.48, 48.44, 0.001, 0.001)] })),
    });
    expect(bare.candidates).toMatchObject([{ libelle: "forme 1", typeGeometrie: "polygon", refus: null }]);
    expect(bare.candidates[0].surface).toBeGreaterThan(0.8);
  });

  test("a MultiPolygon gives one plot per part, each with its own surface; an unclosed ring is closed", async () => {
    const open = rectangle(1.49, 48.44, 0.001, 0.002).slice(0, 4);
    const { candidates } = await parseGeoFile({
      name: "ilots.geojson",
      bytes: bytesOf(collection(feature({ type: "MultiPolygon", coordinates: [[rectangle(1.48, 48.44, 0.004, 0.0025)], [open]] }, { NUM_ILOT: 7 }))),
    });
    expect(candidates.map((c) => [c.libelle, c.part, c.source, c.noIlotPac, c.surface])).toEqual([
      ["Îlot 7 (1)", 1, 1, "7", 8.2],
      ["Îlot 7 (2)", 2, 1, "7", 1.64],
    ]);
    expect((candidates[1].geometry as { coordinates: number[][][] }).coordinates[0]).toHaveLength(5);
  });

  test("other geometries, no geometry, projected coordinates and bad shapes are refused one by one, with their reason", async () => {
    const { candidates } = await parseGeoFile({
      name: "melange.geojson",
      bytes: bytesOf(
        collection(
          feature(
            {
              type: "LineString",
              coordinates: [
                [1.48, 48.44],
                [1.49, 48.45],
              ],
            },
            { nom: "Haie" },
          ),
          feature(null, { nom: "Sans forme" }),
          feature(
            {
              type: "Polygon",
              coordinates: [
                [
                  [587000, 6815000],
                  [587200, 6815000],
                  [587200, 6815100],
                  [587000, 6815000],
                ],
              ],
            },
            { nom: "Lambert" },
          ),
          feature(
            {
              type: "Polygon",
              coordinates: [
                [
                  [1.48, 48.44],
                  [1.49, 48.44],
                  [1.48, 48.44],
                ],
              ],
            },
            { nom: "Trait" },
          ),
          feature(
            {
              type: "Polygon",
              coordinates: [
                [
                  [1.48, 48.44],
                  [1.48, 48.45],
                  [1.48, 48.46],
                  [1.48, 48.44],
                ],
              ],
            },
            { nom: "Plat" },
          ),
          feature({ type: "Polygon", coordinates: [rectangle(1.48, 48.44, 0.001, 0.001)] }, { nom: "Bonne", NUM_ILOT: "x".repeat(31) }),
          feature({ type: "Polygon", coordinates: [rectangle(1.48, 48.44, 0.001, 0.001)] }, { nom: "Bonne" }),
        ),
      ),
    });
    expect(candidates.map((c) => [c.libelle, c.refus?.key ?? null, c.refus?.params ?? null])).toEqual([
      ["Haie", "parcelle.import.refus.geometry-type", { type: "LineString" }],
      ["Sans forme", "parcelle.import.refus.no-geometry", null],
      ["Lambert", "parcelle.import.refus.not-wgs84", null],
      ["Trait", "parcelle.import.refus.invalid-geometry", null],
      ["Plat", "parcelle.import.refus.no-area", null],
      ["Bonne", "parcelle.import.refus.ilot-too-long", { max: 30 }],
      ["Bonne", null, null],
    ]);
  });

  test("files refused as a whole: extension, empty, too large, not JSON, not GeoJSON, another CRS, no feature, too many", async () => {
    expect((await refusal("champs.shp", bytesOf("x"))).key).toBe("parcelle.import.errors.extension");
    expect((await refusal("champs.geojson", new Uint8Array())).key).toBe("parcelle.import.errors.empty");
    expect(await refusal("champs.geojson", new Uint8Array(10 * 1024 * 1024 + 1))).toMatchObject({
      key: "parcelle.import.errors.too-large",
      params: { max: 10 },
    });
    expect((await refusal("champs.geojson", bytesOf("{ not json"))).key).toBe("parcelle.import.errors.unreadable-geojson");
    expect((await refusal("champs.json", bytesOf({ hello: "world" }))).key).toBe("parcelle.import.errors.not-geojson");
    expect(
      await refusal("champs.json", bytesOf({ ...threeFields(), crs: { type: "name", properties: { name: "urn:ogc:def:crs:EPSG::2154" } } })),
    ).toMatchObject({
      key: "parcelle.import.errors.crs",
      params: { crs: "urn:ogc:def:crs:EPSG::2154" },
    });
    expect((await refusal("champs.json", bytesOf(collection()))).key).toBe("parcelle.import.errors.no-feature");
    const many = collection(...Array.from({ length: IMPORT_MAX_FEATURES + 1 }, () => feature({ type: "Point", coordinates: [1.5, 48.4] })));
    expect(await refusal("champs.json", bytesOf(many))).toMatchObject({ key: "parcelle.import.errors.too-many-features", params: { count: 501, max: 500 } });
    const ok = await parseGeoFile({
      name: "champs.json",
      bytes: bytesOf({ ...threeFields(), crs: { type: "name", properties: { name: "urn:ogc:def:crs:OGC:1.3:CRS84" } } }),
    });
    expect(ok.candidates).toHaveLength(3);
  });
});

describe("KML", () => {
  test("placemarks become plots named after them; a multi-geometry splits into its polygons", async () => {
    const xml = kmlOf([
      { name: "Le Grand Clos", coordinates: rectangle(1.48, 48.44, 0.004, 0.0025) },
      { name: "La Sente", coordinates: rectangle(1.49, 48.44, 0.001, 0.002) },
    ]).replace(
      "</Document>",
      `<Placemark><name>Deux</name><MultiGeometry><Polygon><outerBoundaryIs><LinearRing><coordinates>1.5,48.4 1.501,48.4 1.501,48.401 1.5,48.4</coordinates></LinearRing></outerBoundaryIs></Polygon><Polygon><outerBoundaryIs><LinearRing><coordinates>1.51,48.4 1.511,48.4 1.511,48.401 1.51,48.4</coordinates></LinearRing></outerBoundaryIs></Polygon></MultiGeometry></Placemark><Placemark><name>Chemin</name><LineString><coordinates>1.5,48.4 1.6,48.5</coordinates></LineString></Placemark></Document>`,
    );
    const { format, candidates } = await parseGeoFile({ name: "exploitation.kml", bytes: bytesOf(xml) });
    expect(format).toBe("kml");
    expect(candidates.map((c) => [c.libelle, c.typeGeometrie, c.surface, c.refus?.key ?? null])).toEqual([
      ["Le Grand Clos", "polygon", 8.2, null],
      ["La Sente", "polygon", 1.64, null],
      ["Deux (1)", "polygon", expect.any(Number), null],
      ["Deux (2)", "polygon", expect.any(Number), null],
      ["Chemin", null, null, "parcelle.import.refus.geometry-type"],
    ]);
    expect((candidates[0].geometry as { coordinates: number[][][] }).coordinates[0][0]).toEqual([1.48, 48.44]);
  });

  test("a document type declaration (entities) is refused before parsing; broken XML and other XML are refused", async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>&x;</name><Point><coordinates>1.5,48.4</coordinates></Point></Placemark></kml>`;
    expect((await refusal("a.kml", bytesOf(xxe))).key).toBe("parcelle.import.errors.kml-doctype");
    expect((await refusal("a.kml", bytesOf("<kml><Placemark><name>x</nam"))).key).toBe("parcelle.import.errors.unreadable-kml");
    expect((await refusal("a.kml", bytesOf("<gpx><wpt/></gpx>"))).key).toBe("parcelle.import.errors.unreadable-kml");
    expect((await refusal("a.kml", bytesOf(`<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>`))).key).toBe("parcelle.import.errors.no-feature");
  });
});

describe("zipped shapefile", () => {
  const lambert = (x: number, y: number, w: number, h: number): [number, number][] => [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
    [x, y],
  ];

  test("a Telepac export in Lambert-93 (with .prj) is reprojected to WGS84; labels and island numbers from the .dbf (Windows code page)", async () => {
    const file = zip({
      "parcelles_graphiques.shp": shp([{ polygon: [lambert(587000, 6815000, 200, 100)] }, { polygon: [lambert(587300, 6815000, 100, 100)] }]),
      "parcelles_graphiques.dbf": dbf([
        { NUM_ILOT: "3", NUM_PARCEL: "1" },
        { NUM_ILOT: "3", NUM_PARCEL: "2", NOM: "Près de l'église" },
      ]),
      "parcelles_graphiques.prj": LAMBERT93_PRJ,
      "lisezmoi.txt": "ignored",
    });
    const { format, candidates } = await parseGeoFile({ name: "Telepac.ZIP", bytes: file });
    expect(format).toBe("shapefile");
    expect(candidates.map((c) => [c.libelle, c.noIlotPac, c.typeGeometrie, c.refus])).toEqual([
      ["Îlot 3 parcelle 1", "3", "polygon", null],
      ["Près de l'église", "3", "polygon", null],
    ]);
    // 200 m × 100 m and 100 m × 100 m, measured on the sphere: within 1 % of 2 ha and 1 ha.
    expect(candidates[0].surface).toBeGreaterThan(1.98);
    expect(candidates[0].surface).toBeLessThan(2.02);
    expect(candidates[1].surface).toBeGreaterThan(0.99);
    expect(candidates[1].surface).toBeLessThan(1.01);
    const [lon, lat] = (candidates[0].geometry as { coordinates: number[][][] }).coordinates[0][0];
    expect(lon).toBeCloseTo(1.47248, 4);
    expect(lat).toBeCloseTo(48.42545, 4);
  });

  test("without .prj, WGS84 coordinates are taken as they are and Lambert ones are refused; points; UTF-8 .dbf; stored entries", async () => {
    const wgs = zip(
      { "a/champs.shp": shp([{ polygon: [rectangle(1.48, 48.44, 0.004, 0.0025)] }]), "a/champs.dbf": dbf([{ NOM: "Côte rôtie" }], "utf8") },
      { store: true },
    );
    expect((await parseGeoFile({ name: "champs.zip", bytes: wgs })).candidates).toMatchObject([{ libelle: "Côte rôtie", surface: 8.2, refus: null }]);
    const projected = zip({ "champs.shp": shp([{ polygon: [lambert(587000, 6815000, 200, 100)] }]) });
    expect((await parseGeoFile({ name: "champs.zip", bytes: projected })).candidates).toMatchObject([
      { libelle: "champs 1", refus: { key: "parcelle.import.refus.not-wgs84" } },
    ]);
    const points = zip({ "puits.shp": shp([{ point: [1.5, 48.4] }, { point: [1.51, 48.41] }]) });
    expect((await parseGeoFile({ name: "puits.zip", bytes: points })).candidates).toMatchObject([
      { libelle: "puits 1", typeGeometrie: "marker", geometry: { type: "Point", coordinates: [1.5, 48.4] } },
      { libelle: "puits 2", typeGeometrie: "marker" },
    ]);
  });

  test("two shapefiles in one zip: both layers, labels fall back on the layer name", async () => {
    const file = zip({
      "ilots.shp": shp([{ polygon: [rectangle(1.48, 48.44, 0.001, 0.001)] }]),
      "zones.shp": shp([{ polygon: [rectangle(1.49, 48.44, 0.001, 0.001)] }]),
    });
    const { candidates } = await parseGeoFile({ name: "export.zip", bytes: file });
    expect(candidates.map((c) => [c.index, c.libelle, c.layer])).toEqual([
      [0, "ilots 1", "ilots"],
      [1, "zones 1", "zones"],
    ]);
  });

  test("not a zip, a zip without .shp, a zip bomb, a broken .shp are refused", async () => {
    expect((await refusal("champs.zip", bytesOf("PK not really"))).key).toBe("parcelle.import.errors.unreadable-zip");
    expect((await refusal("champs.zip", zip({ "champs.dbf": dbf([{ NOM: "x" }]) }))).key).toBe("parcelle.import.errors.no-shp");
    expect(await refusal("champs.zip", zip({ "bombe.shp": new Uint8Array(51 * 1024 * 1024) }))).toMatchObject({
      key: "parcelle.import.errors.zip-too-large",
      params: { max: 50 },
    });
    expect(await refusal("champs.zip", zip({ "champs.shp": new Uint8Array(120).fill(7) }))).toMatchObject({
      key: "parcelle.import.errors.unreadable-shapefile",
      params: { name: "champs" },
    });
  });
});

test("labels: a name property first (any case), then Telepac's island and plot numbers, then the file name and the feature number", () => {
  expect(labelOf({ Name: "  Le Clos  " }, 1, "f")).toBe("Le Clos");
  expect(labelOf({ LIBELLE: "A", NUM_ILOT: 1 }, 1, "f")).toBe("A");
  expect(labelOf({ num_ilot: 4, num_parcel: 2 }, 1, "f")).toBe("Îlot 4 parcelle 2");
  expect(labelOf({ NUM_ILOT: "4" }, 1, "f")).toBe("Îlot 4");
  expect(labelOf({ name: "", other: 3 }, 5, "parcelles")).toBe("parcelles 5");
});
