import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { DEMO_PASSWORD, e2eDb, expect, test, userId, type DemoUser } from "./fixtures";
import { E2E } from "./settings";

/**
 * At HTTP level, each demo user is refused every write the rights matrix forbids: the answer is a refusal
 * (403, or a redirect away from a screen the user may not open) and the database is unchanged.
 */

async function signedIn(user: DemoUser): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: E2E.baseURL });
  const res = await ctx.post("api/v1/login_check", { multipart: { username: user, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
  return ctx;
}

async function ids() {
  const db = e2eDb();
  const one = async (table: string, where: Record<string, unknown>) => (await db(table).where(where).first("id")).id as number;
  return {
    beauce: await one("dossier", { libelle: "Groupe Grandes cultures Beauce" }),
    reseau: await one("oad", { libelle: "Réseau démo" }),
    tilleuls: await one("exploitation", { libelle: "EARL des Tilleuls" }),
    tilleuls2024: await one("campagne", { anneeRecolte: 2024, idExploitation: (await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id")).id }),
  };
}

async function selectContext(user: DemoUser) {
  const i = await ids();
  const idUser = await userId(user);
  await e2eDb()("utilisateur_contexte").where({ idUser }).delete();
  await e2eDb()("utilisateur_contexte").insert({ idUser, idOad: i.reseau, idDossier: i.beauce, exploitations: JSON.stringify([i.tilleuls]), idCampagne: i.tilleuls2024 });
  return i;
}

async function snapshot() {
  const db = e2eDb();
  const tables = ["dossier", "exploitation", "dossier_exploitation", "utilisateur_dossier", "campagne", "utilisateur_contexte"];
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = await db(t).select("*").orderBy(t === "utilisateur_contexte" ? "id_user" : "id");
  // The context row of the caller may be rewritten with the same values; compare what matters.
  out.utilisateur_contexte = (out.utilisateur_contexte as Record<string, unknown>[]).map(({ updatedAt: _u, createdAt: _c, ...r }) => r);
  return out;
}

type Write = { name: string; path: string; form: Record<string, string> };

function writes(i: Awaited<ReturnType<typeof ids>>): Write[] {
  return [
    { name: "folder update", path: "home/description/parametre_dossier", form: { intent: "update", libelle: "Piraté", idOad: String(i.reseau), remarque: "" } },
    { name: "folder rights", path: "home/description/parametre_dossier", form: { intent: "rights", rows: JSON.stringify({ rows: [] }) } },
    { name: "folder delete", path: "home/description/parametre_dossier", form: { intent: "delete" } },
    { name: "farm update", path: "home/description/parametre_exploitation", form: { intent: "update", libelle: "Piratée", idTypeExploitation: "1" } },
    { name: "farm delete", path: "home/description/parametre_exploitation", form: { intent: "delete" } },
    { name: "campaign delete", path: "home/description/parametre_exploitation", form: { intent: "deleteCampagne", idCampagne: String(i.tilleuls2024) } },
    { name: "new farm", path: "home/partage", form: { intent: "createExploitation", libelle: "Intruse", idTypeExploitation: "1" } },
    { name: "new campaign", path: "home/partage", form: { intent: "createCampagne", anneeRecolte: "2030", idExploitation: String(i.tilleuls) } },
    { name: "unlock campaign", path: "home/partage", form: { intent: "unlockCampagne" } },
  ];
}

const FORBIDDEN: Record<string, string[]> = {
  lecteur: ["folder update", "folder rights", "folder delete", "farm update", "farm delete", "campaign delete", "new farm", "new campaign", "unlock campaign"],
  synthese: ["folder update", "folder rights", "folder delete", "farm update", "farm delete", "campaign delete", "new farm", "new campaign", "unlock campaign"],
  redacteur: ["folder update", "folder rights", "folder delete"],
};

for (const [user, forbidden] of Object.entries(FORBIDDEN) as [DemoUser, string[]][]) {
  test(`[A-RIGHTS-05] [A-RIGHTS-06] [A-RIGHTS-07] [A-RIGHTS-09] [A-RIGHTS-11] [A-ROUTE-08] [A-ROUTE-10] ${user} is refused every write the matrix forbids, and nothing changes`, async () => {
    const i = await selectContext(user);
    const api = await signedIn(user);
    for (const w of writes(i).filter((x) => forbidden.includes(x.name))) {
      const before = await snapshot();
      const res = await api.post(w.path, { form: w.form, maxRedirects: 0 });
      expect([302, 403], `${user}: ${w.name} answered ${res.status()}`).toContain(res.status());
      expect(await snapshot(), `${user}: ${w.name} changed the database`).toEqual(before);
    }
    await api.dispose();
  });
}

test("[A-RIGHTS-08] a request without a session is sent to the login page and changes nothing", async () => {
  const i = await ids();
  const api = await playwrightRequest.newContext({ baseURL: E2E.baseURL });
  const before = await snapshot();
  const res = await api.post("home/partage", { form: { intent: "createExploitation", libelle: "Anonyme", idTypeExploitation: "1" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toMatch(/\/login$/);
  expect(await snapshot()).toEqual(before);
  expect(i.beauce).toBeGreaterThan(0);
  await api.dispose();
});

test("[A-RIGHTS-07] [A-CAMP-15] the same requests succeed for a user the matrix allows (the refusals above are the rights')", async () => {
  const i = await selectContext("animateur");
  const api = await signedIn("animateur");
  const before = await e2eDb()("campagne").where({ idExploitation: i.tilleuls, anneeRecolte: 2031 }).count({ n: "*" }).first();
  const res = await api.post("home/partage", { form: { intent: "createCampagne", anneeRecolte: "2031", idExploitation: String(i.tilleuls) }, maxRedirects: 0 });
  expect(res.status()).toBe(200);
  const after = await e2eDb()("campagne").where({ idExploitation: i.tilleuls, anneeRecolte: 2031 }).count({ n: "*" }).first();
  expect(Number(after?.n)).toBe(Number(before?.n) + 1);
  const bad = await api.post("home/partage", { form: { intent: "createCampagne", anneeRecolte: "", idExploitation: String(i.tilleuls) }, maxRedirects: 0 });
  expect(bad.status()).toBe(400);
  await e2eDb()("campagne").where({ idExploitation: i.tilleuls, anneeRecolte: 2031 }).delete();
  await api.dispose();
});

test("[A-CONST-04] [A-CONST-05] the context bar's tooltips appear after about 200 ms and are at most 300 wide", async ({ page }) => {
  await selectContext("animateur");
  await page.goto("login");
  await page.getByLabel("Nom d'utilisateur").fill("animateur");
  await page.getByLabel("Mot de passe").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForURL(/home\/description\/home/);
  await page.goto("home/description/exploitation/description");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const target = page.getByTestId("add-campaign");
  const tooltip = page.locator("[role=tooltip]").filter({ hasText: "Nouvelle campagne" });
  await target.hover();
  await page.waitForTimeout(60);
  await expect(tooltip).toBeHidden();
  await expect(tooltip).toBeVisible({ timeout: 1000 });
  const width = await tooltip.evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeLessThanOrEqual(300);
});
