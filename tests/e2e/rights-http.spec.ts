import { request as playwrightRequest } from "@playwright/test";
import { DEMO_PASSWORD, e2eDb, expect, test, userId, type DemoUser } from "./fixtures";
import { apiAs } from "./helpers";
import { toIso } from "../../server/db/dialect";
import { createCampagne, createDossier, createExploitation, grantFolder, linkFarm } from "../../server/demo/factories";
import { E2E } from "./settings";

/**
 * At HTTP level, each demo user is refused every write the rights matrix forbids: the answer is a refusal
 * (403, or a redirect away from a screen the user may not open) and the database is unchanged.
 */

/** Signed in through the /login form with the app's own Origin: a refusal below is the rights', not the edge's. */
const signedIn = apiAs;

async function ids() {
  const db = e2eDb();
  const one = async (table: string, where: Record<string, unknown>) => (await db(table).where(where).first("id")).id as number;
  const tilleuls = await one("exploitation", { libelle: "EARL des Tilleuls" });
  const moulin = await one("exploitation", { libelle: "GAEC du Moulin" });
  const beauce = await one("dossier", { libelle: "Groupe Grandes cultures Beauce" });
  const bocage = await one("dossier", { libelle: "Groupe Polyculture-élevage Bocage" });
  return {
    beauce,
    bocage,
    tilleuls,
    moulin,
    reseau: await one("oad", { libelle: "Réseau démo" }),
    tilleuls2024: await one("campagne", { anneeRecolte: 2024, idExploitation: tilleuls }),
    tilleuls2025: await one("campagne", { anneeRecolte: 2025, idExploitation: tilleuls, simulation: false }),
    tilleulsSimulation: await one("campagne", { anneeRecolte: 2025, idExploitation: tilleuls, simulation: true }),
    moulin2024: await one("campagne", { anneeRecolte: 2024, idExploitation: moulin }),
    linkTilleulsBeauce: await one("dossier_exploitation", { idDossier: beauce, idExploitation: tilleuls }),
    linkMoulinBocage: await one("dossier_exploitation", { idDossier: bocage, idExploitation: moulin }),
    lecteur: await one("utilisateur", { username: "lecteur" }),
  };
}
type Ids = Awaited<ReturnType<typeof ids>>;

/** Where the user stands: Beauce with EARL des Tilleuls (animation link), or Bocage with GAEC du Moulin (read link). */
type Place = "beauce-tilleuls" | "bocage-moulin";

/** The folder, farm and campaigns the writes aim at. */
type Here = { folder: number; farm: number; campagne: number; link: number; other: number; year: number[] };

function place(i: Ids, p: Place): Here {
  return p === "beauce-tilleuls"
    ? {
        folder: i.beauce,
        farm: i.tilleuls,
        campagne: i.tilleuls2024,
        link: i.linkTilleulsBeauce,
        other: i.bocage,
        year: [i.tilleuls2025, i.tilleulsSimulation],
      }
    : { folder: i.bocage, farm: i.moulin, campagne: i.moulin2024, link: i.linkMoulinBocage, other: i.beauce, year: [i.moulin2024] };
}

async function selectContext(user: DemoUser, i: Ids, here: Here) {
  const idUser = await userId(user);
  await e2eDb()("utilisateur_contexte").where({ idUser }).delete();
  await e2eDb()("utilisateur_contexte").insert({
    idUser,
    idOad: i.reseau,
    idDossier: here.folder,
    exploitations: JSON.stringify([here.farm]),
    idCampagne: here.campagne,
  });
}

async function snapshot() {
  const db = e2eDb();
  const tables = ["dossier", "exploitation", "dossier_exploitation", "utilisateur_dossier", "campagne", "utilisateur_contexte", "audit"];
  const out: Record<string, unknown[]> = {};
  for (const t of tables)
    out[t] = await db(t)
      .select("*")
      .orderBy(t === "utilisateur_contexte" ? "id_user" : "id");
  // The context row of the caller may be rewritten with the same values; compare what matters.
  out.utilisateur_contexte = (out.utilisateur_contexte as Record<string, unknown>[]).map(({ updatedAt: _u, createdAt: _c, ...r }) => r);
  return out;
}

type Write = { name: string; path: string; form: Record<string, string> };

/** Every write of the sharing screens, aimed at the place the user stands in (the link change ticks nominatif). */
/** An edit sends back the updatedAt its form was loaded with (the stale check): the row's current one. */
async function withToken(w: Write, here: Here): Promise<Record<string, string>> {
  if (w.form.intent !== "update") return w.form;
  const table = w.path.endsWith("parametre_dossier") ? "dossier" : "exploitation";
  const row = await e2eDb()(table)
    .where({ id: table === "dossier" ? here.folder : here.farm })
    .first("updatedAt");
  return { ...w.form, updatedAt: toIso(row.updatedAt) };
}

function writes(i: Ids, here: Here): Write[] {
  const nominatifLink = { idDossierExploitation: here.link, dexEcriture: true, dexLecture: true, dexSynthese: true, dexAnimation: true, dexNominatif: true };
  const duplicate = (idDossier: number) => ({
    intent: "duplicate",
    libelle: "Copie pirate",
    idTypeExploitation: "1",
    idOad: String(i.reseau),
    idDossier: String(idDossier),
    campagnesCibles: String(here.campagne),
  });
  return [
    { name: "folder update", path: "home/description/parametre_dossier", form: { intent: "update", libelle: "Piraté", idOad: String(i.reseau), remarque: "" } },
    {
      name: "folder rights",
      path: "home/description/parametre_dossier",
      form: {
        intent: "rights",
        rows: JSON.stringify({ rows: [{ idUser: i.lecteur, udoAnimation: false, udoEcriture: false, udoLecture: true, udoSynthese: true }] }),
      },
    },
    { name: "folder delete", path: "home/description/parametre_dossier", form: { intent: "delete" } },
    { name: "farm update", path: "home/description/parametre_exploitation", form: { intent: "update", libelle: "Piratée", idTypeExploitation: "1" } },
    { name: "farm links", path: "home/description/parametre_exploitation", form: { intent: "links", links: JSON.stringify({ links: [nominatifLink] }) } },
    {
      name: "add folder",
      path: "home/description/parametre_exploitation",
      form: { intent: "addFolder", idOad: String(i.reseau), idDossier: String(here.other), dexLecture: "on", dexSynthese: "on" },
    },
    { name: "farm delete", path: "home/description/parametre_exploitation", form: { intent: "delete" } },
    { name: "campaign delete", path: "home/description/parametre_exploitation", form: { intent: "deleteCampagne", idCampagne: String(here.campagne) } },
    {
      name: "scenarios",
      path: "home/description/parametre_exploitation",
      form: { intent: "scenarios", campagnes: JSON.stringify(here.year.map((id, n) => ({ id, simulation: n !== here.year.length - 1 }))) },
    },
    { name: "duplicate here", path: "home/description/parametre_exploitation", form: duplicate(here.folder) },
    { name: "duplicate elsewhere", path: "home/description/parametre_exploitation", form: duplicate(here.other) },
    { name: "new farm", path: "home/partage", form: { intent: "createExploitation", libelle: "Intruse", idTypeExploitation: "1" } },
    { name: "new campaign", path: "home/partage", form: { intent: "createCampagne", anneeRecolte: "2030", idExploitation: String(here.farm) } },
    { name: "unlock campaign", path: "home/partage", form: { intent: "unlockCampagne" } },
    { name: "new folder", path: "home/partage", form: { intent: "createDossier", libelle: "Dossier intrus", idOad: String(i.reseau), remarque: "" } },
  ];
}

const FARM_WRITES = [
  "farm update",
  "farm links",
  "add folder",
  "farm delete",
  "campaign delete",
  "scenarios",
  "duplicate here",
  "duplicate elsewhere",
  "new campaign",
  "unlock campaign",
];
const FOLDER_WRITES = ["folder update", "folder rights", "folder delete"];
const EVERY_WRITE = [...FOLDER_WRITES, ...FARM_WRITES, "new farm", "new folder"];

/**
 * What the matrix forbids each demo user, where they stand (README "Demo users"). Anyone who accepted the terms
 * may open a folder (decision 0007), so "new folder" is refused only to `nouveau`, who has not.
 * redacteur writes Beauce and Bocage without animating them; Bocage's link on GAEC du Moulin gives reading only.
 */
const FORBIDDEN: { user: DemoUser; place: Place; forbidden: string[] }[] = [
  { user: "lecteur", place: "beauce-tilleuls", forbidden: [...FOLDER_WRITES, ...FARM_WRITES, "new farm"] },
  { user: "synthese", place: "beauce-tilleuls", forbidden: [...FOLDER_WRITES, ...FARM_WRITES, "new farm"] },
  { user: "redacteur", place: "beauce-tilleuls", forbidden: [...FOLDER_WRITES, "duplicate elsewhere"] },
  // Duplicating a farm one reads into one's own folder stays allowed (farm settings access: folder writing and farm
  // reading; the copy is a new farm the user writes), so only "duplicate here" is missing from the farm writes.
  { user: "redacteur", place: "bocage-moulin", forbidden: [...FOLDER_WRITES, ...FARM_WRITES.filter((w) => w !== "duplicate here")] },
  { user: "admin", place: "bocage-moulin", forbidden: [...FOLDER_WRITES, ...FARM_WRITES, "new farm"] },
  { user: "nouveau", place: "beauce-tilleuls", forbidden: EVERY_WRITE },
];

for (const { user, place: where, forbidden } of FORBIDDEN) {
  test(`[A-RIGHTS-05] [A-RIGHTS-06] [A-RIGHTS-07] [A-RIGHTS-09] [A-RIGHTS-10] [A-RIGHTS-11] [A-RIGHTS-12] [A-RIGHTS-13] [A-RIGHTS-17] [A-ROUTE-08] [A-ROUTE-10] ${user} in ${where} is refused every write the matrix forbids, and nothing changes`, async () => {
    const i = await ids();
    const here = place(i, where);
    await selectContext(user, i, here);
    const api = await signedIn(user);
    const tried = writes(i, here).filter((x) => forbidden.includes(x.name));
    expect(tried.map((w) => w.name).sort()).toEqual([...forbidden].sort());
    for (const w of tried) {
      const before = await snapshot();
      const res = await api.post(w.path, { form: await withToken(w, here), maxRedirects: 0 });
      expect([302, 403], `${user}: ${w.name} answered ${res.status()}`).toContain(res.status());
      expect(await snapshot(), `${user}: ${w.name} changed the database`).toEqual(before);
    }
    await api.dispose();
  });
}

test("[A-RIGHTS-08] a request without a session is sent to the login page and changes nothing", async () => {
  const i = await ids();
  const api = await playwrightRequest.newContext({ baseURL: E2E.baseURL, extraHTTPHeaders: { Origin: new URL(E2E.baseURL).origin } });
  const before = await snapshot();
  const res = await api.post("home/partage", { form: { intent: "createExploitation", libelle: "Anonyme", idTypeExploitation: "1" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toMatch(/\/login$/);
  expect(await snapshot()).toEqual(before);
  expect(i.beauce).toBeGreaterThan(0);
  await api.dispose();
});

test("[A-RIGHTS-07] [A-CAMP-15] the same requests succeed for a user the matrix allows (the refusals above are the rights')", async () => {
  const db = e2eDb();
  const i = await ids();
  const animateur = await userId("animateur");
  // A scratch folder animated by animateur, with a farm (animation link) holding a published 2024 campaign and a 2025 base with its simulation.
  const folder = await createDossier(db, { libelle: "Dossier HTTP", idOad: i.reseau });
  await grantFolder(db, animateur, folder, "animation");
  const farm = await createExploitation(db, { libelle: "Ferme HTTP", idTypeExploitation: 1 });
  const link = await linkFarm(db, folder, farm, "animation");
  const c2024 = await createCampagne(db, { idExploitation: farm, anneeRecolte: 2024, indicateurPublie: true });
  const year = [
    await createCampagne(db, { idExploitation: farm, anneeRecolte: 2025 }),
    await createCampagne(db, { idExploitation: farm, anneeRecolte: 2025, simulation: true }),
  ];
  const here: Here = { folder, farm, campagne: c2024, link, other: i.bocage, year };
  const before = await snapshot();
  try {
    await selectContext("animateur", i, here);
    const api = await signedIn("animateur");
    // Every write but the deletions of the folder and the farm (their own journeys check them), each answered and written.
    const allowed = writes(i, here).filter((w) => !["folder delete", "farm delete"].includes(w.name));
    // The unlock needs the published 2024 campaign, so its deletion comes after; new campaign, new farm and new
    // folder select what they create (the unlock acts on the selected campaign), so they come last.
    const LAST = ["campaign delete", "new campaign", "new farm", "new folder"];
    allowed.sort((a, b) => LAST.indexOf(a.name) - LAST.indexOf(b.name));
    for (const w of allowed) {
      const start = await snapshot();
      const res = await api.post(w.path, { form: await withToken(w, here), maxRedirects: 0 });
      expect(res.status(), `animateur: ${w.name}`).toBe(200);
      expect(await snapshot(), `animateur: ${w.name} wrote nothing`).not.toEqual(start);
    }
    const after = await snapshot();
    expect(after.dossier.length).toBe(before.dossier.length + 1); // "Dossier intrus"
    const bad = await api.post("home/partage", { form: { intent: "createCampagne", anneeRecolte: "", idExploitation: String(farm) }, maxRedirects: 0 });
    expect(bad.status()).toBe(400);
    await api.dispose();
  } finally {
    const farms = await db("exploitation").whereIn("libelle", ["Ferme HTTP", "Piratée", "Copie pirate", "Intruse"]).pluck("id");
    await db("exploitation").whereIn("id", farms).delete();
    await db("dossier").whereIn("libelle", ["Dossier HTTP", "Piraté", "Dossier intrus"]).delete();
  }
});

test("[A-CONST-04] [A-CONST-05] the context bar's tooltips appear after about 200 ms and are at most 300 wide", async ({ page }) => {
  const i = await ids();
  await selectContext("animateur", i, place(i, "beauce-tilleuls"));
  await page.goto("login");
  await page.getByLabel("Nom d'utilisateur").fill("animateur");
  await page.getByLabel("Mot de passe").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForURL(/home\/description\/home/);
  await page.goto("home/description/exploitation/description");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const target = page.getByTestId("add-campaign");
  const tooltip = page.locator("[role=tooltip]").filter({ hasText: "Nouvelle campagne" });
  const hoveredAt = Date.now();
  await target.hover();
  await expect(tooltip).toBeVisible({ timeout: 1000 });
  // Shown after the delay, not at once (the hover itself takes a few milliseconds).
  expect(Date.now() - hoveredAt).toBeGreaterThanOrEqual(150);
  const width = await tooltip.evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeLessThanOrEqual(300);
});

/**
 * Issue 10, defect 1 at HTTP level: redacteur writes the Bocage folder, whose link gives animation on Ferme de la
 * Vallée (A) and reading only on GAEC du Moulin (B). With both farms selected and a campaign of B, every description
 * write to B is refused (403) and changes nothing; the same writes on a campaign of A, in the same selection, go through.
 */
test("[issue10-1] [A-RIGHTS-03] [A-RIGHTS-07] [B-RIGHTS-01] farms A (writable) and B (read only) selected together: the description writes to a campaign of B are refused, those to a campaign of A go through", async () => {
  const db = e2eDb();
  const i = await ids();
  const farm = async (libelle: string) => (await db("exploitation").where({ libelle }).first("id")).id as number;
  const vallee = await farm("Ferme de la Vallée");
  const campaign = async (idExploitation: number) =>
    (await db("campagne").where({ idExploitation, anneeRecolte: 2025, simulation: false }).first("id")).id as number;
  const [valleeCampaign, moulinCampaign] = [await campaign(vallee), await campaign(i.moulin)];
  const redacteur = await userId("redacteur");
  const select = async (idCampagne: number) => {
    await db("utilisateur_contexte").where({ idUser: redacteur }).delete();
    await db("utilisateur_contexte").insert({
      idUser: redacteur,
      idOad: i.reseau,
      idDossier: i.bocage,
      exploitations: JSON.stringify([vallee, i.moulin]),
      idCampagne,
    });
  };
  const TABLES = ["exploitation", "caracteristique", "parcelle", "parc_materiel", "main_oeuvre", "audit"];
  const state = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await db(t).select("*").orderBy("id")] as const)));
  const P = "home/description/exploitation";
  const machine = {
    libelle: "Tracteur HTTP",
    noClasse: "1",
    idCategorieMateriel: "1",
    idBasemeq: "101",
    typePropriete: "0",
    copropriete: "100",
    puissance: "100",
    prixNeuf: "75000",
    prixAchat: "75000",
    utilisationAnnuelle: "500",
  };
  /** The description writes on the selected campaign, with the rows of `idCampagne` they name. */
  const writesOn = async (idCampagne: number, idExploitation: number) => {
    const plot = (await db("parcelle").where({ idCampagne }).first("id"))?.id as number | undefined;
    const fleet = (await db("parc_materiel").where({ idCampagne }).first("id"))?.id as number | undefined;
    const farmRow = await db("exploitation").where({ id: idExploitation }).first("updatedAt");
    const carac = await db("caracteristique").where({ idCampagne }).first("updatedAt");
    const list: { name: string; path: string; form: Record<string, string> }[] = [
      { name: "plot created", path: `${P}/parcelle`, form: { intent: "save", libelle: "Parcelle HTTP", surface: "2" } },
      { name: "machinery created", path: `${P}/parc_materiel`, form: { intent: "save", ...machine } },
      { name: "labour created", path: `${P}/main_oeuvre`, form: { intent: "save", libelle: "Salarié HTTP", idTypeUser: "951", uta: "1" } },
      {
        name: "description",
        path: `${P}/description`,
        form: {
          intent: "save",
          strategie: "Stratégie HTTP",
          updatedAt: farmRow?.updatedAt ? toIso(farmRow.updatedAt) : "",
          caracteristiqueUpdatedAt: carac?.updatedAt ? toIso(carac.updatedAt) : "",
        },
      },
    ];
    if (plot) list.push({ name: "plot deleted", path: `${P}/parcelle`, form: { intent: "delete", ids: JSON.stringify([plot]) } });
    if (fleet) list.push({ name: "machinery deleted", path: `${P}/parc_materiel`, form: { intent: "delete", ids: JSON.stringify([fleet]) } });
    return list;
  };
  expect(await db("parcelle").where({ idCampagne: moulinCampaign }).first("id"), "a plot of B to delete").toBeTruthy();

  const api = await signedIn("redacteur");
  await select(moulinCampaign);
  const refused = await writesOn(moulinCampaign, i.moulin);
  expect(refused.map((w) => w.name)).toEqual(expect.arrayContaining(["plot created", "plot deleted", "machinery created", "description"]));
  const before = await state();
  for (const w of refused) {
    const res = await api.post(w.path, { form: w.form, maxRedirects: 0 });
    expect(`${w.name}: ${res.status()}`).toBe(`${w.name}: 403`);
  }
  expect(await state(), "a refused write changed the database").toEqual(before);

  // The same writer, the same two farms, a campaign of A: the writes go through (the refusals above are B's right).
  await select(valleeCampaign);
  if (!(await db("parcelle").where({ idCampagne: valleeCampaign }).first("id")))
    await db("parcelle").insert({ idCampagne: valleeCampaign, libelle: "Parcelle A", surface: 1 });
  for (const w of await writesOn(valleeCampaign, vallee)) {
    const start = await state();
    const res = await api.post(w.path, { form: w.form, maxRedirects: 0 });
    expect(`${w.name}: ${res.status()}`).toBe(`${w.name}: 200`);
    expect(await state(), `${w.name} on A wrote nothing`).not.toEqual(start);
  }
  await api.dispose();
});
