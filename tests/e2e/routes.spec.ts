import { expect, navigate, resetContext, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";
import { E2E } from "./settings";

const EXPLOITATION = [
  ["description", "Description de l'exploitation"],
  ["coordonnees", "Coordonnées"],
  ["caracteristiques_economiques", "Caractéristiques économiques"],
  ["caracteristiques_pedologiques", "Caractéristiques pédologiques"],
  ["parc_materiel", "Parc matériel"],
  ["main_oeuvre", "Main-d'œuvre"],
  ["operations_culturales", "Opérations culturales"],
  ["cultures", "Cultures et modes de conduite"],
  ["parcelle", "Parcelles"],
  ["lot_parcelle", "Lots de parcelles"],
  ["amenagements", "Aménagements"],
  ["analyse", "Analyse de sol"],
] as const;
const AU_CHAMPS = [
  ["mesures", "Mesures et observations"],
  ["interventions", "Interventions"],
] as const;
const PRIX = [
  ["prix_approvisionnement", "Prix d'approvisionnement"],
  ["prix_vente", "Prix de vente"],
] as const;
const PROTOCOLE = [
  ["description_systeme", "Description du système"],
  ["rotation_mode_conduite", "Rotation et modes de conduite"],
  ["rdd", "Règles de décision"],
] as const;

test.describe("base path, history mode and the first redirects", () => {
  test("[A-ROUTE-01] [A-ROUTE-02] [A-ROUTE-03] the app lives under its base path with plain addresses, and its root opens /login", async ({ page }) => {
    await page.goto(`http://127.0.0.1:${E2E.port}/`);
    await expect(page).toHaveURL(`${E2E.baseURL}login`);
    await navigate(page, "/");
    await expect(page).toHaveURL(`${E2E.baseURL}login`);
    await signIn(page, "lecteur");
    await page.getByRole("button", { name: "Documentation" }).click();
    await page.getByRole("menuitem", { name: "FAQ" }).click();
    await expect(page).toHaveURL(`${E2E.baseURL}home/documentation/faq`);
    expect(new URL(page.url()).hash).toBe("");
    // Every link of the shell is a plain path under the base path.
    const hrefs = await page.locator("a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThanOrEqual(4);
    for (const href of hrefs) {
      expect(href.startsWith(E2E.basePath)).toBe(true);
      expect(href).not.toContain("#");
    }
  });

  test("[A-ROUTE-04] [A-LOGIN-01] any /home route opened without a session goes to /login", async ({ page }) => {
    for (const path of [
      "/home",
      "/home/description/home",
      "/home/description/exploitation/cultures",
      "/home/profil",
      "/home/documentation/faq",
      "/home/resultats/indicateurs",
    ]) {
      await navigate(page, path);
      await expect(page).toHaveURL(`${E2E.baseURL}login`);
    }
    await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();
  });

  test("[A-ROUTE-29] the passwordForgotten route leads to the external forgot-password page of the locale", async ({ page }) => {
    await navigate(page, "/login");
    const expected = await page.getByTestId("forgot-password").getAttribute("href");
    const response = await page.request.get("mot-de-passe-oublie", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe(expected);
  });
});

test.describe("description routes", () => {
  test.afterAll(() => resetContext("lecteur"));

  test("[A-ROUTE-06] [A-ROUTE-11] [A-ROUTE-14] [A-ROUTE-17] [A-ROUTE-20] the section addresses open their first screen", async ({ page }) => {
    await resetContext("lecteur");
    await signIn(page, "lecteur");
    for (const [from, to] of [
      ["/home/description", "/home/description/exploitation/description"],
      ["/home/description/exploitation", "/home/description/exploitation/description"],
      ["/home/description/au_champs", "/home/description/au_champs/mesures"],
      ["/home/description/prix", "/home/description/prix/prix_approvisionnement"],
      ["/home/description/protocole", "/home/description/protocole/description_systeme"],
    ]) {
      await navigate(page, from);
      await expect(page).toHaveURL(`${E2E.baseURL}${to.slice(1)}`);
    }
  });

  test("[A-ROUTE-13] [A-ROUTE-16] [A-ROUTE-19] [A-ROUTE-22] [C-INT-03] without a campaign, the campaign screens give way to the start instruction", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "lecteur");
    for (const [section, screens] of [
      ["exploitation", EXPLOITATION],
      ["au_champs", AU_CHAMPS],
      ["prix", PRIX],
      ["protocole", PROTOCOLE],
    ] as const) {
      for (const [path, title] of screens) {
        await navigate(page, `/home/description/${section}/${path}`);
        await expect(page.getByTestId("campaign-required")).toContainText("Pour commencer, choisissez un réseau");
        await expect(page.locator("main").getByRole("heading", { name: title, exact: true })).toHaveCount(0);
        await expect(page.getByTestId(`screen-${path}`)).toHaveCount(0);
      }
    }
  });

  test("[A-ROUTE-12] [A-ROUTE-15] [A-ROUTE-18] [A-ROUTE-21] with a campaign, every child screen of the description sections opens", async ({ page }) => {
    // A long journey (every screen of the sections): on a busy 2-core machine it needs more than 30 s.
    test.slow();
    const ids = await demoIds();
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await signIn(page, "lecteur");
    for (const [section, screens] of [
      ["exploitation", EXPLOITATION],
      ["au_champs", AU_CHAMPS],
      ["prix", PRIX],
      ["protocole", PROTOCOLE],
    ] as const) {
      for (const [path, title] of screens) {
        await navigate(page, `/home/description/${section}/${path}`);
        // The screen's own title (a later issue may replace the placeholder by the real screen).
        await expect(page.locator("main").getByRole("heading", { level: 1, name: title, exact: true })).toBeVisible();
        await expect(page.getByTestId("campaign-required")).toHaveCount(0);
        await expect(page.getByTestId("context-bar")).toBeVisible();
      }
    }
  });
});

test.describe("settings routes", () => {
  test.afterAll(async () => {
    await resetContext("redacteur");
    await resetContext("lecteur");
    await resetContext("animateur");
  });

  test("[A-ROUTE-07] [A-ROUTE-09] folder and farm settings are not reachable while nothing is selected", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo });
    await signIn(page, "animateur");
    await navigate(page, "/home/description/parametre_dossier");
    await expect(page).toHaveURL(/\/home\/description\/home(\?refus=shell\.refused\.[a-z-]+)?$/);
    await expect(page.getByTestId("screen-parametre_dossier")).toHaveCount(0);
    await navigate(page, "/home/description/parametre_exploitation");
    await expect(page).toHaveURL(/\/home\/description\/home(\?refus=shell\.refused\.[a-z-]+)?$/);
    // A folder, no farm: the folder settings open, the farm settings still do not.
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce });
    await navigate(page, "/home/description/parametre_dossier");
    await expect(page.getByTestId("screen-parametre_dossier")).toBeVisible();
    await navigate(page, "/home/description/parametre_exploitation");
    await expect(page).toHaveURL(/\/home\/description\/home(\?refus=shell\.refused\.[a-z-]+)?$/);
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await navigate(page, "/home/description/parametre_exploitation");
    await expect(page.getByTestId("screen-parametre_exploitation")).toBeVisible();
  });

  test("[A-ROUTE-08] folder settings are not reachable without the animation right on the folder", async ({ page }) => {
    const ids = await demoIds();
    // redacteur writes in Beauce but does not animate it.
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "redacteur");
    await navigate(page, "/home/description/parametre_dossier");
    await expect(page).toHaveURL(/\/home\/description\/home(\?refus=shell\.refused\.[a-z-]+)?$/);
    await expect(page.getByTestId("screen-parametre_dossier")).toHaveCount(0);
    await navigate(page, "/home/description/exploitation/description");
    await expect(page.getByTestId("open-folder-settings")).toBeDisabled();
  });

  test("[A-ROUTE-10] farm settings are not reachable without the farm-management right", async ({ page }) => {
    const ids = await demoIds();
    // lecteur only reads Beauce: no farm management.
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "lecteur");
    await navigate(page, "/home/description/parametre_exploitation");
    await expect(page).toHaveURL(/\/home\/description\/home(\?refus=shell\.refused\.[a-z-]+)?$/);
    await expect(page.getByTestId("screen-parametre_exploitation")).toHaveCount(0);
    await navigate(page, "/home/description/exploitation/description");
    await expect(page.getByTestId("open-farm-settings")).toBeDisabled();
  });
});

test.describe("sections without the navigation bar", () => {
  test("[A-ROUTE-23] [A-ROUTE-24] [A-ROUTE-25] [C-DAP-02] /home/interoperabilite opens import; its children import, actualisation and export hide the navigation bar", async ({
    page,
  }) => {
    await signIn(page, "lecteur");
    await navigate(page, "/home/interoperabilite");
    await expect(page).toHaveURL(/\/home\/interoperabilite\/importdaplos$/);
    for (const [path, title] of [
      ["importdaplos", "Import Daplos"],
      ["actualisation", "Actualisation"],
      ["export", "Export eDaplos"],
    ]) {
      await navigate(page, `/home/interoperabilite/${path}`);
      await expect(page.locator("main").getByRole("heading", { level: 1, name: title, exact: true })).toBeVisible();
      await expect(page.getByTestId("app-header")).toBeVisible();
      await expect(page.getByTestId("context-bar")).toHaveCount(0);
    }
  });

  test("[A-ROUTE-26] [A-ROUTE-27] [A-ROUTE-28] /home/resultats opens the calculation; its children raw data, calculation and indicators hide the navigation bar", async ({
    page,
  }) => {
    await signIn(page, "lecteur");
    await navigate(page, "/home/resultats");
    await expect(page).toHaveURL(/\/home\/resultats\/calcul$/);
    for (const [path, title] of [
      ["donneesbrutes", "Export des données brutes"],
      ["calcul", "Calcul des indicateurs"],
      ["indicateurs", "Indicateurs publiés"],
    ]) {
      await navigate(page, `/home/resultats/${path}`);
      await expect(page.locator("main").getByRole("heading", { level: 1, name: title, exact: true })).toBeVisible();
      await expect(page.getByTestId("context-bar")).toHaveCount(0);
    }
  });
});
