import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/**
 * What the browser asks when the chosen plots change (decision 0083, issue 11): the screen's data alone, the chosen
 * plots in one comma-separated value; the layouts (language, user, context) are not asked again on a move to another
 * address, only after a submission.
 */
const SCREEN = "/home/description/au_champs/interventions";

test("[issue11-perf] [C-INT-04] ticking a plot asks only the screen's data, the address keeps both plots and a reload shows them", async ({ page }) => {
  const ids = await demoIds();
  const plots = await e2eDb()("parcelle").where({ idCampagne: ids.tilleuls2025 }).orderBy([{ column: "libelle" }, { column: "id" }]).select("id", "libelle");
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");
  await navigate(page, `${SCREEN}?parcelleId=${plots[0].id}`);
  await expect(page.getByTestId("plot-filter-summary")).toHaveText(plots[0].libelle);

  const asked = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith("/interventions.data"));
  await page.getByTestId("plot-filter-summary").click();
  await page.getByTestId(`plot-filter-${plots[1].id}`).click();
  const url = new URL((await asked).url());
  expect(url.searchParams.get("parcelleId")).toBe(`${plots[0].id},${plots[1].id}`);
  expect(url.searchParams.get("_routes")?.split(",")).toEqual(["screen.interventions"]);
  await expect(page.getByTestId("plot-filter-summary")).toHaveText("2 parcelles");
  // The frame stays as it was: the context bar still names the campaign.
  await expect(page.getByTestId("select-campagne")).toContainText("2025");

  await page.reload();
  await expect(page.getByTestId("plot-filter-summary")).toHaveText("2 parcelles");
  await page.getByTestId("plot-filter-summary").click();
  await expect(page.getByTestId(`plot-filter-${plots[0].id}`)).toBeChecked();
  await expect(page.getByTestId(`plot-filter-${plots[1].id}`)).toBeChecked();
});
