import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, inEnglish, test } from "./fixtures";
import { openPlots, PARCELLE_SCREEN } from "./parcelle-screen";

/**
 * The plots screen's Other menu "assign greenhouse-gas emissions" (spec 2 §2, §7: PATCH
 * dossier/{id}/affectation_eges; B-PLOT-04; docs/decisions/0018-affectation-eges.md), on the demo
 * fertilisers of the Beauce folder.
 */

const SHOTS = "/tmp/shots-3420";

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The Beauce fertilisers' categories by name, as the demo made them (only ammonium sulphate assigned). */
async function categoriesBeauce(): Promise<Record<string, string | null>> {
  const dossier = await e2eDb()("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id");
  const rows = await e2eDb()("intrant_dossier as i")
    .leftJoin("fertilisant_compo_dossier as c", "c.idIntrantDossier", "i.id")
    .where("i.idDossier", dossier.id)
    .select("i.libelle", "c.categorieEges");
  return Object.fromEntries(rows.map((r) => [r.libelle, r.categorieEges ?? null]));
}

async function resetBeauce() {
  const dossier = await e2eDb()("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id");
  const ids = e2eDb()("intrant_dossier").where({ idDossier: dossier.id }).select("id");
  await e2eDb()("fertilisant_compo_dossier").whereIn("idIntrantDossier", ids).update({ categorieEges: null });
  const sulfate = await e2eDb()("intrant_dossier").where({ idDossier: dossier.id, libelle: "Sulfate d'ammoniaque 21" }).first("id");
  await e2eDb()("fertilisant_compo_dossier").where({ idIntrantDossier: sulfate.id }).update({ categorieEges: "AZOTE_AUTRE" });
  return dossier.id as number;
}

const row = (page: Page, libelle: string) => page.getByTestId("eges-table").locator("tbody tr", { hasText: libelle });

test("[B-PLOT-04] an animator assigns the greenhouse-gas categories of the folder's fertilisers from the Other menu, keyboard only", async ({ page }) => {
  await resetBeauce();
  await openPlots(page, "animateur");
  await page.getByTestId("parcelle-autres").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Affecter les émissions de gaz à effet de serre (EGES)" })).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("eges-dialog");
  await expect(dialog.getByRole("heading", { name: "Affecter les émissions de gaz à effet de serre" })).toBeVisible();
  await expect(dialog).toContainText(
    "Chaque engrais du dossier « Groupe Grandes cultures Beauce » sans catégorie GES reçoit celle que donnent son nom et sa composition",
  );
  await expect(row(page, "Ammonitrate 33,5").locator("td")).toHaveText(["Ammonitrate 33,5", "33,5-0-0", "", "Ammonitrate"]);
  await expect(row(page, "Engrais NPK 15-15-15").locator("td")).toHaveText(["Engrais NPK 15-15-15", "15-15-15", "", "Engrais composé (NP, NK, PK, NPK)"]);
  await expect(row(page, "Fumier de bovins").locator("td").nth(3)).toHaveText("Effluent ou engrais organique");
  await expect(row(page, "Sulfate d'ammoniaque 21").locator("td")).toHaveText(["Sulfate d'ammoniaque 21", "21-0-0", "Autre engrais azoté simple", "Conservée"]);
  await expect(row(page, "Bore foliaire").locator("td").nth(3)).toHaveText("Aucune : ni N, P, K, ni Ca, Mg");
  await expect(row(page, "Engrais foliaire de la coopérative").locator("td").nth(3)).toHaveText("Aucune : composition non renseignée");
  const assign = dialog.getByTestId("eges-assign");
  await expect(assign).toHaveText("Affecter 7 catégories");
  await shot(page, "parcelle-eges");

  // Tab to the assign button and press it: the result is shown in the dialog, the table shows the stored categories.
  await assign.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByTestId("eges-result")).toHaveText(
    "7 engrais ont reçu leur catégorie. Catégories déjà renseignées, conservées : 1. Sans catégorie : Bore foliaire, Engrais foliaire de la coopérative.",
  );
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect(row(page, "Urée 46").locator("td")).toHaveText(["Urée 46", "46-0-0", "Urée", "Conservée"]);
  await expect(assign).toBeDisabled();
  await expect(assign).toHaveText("Rien à affecter");
  expect(await categoriesBeauce()).toMatchObject({
    "Ammonitrate 33,5": "AMMONITRATE",
    "Urée 46": "UREE",
    "Solution azotée 390": "SOLUTION_AZOTEE",
    "Engrais NPK 15-15-15": "ENGRAIS_COMPOSE",
    "Superphosphate 45": "PHOSPHATE",
    "Chlorure de potasse 60": "POTASSIQUE",
    "Fumier de bovins": "ORGANIQUE",
    "Sulfate d'ammoniaque 21": "AZOTE_AUTRE",
    "Bore foliaire": null,
    "Engrais foliaire de la coopérative": null,
  });
  await shot(page, "parcelle-eges-done");
  await dialog.getByRole("button", { name: "Fermer" }).click();
  await expect(dialog).toHaveCount(0);
});

test("[B-PLOT-04] [A-RIGHTS-28] a folder writer sees the categories but may not assign them; a forced request is refused and changes nothing", async ({
  page,
}) => {
  const idDossier = await resetBeauce();
  const before = await categoriesBeauce();
  await openPlots(page, "redacteur");
  await page.getByTestId("parcelle-autres").click();
  await page.getByRole("menuitem", { name: "Affecter les émissions de gaz à effet de serre (EGES)" }).click();
  const dialog = page.getByTestId("eges-dialog");
  await expect(dialog.getByTestId("eges-not-allowed")).toHaveText("Seuls les animateurs du dossier peuvent modifier ses intrants.");
  await expect(row(page, "Urée 46").locator("td").nth(3)).toHaveText("Urée");
  await expect(dialog.getByTestId("eges-assign")).toBeDisabled();
  await shot(page, "parcelle-eges-redacteur");
  const forced = await page.request.post(PARCELLE_SCREEN.slice(1), { form: { intent: "affectationEges", idDossier: String(idDossier) }, maxRedirects: 0 });
  expect(forced.status()).toBe(403);
  expect(await categoriesBeauce()).toEqual(before);
});

test("[B-PLOT-04] in English the entry and the dialog are translated", async ({ page }) => {
  await resetBeauce();
  await openPlots(page, "animateur");
  await inEnglish(page, PARCELLE_SCREEN);
  await expect(page.getByTestId("parcelle-autres")).toHaveText(/Other/);
  await page.getByTestId("parcelle-autres").click();
  await page.getByRole("menuitem", { name: "Assign greenhouse-gas emissions (GHG)" }).click();
  const dialog = page.getByTestId("eges-dialog");
  await expect(row(page, "Ammonitrate 33,5").locator("td")).toHaveText(["Ammonitrate 33,5", "33.5-0-0", "", "Ammonium nitrate"]);
  await expect(dialog.getByTestId("eges-assign")).toHaveText("Assign 7 categories");
  await shot(page, "parcelle-eges-en");
});
