import AxeBuilder from "@axe-core/playwright";
import type { Locator } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, insertId, setContext, signIn } from "./helpers";

/**
 * The plot's indicator panel of the interventions screen (issue 14): loaded by its own request, asked again after each save, so saving an
 * intervention shows the new figures at once. The test prepares its own herbicide treatment (a product of the demo's
 * reference list) on a plot of EARL des Tilleuls 2025 and removes it.
 */

const SHOTS = "/tmp/shots-indicateurs";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

/** "1,25" (French figures) as a number. */
async function figure(card: Locator): Promise<number> {
  const text = (await card.getByTestId("valeur").textContent()) ?? "";
  return Number(text.replace(/\s/g, "").replace(",", "."));
}

test("[issue14-live] saving an intervention recomputes the plot's indicators at once", async ({ page }) => {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const plot = await db("parcelle").where({ idCampagne }).orderBy("libelle").first("id", "libelle");
  const categorie = await db("categorie_intrant").where({ familleIft: "H" }).orderBy("id").first("id");
  // A herbicide row (segment S3, dose per hectare) of the reference list the demo ships: the engine reads the list in
  // force, never a dose copied onto the input (issue 24).
  const ligne = await db("reference_dose_cible_ift")
    .where({ segment: "S3", uniteDoseRef: "L/HA" })
    .whereNotNull("idCulture")
    .orderBy("id")
    .first("codeAmm", "idCulture", "doseRef");
  const operation = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Désherbage", debitReel: 8 });
  const action = await insertId("action", {
    idCampagne,
    idParcelle: plot.id,
    idCultureConcernee: ligne.idCulture,
    date: "2025-03-20",
    anneeRecolte: 2025,
    idOperationCulturale: operation,
    debit: 8,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  await insertId("intrant", {
    idAction: action,
    idCategorie: categorie.id,
    libelleIntrant: "E2E Herbicide",
    codeIntrant: ligne.codeAmm,
    quantite: Number(ligne.doseRef) / 2,
    dicLlUnite: "l/ha",
  });
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  try {
    await signIn(page, "redacteur");
    await navigate(page, `${SCREEN}?parcelleId=${plot.id}&id=${action}`);
    const panel = page.getByTestId("indicateurs-parcelle");
    await expect(panel.getByRole("heading", { name: `Indicateurs de la parcelle ${plot.libelle}` })).toBeVisible();
    const total = panel.getByTestId("indicateur-ift.cible.total");
    const herbicides = panel.getByTestId("indicateur-ift.cible.herbicides");
    await expect(total).toContainText("IFT total");
    await expect(total.getByTestId("completude")).toContainText("% des données");
    for (const code of ["fertilisation.n.mineral", "travail.temps.total", "travail.carburant", "economie.reel.margeBrute"])
      await expect(panel.getByTestId(`indicateur-${code}`)).toBeVisible();
    const avant = await figure(total);
    const herbAvant = await figure(herbicides);

    // The treatment counts half the reference dose, 0.5 per pass: three passes instead of one add 1.0 to the plot's IFT.
    const form = page.getByTestId("intervention-form");
    await expect(form.getByTestId("intervention-frequence")).toHaveValue("1");
    await form.getByTestId("intervention-frequence").fill("3");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect.poll(() => figure(total)).toBeCloseTo(avant + 1, 2);
    await expect.poll(() => figure(herbicides)).toBeCloseTo(herbAvant + 1, 2);

    // The missing data of a figure are listed in its disclosure.
    const details = panel.locator("details").first();
    if (await details.count()) {
      await details.locator("summary").click();
      await expect(details.locator("li").first()).toBeVisible();
    }
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/indicateurs-parcelle-fr.png`, fullPage: true });
    const axe = await new AxeBuilder({ page }).include('[data-testid="indicateurs-parcelle"]').analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  } finally {
    await db("action").where({ id: action }).delete();
    await db("operation_culturale").where({ id: operation }).delete();
  }
});
