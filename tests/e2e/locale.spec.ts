import { expect, navigate, test, waitForHydration } from "./fixtures";
import { signIn } from "./helpers";

test.describe("language", () => {
  test("[A-SCOPE-01] [A-LOCALE-02] [B-CONST-10] [B-CONST-11] the interface is in French by default, with English as an option (no key locale in production)", async ({
    page,
  }) => {
    await navigate(page, "/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { name: "Connexion" })).toBeVisible();
    const select = page.getByTestId("locale-select");
    await expect(select).toHaveValue("fr");
    await expect(select.locator("option")).toHaveText(["Français", "English"]);
    expect(await select.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(["fr", "en"]);
  });

  test("[A-LOCALE-03] [A-LOCALE-04] [A-LOCALE-05] [A-LOCALE-06] [B-CONST-14] [B-CONST-15] [B-CONST-16] switching to English warns, stores the choice, reloads after 3 s in English; and back to French", async ({
    page,
  }) => {
    await signIn(page, "lecteur");
    await page.evaluate(() => {
      (window as unknown as { __stillHere: boolean }).__stillHere = true;
    });
    const select = page.getByTestId("app-header").getByTestId("locale-select");
    const reloaded = page.waitForEvent("load", { timeout: 8000 });
    const chosenAt = Date.now();
    await select.selectOption("en");
    const warning = page.getByTestId("locale-warning");
    await expect(warning).toHaveText("La langue va changer : la page sera rechargée dans 3 secondes.");
    expect(await page.evaluate(() => window.localStorage.getItem("locale"))).toBe("en");
    // Not reloaded yet: still the same document (the first load after the choice comes after 3 s, checked below).
    expect(await page.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);

    await reloaded;
    const reloadedAfter = Date.now() - chosenAt;
    expect(reloadedAfter).toBeGreaterThanOrEqual(2900);
    expect(reloadedAfter).toBeLessThan(6000);
    expect(await page.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBeUndefined();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { name: "Welcome to Sillon" })).toBeVisible();
    await expect(page.getByTestId("app-header").getByRole("button", { name: "Documentation" })).toBeVisible();
    await expect(page.getByTestId("app-header").getByRole("button", { name: "Results" })).toBeVisible();
    await expect(page.getByTestId("locale-select")).toHaveValue("en");
    expect(await page.evaluate(() => window.localStorage.getItem("locale"))).toBe("en");

    // The choice holds across navigations and a later visit.
    await navigate(page, "/home/profil");
    await expect(page.getByRole("heading", { name: "My profile" })).toBeVisible();

    // Back to French, the same way.
    await page.getByTestId("locale-select").selectOption("fr");
    await expect(page.getByTestId("locale-warning")).toHaveText("The language will change: the page reloads in 3 seconds.");
    expect(await page.evaluate(() => window.localStorage.getItem("locale"))).toBe("fr");
    await page.waitForEvent("load", { timeout: 6000 });
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { name: "Mon profil" })).toBeVisible();
    await expect(page.getByTestId("locale-select")).toHaveValue("fr");
  });

  test("[A-LOCALE-04] [A-LOCALE-06] [A-LOGIN-08] the login screen's selector switches the language too, and the choice survives signing in", async ({
    page,
  }) => {
    await navigate(page, "/login");
    await page.getByTestId("locale-select").selectOption("en");
    await expect(page.getByTestId("locale-warning")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible({ timeout: 6000 });
    expect(await page.evaluate(() => window.localStorage.getItem("locale"))).toBe("en");
    await page.getByLabel("Username").fill("lecteur");
    await page.getByLabel("Password").fill("demo1234");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Welcome to Sillon" })).toBeVisible();
    await expect(page.getByTestId("app-footer")).toContainText("Legal notice");
  });
});

test("[A-LOCALE-06] a stored choice the server cannot apply is tried once, not reloaded forever", async ({ page, context }) => {
  await navigate(page, "/login");
  // A cookie that shadows the app's own language cookie (more specific path, unreadable value).
  await context.addCookies([{ name: "lng", value: "garbage", domain: "127.0.0.1", path: "/sillon/" }]);
  await page.evaluate(() => window.localStorage.setItem("locale", "en"));
  let loads = 0;
  page.on("load", () => loads++);
  await navigate(page, "/login");
  // The page tries the stored choice once (one reload); the reloaded page, still in French, gives up and stores
  // the server's language instead, after which nothing can ask for another reload.
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("locale")).catch(() => null)).toBe("fr");
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();
  expect(loads).toBe(2);
  expect(await page.evaluate(() => window.sessionStorage.getItem("locale-sync-attempt"))).toBeNull();
});
