import AxeBuilder from "@axe-core/playwright";
import type { Page, Request } from "@playwright/test";
import ExcelJS from "exceljs";
import { mkdirSync } from "node:fs";
import { arrondiIndicateur } from "../../app/domain/calc/indicateurs/arrondi";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { apiAs, demoIds, insertId, setContext, signIn } from "./helpers";

/**
 * The published-indicators screen and the result export (issue 14; app/routes/resultats/indicateurs.tsx, the
 * export-result dialog app/components/resultats/export-resultats-dialog.tsx; spec 1 "Published-indicators screen",
 * spec 3 §3.15, §4.6, §5, §9): a writer exports the demo's published series of EARL des Tilleuls 2024 and downloads
 * the workbook (read back); a reader sees the published series only; two series of one farm and campaign are refused.
 */

const SHOTS = "/tmp/shots-resultats-indicateurs";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/resultats/indicateurs";
const LISTE = /\/home\/resultats\/session_exports(\.data)?\?/;

async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

async function ouvrir(page: Page, user: "redacteur" | "lecteur", campagnes: number[]) {
  const ids = await demoIds();
  await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, user);
  await navigate(page, `${SCREEN}?${campagnes.map((c) => `campagne=${c}`).join("&")}`);
  await expect(page.getByTestId("screen-indicateurs")).toBeVisible();
}

/** Ticks or unticks a box of the selection panel: the selection goes into the address, the box follows. */
async function cocher(page: Page, testId: string, coche = true) {
  await page.getByTestId(testId).click();
  await (coche ? expect(page.getByTestId(testId)).toBeChecked() : expect(page.getByTestId(testId)).not.toBeChecked());
}

/** The demo's published series (server/demo/seed-series.ts). */
async function serieDemo(idCampagne: number): Promise<number> {
  const s = await e2eDb()("calcul_serie").where({ idCampagne, publication: true, statut: "termine" }).orderBy("id").first("id");
  if (!s) throw new Error("the demo has no published calculation series of EARL des Tilleuls 2024 (server/demo/seed-series.ts)");
  return Number(s.id);
}

/** A finished series without figures, published (all groups) or not: what the lists and the refusals need. */
async function serieVide(idCampagne: number, publication: boolean): Promise<number> {
  const id = await insertId("calcul_serie", { idCampagne, statut: "termine", publication, visaAnimateur: false, remarque: "E2E", dtFin: new Date() });
  for (let g = 1; g <= 6; g++) await insertId("calcul_serie_groupe", { idCalculSerie: id, idGroupe: g, publie: publication });
  return id;
}

test.describe("published indicators and result export", () => {
  test.afterEach(async () => {
    for (const u of ["redacteur", "lecteur"] as const)
      await e2eDb()("session_export")
        .where({ idUtilisateur: await userId(u) })
        .delete();
    await e2eDb()("calcul_serie").where({ remarque: "E2E" }).delete();
  });

  test("[issue29-context] with no campaign in the address the screen opens on the context's campaign", async ({ page }) => {
    const ids = await demoIds();
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "lecteur");
    await navigate(page, SCREEN);
    await expect(page.getByTestId(`selection-campagne-${ids.tilleuls2024}`)).toBeChecked();
    await expect(page.getByTestId("selection-campagnes-compte")).toHaveText("1 campagne sélectionnée");
    // The demo's published 2024 series is listed at once.
    await expect(page.getByTestId(`serie-cocher-${await serieDemo(ids.tilleuls2024)}`)).toBeVisible();
  });

  test("[C-CALC-04] [C-REXP-01] [C-REXP-13] [C-ERR-36] [A-ERR-19] [C-RIGHTS-20] the calculation screen exports the ticked finished calculations through the same dialog; the session shows in its sessions table", async ({
    page,
  }) => {
    const ids = await demoIds();
    const idSerie = await serieDemo(ids.tilleuls2024);
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await signIn(page, "redacteur");
    await navigate(page, `/home/resultats/calcul?campagne=${ids.tilleuls2024}`);
    await expect(page.getByTestId("screen-calcul")).toBeVisible();
    const exporter = page.getByTestId("exporter-resultats");
    await expect(exporter).toBeDisabled();
    await page.getByTestId(`exporter-serie-${idSerie}`).check();
    await expect(exporter).toBeEnabled();
    await exporter.click();
    const dialog = page.getByTestId("export-resultats-dialog");
    await expect(dialog.getByTestId("export-resultats-series")).toContainText("EARL des Tilleuls");
    // Without the test role, no version selector (C-RIGHTS-20): version 2 goes hidden.
    await expect(dialog.getByTestId("export-version")).toHaveCount(0);
    await expect(dialog.locator('input[type="hidden"][name="version"]')).toHaveValue("2");
    await axe(page);
    await dialog.getByTestId("export-resultats-lancer").click();
    // The export started: the notice ui.export-started (C-ERR-36, A-ERR-19).
    await expect(page.getByTestId("snackbar")).toHaveText("L'export a démarré");
    await expect(dialog).toBeHidden();
    const session = await e2eDb()("session_export")
      .where({ idUtilisateur: await userId("redacteur") })
      .orderBy("id", "desc")
      .first("id", "nature", "libelle");
    expect(session.nature).toBe(1);
    // The sessions panel is the export screens' own (sessions-export), named "Exports de résultats" here.
    await expect(page.getByTestId("sessions-export").getByRole("table", { name: "Exports de résultats" }).getByTestId(`session-${session.id}`)).toContainText(
      session.libelle,
    );
  });

  test("[A-PUB-01] [A-PUB-02] [A-PUB-03] [A-PUB-04] [A-PUB-06] [A-PUB-07] [A-PUB-08] [C-REXP-01] [C-REXP-03] [C-REXP-04] [C-REXP-05] [C-REXP-10] [C-REXP-13] [C-REXP-16] [C-REXP-19] a writer exports the demo's published series and downloads the workbook", async ({
    page,
  }) => {
    const ids = await demoIds();
    const idSerie = await serieDemo(ids.tilleuls2024);
    await ouvrir(page, "redacteur", [ids.tilleuls2024]);
    // Three panels: farms and campaigns, the published calculations with their export button, the sessions.
    await expect(page.getByTestId("selection-campagnes")).toBeVisible();
    await expect(page.getByTestId(`selection-campagne-${ids.tilleuls2024}`)).toBeChecked();
    const series = page.getByTestId("series-publiees");
    await expect(series.getByTestId(`serie-publiee-${idSerie}`)).toContainText("EARL des Tilleuls");
    await expect(page.getByTestId("sessions-export")).toContainText("Exports des calculs");
    const exporter = page.getByTestId("series-exporter");
    await expect(exporter).toBeDisabled();
    await page.getByTestId(`serie-cocher-${idSerie}`).check();
    await expect(exporter).toBeEnabled();
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/ecran.png`, fullPage: true });

    // The dialog: every option ticked, every group, version 2 without a selector (not the test role), nature 1.
    await exporter.click();
    const dialog = page.getByTestId("export-resultats-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("export-resultats-series")).toContainText("EARL des Tilleuls");
    for (const k of [
      "prevu",
      "realise",
      "alertes",
      "rendements",
      "donneesBrutes",
      "tcd1",
      "tcd2",
      "parcelle",
      "lot",
      "modeConduite",
      "culture",
      "exploitation",
    ])
      await expect(dialog.getByTestId(`export-${k}`)).toBeChecked();
    for (const g of ["ift", "fertilisation", "travail", "economie", "energie", "ges"]) await expect(dialog.getByTestId(`export-groupe-${g}`)).toBeChecked();
    await expect(dialog.getByTestId("export-version")).toHaveCount(0);
    await expect(dialog.locator('input[name="version"]')).toHaveValue("2");
    await expect(dialog.locator('input[name="nature"]')).toHaveValue("1");
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/dialogue.png` });

    // Sent: the session list is read again for the chosen campaigns, nature 1; the session finishes.
    const post = page.waitForRequest((r) => r.method() === "POST" && /\/home\/resultats\/indicateurs\/export/.test(r.url()));
    const relue = page.waitForRequest(
      (r: Request) =>
        r.method() === "GET" &&
        LISTE.test(r.url()) &&
        new URL(r.url()).searchParams.get("nature") === "1" &&
        new URL(r.url()).searchParams.getAll("campagnes").join(",") === String(ids.tilleuls2024),
    );
    await dialog.getByTestId("export-resultats-lancer").click();
    const envoye = new URLSearchParams((await post).postData() ?? "");
    expect(envoye.getAll("calculsSeries")).toEqual([String(idSerie)]);
    expect(envoye.getAll("groupes")).toHaveLength(6);
    expect(envoye.get("anglais")).toBeNull();
    await relue;
    await expect(page.getByTestId("snackbar")).toHaveText("L'export a démarré");
    await expect(dialog).toBeHidden();
    const session = await e2eDb()("session_export")
      .where({ idUtilisateur: await userId("redacteur") })
      .orderBy("id", "desc")
      .first();
    expect(session).toMatchObject({ nature: 1, version: 2 });
    const nom = `Sillon_export_des_indicateurs_${new Intl.DateTimeFormat("fr-CA", { timeZone: "Europe/Paris" }).format(new Date())}.xlsx`;
    expect(session.libelle).toBe(nom);
    const ligne = page.getByTestId(`session-${session.id}`);
    const bouton = ligne.getByRole("button", { name: `Télécharger ${nom}` });
    await expect(bouton).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: `${SHOTS}/session.png`, fullPage: true });

    const telechargement = page.waitForEvent("download");
    await bouton.click();
    const fichier = await telechargement;
    expect(fichier.suggestedFilename()).toBe(nom);
    const chemin = `${SHOTS}/export.xlsx`;
    await fichier.saveAs(chemin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(chemin);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      "Export",
      "Parcelles",
      "Lots",
      "Modes de conduite",
      "Cultures",
      "Exploitations",
      "Alertes",
      "Rendements",
      "Données brutes",
      "TCD indicateurs en colonnes",
      "TCD indicateurs en lignes",
    ]);
    const stockee = await e2eDb()("calcul_resultat")
      .where({ idCalculSerie: idSerie, niveau: "exploitation", code: "ift.cible.total" })
      .first("valeur", "unite");
    const rows: unknown[][] = [];
    wb.getWorksheet("Exploitations")!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const ferme = rows.find((r) => r[5] === "ift.cible.total")!;
    expect(ferme[0]).toBe("EARL des Tilleuls");
    expect(ferme[4]).toBe("IFT total — à la cible");
    // The workbook rounds as the screens do (decision 0118): the stored figure, rounded by the same rule.
    expect(Number(ferme[7])).toBe(arrondiIndicateur(Number(stockee.valeur), stockee.unite));
  });

  test("[A-PUB-05] [C-RIGHTS-18] a reader sees the published calculations only, and may export nothing else (HTTP)", async ({ page }) => {
    const ids = await demoIds();
    const idSerie = await serieDemo(ids.tilleuls2024);
    const cachee = await serieVide(ids.tilleuls2025, false);
    await ouvrir(page, "lecteur", [ids.tilleuls2024, ids.tilleuls2025]);
    const series = page.getByTestId("series-publiees");
    await expect(series.getByTestId(`serie-publiee-${idSerie}`)).toBeVisible();
    await expect(series.getByTestId(`serie-publiee-${cachee}`)).toHaveCount(0);
    await expect(series.locator("tbody tr")).toHaveCount(1);
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/lecteur.png`, fullPage: true });

    // At HTTP level: the unpublished series is refused as unknown, nothing recorded; the published one is accepted.
    const api = await apiAs("lecteur");
    const formulaire = (serie: number) => ({
      nature: "1",
      version: "2",
      realise: "on",
      parcelle: "on",
      exploitation: "on",
      groupes: "ift",
      calculsSeries: String(serie),
    });
    const avant = await e2eDb()("session_export").count({ n: "*" }).first();
    const refus = await api.post("home/resultats/indicateurs/export", { form: formulaire(cachee), headers: { Accept: "application/json" } });
    expect(refus.status()).toBe(404);
    expect(await e2eDb()("session_export").count({ n: "*" }).first()).toEqual(avant);
    const accepte = await api.post("home/resultats/indicateurs/export", { form: formulaire(idSerie), headers: { Accept: "application/json" } });
    expect(accepte.status()).toBe(200);
    await api.dispose();
  });

  test("[A-PUB-09] [C-REXP-08] [C-ERR-25] [C-ERR-32] two calculations of the same farm and campaign are refused with an alert", async ({ page }) => {
    const ids = await demoIds();
    const idSerie = await serieDemo(ids.tilleuls2024);
    const autre = await serieVide(ids.tilleuls2024, true);
    await ouvrir(page, "redacteur", [ids.tilleuls2024]);
    await page.getByTestId(`serie-cocher-${idSerie}`).check();
    await page.getByTestId(`serie-cocher-${autre}`).check();
    await page.getByTestId("series-exporter").click();
    const avant = await e2eDb()("session_export").count({ n: "*" }).first();
    await page.getByTestId("export-resultats-dialog").getByTestId("export-resultats-lancer").click();
    await expect(page.getByTestId("error-dialog")).toContainText(
      "Deux calculs cochés portent sur la même exploitation et la même campagne (EARL des Tilleuls — ",
    );
    expect(await e2eDb()("session_export").count({ n: "*" }).first()).toEqual(avant);
    // The failure only stops the loading indicator (C-ERR-32): the dialog stays as it was, its button usable again.
    await page.getByTestId("error-dialog").getByRole("button", { name: "OK" }).click();
    const lancer = page.getByTestId("export-resultats-dialog").getByTestId("export-resultats-lancer");
    await expect(lancer).toBeEnabled();
    await expect(lancer).not.toHaveAttribute("aria-busy");
    await expect(page.getByTestId("snackbar")).toHaveCount(0);
  });

  test("[C-ERR-24] [A-ERR-17] [C-ERR-26] [C-ERR-32] a result export beyond the spreadsheet's rows is answered 413 and shows the spreadsheet-limit message; nothing is recorded", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const ids = await demoIds();
    const idSerie = await serieDemo(ids.tilleuls2024);
    const db = e2eDb();
    // The plot level of the demo series brought to 1,048,576 rows (one more than a sheet holds under its header),
    // copies of a stored row without explanation, removed at the end.
    const deja = Number((await db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "parcelle" }).count({ n: "*" }).first())!.n);
    const modele = await db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "parcelle" }).orderBy("id").first("id");
    const colonnes = "id_calcul_serie, niveau, id_entite, id_parcelle, code, id_groupe, valeur, unite, completude, nb_manquants";
    await db.raw(
      `INSERT INTO calcul_resultat (${colonnes}) SELECT ${colonnes} FROM calcul_resultat, (WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ?) SELECT n FROM s) AS suite WHERE calcul_resultat.id = ?`,
      [1_048_576 - deja, modele.id],
    );
    try {
      await ouvrir(page, "redacteur", [ids.tilleuls2024]);
      await page.getByTestId(`serie-cocher-${idSerie}`).check();
      await page.getByTestId("series-exporter").click();
      const dialog = page.getByTestId("export-resultats-dialog");
      const avant = await db("session_export").count({ n: "*" }).first();
      const reponse = page.waitForResponse((r) => r.request().method() === "POST" && /\/home\/resultats\/indicateurs\/export/.test(r.url()));
      await dialog.getByTestId("export-resultats-lancer").click();
      expect((await reponse).status()).toBe(413);
      await expect(page.getByTestId("error-dialog")).toContainText(
        /L'export dépasse la limite d'un tableur \(\d+ lignes pour 1\D?048\D?575 au plus par feuille\) : choisissez moins de campagnes ou de groupes/,
      );
      await page.screenshot({ path: `${SHOTS}/export-413.png`, fullPage: true });
      await page.getByTestId("error-dialog").getByRole("button", { name: "OK" }).click();
      // Only the loading indicator stops (C-ERR-32): the dialog stays, nothing is recorded, no notice.
      await expect(dialog.getByTestId("export-resultats-lancer")).toBeEnabled();
      await expect(page.getByTestId("snackbar")).toHaveCount(0);
      expect(await db("session_export").count({ n: "*" }).first()).toEqual(avant);
    } finally {
      await db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "parcelle" }).whereNull("explication").delete();
    }
  });
  test("[A-PUB-06] [A-PUB-07] [C-ERR-23] [C-REXP-11] [C-REXP-12] [C-REXP-14] [C-REXP-15] [C-REXP-16] [C-REXP-17] calculation sessions: newest first with their statuses, read again when the campaigns change, several deleted at once", async ({
    page,
  }) => {
    const ids = await demoIds();
    const idUtilisateur = await userId("redacteur");
    const session = async (libelle: string, statut: number, fin: boolean, nature = 1) => {
      const id = await insertId("session_export", {
        nature,
        libelle,
        statut,
        version: 2,
        anglais: false,
        idUtilisateur,
        fichier: `${libelle}.xlsx`,
        ...(fin ? { dtFinSession: new Date() } : {}),
      });
      await insertId("session_export_campagne", { idSessionExport: id, idCampagne: ids.tilleuls2024 });
      return id;
    };
    const finie = await session("E2E finie", 0, true);
    const echec = await session("E2E échec", 2, true);
    const enCours = await session("E2E en cours", 1, false);
    await session("E2E brut", 0, true, 0); // a raw-data session: not listed here
    const premiere = page.waitForRequest(
      (r: Request) => r.method() === "GET" && LISTE.test(r.url()) && new URL(r.url()).searchParams.getAll("campagnes").join(",") === String(ids.tilleuls2024),
    );
    await ouvrir(page, "redacteur", [ids.tilleuls2024]);
    expect(new URL((await premiere).url()).searchParams.get("nature")).toBe("1");
    const panneau = page.getByTestId("sessions-export");
    await expect(panneau.locator("tbody tr")).toHaveCount(3);
    // Newest first.
    expect(await panneau.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid")))).toEqual([
      `session-${enCours}`,
      `session-${echec}`,
      `session-${finie}`,
    ]);
    await expect(page.getByTestId(`session-${finie}`).getByRole("button", { name: "Télécharger E2E finie" })).toBeVisible();
    const erreur = page.getByTestId(`session-${echec}`).getByTestId("session-statut");
    await expect(erreur).toHaveText("Une erreur est survenue");
    await expect(erreur.locator("span")).toHaveClass(/text-red-700/);
    await expect(page.getByTestId(`session-${enCours}`).getByTestId("session-statut")).toContainText("En cours");

    // Another campaign: the list is read again for it (and is empty).
    const autre = page.waitForRequest(
      (r: Request) =>
        r.method() === "GET" &&
        LISTE.test(r.url()) &&
        new URL(r.url()).searchParams.getAll("campagnes").join(",") === [ids.tilleuls2025, ids.tilleuls2024].sort((a, b) => a - b).join(","),
    );
    await cocher(page, `selection-campagne-${ids.tilleuls2025}`);
    await autre;
    await cocher(page, `selection-campagne-${ids.tilleuls2024}`, false);
    await expect(panneau.locator("tbody tr")).toHaveCount(0);
    await cocher(page, `selection-campagne-${ids.tilleuls2024}`);
    await expect(panneau.locator("tbody tr")).toHaveCount(3);

    // Two ticked, deleted: two DELETE requests, both sent before either answers.
    // Each DELETE is held until both have been sent: deletions one after the other would never finish.
    const suppressions: Request[] = [];
    let lacher!: () => void;
    const deuxEnvoyees = new Promise<void>((r) => (lacher = r));
    await page.route(/\/home\/resultats\/session_exports\/\d+/, async (route) => {
      if (route.request().method() !== "DELETE") return route.continue();
      suppressions.push(route.request());
      if (suppressions.length === 2) lacher();
      await deuxEnvoyees;
      await route.continue();
    });
    await page.getByRole("checkbox", { name: "Sélectionner E2E finie" }).check();
    await page.getByRole("checkbox", { name: "Sélectionner E2E échec" }).check();
    await page.getByTestId("sessions-supprimer-selection").click();
    await page.getByTestId("sessions-confirmer-oui").click();
    await expect(panneau.locator("tbody tr")).toHaveCount(1);
    expect(suppressions.map((r) => new URL(r.url()).pathname.split("/").pop()).sort()).toEqual([String(finie), String(echec)].sort());
    expect(await e2eDb()("session_export").whereIn("id", [finie, echec]).count({ n: "*" }).first()).toEqual({ n: 0 });
  });

  test("[C-REXP-01] [C-REXP-05] [C-RIGHTS-20] the English locale sends the anglais flag; the test role chooses the version", async ({ page }) => {
    const ids = await demoIds();
    const idSerie = await serieDemo(ids.tilleuls2024);
    await setContext("admin", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "admin");
    await inEnglish(page, `${SCREEN}?campagne=${ids.tilleuls2024}`);
    await page.getByTestId(`serie-cocher-${idSerie}`).check();
    await page.getByTestId("series-exporter").click();
    const dialog = page.getByTestId("export-resultats-dialog");
    await expect(dialog.getByRole("heading", { name: "Export results" })).toBeVisible();
    await expect(dialog.getByTestId("export-version")).toHaveValue("2");
    await dialog.getByTestId("export-version").selectOption("1");
    await dialog.getByTestId("export-libelle").fill("E2E english");
    const post = page.waitForRequest((r) => r.method() === "POST" && /\/home\/resultats\/indicateurs\/export/.test(r.url()));
    await dialog.getByTestId("export-resultats-lancer").click();
    const envoye = new URLSearchParams((await post).postData() ?? "");
    expect(envoye.get("anglais")).toBe("on");
    expect(envoye.get("version")).toBe("1");
    await expect(dialog).toBeHidden();
    const session = await e2eDb()("session_export")
      .where({ idUtilisateur: await userId("admin"), libelle: "E2E english" })
      .first();
    expect(session).toMatchObject({ nature: 1, version: 1 });
    expect(Boolean(session.anglais)).toBe(true);
    await e2eDb()("session_export").where({ id: session.id }).delete();
  });
});
