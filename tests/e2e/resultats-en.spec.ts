import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { expect, inEnglish, test } from "./fixtures";
import { demoIds, latestFinishedSerie, noSeriousAxeViolationInMain, setContext, signIn } from "./helpers";

/**
 * The results screens in English (issue 14, A-LOCALE-06): calculation, a series' detail with its charts, the
 * campaign-against-simulation comparison, the raw-data export and the published indicators, for a writer; the
 * published indicators for a reader. Each speaks English (headings, table headers, buttons), shows the demo's data and
 * passes axe.
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";
mkdirSync(SHOTS, { recursive: true });

/** No French label of these screens may show in English. */
async function noFrench(page: Page) {
  const text = await page.locator("main").innerText();
  for (const word of ["Calcul des indicateurs", "Exporter", "Campagnes", "Exploitations", "Enregistrer", "Aucun calcul", "Publier"]) {
    expect(text, `"${word}" shows in English`).not.toContain(word);
  }
}

test("[A-LOCALE-06] a writer finds the calculation, a series' detail, the comparison and the raw-data export in English", async ({ page }) => {
  test.setTimeout(60_000);
  const ids = await demoIds();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");

  await inEnglish(page, "/home/resultats/calcul");
  await expect(page.getByRole("heading", { name: "Indicator calculation", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Calculations done" })).toBeVisible();
  await noFrench(page);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/resultats-calcul-en.png`, fullPage: true });

  const idBase = await latestFinishedSerie(ids.tilleuls2025);
  await inEnglish(page, `/home/resultats/calcul/${idBase}`);
  await expect(page.getByRole("heading", { name: /^Calculation of EARL des Tilleuls/, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Groups" })).toBeVisible();
  await noFrench(page);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/resultats-serie-en.png`, fullPage: true });

  await inEnglish(page, `/home/resultats/calcul/${idBase}/comparaison`);
  await expect(page.getByRole("heading", { name: "Campaign and simulation — EARL des Tilleuls", level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: /^Total TFI/ }).first()).toBeVisible();
  await noFrench(page);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/resultats-comparaison-en.png`, fullPage: true });

  await inEnglish(page, "/home/resultats/donneesbrutes");
  await expect(page.getByRole("heading", { name: "Raw data export", level: 1 })).toBeVisible();
  await noFrench(page);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/resultats-donnees-brutes-en.png`, fullPage: true });
});

test("[A-LOCALE-06] a reader finds the published indicators in English, the published demo series listed", async ({ page }) => {
  const ids = await demoIds();
  await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
  await signIn(page, "lecteur");
  await inEnglish(page, `/home/resultats/indicateurs?campagne=${ids.tilleuls2024}`);
  await expect(page.getByRole("heading", { name: "Published indicators", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Published calculations" })).toBeVisible();
  await expect(page.getByTestId(`serie-cocher-${await latestFinishedSerie(ids.tilleuls2024)}`)).toBeVisible();
  await noFrench(page);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/resultats-indicateurs-lecteur-en.png`, fullPage: true });
});
