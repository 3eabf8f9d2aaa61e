import { mkdirSync } from "node:fs";
import { expect, inEnglish, navigate, test } from "./fixtures";
import { demoIds, noSeriousAxeViolationInMain, setContext, signIn } from "./helpers";

/**
 * Objectives against results (issue 24; decision 0087): the demo protocol's objectives of EARL des Tilleuls beside the
 * figures of the campaign's latest series, met or missed, per plot and crop, and the trajectory over its campaigns;
 * a writer and a reader, with the keyboard, in French and English, at 1440 and 390 px.
 */
const SHOTS = "/tmp/shots-objectifs";
mkdirSync(SHOTS, { recursive: true });
const ECRAN = "/home/resultats/objectifs";

test("[issue24-objectifs] a writer reaches Objectives and results from the Results menu with the keyboard and sees each objective met or missed for the farm, by plot and crop, and the trajectory", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "redacteur");
  await navigate(page, "/home/resultats/indicateurs");
  // The Results menu holds the new entry; opened and followed with the keyboard.
  const menu = page.getByRole("button", { name: "Résultats" });
  await menu.focus();
  await page.keyboard.press("Enter");
  const entree = page
    .getByRole("menuitem", { name: "Objectifs et résultats" })
    .or(page.getByRole("link", { name: "Objectifs et résultats" }))
    .first();
  await entree.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/home\/resultats\/objectifs/);
  const ecran = page.getByTestId("screen-objectifs");
  await expect(ecran.getByRole("heading", { level: 1, name: "Objectifs et résultats" })).toBeVisible();
  const ferme = ecran.getByRole("table", { name: "Exploitation : objectifs et résultats" });
  await expect(ferme.getByRole("row")).toHaveCount(6);
  await expect(ferme.getByTestId("objectif-IFT_TOT")).toContainText("≤ 3,2");
  await expect(ferme.getByTestId("objectif-MSN")).toContainText("≥ 650");
  await expect(ferme.getByTestId("objectif-TPS_TRAV").getByTestId("verdict-sans-objectif")).toBeVisible();
  await expect(ferme.locator("[data-testid=verdict-atteint], [data-testid=verdict-manque]")).toHaveCount(4);
  await expect(ecran.getByRole("link", { name: "Ouvrir le détail du calcul" })).toBeVisible();
  // By plot (default), then by crop with the keyboard.
  await expect(ecran.getByTestId("objectifs-parcelles").locator("tbody tr").first()).toBeVisible();
  await ecran.getByTestId("niveau-parcelles").focus();
  await page.keyboard.press("ArrowDown");
  await expect(ecran.getByTestId("niveau-cultures")).toBeChecked();
  await expect(ecran.getByTestId("objectifs-cultures").locator("tbody tr").first()).toBeVisible();
  // The trajectory: 2024 and 2025, the objective marked on each bar.
  const trajectoire = ecran.getByTestId("objectifs-trajectoire");
  await expect(trajectoire.getByRole("table", { name: /Trajectoire de IFT total/ }).locator("tbody tr")).toHaveCount(2);
  await expect(
    trajectoire
      .getByTestId(/^trajectoire-/)
      .first()
      .getByTestId("repere"),
  ).toHaveCount(2);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/objectifs-fr-1440.png`, fullPage: true });
  // The 2024 campaign from the trajectory's link (its published series).
  await trajectoire.getByRole("link", { name: /2024/ }).first().click();
  await expect(page).toHaveURL(/campagne=/);
  await expect(ecran.getByText(/2024/).first()).toBeVisible();

  await inEnglish(page, ECRAN);
  await expect(page.getByRole("heading", { level: 1, name: "Objectives and results" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Farm: objectives and results" })).toBeVisible();
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/objectifs-en-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await navigate(page, ECRAN);
  await page.screenshot({ path: `${SHOTS}/objectifs-en-390.png`, fullPage: true });
});

test("[issue24-objectifs] [C-RIGHTS-19] a reader sees the objectives, the published 2024 figures in the trajectory, no unpublished figure and no link to the calculation", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const ids = await demoIds();
  await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "lecteur");
  await navigate(page, ECRAN);
  const ecran = page.getByTestId("screen-objectifs");
  await expect(ecran.getByTestId("objectifs-sans-serie")).toBeVisible();
  await expect(ecran.getByRole("link", { name: "Lancer un calcul" })).toHaveCount(0);
  await expect(ecran.getByRole("table", { name: "Exploitation : objectifs et résultats" }).getByTestId("verdict-sans-resultat")).toHaveCount(5);
  const ligne2024 = ecran
    .getByTestId("objectifs-trajectoire")
    .getByRole("table", { name: /Trajectoire de IFT total/ })
    .locator("tbody tr")
    .first();
  await expect(ligne2024.locator("[data-testid=verdict-atteint], [data-testid=verdict-manque]")).toHaveCount(1);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/objectifs-lecteur-fr-390.png`, fullPage: true });
  // The published 2024 campaign, chosen with the keyboard from the trajectory.
  await ligne2024.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(ecran.getByTestId("objectifs-resume")).toBeVisible();
  await expect(ecran.getByRole("link", { name: "Ouvrir le détail du calcul" })).toHaveCount(0);
  await noSeriousAxeViolationInMain(page);
});
