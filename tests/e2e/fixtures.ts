import { test as base, expect, type Page } from "@playwright/test";
import path from "node:path";
import { createDb, type Db } from "../../server/db/knex";
import { E2E } from "./settings";

export const DEMO_PASSWORD = "demo1234";
export type DemoUser = "admin" | "animateur" | "redacteur" | "lecteur" | "synthese" | "nouveau";

/** Opens a path of the app (given without the base path, e.g. "/home/profil"). */
export async function navigate(page: Page, appPath: string) {
  await page.goto(appPath.replace(/^\//, ""));
  await waitForHydration(page);
}

/** The page's scripts have taken over (a click before that would be lost). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true" || !!document.querySelector("[data-testid=maintenance-page]"));
}

/** The language cookie's value, as the server writes it (app/middleware/i18next.ts). */
export const localeCookie = (locale: string) => Buffer.from(JSON.stringify(locale)).toString("base64");

/**
 * Switches a signed-in page to English and opens `appPath`. The cookie and the stored choice both say
 * English, so the server renders English at once: no locale-sync reload can cut the navigation short.
 */
export async function inEnglish(page: Page, appPath: string) {
  await page.context().addCookies([{ name: "lng", value: localeCookie("en"), domain: "127.0.0.1", path: "/" }]);
  await page.evaluate(() => window.localStorage.setItem("locale", "en"));
  await navigate(page, appPath);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
}

export async function login(page: Page, username: DemoUser, password = DEMO_PASSWORD) {
  await navigate(page, "/login");
  await page.getByLabel("Nom d'utilisateur").fill(username);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

let dbInstance: Db | undefined;

/** The e2e server's own database, to prepare a state or check what a screen wrote. */
export function e2eDb(): Db {
  dbInstance ??= createDb(`file:${path.join(E2E.dataDir, "sillon.sqlite")}`);
  return dbInstance;
}

export async function userId(username: DemoUser): Promise<number> {
  const row = await e2eDb()("utilisateur").where({ username }).first("id");
  return row.id;
}

/** Forgets a user's context selection, so that a journey starts from an empty context bar. */
export async function resetContext(username: DemoUser) {
  await e2eDb()("utilisateur_contexte").where({ idUser: await userId(username) }).delete();
}

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await use(errors);
    },
    { auto: true },
  ],
});

export { expect };
