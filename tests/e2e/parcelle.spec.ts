import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, test, waitForHydration } from "./fixtures";
import { createPlot, openPlots, parcelleIds, parcelleRow, parcelleTable } from "./parcelle-screen";

/** The plots screen (spec 2 §2 "Plots", §3, §4, §5, §6; B-PLOT, B-MAP-01 to 07, B-HIST). */

const SHOTS = "/tmp/shots-3420";

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const ids = parcelleIds;
const table = parcelleTable;
const rowOf = parcelleRow;

test("[B-PLOT-09] [B-PLOT-10] [B-MAP-01] [B-MAP-02] [B-MAP-03] [B-MAP-04] [B-MAP-06] [B-ERR-20] a writer creates a plot in a commune; the codes follow the pickers", async ({
  page,
}) => {
  const { farm } = await ids();
  await e2eDb()("exploitation").where({ id: farm }).update({ codeInsee: "28380", codePostal: "28630", libelleDepartement: "Eure-et-Loir" });
  const c2025 = await openPlots(page, "redacteur");
  await page.getByTestId("list-new").click();
  const form = page.getByTestId("parcelle-form");
  for (const panel of ["Résumé", "Données géographiques", "Données de sol", "Historique"])
    await expect(form.locator("summary", { hasText: panel })).toBeVisible();
  for (const label of [
    "Objectif de rendement (t/ha)",
    "Fermage spécifique (€/ha)",
    "Charges de stockage (€/t)",
    "Charges de semences (€/ha)",
    "Autres charges de mécanisation et main-d'œuvre (€/ha)",
    "Spécificité prairie",
    "Taux de légumineuses",
    "Type d'itinéraire",
    "Gestion des résidus",
    "Résidus de la culture intermédiaire",
    "Irrigable",
    "Drainée",
    "Jachère",
  ]) {
    await expect(form.getByLabel(label, { exact: true })).toBeVisible();
  }
  await page.getByLabel("Nom", { exact: true }).fill("E2E La Remise");
  await page.getByLabel("Surface (ha)", { exact: true }).fill("7,45");
  await page.getByLabel("Type d'itinéraire", { exact: true }).selectOption({ label: "Conventionnel" });

  // Geodata: a new plot starts with the farm's commune (Sours, 28380 / 28630).
  await form.locator("summary", { hasText: "Données géographiques" }).click();
  const geodata = page.getByTestId("geodata-panel");
  await expect(geodata.getByTestId("code-insee")).toHaveValue("28380");
  await expect(geodata.getByTestId("code-postal")).toHaveValue("28630");
  await expect(geodata.getByTestId("select-departement")).toHaveValue("28");
  await expect(geodata.getByTestId("select-commune")).toHaveValue("28380");
  await expect(geodata.getByRole("region", { name: "Carte de la parcelle" })).toBeVisible();
  // Another department clears the commune and its codes, then offers its own communes.
  await geodata.getByTestId("select-departement").selectOption("45");
  await expect(geodata.getByTestId("code-insee")).toHaveValue("");
  await expect(geodata.getByTestId("code-postal")).toHaveValue("");
  await expect(geodata.getByTestId("select-commune").locator("option", { hasText: /^Pithiviers \(/ })).toHaveCount(1);
  await geodata.getByTestId("select-departement").selectOption("28");
  await geodata.getByTestId("select-commune").selectOption({ label: "Chartres (28000)" });
  await expect(geodata.getByTestId("code-insee")).toHaveValue("28085");
  await expect(geodata.getByTestId("code-postal")).toHaveValue("28000");
  await page.getByLabel("Numéro d'îlot PAC", { exact: true }).fill("21");
  await page.getByLabel("Surface réelle (ha)", { exact: true }).fill("7,3");
  await shot(page, "parcelle-new-geodata");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  await expect(rowOf(page, "E2E La Remise")).toHaveAttribute("aria-selected", "true");
  await expect
    .poll(async () => {
      const r = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E La Remise" }).first();
      return r && [Number(r.surface), r.codeInsee, r.codePostal, r.noIlotPac, Number(r.surfaceReelle), r.idTypeModeConduite];
    })
    .toEqual([7.45, "28085", "28000", "21", 7.3, 1]);
  // The saved plot reopens with its commune.
  await expect(page).toHaveURL(/[?&]id=\d+/);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("E2E La Remise");
  await page.getByTestId("parcelle-form").locator("summary", { hasText: "Données géographiques" }).click();
  await expect(page.getByTestId("select-commune")).toHaveValue("28085");
  await expect(page.getByTestId("select-departement")).toHaveValue("28");
});

test("[B-HIST-01] [B-HIST-02] [B-HIST-03] [B-HIST-04] [B-HIST-05] [B-ERR-21] the history links last year's plots; the tree shows N-1 and N-2", async ({
  page,
}) => {
  const db = e2eDb();
  const { farm, c2024 } = await ids();
  // An N-2 generation: a 2023 plot that "Les Grands Champs" (2024) comes from.
  let c2023 = (await db("campagne").where({ idExploitation: farm, anneeRecolte: 2023 }).first("id"))?.id as number | undefined;
  if (!c2023)
    [c2023] = (await db("campagne").insert({ idExploitation: farm, anneeRecolte: 2023 }).returning("id")).map((r) => (typeof r === "object" ? r.id : r));
  let old = (await db("parcelle").where({ idCampagne: c2023, libelle: "Le Grand Champ 2023" }).first("id"))?.id as number | undefined;
  if (!old)
    [old] = (await db("parcelle").insert({ idCampagne: c2023, libelle: "Le Grand Champ 2023", surface: 24.6 }).returning("id")).map((r) =>
      typeof r === "object" ? r.id : r,
    );
  const grands = await db("parcelle").where({ idCampagne: c2024, libelle: "Les Grands Champs" }).first("id");
  await db("parcelle_historique").where({ idParcelle: grands.id }).delete();
  await db("parcelle_historique").insert({ idParcelle: grands.id, idParcelleHistorique: old });

  await openPlots(page, "redacteur");
  await createPlot(page, "E2E Réunion");
  const form = page.getByTestId("parcelle-form");
  await form.locator("summary", { hasText: "Historique" }).click();
  const select = page.getByTestId("select-historique");
  await expect(select.locator("option")).toHaveCount(5);
  await select.selectOption([{ label: "Les Grands Champs (24,6 ha)" }, { label: "La Vallée Sèche (15,2 ha)" }]);
  await expect(page.getByTestId("historique-summary")).toContainText("Les Grands Champs");
  await expect(page.getByTestId("historique-summary")).toContainText("La Vallée Sèche");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect
    .poll(async () => {
      const plot = await db("parcelle").where({ libelle: "E2E Réunion" }).first("id");
      return (
        await db("parcelle_historique as h")
          .join("parcelle as p", "p.id", "h.idParcelleHistorique")
          .where("h.idParcelle", plot.id)
          .orderBy("p.libelle")
          .select("p.libelle")
      ).map((r) => r.libelle);
    })
    .toEqual(["La Vallée Sèche", "Les Grands Champs"]);

  await page.getByTestId("open-historique-tree").click();
  const dialog = page.getByTestId("historique-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("generation-1")).toContainText("N-1");
  await expect(dialog.getByTestId("generation-1")).toContainText("Les Grands Champs");
  await expect(dialog.getByTestId("generation-1")).toContainText("La Vallée Sèche");
  await expect(dialog.getByTestId("generation-2")).toContainText("N-2");
  await expect(dialog.getByTestId("generation-2")).toContainText("Le Grand Champ 2023");
  await expect(dialog.getByTestId("generation-2")).toContainText("Récolte 2023");
  expect(Math.round((await dialog.boundingBox())!.width)).toBe(1000);
  await shot(page, "parcelle-historique-tree");
  await dialog.getByRole("button", { name: "Fermer" }).click();
  await expect(dialog).toHaveCount(0);
  // The plot made here goes: the journeys after this one find the demo's plots first.
  await db("parcelle").where({ libelle: "E2E Réunion" }).delete();
});

test("[B-PLOT-12] [B-PLOT-13] [B-PLOT-14] [B-PLOT-15] [B-PLOT-16] [B-LIST-14] bad values get their message beside the field and nothing is saved", async ({
  page,
}) => {
  const c2025 = await openPlots(page, "redacteur");
  const before = await e2eDb()("parcelle").where({ idCampagne: c2025 }).count<{ n: number }[]>({ n: "*" });
  await page.getByTestId("list-new").click();
  const name = page.getByLabel("Nom", { exact: true });
  await name.fill("x");
  await name.fill("");
  await name.blur();
  await expect(page.locator(`[id="${await name.getAttribute("id")}-error"]`)).toHaveText("Champ requis");
  for (const label of ["Surface (ha)", "Objectif de rendement (t/ha)", "Charges de stockage (€/t)", "Charges de produits phytosanitaires (€/ha)"]) {
    const input = page.getByLabel(label, { exact: true });
    await input.fill("beaucoup");
    await input.blur();
    await expect(page.locator(`[id="${await input.getAttribute("id")}-error"]`)).toHaveText("Valeur numérique attendue");
  }
  await page.getByTestId("parcelle-form").locator("summary", { hasText: "Données géographiques" }).click();
  const reelle = page.getByLabel("Surface réelle (ha)", { exact: true });
  await reelle.fill("1,2,3");
  await reelle.blur();
  await expect(page.locator(`[id="${await reelle.getAttribute("id")}-error"]`)).toHaveText("Valeur numérique attendue");
  await expect(page.getByTestId("list-save")).toBeDisabled();
  await shot(page, "parcelle-validation");
  expect(await e2eDb()("parcelle").where({ idCampagne: c2025 }).count<{ n: number }[]>({ n: "*" })).toEqual(before);
});

test("[B-PLOT-05] [B-PLOT-06] [B-PLOT-07] [B-PLOT-08] the Other menu's date update needs numeric years and moves the ticked plots' interventions", async ({
  page,
}) => {
  const c2025 = await openPlots(page, "redacteur");
  await createPlot(page, "E2E Dates");
  const plot = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Dates" }).first("id");
  await e2eDb()("action").insert({ idCampagne: c2025, idParcelle: plot.id, date: "2024-03-15", anneeRecolte: 2024 });
  await page.getByTestId(`check-${plot.id}`).check();
  await page.getByTestId("parcelle-autres").click();
  await page.getByRole("menuitem", { name: "Mettre à jour les dates des interventions" }).click();
  const dialog = page.getByTestId("maj-dates-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("maj-dates-selection")).toHaveText("Parcelles cochées : 1");
  const initiale = dialog.getByLabel("Année initiale", { exact: true });
  const finale = dialog.getByLabel("Année finale", { exact: true });
  await expect(finale).toHaveValue("2025");
  await finale.fill("");
  await dialog.getByTestId("maj-dates-submit").click();
  await expect(dialog.locator(`[id="${await initiale.getAttribute("id")}-error"]`)).toHaveText("Champ requis");
  await expect(dialog.locator(`[id="${await finale.getAttribute("id")}-error"]`)).toHaveText("Champ requis");
  await initiale.fill("deux mille");
  await finale.fill("2025a");
  await finale.blur();
  await expect(dialog.locator(`[id="${await initiale.getAttribute("id")}-error"]`)).toHaveText("Valeur numérique attendue");
  await expect(dialog.locator(`[id="${await finale.getAttribute("id")}-error"]`)).toHaveText("Valeur numérique attendue");
  await shot(page, "parcelle-maj-dates");
  expect((await e2eDb()("action").where({ idParcelle: plot.id }).first("anneeRecolte")).anneeRecolte).toBe(2024);
  await initiale.fill("2024");
  await finale.fill("2025");
  await dialog.getByTestId("maj-dates-submit").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  const action = await e2eDb()("action").where({ idParcelle: plot.id }).first("date", "anneeRecolte");
  expect([String(action.date).slice(0, 10), action.anneeRecolte]).toEqual(["2025-03-15", 2025]);
  expect((await e2eDb()("parcelle").where({ id: plot.id }).first("anneeDerniereAction")).anneeDerniereAction).toBe(2025);
});

test("[B-PLOT-03] the Other menu assigns cost centres, one target crop per plot", async ({ page }) => {
  await openPlots(page, "redacteur");
  await page.getByTestId("parcelle-autres").click();
  await page.getByRole("menuitem", { name: "Affecter les centres de coût" }).click();
  const dialog = page.getByTestId("affectations-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.locator("tbody tr", { hasText: "La Vallée Sèche" })).toHaveCount(1);
  await expect(dialog.locator("tbody tr")).toHaveCount(
    await e2eDb()("parcelle")
      .where({ idCampagne: (await ids()).c2025 })
      .count<{ n: number }[]>({ n: "*" })
      .then((r) => Number(r[0].n)),
  );
  await shot(page, "parcelle-affectations");
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(dialog).toHaveCount(0);
});

test("[B-PLOT-17] [B-ERR-22] deleting two ticked plots deletes both and nothing else", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  await createPlot(page, "E2E A supprimer 1");
  await createPlot(page, "E2E A supprimer 2");
  const count = async () => Number((await e2eDb()("parcelle").where({ idCampagne: c2025 }).count<{ n: number }[]>({ n: "*" }))[0].n);
  const before = await count();
  for (const libelle of ["E2E A supprimer 1", "E2E A supprimer 2"]) {
    const plot = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle }).first("id");
    await page.getByTestId(`check-${plot.id}`).check();
  }
  await page.getByTestId("list-delete").click();
  await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
  await expect(rowOf(page, "E2E A supprimer")).toHaveCount(0);
  expect(await count()).toBe(before - 2);
  await expect(rowOf(page, "La Vallée Sèche")).toHaveCount(1);
});

test("[B-PLOT-01] [B-PLOT-02] the table offers postal code and INSEE columns; the row action opens the plot's interventions", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  const vallee = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "La Vallée Sèche" }).first("id");
  const headers = table(page).locator("thead th");
  await expect(headers).toContainText(["Nom", "Mode de conduite", "Lot", "Surface (ha)"]);
  await page.getByTestId("columns-menu").click();
  await page.getByTestId("column-toggle-codeInsee").click();
  await page.getByTestId("column-toggle-codePostal").click();
  await page.keyboard.press("Escape");
  await expect(rowOf(page, "La Vallée Sèche")).toContainText("28035");
  await expect(rowOf(page, "La Vallée Sèche")).toContainText("28630");
  await expect(rowOf(page, "La Vallée Sèche")).toContainText("15,2");
  await shot(page, "parcelle-table");
  await page.getByTestId(`interventions-${vallee.id}`).click();
  await expect(page).toHaveURL(new RegExp(`/home/description/au_champs/interventions\\?parcelleId=${vallee.id}$`));
});

test("[B-RIGHTS-06] [B-LIST-18] [B-RIGHTS-03] a reader sees the plots read-only: New and Other disabled, the form disabled", async ({ page }) => {
  await openPlots(page, "lecteur");
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await expect(page.getByTestId("parcelle-autres")).toBeDisabled();
  await rowOf(page, "La Vallée Sèche").getByText("La Vallée Sèche", { exact: true }).click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("La Vallée Sèche");
  await expect(page.getByLabel("Nom", { exact: true })).toBeDisabled();
  await expect(page.getByTestId("list-save")).toHaveCount(0);
  await page.getByTestId("parcelle-form").locator("summary", { hasText: "Historique" }).click();
  await expect(page.getByTestId("select-historique")).toBeDisabled();
  // Reading the history tree stays possible.
  await page.getByTestId("open-historique-tree").click();
  await expect(page.getByTestId("historique-dialog").getByTestId("generation-1")).toContainText("La Vallée Sèche");
  await shot(page, "parcelle-lecteur");
});

test("[B-PLOT-09] [B-PLOT-05] [B-PLOT-04] the screen works from the keyboard: panels open with Enter, the Other menu with the arrows", async ({ page }) => {
  await openPlots(page, "redacteur");
  await page.getByTestId("list-new").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Nom", { exact: true })).toBeFocused();
  await page.keyboard.type("E2E Clavier");
  // The surface is required (issue 10: a plot the crop-area total can use).
  await page.getByLabel("Surface (ha)").focus();
  await page.keyboard.type("3,5");
  const historique = page.getByTestId("parcelle-form").locator("summary", { hasText: "Historique" });
  await historique.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("select-historique")).toBeVisible();
  await page.getByTestId("select-historique").focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("historique-summary").locator("tbody tr")).toHaveCount(1);
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  // The created plot is selected once the list has reloaded; its form then takes the focus.
  await expect(rowOf(page, "E2E Clavier")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByLabel("Nom", { exact: true })).toBeFocused();

  await page.getByTestId("parcelle-autres").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Affecter les centres de coût" })).toHaveAttribute("data-focus", "");
  // The spec's order: cost centres, greenhouse-gas emissions, intervention dates.
  await expect(page.getByRole("menuitem")).toHaveText([
    "Affecter les centres de coût",
    "Affecter les émissions de gaz à effet de serre (EGES)",
    "Mettre à jour les dates des interventions",
  ]);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("maj-dates-dialog");
  await expect(dialog.getByLabel("Année initiale", { exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("[B-ERR-01] [B-PLOT-17] a failed deletion (a plot removed meanwhile) shows the plot error in the error dialog and deletes nothing", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  await createPlot(page, "E2E Garde");
  await createPlot(page, "E2E Disparue");
  const garde = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Garde" }).first("id");
  const disparue = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Disparue" }).first("id");
  await page.getByTestId(`check-${garde.id}`).check();
  await page.getByTestId(`check-${disparue.id}`).check();
  await e2eDb()("parcelle").where({ id: disparue.id }).delete();
  await page.getByTestId("list-delete").click();
  await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
  const error = page.getByTestId("error-dialog");
  await expect(error).toContainText("Impossible de supprimer la parcelle");
  await error.getByRole("button", { name: "Ok" }).click();
  await expect(error).toHaveCount(0);
  expect(await e2eDb()("parcelle").where({ id: garde.id }).first("id")).toBeTruthy();
});

test("[B-PLOT-11] the soil panel holds the seven soil fields of the plot, saved with it", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  await createPlot(page, "E2E Terre de sol");
  const form = page.getByTestId("parcelle-form");
  await form.locator("summary", { hasText: "Données de sol" }).click();
  const sol = page.getByTestId("panel-sol");
  for (const label of [
    "Type de sol (Arvalis)",
    "Type de sol (texture)",
    "Profondeur du sol",
    "Réserve utile",
    "Type de sous-sol",
    "Acidité du sol",
    "Classe de profondeur",
  ]) {
    await expect(sol.getByLabel(label, { exact: false }).first()).toBeVisible();
  }
  await sol.getByLabel("Type de sol (Arvalis)").selectOption({ label: "Limon profond" });
  await sol.getByLabel("Type de sol (texture)").selectOption({ index: 1 });
  await sol.getByLabel("Profondeur du sol", { exact: false }).fill("90");
  await sol.getByLabel("Réserve utile", { exact: false }).fill("150");
  await sol.getByLabel("Type de sous-sol").selectOption({ index: 1 });
  await sol.getByLabel("Acidité du sol").selectOption({ index: 1 });
  await sol.getByLabel("Classe de profondeur").selectOption({ index: 1 });
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  const r = await e2eDb()("parcelle").where({ idCampagne: c2025, libelle: "E2E Terre de sol" }).first();
  expect(Number(r.profondeurSolCm)).toBe(90);
  expect(Number(r.reserveUtileMm)).toBe(150);
  for (const column of ["idTypeSolArvalis", "idAeeTypeSol", "idTypeSousSol", "idAciditeSol", "idProfondeurSol"]) expect(r[column], column).not.toBeNull();
});

test("[issue29-doublon] a plot's name already used in the campaign is pointed out under the field, and may still be saved", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  const existante = await e2eDb()("parcelle").where({ idCampagne: c2025 }).orderBy("id").first("libelle");
  await page.getByTestId("list-new").click();
  const nom = page.getByLabel("Nom", { exact: true });
  await nom.fill(String(existante.libelle).toUpperCase());
  await expect(page.getByTestId("parcelle-nom-en-double")).toHaveText("Une autre parcelle de la campagne porte déjà ce nom.");
  await expect(nom).toHaveAccessibleDescription(/porte déjà ce nom/);
  await nom.fill("E2E Nom unique");
  await expect(page.getByTestId("parcelle-nom-en-double")).toHaveCount(0);
  await nom.fill(`E2E ${existante.libelle}`);
  await page.getByLabel("Surface (ha)", { exact: true }).fill("1");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
});

test("[issue29-stale] a plot saved in its form after someone else changed it keeps the typed surface beside theirs; take theirs puts it in the form", async ({
  page,
}) => {
  await openPlots(page, "redacteur");
  await createPlot(page, "E2E Parcelle périmée", "4,2");
  const db = e2eDb();
  const plot = await db("parcelle").where({ libelle: "E2E Parcelle périmée" }).first("id");
  try {
    const surface = page.getByLabel("Surface (ha)", { exact: true });
    await expect(surface).toHaveValue("4,2");
    // Someone else saves the plot meanwhile.
    await db("parcelle")
      .where({ id: plot.id })
      .update({ surface: 5, updatedAt: new Date(Date.now() + 1000) });
    await surface.fill("6");
    await page.getByTestId("list-save").click();
    const panel = page.getByTestId("stale-form");
    await expect(panel).toContainText("Surface (ha) : la vôtre 6, la leur 5");
    await expect(surface).toHaveValue("6");
    // The spec's stale dialog says it (C-ERR-01..04); behind it, the form kept the typed values.
    const stale = page.getByTestId("error-dialog");
    await expect(stale.getByRole("alert")).toHaveText(/modifié par quelqu'un d'autre/);
    await stale.getByRole("button", { name: "Ok" }).click();
    await expect(stale).toHaveCount(0);
    expect(Number((await db("parcelle").where({ id: plot.id }).first("surface")).surface)).toBe(5);
    await shot(page, "parcelle-formulaire-perime");
    await panel.getByTestId("stale-take").click();
    await expect(panel).toHaveCount(0);
    await expect(surface).toHaveValue("5");
  } finally {
    await db("parcelle").where({ id: plot.id }).delete();
  }
});
