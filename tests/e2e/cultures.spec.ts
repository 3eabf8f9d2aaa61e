import path from "node:path";
import type { Page } from "@playwright/test";
import { type DemoUser, e2eDb, expect, navigate, test, userId, contextInEnglish } from "./fixtures";

/**
 * The crops screen (spec 2 §2 "Crops", §3, §4, §5, §6; B-CROP, B-INS): a writer creates a management mode
 * with two crops and an insurance and gets the estimate from the 2024 harvests, removes a row, meets the
 * validation messages, duplicates a mode; a reader sees the screen read-only. Screenshots go to SHOTS_DIR.
 */

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-3410";
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const SCREEN = "/home/description/exploitation/cultures";
const TEST_MODES = ["Blé de test E2E", "Mode à retoucher", "Mode à dupliquer"];

async function ids() {
  const db = e2eDb();
  const farm = async (libelle: string) => (await db("exploitation").where({ libelle }).first("id")).id as number;
  const tilleuls = await farm("EARL des Tilleuls");
  const moulin = await farm("GAEC du Moulin");
  const campagne = async (idExploitation: number, anneeRecolte: number) =>
    (await db("campagne").where({ idExploitation, anneeRecolte, simulation: false }).first("id")).id as number;
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const culture = async (libelle: string) => (await db("culture").where({ libelle }).first("id")).id as number;
  return {
    tilleuls,
    moulin,
    beauce: dossier.id as number,
    idOad: dossier.idOad as number,
    tilleuls2025: await campagne(tilleuls, 2025),
    moulin2025: await campagne(moulin, 2025),
    ble: await culture("Blé tendre d'hiver"),
    moutarde: await culture("Moutarde blanche"),
    colza: await culture("Colza d'hiver"),
  };
}

/** Puts the user on EARL des Tilleuls 2025 (Beauce), removes the modes earlier runs of this file made, signs in, opens the screen. */
async function openCrops(page: Page, user: DemoUser, prepare?: (i: Awaited<ReturnType<typeof ids>>) => Promise<unknown>) {
  const db = e2eDb();
  const i = await ids();
  const idUser = await userId(user);
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({
    idUser,
    idOad: i.idOad,
    idDossier: i.beauce,
    exploitations: JSON.stringify([i.tilleuls]),
    idCampagne: i.tilleuls2025,
  });
  await db("mode_conduite").whereIn("idCampagne", [i.tilleuls2025, i.moulin2025]).whereIn("libelle", TEST_MODES).delete();
  await prepare?.(i);
  await navigate(page, "/login");
  await page.locator("input[name=username]").fill(user);
  await page.locator("input[name=password]").fill("demo1234");
  await page.locator("form#login button[type=submit]").click();
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, SCREEN);
  return i;
}

// Other journeys share the data directory: leave the campaigns' modes as the demo made them.
test.afterAll(async () => {
  await e2eDb()("mode_conduite").whereIn("libelle", TEST_MODES).delete();
});

test("[B-CROP-01] [B-CROP-02] [B-CROP-03] [B-CROP-04] [B-CROP-05] [B-CROP-06] [B-CROP-09] [B-INS-01] [B-INS-02] [B-INS-03] [B-INS-04] [B-INS-05] [B-INS-06] [B-INS-08] a writer creates a mode with two crops and an insurance and gets the estimate from the 2024 harvests", async ({
  page,
}) => {
  const i = await openCrops(page, "redacteur");
  await expect(page.getByTestId("table-mode_conduite")).toContainText("Blé tendre conventionnel");
  await page.getByTestId("list-new").click();
  await page.getByLabel("Nom", { exact: true }).fill("Blé de test E2E");
  await page.getByLabel("Aide couplée (€/ha)").fill("12,5");
  await page.getByLabel("Catégorie Competilis").selectOption({ label: "Céréales" });
  // First row: wheat, its qualifiers are loaded for it.
  await page.getByTestId("crop-row-0-culture").selectOption({ label: "Blé tendre d'hiver" });
  await expect(page.getByTestId("crop-row-0-categorie")).toHaveValue("9017");
  const qualifiant = page.getByTestId("crop-row-0-qualifiant");
  await expect(qualifiant.locator("option")).toHaveText(["Aucun qualifiant", "Panifiable (meunier)", "Améliorant (BAF)", "Biscuitier", "Fourrager"]);
  await qualifiant.selectOption({ label: "Améliorant (BAF)" });
  // Second row: a cover crop.
  await page.getByTestId("crop-row-add").click();
  await page.getByTestId("crop-row-1-culture").selectOption({ label: "Moutarde blanche" });
  await expect(page.getByTestId("nb-principales")).toHaveText("1");
  await expect(page.getByTestId("nb-intermediaires")).toHaveText("1");
  await expect(page.getByTestId("crop-row-1-qualifiant").locator("option")).toHaveText(["Aucun qualifiant"]);

  // Insurance: a crop without output type shows the warning in error colour; another crop clears the type.
  const panel = page.getByTestId("assurance-panel");
  await panel.getByLabel("Culture assurée").selectOption({ label: "Interculture" });
  await expect(page.getByTestId("no-type-sortie")).toBeVisible();
  await expect(page.getByTestId("no-type-sortie")).toHaveClass(/bg-red-700/);
  await page.getByTestId("no-type-sortie").focus();
  await expect(page.getByRole("tooltip")).toHaveText("Cette culture n'a aucun type de sortie : elle ne peut pas être assurée.");
  await panel.getByLabel("Culture assurée").selectOption({ label: "Blé tendre d'hiver" });
  await expect(page.getByTestId("no-type-sortie")).toHaveCount(0);
  const typeSortie = panel.getByLabel("Type de sortie");
  await expect(typeSortie.locator("option")).toHaveText(["Choisir…", "Grain (t/ha)", "Paille (t/ha)"]);
  await typeSortie.selectOption({ label: "Grain (t/ha)" });
  await panel.getByLabel("Rendement assuré (t/ha)").fill("9");
  await panel.getByLabel("Franchise (%)").fill("20");
  await panel.getByLabel("Prix assuré (€/t)").fill("200");
  await panel.getByLabel("Cotisation d'assurance (€/ha)").fill("25");
  // No estimate before the mode exists (B-INS-06).
  await expect(page.getByTestId("assurance-help")).toHaveText(
    "Estimation calculée quand la culture, le type de sortie et le mode de conduite sont renseignés.",
  );
  await expect(page.getByTestId("assurance-rendementNonIndemnisable")).toHaveText("1,8");
  await shot(page, "cultures-new");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");

  // The created mode comes first, selected, with its rows and counts; the estimate came from the 2024 harvest.
  const table = page.getByTestId("table-mode_conduite");
  await expect(table.locator("tbody tr").first()).toContainText("Blé de test E2E");
  await expect(table.locator("tbody tr").first()).toContainText("Blé tendre d'hiver, Moutarde blanche");
  await expect(page.getByTestId("assurance-rendementReelMoyen")).toHaveText("6,9");
  await expect(page.getByTestId("assurance-help")).toHaveText("Moyenne des récoltes de 2024.");
  // (9 − 1,8 − 6,9) × 200 = 60 €/ha
  await expect(page.getByTestId("assurance-mtIndemniteCalculee")).toHaveText("60 €");
  await panel.getByLabel("Rendement assuré (t/ha)").fill("10");
  await expect(page.getByTestId("assurance-mtIndemniteCalculee")).toHaveText("220 €"); // (10 − 2 − 6,9) × 200
  await shot(page, "cultures-created");
  // Another output type asks for a new estimate: no straw was recorded in 2024.
  await panel.getByLabel("Type de sortie").selectOption({ label: "Paille (t/ha)" });
  await expect(page.getByTestId("assurance-help")).toHaveText("Aucune récolte enregistrée de cette culture dans les campagnes précédentes.");
  await expect(page.getByTestId("assurance-rendementReelMoyen")).toHaveText("—");
  await expect(page.getByTestId("assurance-mtIndemniteCalculee")).toHaveText("—");
  // Another insured crop clears the output type and reloads the crop's types.
  await panel.getByLabel("Culture assurée").selectOption({ label: "Colza d'hiver" });
  await expect(panel.getByLabel("Type de sortie")).toHaveValue("");
  await expect(panel.getByLabel("Type de sortie").locator("option")).toHaveText(["Choisir…", "Grain (t/ha)"]);

  const mode = await e2eDb()("mode_conduite").where({ idCampagne: i.tilleuls2025, libelle: "Blé de test E2E" }).first();
  expect(Number(mode.aideCouplee)).toBe(12.5);
  const rows = await e2eDb()("mode_conduite_culture").where({ idModeConduite: mode.id }).orderBy("ordre");
  expect(rows.map((r) => [r.idCulture, r.idCatCulture])).toEqual([
    [i.ble, 9017],
    [i.moutarde, 9018],
  ]);
  const a = await e2eDb()("mode_conduite_assurance").where({ idModeConduite: mode.id }).first();
  expect([Number(a.rendementAssure), Number(a.rendementReelMoyen), Number(a.mtIndemniteCalculee)]).toEqual([9, 6.9, 60]);
});

/** A mode stored straight in the database: wheat (main) and mustard (intermediate), with a wheat insurance. */
async function insertMode(idCampagne: number, libelle: string, i: Awaited<ReturnType<typeof ids>>, { assurance = true } = {}) {
  const db = e2eDb();
  const [m] = await db("mode_conduite").insert({ idCampagne, libelle }).returning("id");
  const id = typeof m === "object" ? (m as { id: number }).id : (m as number);
  await db("mode_conduite_culture").insert([
    { idModeConduite: id, idCulture: i.ble, idCatCulture: 9017, ordre: 0 },
    { idModeConduite: id, idCulture: i.moutarde, idCatCulture: 9018, ordre: 1 },
  ]);
  if (assurance)
    await db("mode_conduite_assurance").insert({
      idModeConduite: id,
      idCulture: i.ble,
      idTypeSortie: 661,
      rendementAssure: 8,
      txFranchise: 25,
      mtPrixAssure: 180,
    });
  return id;
}

test("[B-CROP-06] [B-CROP-07] [B-CROP-08] [B-LIST-10] rows are added and removed with the keyboard; a removed row disappears from the form and is deleted at save", async ({
  page,
}) => {
  let id = 0;
  const i = await openCrops(page, "redacteur", async (i) => (id = await insertMode(i.tilleuls2025, "Mode à retoucher", i, { assurance: false })));
  await page.getByTestId("table-mode_conduite").getByText("Mode à retoucher").click();
  await expect(page.getByTestId("crop-row")).toHaveCount(2);
  // With the keyboard: add a row (Space), then remove it and the mustard row (Enter).
  await page.getByRole("button", { name: "Ajouter une culture" }).press("Space");
  await expect(page.getByTestId("crop-row")).toHaveCount(3);
  await page.getByRole("button", { name: "Retirer la culture 3" }).press("Enter");
  await page.getByRole("button", { name: "Retirer la culture 2" }).press("Enter");
  await expect(page.getByTestId("crop-row")).toHaveCount(1);
  await expect(page.getByTestId("nb-intermediaires")).toHaveText("0");
  // Nothing is deleted before the save.
  expect(await e2eDb()("mode_conduite_culture").where({ idModeConduite: id }).count({ n: "*" }).first()).toMatchObject({ n: 2 });
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect.poll(async () => (await e2eDb()("mode_conduite_culture").where({ idModeConduite: id })).map((r) => r.idCulture)).toEqual([i.ble]);
  await expect(page.getByTestId("table-mode_conduite").locator("tr", { hasText: "Mode à retoucher" })).not.toContainText("Moutarde");
});

test("[B-CROP-11] [B-CROP-12] [B-CROP-13] [B-INS-09] [B-INS-10] [B-INS-11] [B-LIST-14] bad values are refused beside their field and nothing is saved", async ({
  page,
}) => {
  const i = await openCrops(page, "redacteur");
  const before = await e2eDb()("mode_conduite").where({ idCampagne: i.tilleuls2025 }).count({ n: "*" }).first();
  await page.getByTestId("list-new").click();
  const nom = page.getByLabel("Nom", { exact: true });
  await nom.focus();
  await nom.blur();
  await expect(page.getByText("Champ requis").first()).toBeVisible();
  await page.getByLabel("Aide couplée (€/ha)").fill("beaucoup");
  await page.getByLabel("Aide couplée (€/ha)").blur();
  await expect(page.getByTestId("list-form").getByText("Valeur numérique attendue")).toBeVisible();
  await expect(page.getByTestId("list-save")).toBeDisabled();
  await nom.fill("Blé de test E2E");
  await page.getByLabel("Aide couplée (€/ha)").fill("10");
  const panel = page.getByTestId("assurance-panel");
  // An insurance value without crop: the crop is required; a text in an amount: numeric.
  await panel.getByLabel("Cotisation d'assurance (€/ha)").fill("douze");
  await panel.getByLabel("Cotisation d'assurance (€/ha)").blur();
  await expect(panel.getByText("Valeur numérique attendue")).toBeVisible();
  await panel.getByLabel("Cotisation d'assurance (€/ha)").fill("12");
  await panel.getByLabel("Cotisation d'assurance (€/ha)").blur();
  // The new mode's first row has no crop yet, and the insurance has a value without crop.
  await page.getByTestId("crop-row-0-culture").focus();
  await page.getByTestId("crop-row-0-culture").blur();
  await panel.getByLabel("Culture assurée").focus();
  await panel.getByLabel("Culture assurée").blur();
  await expect(page.getByTestId("list-form").locator(".field-error")).toHaveText(["Champ requis", "Champ requis"]);
  await expect(page.getByTestId("crop-row-0-culture")).toHaveAccessibleDescription("Champ requis");
  await expect(panel.getByLabel("Culture assurée")).toHaveAccessibleDescription("Champ requis");
  await page.getByTestId("crop-row-0-culture").selectOption({ label: "Colza d'hiver" });
  await panel.getByLabel("Culture assurée").selectOption({ label: "Colza d'hiver" });
  // A crop chosen: the output type is required.
  await panel.getByLabel("Type de sortie").focus();
  await panel.getByLabel("Type de sortie").blur();
  await expect(panel.getByLabel("Type de sortie")).toHaveAccessibleDescription("Champ requis");
  await expect(page.getByTestId("list-save")).toBeDisabled();
  expect(await e2eDb()("mode_conduite").where({ idCampagne: i.tilleuls2025 }).count({ n: "*" }).first()).toEqual(before);
  await shot(page, "cultures-errors");
  await panel.getByLabel("Type de sortie").selectOption({ label: "Grain (t/ha)" });
  await expect(page.getByTestId("list-save")).toBeEnabled();
});

test("[B-INS-07] [B-INS-08] [B-ERR-22] deleting the insurance asks first, then removes it", async ({ page }) => {
  let id = 0;
  await openCrops(page, "redacteur", async (i) => (id = await insertMode(i.tilleuls2025, "Mode à retoucher", i)));
  await page.getByTestId("table-mode_conduite").getByText("Mode à retoucher").click();
  const panel = page.getByTestId("assurance-panel");
  await expect(panel.getByLabel("Rendement assuré (t/ha)")).toHaveValue("8");
  await page.getByTestId("assurance-delete").click();
  const dialog = page.getByTestId("assurance-delete-dialog");
  await expect(dialog).toContainText("Supprimer l'assurance récolte de ce mode de conduite ?");
  await dialog.getByRole("button", { name: "Annuler" }).click();
  expect(await e2eDb()("mode_conduite_assurance").where({ idModeConduite: id }).first()).toBeTruthy();
  await page.getByTestId("assurance-delete").click();
  await dialog.getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
  await expect(panel.getByLabel("Rendement assuré (t/ha)")).toHaveValue("");
  await expect(panel.getByLabel("Culture assurée")).toHaveValue("");
  await expect(page.getByTestId("assurance-delete")).toHaveCount(0);
  expect(await e2eDb()("mode_conduite_assurance").where({ idModeConduite: id }).first()).toBeUndefined();
});

test("[B-ERR-01] [B-ERR-09] [B-ERR-10] a failed row update or mode call shows its error key in the error dialog", async ({ page }) => {
  let id = 0;
  const i = await openCrops(page, "redacteur", async (i) => (id = await insertMode(i.tilleuls2025, "Mode à retoucher", i, { assurance: false })));
  await page.getByTestId("table-mode_conduite").getByText("Mode à retoucher").click();
  await expect(page.getByTestId("crop-row")).toHaveCount(2);
  // Someone else removed the mustard row meanwhile: updating it fails.
  await e2eDb()("mode_conduite_culture").where({ idModeConduite: id, idCulture: i.moutarde }).delete();
  await page.getByLabel("Remarque").fill("retouché");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("error-dialog")).toContainText("Impossible de modifier la culture du mode de conduite");
  await page.getByTestId("error-dialog").getByRole("button", { name: "Ok" }).click();
  expect((await e2eDb()("mode_conduite").where({ id }).first()).remarque).toBeNull();
  // The mode itself is gone: the mode service error.
  await e2eDb()("mode_conduite").where({ id }).delete();
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("error-dialog")).toContainText("Erreur du service des modes de conduite");
});

test("[B-CROP-14] [B-CROP-15] [B-RIGHTS-12] ticked modes are duplicated to a chosen campaign of a farm with write access", async ({ page }) => {
  const i = await openCrops(page, "redacteur", (i) => insertMode(i.tilleuls2025, "Mode à dupliquer", i));
  const table = page.getByTestId("table-mode_conduite");
  await table.locator("tr", { hasText: "Mode à dupliquer" }).getByRole("checkbox").check();
  await page.getByTestId("cultures-duplicate").click();
  const dialog = page.getByTestId("duplication-dialog");
  await expect(dialog.getByLabel("Exploitation")).toHaveValue(String(i.tilleuls));
  // A farm and at least one campaign are required.
  await expect(dialog.getByTestId("dupli-campagnes-error")).toHaveText("Champ requis");
  await expect(dialog.getByTestId("duplication-submit")).toBeDisabled();
  await expect(dialog.getByLabel("Exploitation").locator("option")).toHaveText(["Choisir…", "EARL des Tilleuls", "GAEC du Moulin"]);
  await dialog.getByLabel("Exploitation").selectOption({ label: "GAEC du Moulin" });
  await dialog.getByLabel("2025").check();
  await shot(page, "cultures-duplication");
  await dialog.getByTestId("duplication-submit").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Duplication effectuée");
  await expect(dialog).toHaveCount(0);
  const copy = await e2eDb()("mode_conduite").where({ idCampagne: i.moulin2025, libelle: "Mode à dupliquer" }).first();
  expect(copy).toBeTruthy();
  expect((await e2eDb()("mode_conduite_culture").where({ idModeConduite: copy.id }).orderBy("ordre")).map((r) => r.idCulture)).toEqual([i.ble, i.moutarde]);
  expect(Number((await e2eDb()("mode_conduite_assurance").where({ idModeConduite: copy.id }).first()).rendementAssure)).toBe(8);
});

test("[B-RIGHTS-04] [B-LIST-18] [B-LIST-20] [B-RIGHTS-03] a reader sees the modes read-only: no add or remove icons, New disabled", async ({ page }) => {
  await openCrops(page, "lecteur");
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await expect(page.getByTestId("cultures-duplicate")).toBeDisabled();
  await expect(page.getByTestId("list-delete")).toBeDisabled();
  await page.getByTestId("table-mode_conduite").getByText("Blé tendre conventionnel").click();
  await expect(page.getByTestId("crop-row")).toHaveCount(2);
  await expect(page.getByTestId("crop-row-0-culture")).toHaveValue(/\d+/);
  await expect(page.getByTestId("crop-row-0-culture")).toBeDisabled();
  await expect(page.getByTestId("crop-row-0-remove")).toHaveCount(0);
  await expect(page.getByTestId("crop-row-add")).toHaveCount(0);
  await expect(page.getByTestId("assurance-delete")).toHaveCount(0);
  await expect(page.getByTestId("list-save")).toHaveCount(0);
  // A reader still gets the estimate (reading only).
  await expect(page.getByTestId("assurance-rendementReelMoyen")).toHaveText("6,9");
  await expect(page.getByTestId("nb-principales")).toHaveText("1");
  await expect(page.getByTestId("nb-intermediaires")).toHaveText("1");
  // 8,5 t/ha insured with 20 % franchise: 1,7 t/ha borne; (8,5 − 1,7 − 6,9) < 0 → no indemnity.
  await expect(page.getByTestId("assurance-rendementNonIndemnisable")).toHaveText("1,7");
  await expect(page.getByTestId("assurance-mtIndemniteCalculee")).toHaveText("0 €");
  await shot(page, "cultures-lecteur");
});

test.describe("in English", () => {
  test.beforeEach(async ({ context }) => contextInEnglish(context));

  test("[B-CROP-01] [B-CROP-02] [B-INS-01] the crops screen, its rows and the insurance panel in English", async ({ page }) => {
    await openCrops(page, "redacteur");
    await page.getByTestId("table-mode_conduite").getByText("Blé tendre conventionnel").click();
    await expect(page.getByTestId("table-mode_conduite")).toContainText("Winter soft wheat, White mustard");
    await expect(page.getByTestId("list-form")).toContainText("Crops of the management mode");
    await expect(page.getByTestId("crop-row-0-culture").locator("option:checked")).toHaveText("Winter soft wheat");
    await expect(page.getByTestId("crop-row-0-culture").locator("optgroup").first()).toHaveAttribute("label", "Small-grain cereals");
    await expect(page.getByTestId("crop-row-0-qualifiant").locator("option:checked")).toHaveText("Bread-making (milling)");
    await expect(page.getByRole("button", { name: "Add a crop" })).toBeVisible();
    const panel = page.getByTestId("assurance-panel");
    await expect(panel).toContainText("Crop insurance");
    await expect(panel.getByLabel("Insured yield (t/ha)")).toHaveValue("8.5");
    await expect(panel.getByLabel("Output type")).toHaveValue("661");
    await expect(page.getByTestId("assurance-help")).toHaveText("Average of the 2024 harvest.");
    await shot(page, "cultures-en");
  });
});
