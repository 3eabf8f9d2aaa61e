import type { Locator, Page } from "@playwright/test";
import { area } from "@turf/turf";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, test } from "./fixtures";
import { afterRender } from "./helpers";
import { openPlots, parcelleIds, parcelleRow } from "./parcelle-screen";

/** The plot map (spec 2 §2, §4, §7, §9; B-MAP-05, B-MAP-08 to B-MAP-17). */

const SHOTS = "/tmp/shots-3420";
// WebGL in headless Chromium is slow to start on a busy 2-core machine.
test.describe.configure({ timeout: 60_000 });

async function openGeodata(page: Page) {
  await page.getByTestId("parcelle-form").locator("summary", { hasText: "Données géographiques" }).click();
  const canvas = page.getByTestId("plot-map-canvas");
  await expect(canvas.locator("canvas.maplibregl-canvas")).toBeVisible();
  // WebGL in a busy headless browser can take a while to start.
  await expect(page.getByTestId("plot-map")).toHaveAttribute("data-loaded", "true", { timeout: 20_000 });
  await canvas.scrollIntoViewIfNeeded();
  return canvas;
}

/** Clicks at offsets (px) from the centre of the map. */
async function clickOnMap(page: Page, canvas: Locator, dx: number, dy: number) {
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
}

test("[B-MAP-08] [B-MAP-09] [B-MAP-10] [B-MAP-11] [B-MAP-12] [B-MAP-13] [B-MAP-14] [B-MAP-17] a writer draws a polygon, uses its area, saves it, then replaces it by a marker", async ({
  page,
}) => {
  const tiles: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("tuiles-absentes")) tiles.push(r.url());
  });
  const c2025 = await openPlots(page, "redacteur");
  await page.getByTestId("list-new").click();
  await page.getByLabel("Nom", { exact: true }).fill("E2E Le Carré");
  await page.getByLabel("Surface (ha)", { exact: true }).fill("10");
  const canvas = await openGeodata(page);
  const map = page.getByTestId("plot-map");

  // 400 px high, opening on (48.5, 2.2) at zoom 15.
  expect((await canvas.boundingBox())!.height).toBe(400);
  await expect(canvas).toHaveAttribute("data-centre", "48.50000,2.20000");
  await expect(canvas).toHaveAttribute("data-zoom", "15.00");
  // The imagery and the labels are asked for; they cannot be reached here, and the map still draws.
  await expect.poll(() => tiles.some((u) => u.includes("/ortho/"))).toBe(true);
  await expect.poll(() => tiles.some((u) => u.includes("/noms/"))).toBe(true);

  // Only polygon and marker drawing.
  const tools = map.getByRole("toolbar", { name: "Outils de dessin" });
  await expect(tools.getByRole("button")).toHaveText(["Dessiner un polygone", "Placer un marqueur", "Modifier la forme", "Supprimer la forme"]);
  await expect(page.getByTestId("map-delete")).toBeDisabled();

  // Draw a polygon: four corners, then Enter closes it.
  await page.getByTestId("map-draw-polygon").click();
  await expect(page.getByTestId("map-hint")).toContainText("appuyez sur Entrée");
  await clickOnMap(page, canvas, -100, -60);
  await clickOnMap(page, canvas, 100, -60);
  await clickOnMap(page, canvas, 100, 60);
  await clickOnMap(page, canvas, -100, 60);
  await page.keyboard.press("Enter");
  await expect(map).toHaveAttribute("data-shape", "polygon");
  await expect(page.getByTestId("geometrie-type")).toContainText("Polygone");
  // A shape is there: drawing is disabled, only one shape at a time.
  await expect(page.getByTestId("map-draw-polygon")).toBeDisabled();
  await expect(page.getByTestId("map-draw-point")).toBeDisabled();
  await expect(page.getByTestId("map-hint")).toHaveText("Une seule forme par parcelle : supprimez-la pour en dessiner une autre.");

  // [issue10] The drawn area is the real surface (read-only while the polygon is there); the typed surface
  // is kept, and the area is offered to replace it.
  const reelle = page.getByTestId("surface-reelle");
  await expect(reelle).toHaveValue(/^\d+(,\d{1,2})?$/);
  await expect(reelle).toHaveAttribute("readonly", "");
  const offered = Number((await reelle.inputValue()).replace(",", "."));
  expect(offered).toBeGreaterThan(1);
  await expect(page.getByLabel("Surface (ha)", { exact: true })).toHaveValue("10");
  const useDrawn = page.getByTestId("use-drawn-surface");
  await expect(useDrawn).toHaveText(`Utiliser la surface dessinée comme surface (${await reelle.inputValue()} ha)`);
  await useDrawn.click();
  await expect(page.getByLabel("Surface (ha)", { exact: true })).toHaveValue(await reelle.inputValue());
  await expect(useDrawn).toHaveCount(0);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/parcelle-carte-polygone.png`, fullPage: true });

  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  const saved = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Le Carré" }).first();
  expect(saved.typeGeometrie).toBe("polygon");
  const polygon = JSON.parse(saved.geometrie);
  expect(polygon.type).toBe("Polygon");
  expect(polygon.coordinates[0]).toHaveLength(5);
  // Around the default centre, and the stored real surface is the polygon's area to 2 decimals.
  for (const [lon, lat] of polygon.coordinates[0]) {
    expect(Math.abs(lon - 2.2)).toBeLessThan(0.01);
    expect(Math.abs(lat - 48.5)).toBeLessThan(0.01);
  }
  expect(Number(saved.surfaceReelle)).toBeCloseTo(area(polygon) / 10_000, 2);
  expect(Number(saved.surfaceReelle)).toBeCloseTo(offered, 2);
  expect(Number(saved.surface)).toBeCloseTo(offered, 2);

  // The created plot reopens with its polygon. Deleting it offers drawing again; a marker replaces it.
  await openGeodata(page);
  await expect(map).toHaveAttribute("data-shape", "polygon");
  await page.getByTestId("map-delete").click();
  await expect(map).toHaveAttribute("data-shape", "none");
  await expect(page.getByTestId("map-draw-polygon")).toBeEnabled();
  await expect(page.getByTestId("map-draw-point")).toBeEnabled();
  await page.getByTestId("map-draw-point").click();
  await clickOnMap(page, canvas, 30, 20);
  await expect(map).toHaveAttribute("data-shape", "marker");
  await expect(page.getByTestId("map-draw-polygon")).toBeDisabled();
  await expect(page.getByTestId("geometrie-type")).toContainText("Point");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect
    .poll(async () => {
      const r = await e2eDb()("parcelle").where({ id: saved.id }).first("geometrie", "typeGeometrie");
      return [JSON.parse(r.geometrie).type, r.typeGeometrie];
    })
    .toEqual(["Point", "marker"]);

  // Deleting it and saving clears the stored geometry.
  await expect(map).toHaveAttribute("data-loaded", "true", { timeout: 20_000 });
  await expect(map).toHaveAttribute("data-shape", "marker");
  await page.getByTestId("map-delete").click();
  await expect(page.getByTestId("geometrie-type")).toContainText("Aucune");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect.poll(async () => (await e2eDb()("parcelle").where({ id: saved.id }).first("geometrie")).geometrie ?? null).toBeNull();
});

test("[B-MAP-05] [B-MAP-15] [B-MAP-16] choosing a commune centres the map on it; the map zooms out no further than 3 and keeps to the world", async ({
  page,
}) => {
  // The commune list carries no coordinates yet (docs/decisions/0011-parcelles.md): give Chartres its centre.
  await e2eDb()("commune").where({ ci: "28085" }).update({ lat: 48.4469, lon: 1.4892 });
  try {
    await openPlots(page, "redacteur");
    await page.getByTestId("list-new").click();
    const canvas = await openGeodata(page);
    const geodata = page.getByTestId("geodata-panel");
    await geodata.getByTestId("select-departement").selectOption("28");
    await geodata.getByTestId("select-commune").selectOption({ label: "Chartres (28000)" });
    await expect(canvas).toHaveAttribute("data-centre", "48.44690,1.48920");

    // Zooming far out with the wheel stops at zoom 3, and the zoom-out button is then disabled.
    const zoomOut = canvas.getByRole("button", { name: "Zoom arrière" });
    await canvas.scrollIntoViewIfNeeded();
    const middle = (await canvas.boundingBox())!;
    await page.mouse.move(middle.x + middle.width / 2, middle.y + middle.height / 2);
    // One wheel turn at a time, each handled by the page before the next, until the zoom the map reports stops at 3.
    await expect(async () => {
      await page.mouse.wheel(0, 4000);
      await afterRender(page);
      await expect(canvas).toHaveAttribute("data-zoom", "3.00", { timeout: 300 });
      // "3.00" shows while the wheel's easing is still a hair above 3: the button turns off at exactly the minimum.
      await expect(zoomOut).toBeDisabled({ timeout: 1000 });
    }).toPass({ timeout: 30_000, intervals: [0] });
    // Dragging far north stops at the edge of the world.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 20, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Number((await canvas.getAttribute("data-centre"))!.split(",")[0])).toBeLessThan(85.06);
  } finally {
    await e2eDb()("commune").where({ ci: "28085" }).update({ lat: null, lon: null });
  }
});

test("[B-MAP-13] [B-RIGHTS-06] a stored polygon reopens on the map; a reader sees it without the drawing tools", async ({ page }) => {
  const { c2025 } = await parcelleIds();
  const square = {
    type: "Polygon",
    coordinates: [
      [
        [1.48, 48.44],
        [1.485, 48.44],
        [1.485, 48.443],
        [1.48, 48.443],
        [1.48, 48.44],
      ],
    ],
  };
  await openPlots(page, "lecteur");
  await e2eDb()("parcelle").insert({
    idCampagne: c2025,
    libelle: "E2E Parcelle dessinée",
    surface: 3,
    geometrie: JSON.stringify(square),
    typeGeometrie: "polygon",
  });
  await page.reload();
  await parcelleRow(page, "E2E Parcelle dessinée").getByText("E2E Parcelle dessinée", { exact: true }).click();
  const canvas = await openGeodata(page);
  await expect(page.getByTestId("plot-map")).toHaveAttribute("data-shape", "polygon");
  await expect(page.getByRole("toolbar", { name: "Outils de dessin" })).toHaveCount(0);
  await expect(page.getByLabel("Numéro d'îlot PAC", { exact: true })).toBeDisabled();
  await expect(page.getByLabel("Surface réelle (ha)", { exact: true })).toBeDisabled();
  // The view opens around the stored shape rather than on the default centre.
  await expect
    .poll(async () => {
      const [lat, lon] = (await canvas.getAttribute("data-centre"))!.split(",").map(Number);
      return Math.abs(lat - 48.4415) < 0.001 && Math.abs(lon - 1.4825) < 0.001;
    })
    .toBe(true);
  await page.screenshot({ path: `${SHOTS}/parcelle-carte-lecteur.png`, fullPage: true });
});

test("[issue10] [B-PLOT-13] a plot is not saved without a surface; a drawn polygon's area fills the surface the lists and the crop areas use", async ({
  page,
}) => {
  const c2025 = await openPlots(page, "redacteur");
  await page.getByTestId("list-new").click();
  await page.getByLabel("Nom", { exact: true }).fill("E2E Sans surface");
  await page.getByTestId("list-save").click();
  const surface = page.getByLabel("Surface (ha)", { exact: true });
  await expect(page.locator(`[id="${await surface.getAttribute("id")}-error"]`)).toHaveText("Champ requis");
  expect(await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Sans surface" }).first()).toBeUndefined();

  // Drawing the polygon fills the empty surface and the real surface with its area.
  const canvas = await openGeodata(page);
  await page.getByTestId("map-draw-polygon").click();
  await clickOnMap(page, canvas, -80, -50);
  await clickOnMap(page, canvas, 80, -50);
  await clickOnMap(page, canvas, 80, 50);
  await clickOnMap(page, canvas, -80, 50);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("plot-map")).toHaveAttribute("data-shape", "polygon");
  const reelle = page.getByTestId("surface-reelle");
  await expect(reelle).toHaveValue(/^\d+(,\d{1,2})?$/);
  await expect(surface).toHaveValue(await reelle.inputValue());
  await expect(page.getByTestId("use-drawn-surface")).toHaveCount(0);
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  const saved = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Sans surface" }).first();
  expect(Number(saved.surface)).toBeGreaterThan(0);
  expect(Number(saved.surface)).toBe(Number(saved.surfaceReelle));
  expect(Number(saved.surface)).toBeCloseTo(area(JSON.parse(saved.geometrie)) / 10_000, 2);
  // The list shows it.
  await expect(parcelleRow(page, "E2E Sans surface")).toContainText(await reelle.inputValue());
});
