import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createDb, type Db } from "../../server/db/knex";
import { E2E } from "./settings";

export const DEMO_PASSWORD = "demo1234";
export type DemoUser = "admin" | "animateur" | "redacteur" | "lecteur" | "synthese" | "nouveau";

/** Opens a path of the app (given without the base path, e.g. "/home/profil"). */
export async function navigate(page: Page, appPath: string) {
  const target = appPath.replace(/^\//, "");
  try {
    await page.goto(target);
  } catch (e) {
    // A navigation the page starts on its own just then (the language kept in sync after a switch) aborts the
    // test's; the test's page is asked for again, once.
    if (!String(e).includes("net::ERR_ABORTED")) throw e;
    await page.goto(target);
  }
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
/**
 * Every page of the browser context starts in English (a test.beforeEach of an English describe): the cookie for the
 * server, the stored choice for the browser (a frame without storage, of an opaque origin, has no language to keep).
 */
export async function contextInEnglish(context: BrowserContext) {
  await context.addCookies([{ name: "lng", value: localeCookie("en"), domain: "127.0.0.1", path: "/" }]);
  await context.addInitScript(() => {
    try {
      window.localStorage.setItem("locale", "en");
    } catch {
      // no storage in this frame
    }
  });
}

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
  await e2eDb()("utilisateur_contexte")
    .where({ idUser: await userId(username) })
    .delete();
}

/**
 * Console errors that every journey may meet, so that they do not fail it (anything else does: uncaught errors,
 * console.error calls, 5xx answers, requests that fail without an answer):
 * - the map tiles: the e2e server points MAP_IMAGERY_TILES and MAP_LABELS_TILES at addresses of its own that
 *   answer 404 (no network in tests, and the journeys check that the map still draws without its layers);
 * - the maintenance-mode server's 503 answers (its port only);
 * - answers in the 400 range: Chromium logs "Failed to load resource" for each, but they are the app's own
 *   answers (412 without a context, 403 without the right, 404 for a missing page, 400 for a refused form),
 *   which the journeys check through what the user is shown.
 * A journey that provokes another error on purpose (a login answered 500, a request it aborts) says so with
 * `browserErrors.allow(/…/)`, matched against "<message> (<address>)".
 */
const EXPECTED_CONSOLE_ERRORS: RegExp[] = [
  /\/tuiles-absentes\//,
  // The maintenance-mode server answers every page 503 by design (spec 1 §2).
  new RegExp(`status of 503 \\(Service Unavailable\\) \\(http://127\\.0\\.0\\.1:${E2E.maintenancePort}/`),
  /^Failed to load resource: the server responded with a status of 4\d\d /,
];

type BrowserErrors = { allow(pattern: RegExp): void };

/** Records uncaught page errors and unexpected console errors of every page of a browser context. */
function watchErrors(context: BrowserContext, expected: RegExp[], errors: string[]) {
  context.on("weberror", (e) => errors.push(`uncaught error: ${e.error().stack ?? e.error().message}`));
  context.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = `${msg.text()} (${msg.location().url})`;
    if (!expected.some((re) => re.test(text))) errors.push(`console error: ${text}`);
  });
}

type E2EServer = { baseURL: string; maintenanceURL: string };

/** Servers started by a worker of this slot and not stopped (the worker was killed): stopped before starting anew. */
const pidFile = `${E2E.dataDir}.pids`;

function stopLeftovers() {
  if (!fs.existsSync(pidFile)) return;
  for (const pid of fs.readFileSync(pidFile, "utf8").split(/\s+/).filter(Boolean).map(Number)) {
    const cmdline = fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
    if (cmdline.includes("server/start.js")) process.kill(pid, "SIGKILL");
  }
  fs.rmSync(pidFile);
}

/** Starts `node server/start.js` with the given settings; resolves once it says it listens and `readyURL` answers. */
async function startServer(name: string, readyURL: string, env: Record<string, string>): Promise<ChildProcess> {
  const log = path.resolve("tests/.artifacts", `${name}.log`);
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const inherited = { ...process.env };
  for (const key of ["DATABASE_URL", "MAINTENANCE", "SEED_DEMO", "PORT", "DATA_DIR"]) delete inherited[key];
  // FORCE_BUILD=0: the app was built once before the run (globalSetup); a worker never rebuilds it.
  const child = spawn(process.execPath, ["server/start.js"], {
    env: { WEB_CONCURRENCY: "1", ...inherited, ...env, BASE_PATH: E2E.basePath, FORCE_BUILD: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  fs.appendFileSync(pidFile, `${child.pid}\n`);
  // Should the worker end without its teardown, its servers go with it.
  process.once("exit", () => child.kill("SIGKILL"));
  const out = fs.createWriteStream(log);
  child.stderr!.pipe(out);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s; see ${log}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out.write(chunk);
      output += chunk.toString();
      if (output.includes("Sillon listens on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} stopped (exit code ${code}) before listening; see ${log}:\n${output}`));
    });
  });
  const answer = await fetch(readyURL);
  if (!answer.ok) throw new Error(`${name} answers ${answer.status} at ${readyURL}; see ${log}`);
  return child;
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<{ browserErrors: BrowserErrors }, { e2eServer: E2EServer }>({
  /**
   * This worker's servers: the app and the maintenance-mode app, each on a fresh copy of the data folder set up
   * once before the run (tests/setup/e2e-global.ts), on ports E2E_PORT + 2 × slot and the next one (settings.ts).
   */
  e2eServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring: none here
    async ({}, use) => {
      stopLeftovers();
      for (const dir of [E2E.dataDir, E2E.maintenanceDataDir]) {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.cpSync(E2E.templateDir, dir, { recursive: true });
      }
      const servers = await Promise.all([
        startServer(`server-${E2E.port}`, `${E2E.baseURL}login`, {
          PORT: String(E2E.port),
          DATA_DIR: E2E.dataDir,
          APP_ENV: "production",
          SESSION_SECRET: "e2e-session-secret-0123456789",
          // Tile addresses on this server that answer 404: the journeys see the map ask for both layers and still draw offline.
          MAP_IMAGERY_TILES: `${E2E.baseURL}tuiles-absentes/ortho/{z}/{x}/{y}.jpg`,
          MAP_LABELS_TILES: `${E2E.baseURL}tuiles-absentes/noms/{z}/{x}/{y}.png`,
          // The external pages are hidden until configured: the journeys configure them.
          FORGOT_PASSWORD_URL_FR: "https://sillon.example/fr/mot-de-passe-oublie",
          FORGOT_PASSWORD_URL_EN: "https://sillon.example/en/forgot-password",
          NO_ACCOUNT_URL: "https://sillon.example/fr/demander-un-compte",
          ACTUALISATION_URL: "https://sillon.example/actualisation",
        }),
        startServer(`server-${E2E.maintenancePort}-maintenance`, `http://127.0.0.1:${E2E.maintenancePort}${E2E.basePath}favicon.svg`, {
          PORT: String(E2E.maintenancePort),
          DATA_DIR: E2E.maintenanceDataDir,
          MAINTENANCE: "1",
          SEED_DEMO: "0",
        }),
      ]);
      try {
        await use({ baseURL: E2E.baseURL, maintenanceURL: `http://127.0.0.1:${E2E.maintenancePort}${E2E.basePath}` });
      } finally {
        await Promise.all(servers.map(stopServer));
        fs.rmSync(pidFile, { force: true });
        await dbInstance?.destroy();
        dbInstance = undefined;
      }
    },
    { scope: "worker", auto: true, timeout: 90_000 },
  ],
  baseURL: async ({ e2eServer }, use) => use(e2eServer.baseURL),
  /**
   * Fails the journey on any uncaught error in a page and on any console error not expected, in the test's own
   * context and in any context the test opens with `browser.newContext`.
   */
  browserErrors: [
    async ({ context, browser }, use) => {
      const errors: string[] = [];
      const expected = [...EXPECTED_CONSOLE_ERRORS];
      watchErrors(context, expected, errors);
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const created = await newContext.apply(browser, args);
        watchErrors(created, expected, errors);
        return created;
      };
      try {
        await use({ allow: (pattern) => expected.push(pattern) });
      } finally {
        browser.newContext = newContext;
      }
      if (errors.length) throw new Error(`The browser reported ${errors.length} unexpected error(s):\n${errors.join("\n")}`);
    },
    { auto: true },
  ],
});

export { expect };
