import type { Page } from "@playwright/test";
import { e2eDb, expect, login, navigate, test } from "./fixtures";
import { setContext } from "./helpers";

/**
 * "An empty screen in the demo is a defect" (issue 11): every farm-description screen of every demo campaign, the
 * simulation included, shows demo rows or filled fields. Screenshots of EARL des Tilleuls 2025 are attached.
 */

const LIST_SCREENS = ["cultures", "parcelle", "lot_parcelle", "amenagements", "operations_culturales", "parc_materiel", "main_oeuvre"] as const;

async function campaigns() {
  const db = e2eDb();
  const rows = await db("campagne as c")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .whereIn("e.libelle", ["EARL des Tilleuls", "GAEC du Moulin", "Ferme de la Vallée"])
    .orderBy([{ column: "e.libelle" }, { column: "c.anneeRecolte" }, { column: "c.simulation" }])
    .select("c.id", "c.anneeRecolte", "c.simulation", "e.id as idExploitation", "e.libelle");
  const dossiers = await db("dossier").select("id", "libelle", "idOad");
  const beauce = dossiers.find((d) => d.libelle === "Groupe Grandes cultures Beauce")!;
  const bocage = dossiers.find((d) => d.libelle === "Groupe Polyculture-élevage Bocage")!;
  return rows.map((r) => ({ ...r, dossier: r.libelle === "Ferme de la Vallée" ? bocage : beauce }));
}

type DemoCampaign = Awaited<ReturnType<typeof campaigns>>[number];

/** Signs the leader in on a campaign: the context is set before the sign-in (the server reads it at sign-in). */
async function enter(page: Page, c: DemoCampaign) {
  await setContext("animateur", { idOad: c.dossier.idOad, idDossier: c.dossier.id, exploitations: [c.idExploitation], idCampagne: c.id });
  await page.context().clearCookies();
  await login(page, "animateur");
  await page.waitForURL(/home\/description\/home/);
}

// One journey per demo campaign (the seed's seven: three farms x 2024 and 2025, and the simulation), so that each
// walk of eight screens has its own time on a loaded machine.
const DEMO_CAMPAIGNS = [
  ["EARL des Tilleuls", 2024, false],
  ["EARL des Tilleuls", 2025, false],
  ["EARL des Tilleuls", 2025, true],
  ["Ferme de la Vallée", 2024, false],
  ["Ferme de la Vallée", 2025, false],
  ["GAEC du Moulin", 2024, false],
  ["GAEC du Moulin", 2025, false],
] as const;

test("the demo has the seven campaigns walked below", async () => {
  expect((await campaigns()).map((c) => [c.libelle, c.anneeRecolte, !!c.simulation])).toEqual(DEMO_CAMPAIGNS.map((c) => [...c]));
});

for (const [farm, year, simulation] of DEMO_CAMPAIGNS) {
  const name = `${farm} ${year}${simulation ? " (simulation)" : ""}`;
  test(`every description screen of ${name} is filled`, async ({ page }) => {
    test.slow();
    const c = (await campaigns()).find((x) => x.libelle === farm && x.anneeRecolte === year && !!x.simulation === simulation)!;
    await enter(page, c);
    for (const screen of LIST_SCREENS) {
      await navigate(page, `/home/description/exploitation/${screen}`);
      await expect(page.locator(`[data-testid^="list-screen-"] tbody tr`).first(), `${name}: ${screen}`).toBeVisible();
    }
    await navigate(page, "/home/description/exploitation/caracteristiques_economiques");
    await expect(page.getByLabel(/^Prix du fioul/).first(), `${name}: economics`).not.toHaveValue("");
    if (year === 2025 && !simulation) {
      // The farm's own screens (the same for every campaign).
      await navigate(page, "/home/description/exploitation/coordonnees");
      await expect(page.getByLabel("Raison sociale"), farm).not.toHaveValue("");
      await navigate(page, "/home/description/exploitation/description");
      await expect(page.getByTestId("screen-description").locator("textarea").first(), farm).not.toHaveValue("");
    }
  });
}

test("screenshots of the demo's machinery, labour, operations and farm description screens (EARL des Tilleuls 2025)", async ({ page }, testInfo) => {
  const tilleuls = (await campaigns()).find((c) => c.libelle === "EARL des Tilleuls" && c.anneeRecolte === 2025 && !c.simulation)!;
  await setContext("animateur", {
    idOad: tilleuls.dossier.idOad,
    idDossier: tilleuls.dossier.id,
    exploitations: [tilleuls.idExploitation],
    idCampagne: tilleuls.id,
  });
  await login(page, "animateur");
  await page.waitForURL(/home\/description\/home/);
  await page.setViewportSize({ width: 1400, height: 1000 });
  for (const screen of [
    "parc_materiel",
    "main_oeuvre",
    "operations_culturales",
    "coordonnees",
    "description",
    "caracteristiques_economiques",
    "caracteristiques_pedologiques",
  ]) {
    await navigate(page, `/home/description/exploitation/${screen}`);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: testInfo.outputPath(`demo-${screen}.png`), fullPage: true });
  }
});
