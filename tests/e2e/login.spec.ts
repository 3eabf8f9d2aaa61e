import { expect, login, navigate, test } from "./fixtures";
import { signIn } from "./helpers";

test.describe("login", () => {
  test("[A-LOGIN-01] [A-LOGIN-03] [A-LOGIN-04] [A-LOGIN-08] [A-LOGIN-09] the login screen shows its fields, button, language selector and partner logos", async ({ page }) => {
    await navigate(page, "/login");
    await expect(page.getByLabel("Nom d'utilisateur")).toBeVisible();
    await expect(page.getByLabel("Mot de passe")).toBeVisible();
    await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();
    await expect(page.getByTestId("locale-select")).toBeVisible();
    await expect(page.getByTestId("partner-logos").getByRole("img")).toHaveCount(3);
  });

  test("[A-LOGIN-12] [A-LOGIN-13] [A-LOGIN-14] a good login stores the token and opens the home page", async ({ page }) => {
    await login(page, "animateur");
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    await expect(page.getByRole("heading", { name: "Bienvenue dans Sillon" })).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem("token"))).toMatch(/^[\w-]{20,}$/);
  });

  test("[A-LOGIN-13] after a good login the signed-in user is fetched: the profile shows their names", async ({ page }) => {
    await signIn(page, "redacteur");
    await page.getByTestId("profile-link").click();
    await expect(page.getByText("Nom d'utilisateur : redacteur")).toBeVisible();
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Lefèvre");
    await expect(page.getByLabel("Prénom")).toHaveValue("Claire");
  });

  test("[A-LOGIN-02] opening /login while signed in goes to the home page", async ({ page }) => {
    await signIn(page, "lecteur");
    await navigate(page, "/login");
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    await expect(page.getByRole("heading", { name: "Bienvenue dans Sillon" })).toBeVisible();
  });

  test("[A-LOGIN-05] [A-LOGIN-07] the forgot-password and no-account links lead to external pages in a new tab", async ({ page }) => {
    await navigate(page, "/login");
    const forgot = page.getByRole("link", { name: "Mot de passe oublié ?" });
    await expect(forgot).toHaveAttribute("href", /^https:\/\//);
    await expect(forgot).toHaveAttribute("target", "_blank");
    const noAccount = page.getByRole("link", { name: "Pas encore de compte ? En savoir plus" });
    await expect(noAccount).toHaveAttribute("href", /^https:\/\//);
    await expect(noAccount).toHaveAttribute("target", "_blank");
  });

  test("[A-LOGIN-06] the forgot-password link target depends on the locale", async ({ page }) => {
    await navigate(page, "/login");
    const french = await page.getByTestId("forgot-password").getAttribute("href");
    expect(french).toContain("/fr/");
    // A browser that stored English as its choice gets the English screen (the app tells the server, then reloads).
    await page.evaluate(() => window.localStorage.setItem("locale", "en"));
    await navigate(page, "/login");
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toBeVisible();
    const english = await page.getByTestId("forgot-password").getAttribute("href");
    expect(english).toContain("/en/");
    expect(english).not.toBe(french);
  });

  test("[A-LOGIN-10] an empty username shows 'Le nom d'utilisateur est requis'", async ({ page }) => {
    await navigate(page, "/login");
    await page.getByLabel("Mot de passe").fill("demo1234");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByText("Le nom d'utilisateur est requis")).toBeVisible();
    await expect(page.getByText("Mot de passe requis")).toHaveCount(0);
    await expect(page).toHaveURL(/\/sillon\/login$/);
  });

  test("[A-LOGIN-11] an empty password shows 'Mot de passe requis'", async ({ page }) => {
    await navigate(page, "/login");
    await page.getByLabel("Nom d'utilisateur").fill("animateur");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByText("Mot de passe requis")).toBeVisible();
    await expect(page.getByText("Le nom d'utilisateur est requis")).toHaveCount(0);
    await expect(page).toHaveURL(/\/sillon\/login$/);
  });

  test("[A-LOGIN-10] [A-LOGIN-11] both fields empty show both messages and send nothing", async ({ page }) => {
    await navigate(page, "/login");
    let posted = false;
    page.on("request", (r) => {
      if (r.url().includes("login_check")) posted = true;
    });
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByText("Le nom d'utilisateur est requis")).toBeVisible();
    await expect(page.getByText("Mot de passe requis")).toBeVisible();
    expect(posted).toBe(false);
  });

  test("[A-LOGIN-16] [A-ROUTE-32] a login answered 401 shows the bad-credentials alert and stays on /login", async ({ page }) => {
    await navigate(page, "/login");
    await page.getByLabel("Nom d'utilisateur").fill("personne");
    await page.getByLabel("Mot de passe").fill("mauvais-mot-de-passe");
    const answer = page.waitForResponse((r) => r.url().includes("/api/v1/login_check"));
    await page.getByRole("button", { name: "Se connecter" }).click();
    expect((await answer).status()).toBe(401);
    await expect(page.getByRole("alert").filter({ hasText: "Votre identifiant ou votre mot de passe est incorrect" })).toBeVisible();
    await expect(page).toHaveURL(/\/sillon\/login$/);
    await expect(page.getByLabel("Nom d'utilisateur")).toHaveValue("personne");
    await expect(page.getByTestId("server-error")).toHaveCount(0);
    // The user can correct the password and sign in from the same screen.
    await page.getByLabel("Nom d'utilisateur").fill("animateur");
    await page.getByLabel("Mot de passe").fill("demo1234");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
  });

  test("[A-LOGIN-17] [A-LOGIN-18] [A-ERR-06] [A-CONST-03] a login answered 500 shows the server-error panel with the status and a try-later text; Ok closes it", async ({ page, browserErrors }) => {
    browserErrors.allow(/status of 500 .*\/api\/v1\/login_check/);
    await page.route("**/api/v1/login_check", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
    await navigate(page, "/login");
    await page.getByLabel("Nom d'utilisateur").fill("animateur");
    await page.getByLabel("Mot de passe").fill("demo1234");
    await page.getByRole("button", { name: "Se connecter" }).click();
    const panel = page.getByTestId("server-error");
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("heading", { name: "Erreur du serveur" })).toBeVisible();
    await expect(panel.getByText(/^500\b/)).toHaveText("500 Internal Server Error");
    await expect(panel.getByText("Veuillez réessayer plus tard.")).toBeVisible();
    await expect(page.getByTestId("bad-credentials")).toHaveCount(0);
    // Persistent: a click outside the panel leaves it open.
    await page.mouse.click(10, 10);
    await expect(panel).toBeVisible();
    await panel.getByRole("button", { name: "Ok" }).click();
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/sillon\/login$/);
  });

  test("[A-LOGIN-19] a login that fails without an HTTP answer shows errors.services.auth-service-error", async ({ page, browserErrors }) => {
    browserErrors.allow(/net::ERR_FAILED .*\/api\/v1\/login_check/);
    await page.route("**/api/v1/login_check", (route) => route.abort("failed"));
    await navigate(page, "/login");
    await page.getByLabel("Nom d'utilisateur").fill("animateur");
    await page.getByLabel("Mot de passe").fill("demo1234");
    await page.getByRole("button", { name: "Se connecter" }).click();
    const panel = page.getByTestId("server-error");
    await expect(panel.getByText("Le service d'authentification ne répond pas")).toBeVisible();
    await panel.getByRole("button", { name: "Ok" }).click();
    await expect(panel).toHaveCount(0);
  });

  test("[A-LOGIN-15] the authentication status goes through empty, loading, error and success", async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __statuses: string[] }).__statuses = seen;
      const record = () => {
        const s = document.querySelector("form#login")?.getAttribute("data-status");
        if (s && seen.at(-1) !== s) seen.push(s);
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
    });
    // Hold each answer back until the loading state has been seen.
    let release = () => {};
    await page.route("**/api/v1/login_check", async (route) => {
      await new Promise<void>((r) => (release = r));
      await route.continue();
    });
    await navigate(page, "/login");
    await expect(page.locator("form#login")).toHaveAttribute("data-status", "empty");
    await page.getByLabel("Nom d'utilisateur").fill("animateur");
    await page.getByLabel("Mot de passe").fill("faux");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByRole("button", { name: "Connexion en cours…" })).toBeDisabled();
    release();
    await expect(page.locator("form#login")).toHaveAttribute("data-status", "error");
    await page.getByLabel("Mot de passe").fill("demo1234");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByRole("button", { name: "Connexion en cours…" })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    expect(await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses)).toEqual(["empty", "loading", "error", "loading", "success"]);
  });
});
