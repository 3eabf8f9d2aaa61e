import AxeBuilder from "@axe-core/playwright";
import { request as playwrightRequest, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { DEMO_PASSWORD, e2eDb, expect, login, navigate, userId, type DemoUser } from "./fixtures";
import { E2E } from "./settings";

/** Signs in and waits for the page the user lands on (home, or the terms for `nouveau`). */
export async function signIn(page: Page, username: DemoUser) {
  await login(page, username);
  await expect(page).toHaveURL(username === "nouveau" ? /\/sillon\/cgu$/ : /\/sillon\/home\/description\/home$/);
}

/** Ids of the demo rows, looked up by their names (the seed gives no fixed ids). */
export async function demoIds() {
  const db = e2eDb();
  const id = async (table: string, libelle: string) => (await db(table).where({ libelle }).first("id")).id as number;
  const campagne = async (farm: number, anneeRecolte: number, simulation = false) =>
    (await db("campagne").where({ idExploitation: farm, anneeRecolte, simulation }).first("id")).id as number;
  const tilleuls = await id("exploitation", "EARL des Tilleuls");
  const moulin = await id("exploitation", "GAEC du Moulin");
  const vallee = await id("exploitation", "Ferme de la Vallée");
  return {
    reseauDemo: await id("oad", "Réseau démo"),
    international: await id("oad", "International"),
    beauce: await id("dossier", "Groupe Grandes cultures Beauce"),
    bocage: await id("dossier", "Groupe Polyculture-élevage Bocage"),
    tilleuls,
    moulin,
    vallee,
    tilleuls2024: await campagne(tilleuls, 2024),
    tilleuls2025: await campagne(tilleuls, 2025),
    tilleulsSimulation: await campagne(tilleuls, 2025, true),
  };
}

/**
 * Writes a user's context selection straight into the database, as the context bar would have saved it.
 * `postsSeen` (default true) marks every news post as seen, so that the home icon carries no dot.
 */
export async function setContext(
  username: DemoUser,
  c: { idOad?: number | null; idDossier?: number | null; exploitations?: number[]; idCampagne?: number | null; postsSeen?: boolean },
) {
  const idUser = await userId(username);
  const db = e2eDb();
  const latest = await db("post").max({ d: "creation_date" }).first();
  const row = {
    idUser,
    idOad: c.idOad ?? null,
    idDossier: c.idDossier ?? null,
    exploitations: JSON.stringify(c.exploitations ?? []),
    idCampagne: c.idCampagne ?? null,
    idCampagneDeverrouillee: null,
    lastPostDate: c.postsSeen === false ? null : new Date(latest?.d ?? Date.now()),
    updatedAt: new Date(),
  };
  await db("utilisateur_contexte").insert(row).onConflict("id_user").merge();
}

/**
 * Signs `user` in with EARL des Tilleuls of the Beauce folder and campaign `idCampagne` selected (the context row
 * written first, news left as they are), then opens `appPath`. English: the login page is in English, the user signs
 * in by the fields' names.
 */
export async function signInOnTilleuls(page: Page, user: DemoUser, idCampagne: number, appPath: string, english = false) {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const idUser = await userId(user);
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({ idUser, idOad: dossier.idOad, idDossier: dossier.id, exploitations: JSON.stringify([farm.id]), idCampagne });
  if (english) {
    await navigate(page, "/login");
    await page.locator("input[name=username]").fill(user);
    await page.locator("input[name=password]").fill(DEMO_PASSWORD);
    await page.locator("form#login button[type=submit]").click();
  } else {
    await page.context().clearCookies();
    await login(page, user);
  }
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, appPath);
}

/** The stored context row of a user, as the server keeps it. */
export async function storedContext(username: DemoUser) {
  const row = await e2eDb()("utilisateur_contexte")
    .where({ idUser: await userId(username) })
    .first();
  return row
    ? {
        idOad: row.idOad as number | null,
        idDossier: row.idDossier as number | null,
        exploitations: JSON.parse(row.exploitations) as number[],
        idCampagne: row.idCampagne as number | null,
      }
    : null;
}

/** Opens a context-bar selector and picks one option by its visible name; waits for the choice to be recorded. */
export async function pick(page: Page, selector: "select-oad" | "select-dossier" | "select-campagne", option: string | RegExp) {
  await page.getByTestId(selector).click();
  const done = page.waitForResponse((r) => r.url().includes("/home/contexte") && r.request().method() === "POST");
  await page.getByRole("option", typeof option === "string" ? { name: option, exact: true } : { name: option }).click();
  await done;
}

/** Ticks or unticks farms in the multiple farm selector, then closes it. */
export async function toggleFarms(page: Page, ...farms: string[]) {
  await page.getByTestId("select-exploitations").click();
  for (const farm of farms) {
    const done = page.waitForResponse((r) => r.url().includes("/home/contexte") && r.request().method() === "POST");
    await page.getByRole("option").filter({ hasText: farm }).click();
    await done;
  }
  await page.keyboard.press("Escape");
}

/** The options a context-bar selector offers, in order (opens it, reads, closes it). */
export async function optionsOf(page: Page, selector: "select-oad" | "select-dossier" | "select-exploitations" | "select-campagne") {
  const button = page.getByTestId(selector);
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  const list = page.locator(`[id="${await button.getAttribute("aria-controls")}"]`);
  const options = list.getByRole("option");
  await expect(options.first()).toBeVisible();
  const names = (await options.allInnerTexts()).map((s) => s.replace(/^✓/, "").trim());
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  return names;
}

/** Sets the date of the last news post the user has seen (null: never seen any), keeping the rest of their context. */
export async function setLastPostDate(username: DemoUser, date: Date | null) {
  const idUser = await userId(username);
  const db = e2eDb();
  const existing = await db("utilisateur_contexte").where({ idUser }).first("idUser");
  if (existing) await db("utilisateur_contexte").where({ idUser }).update({ lastPostDate: date, updatedAt: new Date() });
  else await db("utilisateur_contexte").insert({ idUser, exploitations: "[]", lastPostDate: date });
}

/** The date of the newest news post. */
export async function latestPostDate(): Promise<Date> {
  const row = await e2eDb()("post").max({ d: "creation_date" }).first();
  return new Date(row!.d);
}

/** The document title written in a PDF's information dictionary (UTF-16 hex string or literal). */
export function pdfTitle(pdf: Buffer): string {
  const text = pdf.toString("latin1");
  const hex = /\/Title\s*<FEFF([0-9A-Fa-f]*)>/.exec(text);
  if (hex) return Buffer.from(hex[1], "hex").swap16().toString("utf16le");
  const literal = /\/Title\s*\(([^)]*)\)/.exec(text);
  return literal ? literal[1] : "";
}

/**
 * Resolves once the page has handled everything queued before this call (input events, answers already received)
 * and painted twice: the moment to check that something did NOT happen, without a fixed sleep.
 */
export async function afterRender(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Waits for the document inside an iframe (e.g. a PDF) to finish loading. */
export async function frameLoaded(frame: Locator) {
  const content = await (await frame.elementHandle())!.contentFrame();
  await content!.waitForLoadState("load");
}

/**
 * An API context signed in as `user` through the /login form, sending the app's own Origin as a browser does
 * (the edge refuses a write without one: decision 0020), so that a refusal it gets is the app's, not the edge's.
 */
export async function apiAs(user: DemoUser): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: E2E.baseURL, extraHTTPHeaders: { Origin: new URL(E2E.baseURL).origin } });
  const res = await api.post("login", { form: { username: user, password: DEMO_PASSWORD }, maxRedirects: 0 });
  expect(res.status(), `${user} signs in`).toBe(302);
  return api;
}

/** Inserts a row straight into the e2e database and gives its id (SQLite and PostgreSQL answer differently). */
export async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await e2eDb()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** The texts of a grid's row as its accessible table gives them (the row number first). */
export async function gridRowTexts(page: Page, row: number): Promise<string[]> {
  return page.locator(`table[role="grid"] tbody tr[aria-rowindex="${row + 2}"] td`).allTextContents();
}

/** Pastes text into the focused element as the clipboard does (a spreadsheet's block: tab-separated lines). */
export async function pasteText(page: Page, text: string) {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", t);
    document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

/** Fails on any serious or critical axe violation inside the page's main element, naming the rule and the nodes. */
export async function noSeriousAxeViolationInMain(page: Page) {
  const r = await new AxeBuilder({ page }).include("main").analyze();
  expect(
    r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`),
  ).toEqual([]);
}

/** The id of a campaign's latest finished calculation series (the demo seeds some: server/demo/seed-series.ts). */
export async function latestFinishedSerie(idCampagne: number): Promise<number> {
  const s = await e2eDb()("calcul_serie").where({ idCampagne, statut: "termine" }).orderBy("id", "desc").first("id");
  if (!s) throw new Error(`the demo has no finished series of campaign ${idCampagne} (server/demo/seed-series.ts)`);
  return Number(s.id);
}
