import { mkdirSync, readFileSync } from "node:fs";
import { bytesOf, threeFields } from "../helpers/geo-files";
import { e2eDb, expect, test } from "./fixtures";
import { openPlots, PARCELLE_SCREEN, parcelleRow } from "./parcelle-screen";

/** Plot import from a file and GeoJSON export (docs/decisions/0015-import-parcelles.md). */

const SHOTS = "tests/.artifacts/shots-parcelle-import";
const LABELS = ["E2E Îlot 12", "E2E Les Hauts Vents", "E2E La Mare"];

/** The three fields of the service tests, named for this journey (its plots are removed at each start). */
function fieldsFile() {
  const fc = threeFields();
  fc.features.forEach((f, i) => ((f as { properties: unknown }).properties = { nom: LABELS[i], NUM_ILOT: String(12 + i) }));
  return { name: "champs-telepac.geojson", mimeType: "application/geo+json", buffer: Buffer.from(bytesOf(fc)) };
}

const rowOf = parcelleRow;

test("a writer imports three fields from a GeoJSON: preview with surfaces, then three plots in the table and the database", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  const before = Number((await e2eDb()("parcelle").where({ idCampagne: c2025 }).count({ n: "*" }).first())?.n);
  await page.getByRole("button", { name: "Importer" }).click();
  const dialog = page.getByTestId("import-dialog");
  await expect(dialog.getByRole("heading", { name: "Importer des contours de parcelles" })).toBeVisible();
  await expect(dialog.getByLabel("Fichier à importer")).toBeFocused();
  await expect(dialog.getByTestId("import-create")).toBeDisabled();

  await dialog.getByLabel("Fichier à importer").setInputFiles(fieldsFile());
  const preview = dialog.getByTestId("import-preview");
  await expect(preview.locator("tbody tr")).toHaveCount(3);
  await expect(dialog.getByTestId("import-summary")).toHaveText("Entités lues dans champs-telepac.geojson : 3 ; importables : 3 ; cochées : 3.");
  const cells = async (i: number) => (await preview.locator("tbody tr").nth(i).locator("td").allInnerTexts()).slice(1).map((s) => s.trim());
  expect(await cells(0)).toEqual(["E2E Îlot 12", "Polygone", "8,2", "12", ""]);
  expect(await cells(1)).toEqual(["E2E Les Hauts Vents", "Polygone", "4,1", "13", ""]);
  expect(await cells(2)).toEqual(["E2E La Mare", "Polygone", "1,64", "14", ""]);
  await expect(dialog.getByRole("region", { name: "Aperçu des contours importés" })).toBeVisible();
  // The preview map draws the three ticked shapes.
  await expect(dialog.getByTestId("import-preview-map")).toHaveAttribute("data-count", "3", { timeout: 20_000 });
  await expect(dialog.getByTestId("import-preview-map").locator("canvas.maplibregl-canvas")).toBeVisible();
  await expect(dialog.getByTestId("import-create")).toHaveText("Créer 3 parcelles");

  // Keyboard: untick and tick a row again with the space bar.
  const mare = dialog.getByRole("checkbox", { name: "Importer E2E La Mare" });
  await mare.focus();
  await page.keyboard.press("Space");
  await expect(mare).not.toBeChecked();
  await expect(dialog.getByTestId("import-create")).toHaveText("Créer 2 parcelles");
  await expect(dialog.getByTestId("import-preview-map")).toHaveAttribute("data-count", "2");
  await page.keyboard.press("Space");
  await expect(dialog.getByTestId("import-create")).toHaveText("Créer 3 parcelles");
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/import-preview.png`, fullPage: true });

  await dialog.getByTestId("import-create").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Parcelles importées");
  await expect(dialog).toBeHidden();
  for (const [libelle, surface] of [
    ["E2E Îlot 12", "8,2"],
    ["E2E Les Hauts Vents", "4,1"],
    ["E2E La Mare", "1,64"],
  ]) {
    await expect(rowOf(page, libelle)).toHaveCount(1);
    await expect(rowOf(page, libelle)).toContainText(surface);
  }
  const stored = await e2eDb()("parcelle")
    .where({ idCampagne: c2025 })
    .where("libelle", "like", "E2E %")
    .orderBy("id")
    .select("libelle", "geometrie", "typeGeometrie", "surface", "surfaceReelle", "noIlotPac");
  expect(stored.map((r) => [r.libelle, r.typeGeometrie, Number(r.surface), Number(r.surfaceReelle), r.noIlotPac])).toEqual([
    ["E2E Îlot 12", "polygon", 8.2, 8.2, "12"],
    ["E2E Les Hauts Vents", "polygon", 4.1, 4.1, "13"],
    ["E2E La Mare", "polygon", 1.64, 1.64, "14"],
  ]);
  expect(JSON.parse(stored[2].geometrie)).toEqual({
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
  expect(Number((await e2eDb()("parcelle").where({ idCampagne: c2025 }).count({ n: "*" }).first())?.n)).toBe(before + 3);
});

test("a bad file shows a clear message next to the file field and creates nothing; refused features are explained", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  const count = async () => Number((await e2eDb()("parcelle").where({ idCampagne: c2025 }).count({ n: "*" }).first())?.n);
  const before = await count();
  await page.getByTestId("parcelle-import").click();
  const dialog = page.getByTestId("import-dialog");
  const input = dialog.getByLabel("Fichier à importer");
  await input.setInputFiles({ name: "champs.geojson", mimeType: "application/json", buffer: Buffer.from("{ ceci n'est pas du JSON") });
  await expect(dialog.getByTestId("import-fichier-error")).toHaveText("Le fichier n'est pas un JSON lisible.");
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByTestId("import-create")).toBeDisabled();
  await input.setInputFiles({ name: "champs.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(dialog.getByTestId("import-fichier-error")).toHaveText(
    "Ce type de fichier n'est pas accepté : choisissez un fichier .geojson, .json, .kml, .zip.",
  );

  // A file mixing a field and a hedge: the hedge is listed, refused with its reason, and cannot be ticked.
  const mixed = {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        properties: { nom: "E2E Champ" },
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [1.48, 48.44],
              [1.481, 48.44],
              [1.481, 48.441],
              [1.48, 48.44],
            ],
          ],
        },
      },
      {
        type: "Feature",
        properties: { nom: "E2E Haie" },
        geometry: {
          type: "LineString",
          coordinates: [
            [1.48, 48.44],
            [1.49, 48.45],
          ],
        },
      },
    ],
  };
  await input.setInputFiles({ name: "mixte.geojson", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(mixed)) });
  await expect(dialog.getByTestId("import-fichier-error")).toBeHidden();
  await expect(dialog.getByTestId("import-summary")).toHaveText("Entités lues dans mixte.geojson : 2 ; importables : 1 ; cochées : 1.");
  await expect(dialog.getByTestId("import-row-1")).toContainText("Forme LineString non prise en charge (polygone ou point attendu).");
  await expect(dialog.getByRole("checkbox", { name: "Importer E2E Haie" })).toBeDisabled();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/import-refused.png` });
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(dialog).toBeHidden();
  expect(await count()).toBe(before);
});

test("a reader sees Import disabled but exports the campaign's plots as a GeoJSON FeatureCollection", async ({ page }) => {
  const c2025 = await openPlots(page, "lecteur");
  await expect(page.getByRole("button", { name: "Importer" })).toBeDisabled();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/reader-toolbar.png` });
  // Posting the file anyway (the button bypassed) is refused and creates nothing.
  const count = async () => Number((await e2eDb()("parcelle").where({ idCampagne: c2025 }).count({ n: "*" }).first())?.n);
  const before = await count();
  const forced = await page.request.post(`${PARCELLE_SCREEN.slice(1)}/import`, {
    multipart: { intent: "create", selection: "[0,1,2]", fichier: fieldsFile() },
    maxRedirects: 0,
  });
  expect(forced.status()).toBe(403);
  expect(await count()).toBe(before);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exporter (GeoJSON)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("parcelles-earl-des-tilleuls-2025.geojson");
  const collection = JSON.parse(readFileSync((await file.path())!, "utf8"));
  expect(collection.type).toBe("FeatureCollection");
  const plots = await e2eDb()("parcelle").where({ idCampagne: c2025 }).orderBy("id").select("id", "libelle", "geometrie");
  expect(collection.features.map((f: { properties: { libelle: string } }) => f.properties.libelle)).toEqual(plots.map((p) => p.libelle));
  const drawn = plots.find((p) => p.geometrie)!;
  expect(collection.features.find((f: { id: number }) => f.id === drawn.id).geometry).toEqual(JSON.parse(drawn.geometrie));
});

test("the export holds the plots a writer just imported, with their computed surfaces", async ({ page }) => {
  await openPlots(page, "redacteur");
  await page.getByTestId("parcelle-import").click();
  const dialog = page.getByTestId("import-dialog");
  await dialog.getByLabel("Fichier à importer").setInputFiles(fieldsFile());
  await expect(dialog.getByTestId("import-preview").locator("tbody tr")).toHaveCount(3);
  await dialog.getByTestId("import-create").click();
  await expect(rowOf(page, "E2E La Mare")).toHaveCount(1);
  const download = page.waitForEvent("download");
  await page.getByTestId("parcelle-export").click();
  const collection = JSON.parse(readFileSync((await (await download).path())!, "utf8"));
  const imported = collection.features.filter((f: { properties: { libelle: string } }) => LABELS.includes(f.properties.libelle));
  expect(
    imported.map((f: { properties: { libelle: string; surface: number; surfaceReelle: number; noIlotPac: string }; geometry: { type: string } }) => [
      f.properties.libelle,
      f.properties.surface,
      f.properties.surfaceReelle,
      f.properties.noIlotPac,
      f.geometry.type,
    ]),
  ).toEqual([
    ["E2E Îlot 12", 8.2, 8.2, "12", "Polygon"],
    ["E2E Les Hauts Vents", 4.1, 4.1, "13", "Polygon"],
    ["E2E La Mare", 1.64, 1.64, "14", "Polygon"],
  ]);
});
