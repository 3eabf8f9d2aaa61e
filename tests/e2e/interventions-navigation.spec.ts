import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/**
 * What the browser asks on the interventions screen (decision 0083, issue 11): opened from another screen, every
 * loader (the layouts too: a move to another path); when the chosen plots change, the screen's data alone, the chosen
 * plots in one value (ids joined by underscores).
 */
const isScreenData = (url: string) => new URL(url).pathname.endsWith("/au_champs/interventions.data");

test("[issue11-perf] [C-INT-04] opened from the plots, every loader is asked; ticking a plot asks only the screen's data; a reload keeps both plots", async ({
  page,
}) => {
  const ids = await demoIds();
  const plots = await e2eDb()("parcelle")
    .where({ idCampagne: ids.tilleuls2025 })
    .orderBy([{ column: "libelle" }, { column: "id" }])
    .select("id", "libelle");
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");
  await navigate(page, "/home/description/exploitation/parcelle");

  const opened = page.waitForRequest((r) => isScreenData(r.url()));
  await page.getByTestId(`interventions-${plots[0].id}`).click();
  expect(new URL((await opened).url()).searchParams.get("_routes")).toBeNull();
  await expect(page.getByTestId("plot-filter-summary")).toHaveText(plots[0].libelle);

  const ticked = page.waitForRequest((r) => isScreenData(r.url()));
  await page.getByTestId("plot-filter-summary").click();
  await page.getByTestId(`plot-filter-${plots[1].id}`).click();
  const url = new URL((await ticked).url());
  expect(url.searchParams.get("parcelleId")).toBe(`${plots[0].id}_${plots[1].id}`);
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
