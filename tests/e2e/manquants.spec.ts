import { mkdirSync } from "node:fs";
import { expect, inEnglish, navigate, test } from "./fixtures";
import { demoIds, noSeriousAxeViolationInMain, setContext, signIn, storedContext } from "./helpers";
import { e2eDb } from "./fixtures";

/**
 * The missing-data worklist (issue 24; decision 0087): the Beauce folder's farms, what keeps their indicators
 * incomplete, the most useful to fix first, each line opening the screen and row that fixes it; a writer and a reader,
 * with the keyboard, in French and English, at 1440 and 390 px.
 */
const SHOTS = "/tmp/shots-manquants";
mkdirSync(SHOTS, { recursive: true });
const ECRAN = "/home/resultats/manquants";

const gains = async (page: import("@playwright/test").Page) =>
  (await page.getByTestId("manquant-gain").allInnerTexts()).map((s) => Number(s.replace(/[^\d,.-]/g, "").replace(",", ".")));

test("[issue24-manquants] a writer sees the folder's missing data sorted by the completeness each restores and opens, with the keyboard, the row that fixes one", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "redacteur");
  await navigate(page, ECRAN);
  const ecran = page.getByTestId("screen-manquants");
  await expect(ecran.getByRole("heading", { level: 1, name: "Données manquantes" })).toBeVisible();
  const fermes = ecran.getByRole("table", { name: "Exploitations du dossier" });
  await expect(fermes.getByRole("row", { name: /EARL des Tilleuls/ })).toContainText("Écriture");
  await expect(fermes.getByRole("row", { name: /GAEC du Moulin/ })).toBeVisible();
  const lignes = ecran.getByTestId("manquant-ligne");
  await expect(lignes.first()).toBeVisible();
  const g = await gains(page);
  expect(g.length).toBeGreaterThan(0);
  expect([...g].sort((a, b) => b - a)).toEqual(g);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/manquants-fr-1440.png`, fullPage: true });
  // Sorted by farm, with the keyboard.
  await ecran.getByTestId("manquants-tri").focus();
  await ecran.getByTestId("manquants-tri").selectOption("exploitation");
  await expect(lignes.first()).toContainText("EARL des Tilleuls");
  // A line of the context's campaign opens its screen with its row.
  const lien = ecran
    .getByTestId("manquant-ligne")
    .filter({ hasText: "EARL des Tilleuls" })
    .getByRole("link", { name: /^Corriger/ })
    .first();
  const adresse = await lien.getAttribute("href");
  await lien.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(adresse!.replace(/^\/sillon/, "").replace(/[?]/g, "\\?")));

  await inEnglish(page, ECRAN);
  await expect(page.getByRole("heading", { level: 1, name: "Missing data" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Missing data, the most useful to fix first" })).toBeVisible();
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/manquants-en-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await navigate(page, ECRAN);
  await page.screenshot({ path: `${SHOTS}/manquants-en-390.png`, fullPage: true });
});

test("[issue24-manquants] a writer opens a line of another farm: its campaign is selected and its screen opens", async ({ page }) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");
  await navigate(page, ECRAN);
  const autre = page
    .getByTestId("manquant-ligne")
    .filter({ hasText: "GAEC du Moulin" })
    .getByRole("button", { name: /^Corriger/ })
    .first();
  await autre.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/home\/description\//);
  const moulin2025 = (await e2eDb()("campagne").where({ idExploitation: ids.moulin, anneeRecolte: 2025, simulation: false }).first("id")).id as number;
  await expect.poll(async () => (await storedContext("redacteur"))?.idCampagne).toBe(moulin2025);
  expect((await storedContext("redacteur"))?.exploitations).toContain(ids.moulin);
});

test("[issue24-manquants] a reader sees the same list, read-only, with View links and no write", async ({ page }) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "lecteur");
  await navigate(page, ECRAN);
  const ecran = page.getByTestId("screen-manquants");
  await expect(ecran.getByTestId("manquants-lecture")).toBeVisible();
  await expect(ecran.getByRole("link", { name: /^Corriger/ })).toHaveCount(0);
  await expect(ecran.getByRole("button", { name: /^Corriger/ })).toHaveCount(0);
  await expect(ecran.getByRole("link", { name: /^Voir/ }).first()).toBeVisible();
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/manquants-lecteur-fr-390.png`, fullPage: true });
  // The year choice with the keyboard: 2024.
  await ecran.getByTestId("manquants-annee").focus();
  await ecran.getByTestId("manquants-annee").selectOption("2024");
  await expect(page).toHaveURL(/annee=2024/);
  await expect(ecran.getByRole("table", { name: "Exploitations du dossier" })).toContainText("2024");
});
