import { e2eDb, expect, navigate, resetContext, test, userId } from "./fixtures";
import { demoIds, optionsOf, pick, setContext, signIn, storedContext, toggleFarms } from "./helpers";

const BEAUCE = "Groupe Grandes cultures Beauce";
const BOCAGE = "Groupe Polyculture-élevage Bocage";
/** The folders of a network on which a user holds read or synthesis right, by name. */
async function readableFolders(username: "animateur" | "lecteur", idOad: number): Promise<string[]> {
  const rows = await e2eDb()("dossier as d")
    .join("utilisateur_dossier as ud", "ud.idDossier", "d.id")
    .where({ "d.idOad": idOad, "ud.idUser": await userId(username) })
    .andWhere((q) => q.where("ud.udoLecture", true).orWhere("ud.udoSynthese", true))
    .orderBy("d.libelle")
    .select("d.libelle");
  return rows.map((r) => r.libelle as string);
}

async function campaignCount(idExploitation: number): Promise<number> {
  const row = await e2eDb()("campagne").where({ idExploitation }).count<{ n: number }[]>({ n: "*" }).first();
  return Number(row?.n);
}

const START = "Pour commencer, choisissez un réseau, puis un dossier, puis une exploitation, puis une campagne.";

test.describe("context bar: network › folder › farms › campaign", () => {
  test.beforeEach(async () => {
    for (const u of ["animateur", "lecteur", "synthese", "redacteur"] as const) await resetContext(u);
  });
  test.afterAll(async () => {
    for (const u of ["animateur", "lecteur", "synthese", "redacteur"] as const) await resetContext(u);
  });

  test("[A-CTX-02] [A-CTX-03] [A-CTX-04] [A-CTX-05] [A-CTX-06] an empty context bar shows the four selectors and the start instruction", async ({ page }) => {
    await signIn(page, "animateur");
    await navigate(page, "/home/description/exploitation/description");
    const bar = page.getByTestId("context-bar");
    await expect(bar.getByRole("button", { name: "Réseau Choisir…", exact: true })).toBeVisible();
    await expect(bar.getByRole("button", { name: "Dossier Aucun élément", exact: true })).toBeDisabled();
    await expect(bar.getByRole("button", { name: "Exploitations Aucun élément", exact: true })).toBeDisabled();
    await expect(bar.getByRole("button", { name: "Campagne Aucun élément", exact: true })).toBeDisabled();
    await expect(page.getByTestId("start-instruction")).toHaveText(START);
    expect(await optionsOf(page, "select-oad")).toEqual(expect.arrayContaining(["International", "Réseau démo"]));
  });

  test("[A-CTX-07] [A-CTX-10] [A-SCOPE-03] the folders are those of the chosen network; choosing a network clears the folder; the international network says how to ask for access", async ({
    page,
  }) => {
    await signIn(page, "animateur");
    await navigate(page, "/home/description/exploitation/description");
    await pick(page, "select-oad", "Réseau démo");
    await expect(page.getByTestId("select-dossier")).toHaveText("Choisir…");
    const offered = await optionsOf(page, "select-dossier");
    expect(offered).toEqual(expect.arrayContaining([BEAUCE, BOCAGE]));
    expect(offered).toEqual(await readableFolders("animateur", (await demoIds()).reseauDemo));
    await pick(page, "select-dossier", BEAUCE);
    await expect(page.getByTestId("select-dossier")).toHaveText(BEAUCE);

    await pick(page, "select-oad", "International");
    await expect(page.getByTestId("select-dossier")).toHaveText("Aucun élément");
    await expect(page.getByTestId("select-dossier")).toBeDisabled();
    const access = page.getByTestId("international-access");
    await expect(access).toContainText("Les données collectées hors de France relèvent du réseau international");
    await expect(access.getByRole("link", { name: "Demander l'accès" })).toHaveAttribute("href", "mailto:international@sillon.example");

    await pick(page, "select-oad", "Réseau démo");
    await expect(page.getByTestId("select-dossier")).toHaveText("Choisir…");
    await expect(page.getByTestId("international-access")).toHaveCount(0);
    expect((await storedContext("animateur"))?.idDossier).toBeNull();
  });

  test("[A-CTX-08] the folder selector lists only folders where the user holds read or synthesis right", async ({ page }) => {
    const ids = await demoIds();
    const lecteur = await userId("lecteur");
    // A folder row without any right: not listed.
    await e2eDb()("utilisateur_dossier").insert({
      idUser: lecteur,
      idDossier: ids.bocage,
      udoAnimation: false,
      udoEcriture: false,
      udoLecture: false,
      udoSynthese: false,
      ordre: 9,
    });
    try {
      await signIn(page, "lecteur");
      await navigate(page, "/home/description/exploitation/description");
      await pick(page, "select-oad", "Réseau démo");
      const offered = await optionsOf(page, "select-dossier");
      expect(offered).toContain(BEAUCE);
      expect(offered).not.toContain(BOCAGE);
      expect(offered).toEqual(await readableFolders("lecteur", ids.reseauDemo));
    } finally {
      await e2eDb()("utilisateur_dossier").where({ idUser: lecteur, idDossier: ids.bocage }).delete();
    }
  });

  test("[A-CTX-08] a synthesis-only user sees the folder they may synthesise", async ({ page }) => {
    await signIn(page, "synthese");
    await navigate(page, "/home/description/exploitation/description");
    await pick(page, "select-oad", "Réseau démo");
    const offered = await optionsOf(page, "select-dossier");
    expect(offered).toContain(BEAUCE);
    expect(offered).not.toContain(BOCAGE);
  });

  test("[A-CTX-09] the farm selector lists only farms whose link gives read or synthesis right", async ({ page }) => {
    const ids = await demoIds();
    const link = e2eDb()("dossier_exploitation").where({ idDossier: ids.beauce, idExploitation: ids.moulin });
    const before = await link.clone().first("dexEcriture", "dexLecture", "dexSynthese", "dexAnimation", "dexNominatif");
    await setContext("animateur", { idOad: ids.reseauDemo });
    try {
      await signIn(page, "animateur");
      await navigate(page, "/home/description/exploitation/description");
      await pick(page, "select-dossier", BEAUCE);
      const before = await optionsOf(page, "select-exploitations");
      expect(before).toEqual(expect.arrayContaining(["EARL des Tilleuls", "GAEC du Moulin"]));
      await link.clone().update({ dexEcriture: false, dexLecture: false, dexSynthese: false, dexAnimation: false, dexNominatif: true });
      await page.reload();
      expect(await optionsOf(page, "select-exploitations")).toEqual(before.filter((f) => f !== "GAEC du Moulin"));
    } finally {
      await link.clone().update(before);
    }
  });

  test("[A-CTX-11] [A-CTX-12] [A-CTX-13] [A-CTX-14] [A-CTX-15] [A-SCOPE-02] each choice loads what it governs and clears the levels below", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo });
    await signIn(page, "animateur");
    await navigate(page, "/home/description/au_champs/mesures");
    const folderSettings = page.getByTestId("open-folder-settings");
    const farmSettings = page.getByTestId("open-farm-settings");
    await expect(folderSettings).toBeDisabled();
    await expect(farmSettings).toBeDisabled();

    // A folder: its permissions are loaded (animateur animates Beauce: folder settings open).
    await pick(page, "select-dossier", BEAUCE);
    await expect(page.getByRole("link", { name: "Paramètres du dossier" })).toBeVisible();
    await expect(farmSettings).toBeDisabled();

    // A farm: the farm permissions are loaded, and its campaigns are offered (a campaign is a harvest year, maybe a simulation).
    await toggleFarms(page, "EARL des Tilleuls");
    await expect(page.getByTestId("select-exploitations")).toHaveText("EARL des Tilleuls");
    await expect(page.getByRole("link", { name: "Paramètres de l'exploitation" })).toBeVisible();
    const tilleulsCampaigns = await optionsOf(page, "select-campagne");
    expect(tilleulsCampaigns).toEqual(expect.arrayContaining(["2025", "2025 Simulation réduction phytosimulation", "2024"]));
    expect(tilleulsCampaigns).toHaveLength(await campaignCount(ids.tilleuls));
    // Newest harvest first, the base campaign of a year before its simulation.
    expect(tilleulsCampaigns.indexOf("2025")).toBeLessThan(tilleulsCampaigns.indexOf("2025 Simulation réduction phytosimulation"));
    expect(tilleulsCampaigns.indexOf("2025 Simulation réduction phytosimulation")).toBeLessThan(tilleulsCampaigns.indexOf("2024"));
    await pick(page, "select-campagne", "2024");
    await expect(page.getByTestId("select-campagne")).toHaveText("2024");

    // Farms chosen again: the campaign is cleared, and the campaigns of both farms are offered, each with its farm.
    await toggleFarms(page, "GAEC du Moulin");
    await expect(page.getByTestId("select-exploitations")).toHaveText("2 exploitations");
    await expect(page.getByTestId("select-campagne")).toHaveText("Choisir…");
    const both = await optionsOf(page, "select-campagne");
    expect(both).toHaveLength((await campaignCount(ids.tilleuls)) + (await campaignCount(ids.moulin)));
    expect(both.filter((o) => o.includes("GAEC du Moulin"))).toHaveLength(await campaignCount(ids.moulin));
    expect(both.filter((o) => o.includes("EARL des Tilleuls"))).toHaveLength(await campaignCount(ids.tilleuls));
    await pick(page, "select-campagne", /^2025\s*EARL des Tilleuls$/);
    await expect(page.getByTestId("select-campagne")).toHaveText("2025");

    // Another folder: the farms (and so the campaign) are cleared.
    await pick(page, "select-dossier", BOCAGE);
    await expect(page.getByTestId("select-exploitations")).toHaveText("Choisir…");
    await expect(page.getByTestId("select-campagne")).toHaveText("Aucun élément");
    await expect(page.getByTestId("start-instruction")).toBeVisible();
    expect(await optionsOf(page, "select-exploitations")).toEqual(expect.arrayContaining(["Ferme de la Vallée", "GAEC du Moulin"]));
    expect(await storedContext("animateur")).toEqual({ idOad: ids.reseauDemo, idDossier: ids.bocage, exploitations: [], idCampagne: null });
  });

  test("[A-CTX-12] the folder permissions follow the user: a reader of the folder gets no folder or farm settings", async ({ page }) => {
    const ids = await demoIds();
    await setContext("lecteur", { idOad: ids.reseauDemo });
    await signIn(page, "lecteur");
    await navigate(page, "/home/description/exploitation/description");
    await pick(page, "select-dossier", BEAUCE);
    await toggleFarms(page, "EARL des Tilleuls");
    await expect(page.getByTestId("select-exploitations")).toHaveText("EARL des Tilleuls");
    await expect(page.getByTestId("open-folder-settings")).toBeDisabled();
    await expect(page.getByTestId("open-farm-settings")).toBeDisabled();
  });

  test("[A-CTX-16] the first campaign chosen opens the description route; later choices stay on the screen", async ({ page }) => {
    const ids = await demoIds();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "redacteur");
    await navigate(page, "/home/description/prix/prix_vente");
    await expect(page.getByTestId("campaign-required")).toBeVisible();
    await pick(page, "select-campagne", "2025");
    await expect(page).toHaveURL(/\/home\/description\/exploitation\/description$/);
    await expect(page.getByTestId("campaign-required")).toHaveCount(0);
    await expect(page.locator("main").getByRole("heading", { level: 1, name: "Description de l'exploitation" })).toBeVisible();
    await expect(page.getByTestId("start-instruction")).toHaveCount(0);

    await navigate(page, "/home/description/prix/prix_vente");
    await pick(page, "select-campagne", "2024");
    await expect(page.getByTestId("select-campagne")).toHaveText("2024");
    await expect(page).toHaveURL(/\/home\/description\/prix\/prix_vente$/);
    await expect(page.locator("main").getByRole("heading", { level: 1, name: "Prix de vente" })).toBeVisible();
  });

  test("[A-CTX-17] [A-CTX-18] [A-CTX-19] [A-CTX-20] [A-CTX-21] the user and the whole selection persist across a reload and a new sign-in", async ({
    page,
    browser,
  }) => {
    await signIn(page, "animateur");
    await navigate(page, "/home/description/exploitation/description");
    await pick(page, "select-oad", "Réseau démo");
    await pick(page, "select-dossier", BEAUCE);
    await toggleFarms(page, "EARL des Tilleuls", "GAEC du Moulin");
    await pick(page, "select-campagne", /^2025 Simulation réduction phyto/);
    await expect(page).toHaveURL(/\/home\/description\/exploitation\/description$/);

    const expectSelection = async (p: typeof page) => {
      await expect(p.getByTestId("select-oad")).toHaveText("Réseau démo");
      await expect(p.getByTestId("select-dossier")).toHaveText(BEAUCE);
      await expect(p.getByTestId("select-exploitations")).toHaveText("2 exploitations");
      await expect(p.getByTestId("select-campagne")).toHaveText("2025 Simulation réduction phyto");
      await expect(p.getByTestId("start-instruction")).toHaveCount(0);
    };
    await expectSelection(page);

    await page.reload();
    await expect(page).toHaveURL(/\/home\/description\/exploitation\/description$/);
    await expect(page.getByTestId("app-header")).toBeVisible();
    await expectSelection(page);

    // Signed out and in again, even from another browser: the same selection.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await expect(page).toHaveURL(/\/sillon\/login$/);
    const other = await browser.newContext();
    const page2 = await other.newPage();
    await signIn(page2, "animateur");
    // The home page, where the user lands, shows it (issue 10).
    await expectSelection(page2);
    await other.close();
  });
});

test.describe("choosing the context in few steps (issue 10)", () => {
  test.beforeEach(async () => {
    for (const u of ["animateur", "redacteur"] as const) await resetContext(u);
  });
  test.afterAll(async () => {
    for (const u of ["animateur", "redacteur"] as const) await resetContext(u);
  });

  test("[A-CTX-01] [A-CTX-17] [A-CTX-18] [A-CTX-19] [A-CTX-20] [A-CTX-21] signing in lands on the home page with the context bar showing the last context", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await signIn(page, "redacteur");
    await expect(page.getByTestId("home-page")).toBeVisible();
    const bar = page.getByTestId("context-bar");
    await expect(bar.getByTestId("select-oad")).toHaveText("Réseau démo");
    await expect(bar.getByTestId("select-dossier")).toHaveText(BEAUCE);
    await expect(bar.getByTestId("select-exploitations")).toHaveText("EARL des Tilleuls");
    await expect(bar.getByTestId("select-campagne")).toHaveText("2025");
    await expect(page.getByTestId("start-instruction")).toHaveCount(0);
  });

  test("[A-CTX-06] [A-CTX-16] the context is chosen on the home page, where the start instruction shows once; the first campaign opens the description", async ({
    page,
  }) => {
    await signIn(page, "redacteur");
    await expect(page.getByText(START)).toHaveCount(1);
    await pick(page, "select-oad", "Réseau démo");
    await pick(page, "select-dossier", BEAUCE);
    await toggleFarms(page, "EARL des Tilleuls");
    await page.getByTestId("select-campagne").click();
    await page.getByRole("option", { name: "2025", exact: true }).click();
    await expect(page).toHaveURL(/\/home\/description\/exploitation\/description$/);
    await expect(page.getByText(START)).toHaveCount(0);
  });

  test("[A-CTX-06] a screen that needs a campaign says how to start once, not in the bar as well", async ({ page }) => {
    await signIn(page, "animateur");
    await navigate(page, "/home/description/exploitation/parcelle");
    await expect(page.getByTestId("campaign-required")).toBeVisible();
    await expect(page.getByText(START)).toHaveCount(1);
    await expect(page.getByTestId("context-bar").getByText(START)).toHaveCount(0);
  });

  test("[A-CTX-28] [A-CAMP-01] a campaign created from the context bar is the selected campaign at once", async ({ page }) => {
    const ids = await demoIds();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    try {
      await signIn(page, "redacteur");
      await page.getByTestId("add-campaign").click();
      const dialog = page.getByTestId("new-campagne-dialog");
      await dialog.getByLabel("Année de récolte").fill("2031");
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("select-campagne")).toHaveText("2031");
      const created = await e2eDb()("campagne").where({ idExploitation: ids.tilleuls, anneeRecolte: 2031 }).first("id");
      expect((await storedContext("redacteur"))?.idCampagne).toBe(created.id);
    } finally {
      await e2eDb()("campagne").where({ idExploitation: ids.tilleuls, anneeRecolte: 2031 }).delete();
    }
  });
});
