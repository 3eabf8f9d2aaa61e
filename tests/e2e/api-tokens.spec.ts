import { e2eDb, expect, test } from "./fixtures";
import { noSeriousAxeViolationInMain, signIn } from "./helpers";

// Personal access tokens on the profile page, and the sign-in keeping no token in the page (issue 26, decision 0098).
// The journeys use `animateur`, whose personal tokens they remove after each test.
const USER = "animateur" as const;

async function removeTokens() {
  const user = await e2eDb()("utilisateur").where({ username: USER }).first("id");
  await e2eDb()("api_token").where({ idUser: user.id, nature: "personnel" }).delete();
}
test.beforeEach(removeTokens);
test.afterEach(removeTokens);

test("[A-API-04] signing in keeps no token in the page's storage: the session is the HttpOnly cookie", async ({ page }) => {
  await signIn(page, USER);
  const stored = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie }));
  expect(stored.local).not.toHaveProperty("token");
  expect(Object.values(stored.local).join(" ")).not.toMatch(/[\w-]{43}/);
  expect(stored.session).not.toHaveProperty("token");
  expect(stored.cookies).not.toContain("__sillon_session");
  const cookie = (await page.context().cookies()).find((c) => c.name === "__sillon_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
});

test("[A-API-07] the profile page makes a personal token, shows it once, lists it and revokes it; the API accepts it until then", async ({ page }) => {
  await signIn(page, USER);
  await page.getByTestId("profile-link").click();
  const panel = page.getByTestId("jetons-api");
  await expect(panel.getByRole("heading", { name: "Jetons d'accès à l'API" })).toBeVisible();
  await expect(panel.getByText("Aucun jeton.")).toBeVisible();
  await noSeriousAxeViolationInMain(page);

  await panel.getByLabel("Nom du jeton").fill("Entrepôt");
  await panel.getByLabel("Accès").selectOption("lecture");
  await panel.getByLabel("Validité (jours)").fill("30");
  await panel.getByRole("button", { name: "Créer le jeton" }).click();
  const value = (await panel.getByTestId("jeton-api-valeur").textContent())!.trim();
  expect(value).toMatch(/^[\w-]{43}$/);
  await expect(panel.getByTestId("jeton-api-ligne")).toHaveCount(1);
  await expect(panel.getByTestId("jeton-api-ligne")).toContainText(/Entrepôt · Lecture seule · Expire le \d{2}\/\d{2}\/\d{4} · Dernière utilisation jamais/);

  const api = await page.context().request.get("api/v1/oads", { headers: { Authorization: `Bearer ${value}` } });
  expect(api.status()).toBe(200);
  // A write with the read-only token is refused.
  const write = await page.context().request.post("api/v1/dossiers", { headers: { Authorization: `Bearer ${value}` }, data: { libelle: "Non", idOad: 1 } });
  expect(write.status()).toBe(403);

  await panel.getByRole("button", { name: "Révoquer Entrepôt" }).click();
  await expect(panel.getByText("Aucun jeton.")).toBeVisible();
  const after = await page.context().request.get("api/v1/oads", { headers: { Authorization: `Bearer ${value}` } });
  expect(after.status()).toBe(401);
});
