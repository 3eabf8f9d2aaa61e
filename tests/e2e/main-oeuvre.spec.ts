import type { Page } from "@playwright/test";
import { e2eDb, expect, login, navigate, test, userId, type DemoUser } from "./fixtures";
import { afterRender } from "./helpers";

/** The list-screen pattern, on the labour screen (spec 2 §2), and the labour form (B-LAB). */

async function openLabour(page: Page, user: DemoUser, annee = 2025) {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const campagne = await db("campagne").where({ idExploitation: farm.id, anneeRecolte: annee, simulation: false }).first("id");
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const idUser = await userId(user);
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({
    idUser,
    idOad: dossier.idOad,
    idDossier: dossier.id,
    exploitations: JSON.stringify([farm.id]),
    idCampagne: campagne.id,
  });
  await db("main_oeuvre").where({ idCampagne: campagne.id }).delete();
  await page.context().clearCookies();
  await login(page, user);
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, "/home/description/exploitation/main_oeuvre");
  return campagne.id as number;
}

async function fillItem(page: Page, libelle: string, type: string, uta: string) {
  await page.getByLabel("Nom", { exact: true }).fill(libelle);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: type });
  await page.getByLabel("UTH", { exact: true }).fill(uta);
}

test("[B-LIST-05] [B-LIST-09] [B-LIST-22] [B-LAB-01] [B-LAB-02] [A-ERR-21] the form opens on New; a created item comes first and is selected", async ({
  page,
}) => {
  const idCampagne = await openLabour(page, "redacteur");
  await expect(page.getByTestId("list-form")).toHaveCount(0);
  await expect(page.getByTestId("main-oeuvre-totals")).toBeVisible();
  await page.getByTestId("list-new").click();
  await fillItem(page, "Chef d'exploitation", "Main-d'œuvre familiale", "1,5");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  await page.getByTestId("list-new").click();
  await fillItem(page, "Salarié", "Salarié permanent", "1");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toBeVisible();
  const rows = page.getByTestId("table-main_oeuvre").locator("tbody tr");
  await expect(rows.first()).toContainText("Salarié");
  await expect(rows.first()).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/[?&]id=\d+/);
  await expect
    .poll(async () => (await e2eDb()("main_oeuvre").where({ idCampagne }).orderBy("id")).map((r) => [r.libelle, Number(r.uta), r.idTypeUser]))
    .toEqual([
      ["Chef d'exploitation", 1.5, 953],
      ["Salarié", 1, 951],
    ]);
  await expect(page.getByTestId("total-uta")).toHaveText("2,5");
});

test("[B-LIST-06] [B-LIST-07] [B-LIST-10] [B-LIST-12] [A-ERR-22] selecting a row opens it; an update stays in place; a reload reselects the row; deselecting closes the form", async ({
  page,
}) => {
  const idCampagne = await openLabour(page, "redacteur");
  for (const [libelle, uta] of [
    ["Premier", "1"],
    ["Second", "0,5"],
  ] as const) {
    await page.getByTestId("list-new").click();
    await fillItem(page, libelle, "Main-d'œuvre familiale", uta);
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toBeVisible();
    // The created row is selected once the save has settled: only then does a click on another row count.
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue(libelle);
    await expect(page.getByTestId("table-main_oeuvre").locator('tbody tr[aria-selected="true"]')).toContainText(libelle);
  }
  const table = page.getByTestId("table-main_oeuvre");
  await table.getByText("Premier").click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Premier");
  await page.getByLabel("UTH", { exact: true }).fill("2");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect(table.locator("tbody tr").nth(1)).toContainText("Premier");
  await page.reload();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Premier");
  await expect(page.getByLabel("UTH", { exact: true })).toHaveValue("2");
  await table.getByText("Premier").click();
  await expect(page.getByTestId("list-form")).toHaveCount(0);
  expect(Number((await e2eDb()("main_oeuvre").where({ idCampagne, libelle: "Premier" }).first()).uta)).toBe(2);
});

test("[B-LIST-11] [B-LIST-14] [B-LAB-07] [B-LAB-09] [B-LAB-10] [B-CONST-08] bad values are refused beside the field; switching rows with unsaved changes asks first", async ({
  page,
}) => {
  await openLabour(page, "redacteur");
  await page.getByTestId("list-new").click();
  await fillItem(page, "Stagiaire", "Salarié occasionnel", "abc");
  await page.getByLabel("UTH", { exact: true }).blur();
  await expect(page.getByText("Valeur numérique attendue")).toBeVisible();
  await expect(page.getByTestId("list-save")).toBeDisabled();
  await page.getByLabel("UTH", { exact: true }).fill("0");
  await expect(page.getByText("Valeur strictement positive attendue")).toBeVisible();
  await page.getByLabel("UTH", { exact: true }).fill("0,25");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toBeVisible();
  await page.getByTestId("list-new").click();
  await page.getByLabel("Nom", { exact: true }).fill("Pas fini");
  await page.getByTestId("table-main_oeuvre").getByText("Stagiaire").click();
  await expect(page.getByTestId("switch-dialog")).toBeVisible();
  // A confirmation dialog is 500 wide.
  expect((await page.getByTestId("switch-dialog").boundingBox())!.width).toBe(500);
  await page.getByRole("button", { name: "Rester sur la page" }).click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Pas fini");
  await page.getByTestId("table-main_oeuvre").getByText("Stagiaire").click();
  await page.getByRole("button", { name: "Abandonner les modifications" }).click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Stagiaire");
});

test("[B-LIST-15] [B-LIST-19] [B-LIST-24] [B-CONST-08] Ctrl+S saves the form; delete needs a ticked row and a confirmation", async ({ page }) => {
  const idCampagne = await openLabour(page, "redacteur");
  await expect(page.getByTestId("list-delete")).toBeDisabled();
  await page.getByTestId("list-new").click();
  await fillItem(page, "Par clavier", "Main-d'œuvre familiale", "1");
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  await expect.poll(async () => (await e2eDb()("main_oeuvre").where({ idCampagne, libelle: "Par clavier" })).length).toBe(1);
  await page.getByRole("checkbox", { name: /Par clavier/ }).check();
  await page.getByTestId("list-delete").click();
  expect((await page.getByTestId("delete-dialog").boundingBox())!.width).toBe(500);
  await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
  await expect.poll(async () => (await e2eDb()("main_oeuvre").where({ idCampagne })).length).toBe(0);
});

test("[B-LIST-18] [B-LIST-20] [A-RIGHTS-08] [A-RIGHTS-26] a reader, and a locked campaign, get the labour screen read-only", async ({ page }) => {
  await openLabour(page, "lecteur");
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await expect(page.getByTestId("list-delete")).toBeDisabled();
  await openLabour(page, "animateur", 2024);
  await expect(page.getByTestId("campaign-locked")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
});

test("[B-LIST-08] [B-LIST-23] a new item is the form's temporary 'new' row until saved; closing the form resets it", async ({ page }) => {
  await openLabour(page, "redacteur");
  await page.getByTestId("list-new").click();
  // The unsaved row has no id yet: the address names it "new" until the save gives it one.
  await expect(page).toHaveURL(/[?&]id=new/);
  await page.getByLabel("Nom", { exact: true }).fill("Brouillon");
  await page.getByRole("button", { name: "Fermer" }).click();
  const leave = page.getByTestId("switch-dialog").or(page.getByTestId("leave-dialog"));
  if (await leave.isVisible()) await leave.getByRole("button", { name: "Abandonner les modifications" }).click();
  await expect(page.getByTestId("list-form")).toHaveCount(0);
  await page.getByTestId("list-new").click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("");
  await fillItem(page, "Enregistré", "Main-d'œuvre familiale", "1");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  const saved = await e2eDb()("main_oeuvre").where({ libelle: "Enregistré" }).first("id");
  await expect(page).toHaveURL(new RegExp(`[?&]id=${saved.id}(&|$)`));
});

test("[B-LIST-21] a form is saved only when it is valid and changed: an unchanged row cannot be saved, by button or Ctrl+S", async ({ page }) => {
  const idCampagne = await openLabour(page, "redacteur");
  await page.getByTestId("list-new").click();
  await fillItem(page, "Inchangé", "Main-d'œuvre familiale", "1");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  await page.getByTestId("table-main_oeuvre").getByText("Inchangé").click();
  await page.getByTestId("table-main_oeuvre").getByText("Inchangé").click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Inchangé");
  await expect(page.getByTestId("list-save")).toBeDisabled();
  const before = await e2eDb()("main_oeuvre").where({ idCampagne, libelle: "Inchangé" }).first("updatedAt");
  await page.getByLabel("UTH", { exact: true }).focus();
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  await page.keyboard.press("Control+s");
  await afterRender(page);
  expect(posts).toEqual([]);
  expect((await e2eDb()("main_oeuvre").where({ idCampagne, libelle: "Inchangé" }).first("updatedAt")).updatedAt).toEqual(before.updatedAt);
  await page.getByLabel("UTH", { exact: true }).fill("");
  await page.getByLabel("UTH", { exact: true }).blur();
  await expect(page.getByText("Champ requis")).toBeVisible();
  await expect(page.getByTestId("list-save")).toBeDisabled();
  await page.getByLabel("UTH", { exact: true }).fill("2");
  await expect(page.getByTestId("list-save")).toBeEnabled();
});

test("[B-LIST-04] the ground analysis screen shows its heading only", async ({ page }) => {
  await openLabour(page, "redacteur");
  await navigate(page, "/home/description/exploitation/analyse");
  const screen = page.getByTestId("screen-analyse");
  await expect(screen.getByRole("heading", { level: 1 })).toHaveText("Analyse de sol");
  await expect(screen).toHaveText("Analyse de sol");
});

test("[B-ERR-01] [B-ERR-04] [B-ERR-05] [B-ERR-06] [B-ERR-07] [B-ERR-08] failed labour calls show their message in the error dialog", async ({
  page,
  browserErrors,
}) => {
  // The labour table is put out of service on purpose: the calls answer 500 with their catalogued message.
  browserErrors.allow(/status of 500 \(Internal Server Error\) \(.*main_oeuvre/);
  const idCampagne = await openLabour(page, "redacteur");
  const db = e2eDb();
  await db("main_oeuvre").insert([
    { idCampagne, libelle: "Existant", uta: 1, idTypeUser: 953 },
    { idCampagne, libelle: "Disparu", uta: 0.5, idTypeUser: 951 },
  ]);
  await page.reload();
  const table = page.getByTestId("table-main_oeuvre");
  const dialog = page.getByTestId("error-dialog");
  const expectError = async (text: string) => {
    await expect(dialog.getByRole("alert")).toHaveText(text);
    await dialog.getByRole("button", { name: "Ok" }).click();
    await expect(dialog).toHaveCount(0);
  };

  // Deleting an item someone removed meanwhile: the response status text (B-ERR-08); nothing is deleted.
  await page.getByRole("checkbox", { name: /Disparu/ }).check();
  await page.getByRole("checkbox", { name: /Existant/ }).check();
  await db("main_oeuvre").where({ idCampagne, libelle: "Disparu" }).delete();
  await page.getByTestId("list-delete").click();
  await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
  await expectError("404 Not Found");
  expect((await db("main_oeuvre").where({ idCampagne })).map((r) => r.libelle)).toEqual(["Existant"]);
  await page.reload();
  await expect(table.locator("tbody tr")).toHaveCount(1);

  // The labour table out of service: each call shows its catalogued message.
  await db.schema.renameTable("main_oeuvre", "main_oeuvre_hors_service");
  try {
    await table.getByText("Existant").click();
    await page.getByLabel("UTH", { exact: true }).fill("2");
    await page.getByTestId("list-save").click();
    await expectError("Impossible de modifier la main-d'œuvre");
    await page.getByRole("button", { name: "Fermer" }).click();
    const leave = page.getByTestId("switch-dialog").or(page.getByTestId("leave-dialog"));
    if (await leave.isVisible()) await leave.getByRole("button", { name: "Abandonner les modifications" }).click();

    await page.getByTestId("list-new").click();
    await fillItem(page, "Nouveau", "Main-d'œuvre familiale", "1");
    await page.getByTestId("list-save").click();
    await expectError("Impossible de créer la main-d'œuvre");
    await page.getByRole("button", { name: "Fermer" }).click();
    if (await leave.isVisible()) await leave.getByRole("button", { name: "Abandonner les modifications" }).click();

    await page.getByRole("checkbox", { name: /Existant/ }).check();
    await page.getByTestId("list-delete").click();
    await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
    await expectError("Impossible de supprimer la main-d'œuvre");

    // A failed load: the screen keeps its title, the error dialog says why, no table.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Main-d'œuvre", level: 1 })).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveText("Impossible de charger la main-d'œuvre");
    await expect(table).toHaveCount(0);
    await page.screenshot({ path: "/tmp/shots-desc1/main-oeuvre-load-error.png", fullPage: true });
    await dialog.getByRole("button", { name: "Ok" }).click();
  } finally {
    await db.schema.renameTable("main_oeuvre_hors_service", "main_oeuvre");
  }
  await page.reload();
  await expect(table.locator("tbody tr")).toHaveCount(1);
  expect((await db("main_oeuvre").where({ idCampagne })).map((r) => [r.libelle, Number(r.uta)])).toEqual([["Existant", 1]]);
});
