import { mkdirSync } from "node:fs";
import { expect, inEnglish, navigate, test } from "./fixtures";
import { demoIds, noSeriousAxeViolationInMain, signInOnTilleuls } from "./helpers";

/**
 * The plant-protection register screen (issue 28, decisions 0104, 0105): the selected campaign's treatments, one line
 * per product per plot, the checks with their source, the exports; a writer and a reader, French and English.
 */
const SHOTS = "/tmp/shots-registre";
mkdirSync(SHOTS, { recursive: true });
const ECRAN = "/home/description/au_champs/registre";

test("[issue28-registre] a writer opens the register from the Field menu, sees its lines and checks, and exports it as CSV, XLSX and JSON", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOnTilleuls(page, "redacteur", ids.tilleuls2025, ECRAN);
  const ecran = page.getByTestId("registre-page");
  await expect(page.getByRole("heading", { level: 1, name: "Registre phytosanitaire" })).toBeVisible();
  await expect(ecran.getByRole("table", { name: "Traitements" }).getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByTestId("registre-referentiel")).toContainText("2023/564");
  await expect(page.getByTestId("registre-constats")).toBeVisible();
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/registre-fr-1440.png`, fullPage: true });

  for (const format of ["csv", "xlsx", "json"] as const) {
    const download = page.waitForEvent("download");
    await page.getByTestId(`registre-export-${format}`).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^registre-phyto-.*\\.${format}$`));
    const path = await file.path();
    expect(path).toBeTruthy();
    if (format === "csv") {
      const { readFileSync } = await import("node:fs");
      const text = readFileSync(path!, "utf8").replace(/^\uFEFF/, "");
      expect(text.split("\r\n")[0]).toMatch(/^SIRET exploitation;Nom commercial du produit;Numéro AMM;Date d'utilisation/);
    }
  }
});

test("[issue28-registre] a reader sees the register read-only, in English too", async ({ page }) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await signInOnTilleuls(page, "lecteur", ids.tilleuls2025, ECRAN);
  await expect(page.getByRole("heading", { level: 1, name: "Registre phytosanitaire" })).toBeVisible();
  await expect(page.getByTestId("registre-page").getByRole("table", { name: "Traitements" })).toBeVisible();
  await expect(page.getByTestId("registre-page").getByRole("button", { name: /Enregistrer/ })).toHaveCount(0);
  await inEnglish(page, ECRAN);
  await expect(page.getByRole("heading", { level: 1, name: "Plant-protection register" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Treatments" })).toBeVisible();
  await expect(page.getByTestId("registre-export-csv")).toHaveText("CSV");
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/registre-en-1440.png`, fullPage: true });
  await navigate(page, "/home/description/au_champs/interventions");
  await expect(page.getByRole("link", { name: "Plant-protection register" }).first()).toBeAttached();
});
