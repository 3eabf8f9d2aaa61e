import { e2eDb, expect, navigate, test } from "./fixtures";
import { signIn } from "./helpers";

/** `nouveau` has not accepted the terms yet, and is not visible to others: every test starts from there. */
async function resetNouveau() {
  await e2eDb()("utilisateur").where({ username: "nouveau" }).update({ acceptcgu: false, isVisible: false });
}

async function nouveauRow() {
  return e2eDb()("utilisateur").where({ username: "nouveau" }).first("acceptcgu", "isVisible");
}

test.describe("terms of use (/cgu)", () => {
  test.beforeEach(resetNouveau);
  test.afterAll(resetNouveau);

  test("[A-CGU-01] /cgu without a session goes to /login", async ({ page }) => {
    await navigate(page, "/cgu");
    await expect(page).toHaveURL(/\/sillon\/login$/);
    await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();
  });

  test("[A-CGU-02] /cgu for a user who accepted the terms goes to the home page", async ({ page }) => {
    await signIn(page, "animateur");
    await navigate(page, "/cgu");
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    await expect(page.getByRole("heading", { name: "Bienvenue dans Sillon" })).toBeVisible();
  });

  test("[A-ROUTE-05] [A-SHELL-05] any /home route opened with the terms not accepted goes to /cgu, without the shell", async ({ page }) => {
    await signIn(page, "nouveau");
    for (const path of ["/home/description/home", "/home/profil", "/home/documentation/notice", "/home/resultats/calcul"]) {
      await navigate(page, path);
      await expect(page).toHaveURL(/\/sillon\/cgu$/);
    }
    await expect(page.getByRole("heading", { name: "Conditions générales d'utilisation" })).toBeVisible();
    await expect(page.getByTestId("app-header")).toHaveCount(0);
    await expect(page.getByTestId("context-bar")).toHaveCount(0);
  });

  test("[A-CGU-03] the terms page shows the terms of use PDF in a frame", async ({ page }) => {
    await signIn(page, "nouveau");
    const frame = page.getByTestId("cgu-pdf");
    await expect(frame).toBeVisible();
    expect(await frame.evaluate((el) => el.tagName)).toBe("IFRAME");
    const src = await frame.getAttribute("src");
    expect(src).toBe("/sillon/docs/fr/cgu.pdf");
    const pdf = await page.request.get(src!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  test("[A-CGU-04] [A-CGU-05] [A-CGU-06] [A-CGU-07] validate stays disabled until the mandatory box is ticked, whatever the visibility box", async ({
    page,
  }) => {
    await signIn(page, "nouveau");
    const visibility = page.getByLabel("J'accepte d'être visible des autres utilisateurs pour le partage de dossiers");
    const accept = page.getByLabel("J'ai lu et j'accepte les conditions générales d'utilisation");
    const validate = page.getByRole("button", { name: "Valider" });
    await expect(visibility).not.toBeChecked();
    await expect(accept).not.toBeChecked();
    await expect(validate).toBeDisabled();
    // The visibility box alone does not enable it: it is optional.
    await visibility.check();
    await expect(validate).toBeDisabled();
    await accept.check();
    await expect(validate).toBeEnabled();
    await visibility.uncheck();
    await expect(validate).toBeEnabled();
    await accept.uncheck();
    await expect(validate).toBeDisabled();
  });

  test("[A-CGU-08] [A-SHELL-10] the terms page has a logout link that ends the session", async ({ page }) => {
    await signIn(page, "nouveau");
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await expect(page).toHaveURL(/\/sillon\/login$/);
    expect(await page.evaluate(() => window.localStorage.getItem("token"))).toBeNull();
    await navigate(page, "/cgu");
    await expect(page).toHaveURL(/\/sillon\/login$/);
  });

  test("[A-CGU-09] [A-CGU-10] [A-CGU-11] validating with visibility ticked accepts the terms, saves the visibility and opens the home page", async ({
    page,
  }) => {
    await signIn(page, "nouveau");
    await page.getByLabel("J'accepte d'être visible des autres utilisateurs pour le partage de dossiers").check();
    await page.getByLabel("J'ai lu et j'accepte les conditions générales d'utilisation").check();
    await page.getByRole("button", { name: "Valider" }).click();
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    await expect(page.getByRole("heading", { name: "Bienvenue dans Sillon" })).toBeVisible();
    await expect(page.getByTestId("app-header")).toBeVisible();
    const row = await nouveauRow();
    expect(Boolean(row.acceptcgu)).toBe(true);
    expect(Boolean(row.isVisible)).toBe(true);
    // The profile shows the visibility that was chosen on the terms page.
    await page.getByTestId("profile-link").click();
    await expect(page.getByTestId("profile-visibility")).toBeChecked();
  });

  test("[A-CGU-09] [A-CGU-10] validating without visibility accepts the terms and keeps the user invisible", async ({ page }) => {
    await signIn(page, "nouveau");
    await page.getByLabel("J'ai lu et j'accepte les conditions générales d'utilisation").check();
    await page.getByRole("button", { name: "Valider" }).click();
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    const row = await nouveauRow();
    expect(Boolean(row.acceptcgu)).toBe(true);
    expect(Boolean(row.isVisible)).toBe(false);
    // Accepted once: the terms page is not shown again.
    await navigate(page, "/cgu");
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
  });
});
