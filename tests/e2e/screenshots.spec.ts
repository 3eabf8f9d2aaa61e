import path from "node:path";
import type { Page } from "@playwright/test";
import { e2eDb, expect, localeCookie, navigate, resetContext, test } from "./fixtures";
import { demoIds, frameLoaded, setContext } from "./helpers";
import { E2E } from "./settings";

/**
 * The main screens, in French and in English, as `lecteur` (and `nouveau` for the terms), saved as PNG
 * files to look at: SHOTS_DIR, or tests/.artifacts/shots.
 */
const dir = process.env.SHOTS_DIR ?? path.resolve("tests/.artifacts/shots");
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });

/** The value React Router's cookie helper writes for the language cookie (base64 of the JSON string). */

/** Signs in whatever the language of the screen. */
async function signIn(page: Page, username: "lecteur" | "nouveau") {
  await navigate(page, "/login");
  await page.locator("input[name=username]").fill(username);
  await page.locator("input[name=password]").fill("demo1234");
  await page.locator("form#login button[type=submit]").click();
  await expect(page).toHaveURL(username === "nouveau" ? /\/cgu$/ : /\/home\/description\/home$/);
}

const TEXT = {
  fr: {
    login: "Connexion",
    home: "Bienvenue dans Sillon",
    cgu: "Conditions générales d'utilisation",
    profile: "Mon profil",
    required: "Champ requis",
    legal: "Mentions légales",
    doc: "Notice d'utilisation",
    maintenance: "Maintenance en cours",
  },
  en: {
    login: "Sign in",
    home: "Welcome to Sillon",
    cgu: "Terms of use",
    profile: "My profile",
    required: "Required field",
    legal: "Legal notice",
    doc: "User instructions",
    maintenance: "Under maintenance",
  },
} as const;

for (const locale of ["fr", "en"] as const) {
  test.describe(`screens in ${locale}`, () => {
    test.beforeEach(async ({ context }) => {
      await context.addCookies([{ name: "lng", value: localeCookie(locale), domain: "127.0.0.1", path: "/" }]);
      // The PDF viewer's frames refuse storage: an uncaught error there would fail the journey.
      await context.addInitScript((l) => {
        try {
          window.localStorage.setItem("locale", l);
        } catch {
          // a PDF document's frame
        }
      }, locale);
    });

    test(`[A-SCOPE-01] [A-LOGIN-03] login, legal notice and maintenance pages in ${locale}`, async ({ page }) => {
      const t = TEXT[locale];
      await navigate(page, "/login");
      await expect(page.getByRole("heading", { name: t.login })).toBeVisible();
      await expect(page.getByTestId("partner-logos").getByRole("img").first()).toBeVisible();
      await shot(page, `${locale}-01-login`);
      await navigate(page, "/mentions-legales");
      await expect(page.getByRole("heading", { name: t.legal, level: 1 })).toBeVisible();
      await shot(page, `${locale}-02-legal-notice`);
      await page.goto(`http://127.0.0.1:${E2E.maintenancePort}${E2E.basePath}login`);
      await expect(page.getByRole("heading", { name: t.maintenance })).toBeVisible();
      await shot(page, `${locale}-03-maintenance`);
    });

    test(`[A-SCOPE-01] [A-CGU-03] the terms page as nouveau in ${locale}`, async ({ page }) => {
      await e2eDb()("utilisateur").where({ username: "nouveau" }).update({ acceptcgu: false, isVisible: false });
      await signIn(page, "nouveau");
      await expect(page.getByRole("heading", { name: TEXT[locale].cgu, level: 1 })).toBeVisible();
      await expect(page.getByTestId("cgu-pdf")).toBeVisible();
      await frameLoaded(page.getByTestId("cgu-pdf"));
      await shot(page, `${locale}-04-cgu-nouveau`);
    });

    test(`[A-SCOPE-01] [A-HOME-02] [A-CTX-21] home, shell with a campaign, documentation and profile errors as lecteur in ${locale}`, async ({ page }) => {
      const t = TEXT[locale];
      const ids = await demoIds();
      await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
      try {
        await signIn(page, "lecteur");
        await expect(page.getByRole("heading", { name: t.home })).toBeVisible();
        await expect(page.getByTestId("news-carousel")).toBeVisible();
        await shot(page, `${locale}-05-home-lecteur`);

        await navigate(page, "/home/description/exploitation/description");
        await expect(page.getByTestId("select-campagne")).toHaveText("2025");
        await expect(page.getByTestId("drawer")).toBeVisible();
        await shot(page, `${locale}-06-shell-campaign-lecteur`);

        await page.getByRole("button", { name: "Documentation" }).click();
        await expect(page.getByRole("menuitem").first()).toBeVisible();
        await shot(page, `${locale}-07-documentation-menu`);
        await page.keyboard.press("Escape");

        await navigate(page, "/home/documentation/notice");
        await expect(page.getByRole("heading", { name: t.doc, level: 1 })).toBeVisible();
        await frameLoaded(page.getByTestId("doc-frame"));
        await shot(page, `${locale}-08-documentation-notice`);

        await navigate(page, "/home/profil");
        await expect(page.getByRole("heading", { name: t.profile })).toBeVisible();
        await page.getByTestId("profile-form").locator("input[name=nom]").fill("");
        await page.getByTestId("profile-form").locator("input[name=password]").fill("court");
        await page.getByTestId("profile-save").click();
        await expect(page.getByText(t.required).first()).toBeVisible();
        await shot(page, `${locale}-09-profile-errors`);
      } finally {
        await resetContext("lecteur");
      }
    });
  });
}
