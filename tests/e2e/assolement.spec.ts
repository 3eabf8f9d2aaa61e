import type { Page } from "@playwright/test";
import { type DemoUser, e2eDb, expect, login, navigate, resetContext, test, contextInEnglish } from "./fixtures";
import { signInOnTilleuls } from "./helpers";

/** The crop-area (assolement) dialog of the context bar (spec 1 §2, §3, §7; A-CTX-29 to A-CTX-32). */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";

async function insert(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await e2eDb()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/**
 * The simulation campaign of EARL des Tilleuls gets known plots: wheat in two modes (10.125 + 5.5 ha),
 * a mode with two main crops (3.3333 ha), a plot without mode (2.25 ha) and one without surface.
 */
async function prepareCampaign(): Promise<number> {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const idCampagne = (await db("campagne").where({ idExploitation: farm.id, anneeRecolte: 2025, simulation: true }).first("id")).id as number;
  await db("parcelle").where({ idCampagne }).delete();
  await db("mode_conduite").where({ idCampagne }).whereLike("libelle", "%E2E%").delete();
  const principale =
    (await db("categorie_culture").where({ code: "principale" }).first("id"))?.id ??
    (await insert("categorie_culture", { code: "principale", libelle: "Principale", ordre: 1 }));
  const culture = async (libelle: string, libelleEn: string) =>
    (await db("culture").where({ libelle }).first("id"))?.id ?? (await insert("culture", { libelle, libelleEn, idCatCulture: principale }));
  const ble = await culture("Blé E2E", "E2E wheat");
  const pois = await culture("Pois E2E", "E2E pea");
  const mode = (libelle: string) => insert("mode_conduite", { idCampagne, libelle });
  const bleConv = await mode("Blé E2E conventionnel");
  const bleBas = await mode("Blé E2E bas intrants");
  const asso = await mode("Association E2E blé-pois");
  await insert("mode_conduite_culture", { idModeConduite: bleConv, idCulture: ble, idCatCulture: principale, ordre: 0 });
  await insert("mode_conduite_culture", { idModeConduite: bleBas, idCulture: ble, idCatCulture: principale, ordre: 0 });
  await insert("mode_conduite_culture", { idModeConduite: asso, idCulture: ble, idCatCulture: principale, ordre: 0 });
  await insert("mode_conduite_culture", { idModeConduite: asso, idCulture: pois, idCatCulture: principale, ordre: 1 });
  for (const [libelle, surface, idModeConduite] of [
    ["A", 10.125, bleConv],
    ["B", 5.5, bleBas],
    ["C", 3.3333, asso],
    ["D", 2.25, null],
    ["E", null, bleConv],
  ] as const) {
    await insert("parcelle", { idCampagne, libelle: `Assolement E2E ${libelle}`, surface, idModeConduite });
  }
  return idCampagne;
}

async function openWithCampaign(page: Page, user: DemoUser, idCampagne: number, english = false) {
  await signInOnTilleuls(page, user, idCampagne, "/home/description/exploitation/lot_parcelle", english);
}

/** The DB's own sum of the campaign's plot surfaces, to 2 decimals. */
async function dbTotal(idCampagne: number): Promise<number> {
  const row = await e2eDb()("parcelle").where({ idCampagne }).sum<{ s: number }[]>({ s: "surface" }).first();
  return Math.round(Number(row?.s ?? 0) * 100) / 100;
}

test("[A-CTX-29] the assolement icon is greyed until a campaign is chosen", async ({ page }) => {
  await resetContext("redacteur");
  await login(page, "redacteur");
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, "/home/description/exploitation/lot_parcelle");
  await expect(page.getByTestId("context-bar")).toBeVisible();
  await expect(page.getByTestId("open-assolement")).toBeDisabled();
  await expect(page.getByTestId("open-assolement")).toHaveAccessibleName("Voir l'assolement de la campagne");
});

test("[A-CTX-29] [A-CTX-30] [A-CTX-31] [A-CTX-32] the dialog shows the campaign's crop areas as a pie, a legend and the total in ha to 2 decimals", async ({
  page,
}) => {
  const idCampagne = await prepareCampaign();
  await openWithCampaign(page, "lecteur", idCampagne);
  await page.getByTestId("open-assolement").click();
  const dialog = page.getByTestId("assolement-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Assolement – ");
  // 1000 wide (the viewport is wider).
  const box = await dialog.boundingBox();
  expect(Math.round(box!.width)).toBe(1000);

  // Three items: wheat (two modes summed), the two-crop mode under its own name, and the plots without mode.
  await expect(dialog.getByTestId("pie-slice")).toHaveCount(3);
  const legend = dialog.getByTestId("legend-item");
  await expect(legend).toHaveCount(3);
  await expect(legend.nth(0)).toContainText("Blé E2E");
  await expect(legend.nth(0)).toContainText("15,63 ha");
  await expect(legend.nth(0)).toContainText(/73,7\s%/);
  await expect(legend.nth(1)).toContainText("Association E2E blé-pois");
  await expect(legend.nth(1)).toContainText("3,33 ha");
  await expect(legend.nth(2)).toContainText("Sans mode de conduite");
  await expect(legend.nth(2)).toContainText("2,25 ha");
  const total = await dbTotal(idCampagne);
  expect(total).toBe(21.21);
  await expect(dialog.getByTestId("assolement-total")).toHaveText(`Total : ${total.toFixed(2).replace(".", ",")} ha`);

  // The chart is an image with a title and a description; a table gives the same figures to screen readers.
  await expect(dialog.getByRole("img", { name: /Répartition des surfaces par culture/ })).toBeVisible();
  const table = dialog.getByRole("table", { name: "Surfaces par culture (tableau)" });
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(table.getByRole("row").last()).toContainText("21,21");

  // The legend is reachable by keyboard: Tab moves to an entry, Enter pins its slice.
  await legend.nth(0).focus();
  await page.keyboard.press("Tab");
  await expect(legend.nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(legend.nth(1)).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${SHOTS}/assolement-dialog.png` });

  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test.describe("in English", () => {
  test.beforeEach(async ({ context }) => contextInEnglish(context));

  test("[A-CTX-31] [A-CTX-32] the crop-area dialog speaks English", async ({ page }) => {
    const idCampagne = await prepareCampaign();
    await openWithCampaign(page, "redacteur", idCampagne, true);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByRole("button", { name: "View the campaign's crop areas" }).click();
    const dialog = page.getByTestId("assolement-dialog");
    await expect(dialog).toContainText("Crop areas – ");
    await expect(dialog.getByTestId("legend-item").nth(0)).toContainText("E2E wheat");
    await expect(dialog.getByTestId("legend-item").nth(2)).toContainText("No management mode");
    await expect(dialog.getByTestId("legend-item").nth(0)).toContainText("15.63 ha");
    await expect(dialog.getByTestId("legend-item").nth(0)).toContainText("73.7%");
    await expect(dialog.getByTestId("assolement-total")).toHaveText("Total: 21.21 ha");
    await page.screenshot({ path: `${SHOTS}/assolement-dialog-en.png` });
  });
});
