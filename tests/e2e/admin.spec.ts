import fs from "node:fs";
import type { Browser, Locator, Page } from "@playwright/test";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { signIn } from "./helpers";
import { E2E } from "./settings";

/** Administration (issue 3): users, groups, networks and news posts, for users with the admin flag only. */

const SHOTS = "/tmp/shots-admin";
const NEW_USER = "e2e.recrue";
const NEW_POST = "Journée technique désherbage mécanique";
const NEW_GROUP = "Conseillers e2e";
const NEW_NETWORK = "Réseau e2e";

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** As admin, on a clean slate, creates the test user Rémi Recrue with `password` (`more` fills further fields first). */
async function createRecruit(page: Page, password: string, more?: (form: Locator) => Promise<void>) {
  await cleanUp();
  await signIn(page, "admin");
  await navigate(page, "/home/admin/utilisateurs");
  const form = page.getByTestId("admin-user-form");
  await clickUntil(page.getByRole("button", { name: "Nouvel utilisateur" }), form);
  await form.getByLabel("Nom d'utilisateur").fill(NEW_USER);
  await form.getByLabel("Nom", { exact: true }).fill("Recrue");
  await form.getByLabel("Prénom").fill("Rémi");
  await form.getByLabel("Mot de passe", { exact: true }).fill(password);
  await form.getByLabel("Confirmation du mot de passe").fill(password);
  await more?.(form);
  await form.getByRole("button", { name: "Enregistrer" }).click();
  return form;
}

async function cleanUp() {
  const db = e2eDb();
  await db("utilisateur").where({ username: NEW_USER }).delete();
  await db("post").where({ title: NEW_POST }).delete();
  await db("groupe_utilisateur").where({ nomGroupe: NEW_GROUP }).delete();
  await db("oad").where({ libelle: NEW_NETWORK }).delete();
}

/** A second browser, signed in as nobody yet, for the user the admin created. */
async function otherBrowser(browser: Browser) {
  const context = await browser.newContext({ baseURL: E2E.baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
  return { context, page: await context.newPage() };
}

/**
 * Clicks until `shows` appears: the first click may land before the page is hydrated (the list
 * screens open their form in the browser), so it is repeated until the form shows.
 */
async function clickUntil(target: Locator, shows: Locator) {
  await expect(async () => {
    await target.click();
    await expect(shows).toBeVisible({ timeout: 1000 });
  }).toPass();
}

async function signInAs(page: Page, username: string, password: string) {
  await navigate(page, "/login");
  await page.getByLabel("Nom d'utilisateur").fill(username);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

test.describe("administration", () => {
  test.beforeAll(cleanUp);
  test.afterAll(cleanUp);

  test("the admin creates a user, who can then sign in and is asked to accept the terms; once disabled, they are signed out and can no longer sign in", async ({
    page,
    browser,
  }) => {
    // A long journey (several sign-ins or screens): on a busy 2-core machine it needs more than the default 30 s.
    test.slow();
    await signIn(page, "admin");
    await navigate(page, "/home/admin");
    await expect(page).toHaveURL(/\/sillon\/home\/admin\/utilisateurs$/);
    const table = page.getByTestId("table-admin-users");
    await expect(table.getByRole("cell", { name: "animateur", exact: true })).toBeVisible();
    await expect(page.getByTestId("context-bar")).toHaveCount(0);

    const form = page.getByTestId("admin-user-form");
    await clickUntil(page.getByRole("button", { name: "Nouvel utilisateur" }), form);
    const save = form.getByRole("button", { name: "Enregistrer" });
    await expect(save).toBeDisabled();
    await form.getByLabel("Nom d'utilisateur").fill("Animateur");
    await form.getByLabel("Nom", { exact: true }).fill("Recrue");
    await form.getByLabel("Prénom").fill("Rémi");
    await form.getByLabel("Adresse e-mail").fill("recrue@sillon.example");
    await form.getByLabel("Mot de passe", { exact: true }).fill("recrue-2025");
    await form.getByLabel("Confirmation du mot de passe").fill("autre");
    await form.getByLabel("Confirmation du mot de passe").blur();
    await expect(form.getByText("Les valeurs ne correspondent pas")).toBeVisible();
    await expect(save).toBeDisabled();
    await form.getByLabel("Confirmation du mot de passe").fill("recrue-2025");
    await form.getByLabel("Agriculteurs du réseau démo").check();
    await expect(save).toBeEnabled();
    await shot(page, "utilisateurs-new");

    // A username already taken is refused beside the field.
    await save.click();
    await expect(form.getByText("Ce nom d'utilisateur est déjà utilisé")).toBeVisible();
    await expect(form.getByLabel("Nom d'utilisateur")).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("Nom d'utilisateur").fill(NEW_USER);
    await save.click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    const row = table.getByRole("row").filter({ hasText: NEW_USER });
    await expect(row).toHaveAttribute("aria-selected", "true");
    await expect(row).toContainText("Agriculteurs du réseau démo");
    await expect(page.getByRole("heading", { name: `Utilisateur « ${NEW_USER} »` })).toBeVisible();
    await shot(page, "utilisateurs");

    // The new user signs in and is sent to the terms.
    const other = await otherBrowser(browser);
    await signInAs(other.page, NEW_USER, "recrue-2025");
    await expect(other.page).toHaveURL(/\/sillon\/cgu$/);

    // The admin disables them, after a confirmation.
    await form.getByRole("button", { name: "Désactiver" }).click();
    const dialog = page.getByTestId("disable-user-dialog");
    await expect(dialog).toContainText(`Désactiver le compte « ${NEW_USER} »`);
    await dialog.getByRole("button", { name: "Désactiver" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect(row).toContainText("Désactivé");
    await expect(page.getByTestId("user-disabled-notice")).toBeVisible();
    await expect(page.getByTestId("user-enable")).toBeVisible();

    // Their open session is over, and they can no longer sign in.
    await other.page.reload();
    await expect(other.page).toHaveURL(/\/sillon\/login$/);
    await signInAs(other.page, NEW_USER, "recrue-2025");
    await expect(other.page.getByRole("alert").filter({ hasText: "Votre identifiant ou votre mot de passe est incorrect" })).toBeVisible();
    await expect(other.page).toHaveURL(/\/sillon\/login$/);
    await other.context.close();
  });

  test("the admin cannot disable his own account", async ({ page }) => {
    await signIn(page, "admin");
    await navigate(page, "/home/admin/utilisateurs");
    const form = page.getByTestId("admin-user-form");
    await clickUntil(page.getByTestId("table-admin-users").getByRole("row").filter({ hasText: "Martin" }), form);
    await expect(form.getByRole("button", { name: "Désactiver" })).toBeDisabled();
    await expect(form.getByRole("button", { name: "Réinitialiser le mot de passe" })).toHaveCount(0);
  });

  test("the admin resets a user's password: the old one no longer works, the new one does", async ({ page, browser }) => {
    // A long journey (several sign-ins or screens): on a busy 2-core machine it needs more than the default 30 s.
    test.slow();
    const form = await createRecruit(page, "ancien-mdp");
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");

    await form.getByRole("button", { name: "Réinitialiser le mot de passe" }).click();
    const dialog = page.getByTestId("reset-password-dialog");
    await dialog.getByLabel("Nouveau mot de passe").fill("nouveau-mdp");
    await dialog.getByLabel("Confirmation du mot de passe").fill("nouveau-mdp");
    await dialog.getByRole("button", { name: "Réinitialiser le mot de passe" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Mot de passe réinitialisé");
    await expect(dialog).toHaveCount(0);

    const other = await otherBrowser(browser);
    await signInAs(other.page, NEW_USER, "ancien-mdp");
    await expect(other.page.getByRole("alert").filter({ hasText: "Votre identifiant ou votre mot de passe est incorrect" })).toBeVisible();
    await signInAs(other.page, NEW_USER, "nouveau-mdp");
    await expect(other.page).toHaveURL(/\/sillon\/cgu$/);
    await other.context.close();
  });

  test("the admin edits a user: name, e-mail, test role and groups are saved and shown in the list", async ({ page }) => {
    const form = await createRecruit(page, "recrue-2025", (f) => f.getByLabel("Agriculteurs du réseau démo").check());
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");

    // The form now edits the new user: no password fields, the values kept.
    await expect(page.getByRole("heading", { name: `Utilisateur « ${NEW_USER} »` })).toBeVisible();
    await expect(form.getByLabel("Mot de passe", { exact: true })).toHaveCount(0);
    await expect(form.getByLabel("Nom", { exact: true })).toHaveValue("Recrue");
    await form.getByLabel("Nom", { exact: true }).fill("Recrutée");
    await form.getByLabel("Prénom").fill("Rémie");
    await form.getByLabel("Adresse e-mail").fill("pas-un-mail");
    await form.getByLabel("Adresse e-mail").blur();
    await expect(form.getByRole("button", { name: "Enregistrer" })).toBeDisabled();
    await form.getByLabel("Adresse e-mail").fill("remie@sillon.example");
    await form.getByLabel("Rôle test (ROLE_TEST)").check();
    await form.getByLabel("Agriculteurs du réseau démo").uncheck();
    await form.getByLabel("Conseillers du réseau démo").check();
    await form.getByRole("button", { name: "Enregistrer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");

    const row = page.getByTestId("table-admin-users").getByRole("row").filter({ hasText: NEW_USER });
    await expect(row).toContainText("Recrutée");
    await expect(row).toContainText("Rémie");
    await expect(row).toContainText("Conseillers du réseau démo");
    await expect(row).not.toContainText("Agriculteurs du réseau démo");
    const db = e2eDb();
    const saved = await db("utilisateur").where({ username: NEW_USER }).first("id", "nom", "prenom", "email", "roles", "admin");
    expect({ nom: saved.nom, prenom: saved.prenom, email: saved.email, admin: Boolean(saved.admin) }).toEqual({
      nom: "Recrutée",
      prenom: "Rémie",
      email: "remie@sillon.example",
      admin: false,
    });
    expect(JSON.parse(saved.roles)).toContain("ROLE_TEST");
    const groups = await db("groupe_utilisateur as g")
      .join("utilisateur_groupe as ug", "ug.idGroupe", "g.id")
      .where("ug.idUser", saved.id)
      .select("g.nomGroupe");
    expect(groups.map((g: { nomGroupe: string }) => g.nomGroupe)).toEqual(["Conseillers du réseau démo"]);

    // After a reload the form shows what was saved.
    await page.reload();
    await clickUntil(page.getByTestId("table-admin-users").getByRole("row").filter({ hasText: NEW_USER }), form);
    await expect(form.getByLabel("Adresse e-mail")).toHaveValue("remie@sillon.example");
    await expect(form.getByLabel("Rôle test (ROLE_TEST)")).toBeChecked();
    await expect(form.getByLabel("Conseillers du réseau démo")).toBeChecked();
    await expect(form.getByLabel("Agriculteurs du réseau démo")).not.toBeChecked();
  });

  test("the admin writes a news post, which every user then sees first in the home page carousel; deleting it asks for a confirmation", async ({
    page,
    browser,
  }) => {
    await signIn(page, "admin");
    await navigate(page, "/home/admin/actualites");
    const form = page.getByTestId("admin-post-form");
    await clickUntil(page.getByRole("button", { name: "Nouvelle actualité" }), form);
    await form.getByLabel("Titre").fill(NEW_POST);
    await form.getByLabel("Texte").fill("Démonstration de bineuse et de herse étrille le 14 mars à la ferme du Moulin.");
    await form.getByRole("button", { name: "Enregistrer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    await expect(page.getByTestId("table-admin-posts").getByRole("row").filter({ hasText: NEW_POST })).toHaveAttribute("aria-selected", "true");
    await shot(page, "actualites");

    const other = await otherBrowser(browser);
    await signInAs(other.page, "lecteur", "demo1234");
    await expect(other.page).toHaveURL(/\/sillon\/home\/description\/home$/);
    const slide = other.page.getByTestId("news-carousel").getByTestId("news-slide");
    await expect(slide.getByRole("heading")).toHaveText(NEW_POST);
    await expect(slide).toContainText("Démonstration de bineuse");
    await other.context.close();

    await page.getByTestId("admin-post-form").getByRole("button", { name: "Supprimer" }).click();
    const dialog = page.getByTestId("admin-delete-dialog");
    await expect(dialog).toContainText(`Supprimer l'actualité « ${NEW_POST} » ?`);
    await dialog.getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
    await expect(page.getByTestId("table-admin-posts").getByRole("row").filter({ hasText: NEW_POST })).toHaveCount(0);
    await navigate(page, "/home/description/home");
    await expect(page.getByTestId("news-slide").getByRole("heading")).not.toHaveText(NEW_POST);
  });

  test("the admin creates a group with members, and renames it with the keyboard", async ({ page }) => {
    await signIn(page, "admin");
    await navigate(page, "/home/admin/groupes");
    const form = page.getByTestId("admin-groupe-form");
    await clickUntil(page.getByRole("button", { name: "Nouveau groupe" }), form);
    await form.getByLabel("Nom du groupe").fill("Conseillers du réseau démo");
    await form.getByLabel("Filtrer les utilisateurs").fill("durand");
    await form.getByLabel("DURAND Bruno (animateur)").check();
    await form.getByLabel("Filtrer les utilisateurs").fill("");
    await form.getByLabel("MOREAU David (lecteur)").check();
    await form.getByRole("button", { name: "Enregistrer" }).click();
    await expect(form.getByText("Un groupe porte déjà ce nom")).toBeVisible();
    await form.getByLabel("Nom du groupe").fill(NEW_GROUP);
    await form.getByRole("button", { name: "Enregistrer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    const row = page.getByTestId("table-admin-groups").getByRole("row").filter({ hasText: NEW_GROUP });
    await expect(row).toContainText("2");
    await shot(page, "groupes");

    // Keyboard: leave the row, select it again with Enter, rename, save.
    await row.click();
    await expect(page.getByTestId("admin-hint")).toBeVisible();
    await row.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: `Groupe « ${NEW_GROUP} »` })).toBeVisible();
    await page.getByLabel("Nom du groupe").fill(`${NEW_GROUP} Sud`);
    await page.getByLabel("Nom du groupe").press("Enter");
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    const members = await e2eDb()("groupe_utilisateur as g")
      .join("utilisateur_groupe as ug", "ug.idGroupe", "g.id")
      .join("utilisateur as u", "u.id", "ug.idUser")
      .where("g.nomGroupe", `${NEW_GROUP} Sud`)
      .pluck("u.username");
    expect(members.sort()).toEqual(["animateur", "lecteur"]);
    await e2eDb()("groupe_utilisateur")
      .where({ nomGroupe: `${NEW_GROUP} Sud` })
      .delete();
  });

  test("the admin creates a network; a network that holds folders cannot be deleted", async ({ page }) => {
    await signIn(page, "admin");
    await navigate(page, "/home/admin/reseaux");
    const table = page.getByTestId("table-admin-networks");
    const form = page.getByTestId("admin-oad-form");
    await clickUntil(table.getByRole("row").filter({ hasText: "Réseau démo" }), form);
    await expect(form.getByTestId("network-has-folders")).toHaveText("Ce réseau contient 2 dossiers : il ne peut pas être supprimé.");
    await expect(form.getByRole("button", { name: "Supprimer" })).toBeDisabled();

    await page.getByRole("button", { name: "Nouveau réseau" }).click();
    await expect(form.getByRole("button", { name: "Enregistrer" })).toBeDisabled();
    await form.getByLabel("Libellé", { exact: true }).fill(NEW_NETWORK);
    await form.getByLabel("Libellé long").fill("Réseau créé par les tests");
    await form.getByLabel("E-mail de demande d'accès").fill("pas-un-mail");
    await form.getByLabel("E-mail de demande d'accès").blur();
    await expect(form.getByText("Valeur invalide")).toBeVisible();
    await form.getByLabel("E-mail de demande d'accès").fill("e2e@sillon.example");
    await form.getByLabel("Réseau international (données hors de France)").check();
    await form.getByRole("button", { name: "Enregistrer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    await expect(table.getByRole("row").filter({ hasText: NEW_NETWORK })).toContainText("Oui");
    await shot(page, "reseaux");

    await form.getByRole("button", { name: "Supprimer" }).click();
    await page.getByTestId("admin-delete-dialog").getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
    await expect(table.getByRole("row").filter({ hasText: NEW_NETWORK })).toHaveCount(0);
  });

  test("animateur opening the administration is sent to the home page, and posting to it is refused", async ({ page }) => {
    await signIn(page, "animateur");
    for (const path of ["/home/admin", "/home/admin/utilisateurs", "/home/admin/actualites"]) {
      await navigate(page, path);
      // Sent away, and told why (issue 10: a reader sent away from a screen is told why).
      await expect(page).toHaveURL(/\/sillon\/home\/description\/home\?refus=shell\.refused\.admin$/);
      await expect(page.getByTestId("sent-away")).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Bienvenue dans Sillon" })).toBeVisible();

    // Posting to the administration directly is refused, and nothing changes.
    const db = e2eDb();
    const count = async (table: string) => Number((await db(table).count({ n: "*" }).first())?.n);
    const before = { utilisateur: await count("utilisateur"), post: await count("post"), oad: await count("oad"), groupe: await count("groupe_utilisateur") };
    const posts: [string, Record<string, string>][] = [
      [
        "home/admin/utilisateurs",
        { intent: "save", username: "intrus", nom: "Intrus", prenom: "Ivan", password: "intrus-123", confirmation: "intrus-123", admin: "on" },
      ],
      ["home/admin/actualites", { intent: "save", title: "Intrus", content: "Texte" }],
      ["home/admin/reseaux", { intent: "save", libelle: "Réseau intrus" }],
      ["home/admin/groupes", { intent: "save", nomGroupe: "Groupe intrus" }],
    ];
    for (const [path, form] of posts) {
      const res = await page.request.post(path, { form, maxRedirects: 0 });
      // The action answers 403; a document request then runs the layout loader, which may redirect instead.
      expect([302, 403], `${path} answered ${res.status()}`).toContain(res.status());
    }
    expect({ utilisateur: await count("utilisateur"), post: await count("post"), oad: await count("oad"), groupe: await count("groupe_utilisateur") }).toEqual(
      before,
    );
  });
});
