import type { Page } from "@playwright/test";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { afterRender, signIn } from "./helpers";

// The profile journeys edit `synthese`; each test puts the row back as it found it.
const USER = "synthese" as const;
type Saved = { nom: string; prenom: string; passwordHash: string; isVisible: unknown };
let saved: Saved | undefined;

async function row() {
  return e2eDb()("utilisateur").where({ username: USER }).first("nom", "prenom", "passwordHash", "isVisible", "updatedAt");
}

test.beforeEach(async () => {
  const r = await row();
  saved = { nom: r.nom, prenom: r.prenom, passwordHash: r.passwordHash, isVisible: r.isVisible };
});
test.afterEach(async () => {
  if (saved)
    await e2eDb()("utilisateur")
      .where({ username: USER })
      .update({ nom: "Garnier", prenom: "Émilie", passwordHash: saved.passwordHash, isVisible: saved.isVisible });
});

async function openProfile(page: Page) {
  await signIn(page, USER);
  await page.getByTestId("profile-link").click();
  await expect(page).toHaveURL(/\/home\/profil$/);
  await expect(page.getByRole("heading", { name: "Mon profil" })).toBeVisible();
}

const nom = (page: Page) => page.getByLabel("Nom", { exact: true });
const prenom = (page: Page) => page.getByLabel("Prénom");
const password = (page: Page) => page.getByLabel("Nouveau mot de passe");
const confirmation = (page: Page) => page.getByLabel("Confirmation du mot de passe");
const currentPassword = (page: Page) => page.getByLabel("Mot de passe actuel");
const saveButton = (page: Page) => page.getByTestId("profile-form").getByRole("button", { name: "Enregistrer" });

test.describe("profile (/home/profil)", () => {
  test("[A-PROFILE-01] [A-PROFILE-02] [A-PROFILE-03] the profile opens for the signed-in user, without the navigation bar, with names, new password, confirmation and visibility", async ({
    page,
  }) => {
    await navigate(page, "/home/profil");
    await expect(page).toHaveURL(/\/sillon\/login$/);
    await openProfile(page);
    await expect(page.getByText(`Nom d'utilisateur : ${USER}`)).toBeVisible();
    await expect(page.getByTestId("context-bar")).toHaveCount(0);
    await expect(nom(page)).toHaveValue("Garnier");
    await expect(prenom(page)).toHaveValue("Émilie");
    await expect(password(page)).toHaveValue("");
    await expect(password(page)).toHaveAttribute("type", "password");
    await expect(confirmation(page)).toHaveValue("");
    await expect(confirmation(page)).toHaveAttribute("type", "password");
    await expect(page.getByLabel("Être visible des autres utilisateurs (partage de dossiers)")).toBeChecked();
  });

  test("[A-PROFILE-04] [A-PROFILE-05] empty names are refused with 'Champ requis' and nothing is saved", async ({ page }) => {
    await openProfile(page);
    const before = await row();
    await nom(page).fill("");
    await prenom(page).fill("");
    await saveButton(page).click();
    await expect(page.getByTestId(`${await nom(page).getAttribute("id")}-error`)).toHaveText("Champ requis");
    await expect(page.getByTestId(`${await prenom(page).getAttribute("id")}-error`)).toHaveText("Champ requis");
    await expect(nom(page)).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("snackbar")).toHaveCount(0);
    expect((await row()).updatedAt).toEqual(before.updatedAt);
    expect((await row()).nom).toBe("Garnier");
  });

  test("[A-PROFILE-06] a new password shorter than 8 characters is refused", async ({ page }) => {
    await openProfile(page);
    await password(page).fill("court1");
    await confirmation(page).fill("court1");
    await saveButton(page).click();
    await expect(page.getByTestId(`${await password(page).getAttribute("id")}-error`)).toHaveText("Pas assez de caractères");
    expect((await row()).passwordHash).toBe(saved!.passwordHash);
    // Eight characters are enough.
    await password(page).fill("huit1234");
    await expect(page.getByTestId(`${await password(page).getAttribute("id")}-error`)).toHaveCount(0);
  });

  test("[A-PROFILE-07] a confirmation that differs from the new password is refused with 'Les valeurs ne correspondent pas'", async ({ page }) => {
    await openProfile(page);
    await password(page).fill("nouveau-secret");
    await confirmation(page).fill("autre-secret");
    await saveButton(page).click();
    await expect(page.getByTestId(`${await confirmation(page).getAttribute("id")}-error`)).toHaveText("Les valeurs ne correspondent pas");
    expect((await row()).passwordHash).toBe(saved!.passwordHash);
  });

  test("[A-PROFILE-08] a new password with an empty confirmation is refused with 'Champ requis'", async ({ page }) => {
    await openProfile(page);
    await password(page).fill("nouveau-secret");
    await saveButton(page).click();
    await expect(page.getByTestId(`${await confirmation(page).getAttribute("id")}-error`)).toHaveText("Champ requis");
    expect((await row()).passwordHash).toBe(saved!.passwordHash);
  });

  test("[A-PROFILE-09] [A-ERR-23] [A-ERR-24] [A-ERR-25] saving sends names, password and visibility; a success notice shows for 2000 ms", async ({ page }) => {
    await page.addInitScript(() => {
      const times: { shown?: number; hidden?: number } = {};
      (window as unknown as { __snack: typeof times }).__snack = times;
      new MutationObserver(() => {
        const present = !!document.querySelector("[data-testid=snackbar]");
        if (present && times.shown === undefined) times.shown = performance.now();
        if (!present && times.shown !== undefined && times.hidden === undefined) times.hidden = performance.now();
      }).observe(document, { subtree: true, childList: true });
    });
    await openProfile(page);
    await nom(page).fill("Garnier-Test");
    await prenom(page).fill("Émilie-Test");
    await password(page).fill("secret-tout-neuf");
    await confirmation(page).fill("secret-tout-neuf");
    await currentPassword(page).fill("demo1234");
    await page.getByLabel("Être visible des autres utilisateurs (partage de dossiers)").uncheck();
    await saveButton(page).click();
    const snackbar = page.getByTestId("snackbar");
    await expect(snackbar).toHaveText("Enregistrement effectué");
    await expect(snackbar).toHaveAttribute("data-color", "success");
    await expect(snackbar).toBeHidden({ timeout: 4000 });
    const times = await page.evaluate(() => (window as unknown as { __snack: { shown: number; hidden: number } }).__snack);
    expect(times.hidden - times.shown).toBeGreaterThanOrEqual(1900);
    expect(times.hidden - times.shown).toBeLessThan(2600);

    const r = await row();
    expect(r.nom).toBe("Garnier-Test");
    expect(r.prenom).toBe("Émilie-Test");
    expect(Boolean(r.isVisible)).toBe(false);
    expect(r.passwordHash).not.toBe(saved!.passwordHash);
    // The form shows what was saved, with the password fields emptied.
    await expect(nom(page)).toHaveValue("Garnier-Test");
    await expect(password(page)).toHaveValue("");
    // The new password is the one that signs in now.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.getByLabel("Nom d'utilisateur").fill(USER);
    await page.getByLabel("Mot de passe").fill("demo1234");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByTestId("bad-credentials")).toBeVisible();
    await page.getByLabel("Mot de passe").fill("secret-tout-neuf");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
  });

  test("[A-ERR-01] [A-ERR-02] [A-ERR-03] [A-ERR-04] [A-ERR-05] [A-ERR-06] a refused save shows the error dialog: title, message, Ok, at most 500 wide", async ({
    page,
  }) => {
    await openProfile(page);
    // Someone else saved the profile meanwhile: the save is refused as stale.
    await e2eDb()("utilisateur")
      .where({ username: USER })
      .update({ updatedAt: new Date(Date.now() + 60_000) });
    await nom(page).fill("Garnier-Périmé");
    await saveButton(page).click();
    const dialog = page.getByTestId("error-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: "Erreur" })).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveText(/modifié par quelqu'un d'autre/);
    expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(500);
    await dialog.getByRole("button", { name: "Ok" }).click();
    await expect(dialog).toHaveCount(0);
    expect((await row()).nom).toBe("Garnier");
  });
});

test.describe("password change (issue 10, defect 6)", () => {
  test("[issue10-6] a new password needs the current one: missing, it is required; wrong, it is refused on its field and nothing is saved", async ({
    page,
  }) => {
    await openProfile(page);
    await password(page).fill("secret-tout-neuf");
    await confirmation(page).fill("secret-tout-neuf");
    await saveButton(page).click();
    await expect(page.getByTestId(`${await currentPassword(page).getAttribute("id")}-error`)).toHaveText("Champ requis");
    expect((await row()).passwordHash).toBe(saved!.passwordHash);
    await currentPassword(page).fill("pas-le-bon");
    await saveButton(page).click();
    await expect(page.getByTestId(`${await currentPassword(page).getAttribute("id")}-error`)).toHaveText("Le mot de passe actuel est incorrect");
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);
    expect((await row()).passwordHash).toBe(saved!.passwordHash);
    // The names alone need no password.
    await password(page).fill("");
    await confirmation(page).fill("");
    await currentPassword(page).fill("");
    await nom(page).fill("Garnier-Seul");
    await saveButton(page).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
    expect((await row()).nom).toBe("Garnier-Seul");
  });

  test("[issue10-6] changing one's password ends one's other sessions; the session that changed it stays open", async ({ page, browser }) => {
    const other = await browser.newContext();
    const elsewhere = await other.newPage();
    await signIn(elsewhere, USER);
    await openProfile(page);
    await password(page).fill("secret-tout-neuf");
    await confirmation(page).fill("secret-tout-neuf");
    await currentPassword(page).fill("demo1234");
    await saveButton(page).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
    await navigate(elsewhere, "/home/profil");
    await expect(elsewhere).toHaveURL(/\/sillon\/login$/);
    await navigate(page, "/home/profil");
    await expect(page).toHaveURL(/\/home\/profil$/);
    await other.close();
  });
});

test.describe("leave confirmation", () => {
  test("[A-LEAVE-08] with no unsaved change, a header link navigates at once", async ({ page }) => {
    await openProfile(page);
    await page.getByTestId("home-link").click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    await expect(page.getByTestId("leave-dialog")).toHaveCount(0);
  });

  test("[A-LEAVE-01] [A-LEAVE-02] [A-LEAVE-04] [A-LEAVE-07] [A-CONST-01] a dirty form asks before leaving; cancel stays with the changes", async ({ page }) => {
    await openProfile(page);
    await prenom(page).fill("Émilie-Brouillon");
    await page.getByTestId("home-link").click();
    const dialog = page.getByTestId("leave-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: "Modifications non enregistrées" })).toBeVisible();
    await expect(dialog.getByRole("button")).toHaveText(["Rester sur la page", "Abandonner les modifications", "Enregistrer"]);
    expect((await dialog.boundingBox())!.width).toBe(600);
    await dialog.getByRole("button", { name: "Rester sur la page" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/home\/profil$/);
    await expect(prenom(page)).toHaveValue("Émilie-Brouillon");
    // Still dirty: the next route change asks again, from any link.
    await page.getByRole("button", { name: "Documentation" }).click();
    await page.getByRole("menuitem", { name: "FAQ" }).click();
    await expect(dialog).toBeVisible();
    expect((await row()).prenom).toBe("Émilie");
  });

  test("[A-CONST-03] the leave confirmation is persistent: a click outside does not close it", async ({ page }) => {
    await openProfile(page);
    await prenom(page).fill("Émilie-Brouillon");
    await page.getByTestId("home-link").click();
    const dialog = page.getByTestId("leave-dialog");
    await expect(dialog).toBeVisible();
    await page.mouse.click(20, 400);
    await afterRender(page);
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/home\/profil$/);
    // Escape still works, as cancel.
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/home\/profil$/);
    await expect(prenom(page)).toHaveValue("Émilie-Brouillon");
  });

  test("[A-LEAVE-05] choosing save saves the dirty form, then leaves", async ({ page }) => {
    await openProfile(page);
    await prenom(page).fill("Émilie-Enregistrée");
    await page.getByTestId("home-link").click();
    await page.getByTestId("leave-dialog").getByRole("button", { name: "Enregistrer" }).click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    await expect.poll(async () => (await row()).prenom).toBe("Émilie-Enregistrée");
  });

  test("[A-LEAVE-06] choosing discard leaves without saving", async ({ page }) => {
    await openProfile(page);
    await prenom(page).fill("Émilie-Abandonnée");
    await page.getByTestId("home-link").click();
    await page.getByTestId("leave-dialog").getByRole("button", { name: "Abandonner les modifications" }).click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    await page.getByTestId("profile-link").click();
    await expect(prenom(page)).toHaveValue("Émilie");
    expect((await row()).prenom).toBe("Émilie");
    // The discarded changes do not hold the next navigation.
    await page.getByTestId("home-link").click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
  });

  test("[A-LEAVE-09] Ctrl+S saves the dirty form", async ({ page }) => {
    await openProfile(page);
    await nom(page).fill("Garnier-Clavier");
    await page.keyboard.press("Control+s");
    await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
    await expect.poll(async () => (await row()).nom).toBe("Garnier-Clavier");
    // Saved: leaving no longer asks.
    await page.getByTestId("home-link").click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    await expect(page.getByTestId("leave-dialog")).toHaveCount(0);
  });

  test("[A-LEAVE-03] closing the page with unsaved changes asks for confirmation", async ({ page }) => {
    await openProfile(page);
    await nom(page).fill("Garnier-Onglet");
    await page.waitForFunction(() => document.documentElement.dataset.unsaved === "true");
    const asked = page.waitForEvent("dialog");
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe("beforeunload");
    await dialog.dismiss();
    expect(page.isClosed()).toBe(false);
    await expect(nom(page)).toHaveValue("Garnier-Onglet");
  });

  test("[A-LEAVE-03] closing the page with nothing unsaved does not ask", async ({ page }) => {
    await openProfile(page);
    let asked = false;
    page.on("dialog", (d) => {
      asked = true;
      void d.accept();
    });
    const closed = page.waitForEvent("close");
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(asked).toBe(false);
  });

  test("[C-ERR-07] [C-ERR-08] a save answered while the session is gone (signed out elsewhere) lands on the login screen, signed out, and changes nothing", async ({
    page,
  }) => {
    await openProfile(page);
    await page.context().clearCookies();
    await nom(page).fill("Perdu");
    await saveButton(page).click();
    await expect(page).toHaveURL(/\/sillon\/login$/);
    await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();
    expect((await row()).nom).toBe("Garnier");
    // Signed out: the home page sends back to the login screen.
    await navigate(page, "/home");
    await expect(page).toHaveURL(/\/sillon\/login$/);
  });
});
