import { describe, expect, test } from "vitest";
import { bytesOf, dbf, LAMBERT93_PRJ, shp, threeFields, zip } from "../../tests/helpers/geo-files";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { exportParcelles, importParcelles, previewImport } from "./import-service";
import { getParcelles, saveParcelle } from "./service";

/** Plot import and GeoJSON export against the database (docs/decisions/0015-import-parcelles.md). */

const t = useTestDb();
type Campagne = "tilleuls2025" | "tilleuls2024";

const contextFor = (username: string, campagne: Campagne) => selectTilleuls(t, username, campagne);

const PLOT_TABLES = ["parcelle", "parcelle_historique"];
const champs = () => ({ name: "champs.geojson", bytes: bytesOf(threeFields()) });

describe(`plot import and export (${dialect})`, () => {
  test("a writer previews then imports three fields: three plots with their geometry, computed surfaces, island number and the farm's commune", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    await t.db()("exploitation").where({ id: t.demo().exploitations.tilleuls }).update({ codeInsee: "28085", codePostal: "28000" });
    const preview = await previewImport(scopeOf(t.db(), u), champs());
    expect(preview.candidates.map((c) => [c.libelle, c.surface])).toEqual([
      ["Îlot 12 parcelle 1", 8.2],
      ["Les Hauts Vents", 4.1],
      ["La Mare", 1.64],
    ]);
    const before = (await getParcelles(scopeOf(t.db(), u))).rows.length;

    const ids = await importParcelles(scopeOf(t.db(), u), champs(), [0, 1, 2]);
    expect(ids).toHaveLength(3);
    const { rows } = await getParcelles(scopeOf(t.db(), u));
    expect(rows).toHaveLength(before + 3);
    const created = ids.map((id) => rows.find((r) => r.id === id)!);
    expect(created.map((r) => [r.libelle, r.surface, r.surfaceReelle, r.noIlotPac, r.typeGeometrie, r.codeInsee, r.codePostal, r.idCampagne])).toEqual([
      ["Îlot 12 parcelle 1", 8.2, 8.2, "12", "polygon", "28085", "28000", t.demo().campagnes.tilleuls2025],
      ["Les Hauts Vents", 4.1, 4.1, "12", "polygon", "28085", "28000", t.demo().campagnes.tilleuls2025],
      ["La Mare", 1.64, 1.64, null, "polygon", "28085", "28000", t.demo().campagnes.tilleuls2025],
    ]);
    expect(JSON.parse(created[2].geometrie!)).toEqual(preview.candidates[2].geometry);
  });

  test("only the ticked rows are created; a Lambert-93 shapefile is stored in WGS84", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const lambert = (x: number): [number, number][] => [
      [x, 6815000],
      [x + 100, 6815000],
      [x + 100, 6815100],
      [x, 6815100],
      [x, 6815000],
    ];
    const file = {
      name: "telepac.zip",
      bytes: zip({
        "p.shp": shp([{ polygon: [lambert(587000)] }, { polygon: [lambert(587200)] }]),
        "p.dbf": dbf([
          { NUM_ILOT: "5", NUM_PARCEL: "1" },
          { NUM_ILOT: "5", NUM_PARCEL: "2" },
        ]),
        "p.prj": LAMBERT93_PRJ,
      }),
    };
    const [id] = await importParcelles(scopeOf(t.db(), u), file, [1]);
    const row = await t.db()("parcelle").where({ id }).first("libelle", "geometrie", "surface", "noIlotPac");
    expect(row).toMatchObject({ libelle: "Îlot 5 parcelle 2", noIlotPac: "5" });
    expect(Number(row.surface)).toBeCloseTo(1, 1);
    const [lon, lat] = JSON.parse(row.geometrie).coordinates[0][0];
    expect(lon).toBeGreaterThan(1.47);
    expect(lon).toBeLessThan(1.48);
    expect(lat).toBeCloseTo(48.4254, 3);
  });

  test("a bad file, an empty or wrong selection, a refused feature change nothing", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const before = await snapshot(t.db(), ...PLOT_TABLES);
    await expectRefused(
      importParcelles(scopeOf(t.db(), u), { name: "champs.geojson", bytes: bytesOf("{ broken") }, [0]),
      "parcelle.import.errors.unreadable-geojson",
      400,
      {
        fieldErrors: { fichier: ["parcelle.import.errors.unreadable-geojson"] },
      },
    );
    await expectRefused(previewImport(scopeOf(t.db(), u), { name: "champs.pdf", bytes: bytesOf("%PDF") }), "parcelle.import.errors.extension", 400);
    await expectRefused(importParcelles(scopeOf(t.db(), u), champs(), []), "parcelle.import.errors.no-selection", 400);
    await expectRefused(importParcelles(scopeOf(t.db(), u), champs(), [0, 3]), "parcelle.import.errors.bad-selection", 400);
    const withLine = threeFields();
    withLine.features.push({
      type: "Feature",
      properties: { nom: "Haie" } as never,
      geometry: {
        type: "LineString",
        coordinates: [
          [1.48, 48.44],
          [1.49, 48.45],
        ],
      } as never,
    });
    await expectRefused(
      importParcelles(scopeOf(t.db(), u), { name: "haie.geojson", bytes: bytesOf(withLine) }, [0, 3]),
      "parcelle.import.errors.bad-selection",
      400,
    );
    expect(await snapshot(t.db(), ...PLOT_TABLES)).toEqual(before);
  });

  test("[B-RIGHTS-06] a reader and a locked campaign are refused the preview and the import, and nothing changes; the reader may export", async () => {
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const animateur = await contextFor("animateur", "tilleuls2024");
    const before = await snapshot(t.db(), ...PLOT_TABLES);
    await expectRefused(previewImport(scopeOf(t.db(), lecteur), champs()), "errors.forbidden", 403);
    await expectRefused(importParcelles(scopeOf(t.db(), lecteur), champs(), [0, 1, 2]), "errors.forbidden", 403);
    await expectRefused(importParcelles(scopeOf(t.db(), animateur), champs(), [0]), "errors.forbidden", 403);
    expect(await snapshot(t.db(), ...PLOT_TABLES)).toEqual(before);
    const { collection } = await exportParcelles(scopeOf(t.db(), lecteur));
    expect(collection.features.length).toBe((await getParcelles(scopeOf(t.db(), lecteur))).rows.length);
  });

  test("the export: every plot of the campaign as a Feature (null geometry without a shape), its labels and numbers, a file name of farm and year", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const c = t.demo().campagnes.tilleuls2025;
    const [idMode] = await t.db()("mode_conduite").insert({ idCampagne: c, libelle: "Blé tendre conduite raisonnée" }).returning("id");
    const geometrie = JSON.stringify({ type: "Point", coordinates: [1.5, 48.4] });
    const id = await saveParcelle(scopeOf(t.db(), u), {
      libelle: "Le Puits",
      surface: "3,5",
      noIlotPac: "9",
      codeInsee: "28085",
      geometrie,
      idModeConduite: String(typeof idMode === "object" ? idMode.id : idMode),
    });
    const bare = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Sans forme" });
    const { fileName, collection } = await exportParcelles(scopeOf(t.db(), u));
    expect(fileName).toBe("parcelles-earl-des-tilleuls-2025.geojson");
    expect(collection.type).toBe("FeatureCollection");
    const ids = (await t.db()("parcelle").where({ idCampagne: c }).orderBy("id").select("id")).map((r) => Number(r.id));
    expect(collection.features.map((f) => f.id)).toEqual(ids);
    expect(collection.features.find((f) => f.id === id)).toEqual({
      type: "Feature",
      id,
      geometry: { type: "Point", coordinates: [1.5, 48.4] },
      properties: {
        id,
        libelle: "Le Puits",
        surface: 3.5,
        surfaceReelle: null,
        noIlotPac: "9",
        codeInsee: "28085",
        codePostal: "28000",
        commune: "Chartres",
        modeConduite: "Blé tendre conduite raisonnée",
        lot: null,
        typeGeometrie: "marker",
      },
    });
    expect(collection.features.find((f) => f.id === bare)?.geometry).toBeNull();
    // An imported field goes out as it came in (coordinates rounded to 7 decimals on import).
    const imported = await importParcelles(scopeOf(t.db(), u), champs(), [2]);
    const again = await exportParcelles(scopeOf(t.db(), u));
    expect(again.collection.features.find((f) => f.id === imported[0])?.geometry).toEqual({
      type: "Polygon",
      coordinates: [
        [
          [1.49, 48.44],
          [1.491, 48.44],
          [1.491, 48.442],
          [1.49, 48.442],
          [1.49, 48.44],
        ],
      ],
    });
  });
});
