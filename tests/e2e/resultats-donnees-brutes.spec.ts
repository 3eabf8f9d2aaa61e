import AxeBuilder from "@axe-core/playwright";
import type { Page, Request } from "@playwright/test";
import ExcelJS from "exceljs";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { apiAs, demoIds, insertId, setContext, signIn } from "./helpers";

/**
 * The raw-data export screen (issue 14; app/routes/resultats/donnees-brutes.tsx, spec 1 "Raw-data export screen"):
 * a writer exports two data groups of a demo campaign, sees the session run then finish, downloads the workbook and
 * reads it back; statuses, a failed download, the list following the selected campaigns, deleting one and several
 * sessions, the English flag, the version selector of the test role, and the rights at HTTP level.
 */

const SHOTS = "/tmp/shots-donnees-brutes";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/resultats/donneesbrutes";
const GROUPE = { parcelles: 1, interventions: 2 };

async function ouvrir(page: Page, user: "redacteur" | "admin" | "lecteur") {
  const ids = await demoIds();
  await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, user);
  // An empty selection in the address: the walks below tick their campaigns themselves (without it, the screen
  // opens on the context's campaign, checked below).
  await navigate(page, `${SCREEN}?campagne=`);
  await expect(page.getByTestId("screen-donneesbrutes")).toBeVisible();
  return ids;
}

async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

/** The list and the create request (a fetcher's call to a resource route may carry the .data suffix). */
const LISTE = /\/home\/resultats\/session_exports(\.data)?\?/;
const CREATION = /\/home\/resultats\/session_exports(\.data)?(\?|$)/;

/** Ticks or unticks a box of the selection panel: the selection goes into the address, the box follows. */
async function cocher(page: Page, testId: string, coche = true) {
  await page.getByTestId(testId).click();
  await (coche ? expect(page.getByTestId(testId)).toBeChecked() : expect(page.getByTestId(testId)).not.toBeChecked());
}

const listeDemandee = (page: Page, campagnes: number[]) =>
  page.waitForRequest((r: Request) => {
    if (r.method() !== "GET" || !LISTE.test(r.url())) return false;
    const q = new URL(r.url()).searchParams;
    return q.getAll("campagnes").map(Number).join(",") === campagnes.join(",") && q.get("nature") === "0";
  });

async function sessionsDe(user: "redacteur" | "admin" | "lecteur") {
  return e2eDb()("session_export")
    .where({ idUtilisateur: await userId(user) })
    .orderBy("id");
}

async function nettoyer(user: "redacteur" | "admin" | "lecteur") {
  await e2eDb()("session_export")
    .where({ idUtilisateur: await userId(user) })
    .delete();
}

test.describe("raw-data export", () => {
  test.afterEach(async () => {
    for (const u of ["redacteur", "admin", "lecteur"] as const) await nettoyer(u);
  });

  test("[issue29-context] with no campaign in the address the screen opens on the context's campaign, its sessions listed", async ({ page }) => {
    const ids = await demoIds();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await signIn(page, "redacteur");
    const liste = listeDemandee(page, [ids.tilleuls2025]);
    await navigate(page, SCREEN);
    await expect(page.getByTestId(`selection-campagne-${ids.tilleuls2025}`)).toBeChecked();
    await expect(page.getByTestId(`selection-campagne-${ids.tilleuls2024}`)).not.toBeChecked();
    await liste;
    await expect(page.getByText("Aucune campagne sélectionnée")).toHaveCount(0);
  });

  test("[A-EXPORT-01][A-EXPORT-02][A-EXPORT-03][A-EXPORT-04][A-EXPORT-07][A-EXPORT-08][A-EXPORT-09][A-EXPORT-11][A-EXPORT-13][A-EXPORT-15][A-EXPORT-16][A-EXPORT-17][A-EXPORT-20] a writer exports two groups of a campaign, sees the session finish and downloads the workbook", async ({
    page,
  }) => {
    const ids = await ouvrir(page, "redacteur");
    // Three panels; export disabled until a group and a campaign are chosen.
    await expect(page.getByTestId("selection-campagnes")).toBeVisible();
    await expect(page.getByTestId("export-groupes")).toBeVisible();
    await expect(page.getByTestId("sessions-export")).toBeVisible();
    const lancer = page.getByTestId("export-lancer");
    await expect(lancer).toBeDisabled();
    await expect(page.getByTestId("export-version")).toHaveCount(0);
    await page.getByTestId("groupe-parcelles").check();
    await expect(lancer).toBeDisabled(); // no campaign yet
    await page.getByTestId("groupe-parcelles").uncheck();
    const premiereListe = listeDemandee(page, [ids.tilleuls2025]);
    await cocher(page, `selection-campagne-${ids.tilleuls2025}`);
    await premiereListe;
    await expect(lancer).toBeDisabled(); // no group yet
    await expect(page.getByTestId("sessions-vide")).toHaveText("Aucun export pour les campagnes choisies.");
    await page.getByTestId("groupe-parcelles").check();
    await page.getByTestId("groupe-interventions").check();
    await expect(lancer).toBeEnabled();
    await page.getByTestId("export-libelle").fill("E2E export brut");
    await axe(page);

    const post = page.waitForRequest((r) => r.method() === "POST" && CREATION.test(r.url()));
    const relue = listeDemandee(page, [ids.tilleuls2025]);
    await lancer.click();
    const form = new URLSearchParams((await post).postData() ?? "");
    expect(Object.fromEntries(form)).toEqual({
      libelle: "E2E export brut",
      nature: "0",
      version: "2",
      campagnes: JSON.stringify([ids.tilleuls2025]),
      groupes: JSON.stringify([GROUPE.parcelles, GROUPE.interventions]),
    });
    await relue; // the list refreshes after the submit
    await expect(page.getByTestId("snackbar")).toHaveText("L'export a démarré");
    const [session] = await sessionsDe("redacteur");
    const ligne = page.getByTestId(`session-${session.id}`);
    await expect(ligne).toContainText("E2E export brut");
    const bouton = ligne.getByRole("button", { name: "Télécharger E2E export brut" });
    await expect(bouton).toBeVisible({ timeout: 20_000 });
    await expect(ligne.locator("td").nth(2)).not.toHaveText("");
    await expect(ligne.locator("td").nth(3)).not.toHaveText("");

    const telechargement = page.waitForEvent("download");
    await bouton.click();
    const fichier = await telechargement;
    expect(fichier.suggestedFilename()).toBe("E2E export brut.xlsx");
    const chemin = `${SHOTS}/export.xlsx`;
    await fichier.saveAs(chemin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(chemin);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Parcelles", "Interventions"]);
    const db = e2eDb();
    const parcelles = await db("parcelle").where({ idCampagne: ids.tilleuls2025 }).orderBy("id").select("libelle", "surface");
    const wp = wb.getWorksheet("Parcelles")!;
    expect(wp.rowCount).toBe(parcelles.length + 1);
    expect(wp.getCell("A1").value).toBe("Exploitation");
    expect(wp.getCell("D1").value).toBe("Parcelle");
    expect(wp.getCell("A2").value).toBe("EARL des Tilleuls");
    expect(wp.getCell("C2").value).toBe(2025);
    expect(wp.getCell("D2").value).toBe(parcelles[0].libelle);
    expect(Number(wp.getCell("E2").value)).toBeCloseTo(Number(parcelles[0].surface), 4);
    const interventions = await db("action").where({ idCampagne: ids.tilleuls2025 }).count<{ n: number | string }[]>({ n: "*" });
    expect(wb.getWorksheet("Interventions")!.rowCount).toBe(Number(interventions[0].n) + 1);
    expect(wb.getWorksheet("Interventions")!.getCell("E1").value).toBe("Date");
    await page.screenshot({ path: `${SHOTS}/donnees-brutes.png`, fullPage: true });
  });

  test("[A-EXPORT-18][A-EXPORT-19][A-EXPORT-21][A-EXPORT-14][A-EXPORT-22][A-EXPORT-23][A-EXPORT-24][C-ERR-21] statuses, a failed download (the server's detail text), the list following the campaigns, deleting one and several sessions", async ({
    page,
  }) => {
    const ids = await demoIds();
    const idUtilisateur = await userId("redacteur");
    const db = e2eDb();
    const session = async (libelle: string, statut: number, extra: Record<string, unknown> = {}) => {
      const id = await insertId("session_export", {
        nature: 0,
        libelle,
        statut,
        fichier: `${libelle}.xlsx`,
        idUtilisateur,
        version: 2,
        anglais: false,
        ...extra,
      });
      await db("session_export_campagne").insert({ idSessionExport: id, idCampagne: ids.tilleuls2025 });
      return id;
    };
    // A job still running (a type no runner claims): 3 of 10 rows.
    const idTache = await insertId("tache", {
      type: "e2e-attente",
      etat: "en_cours",
      progression: 3,
      total: 10,
      idUtilisateur,
      parametres: "{}",
      instance: "e2e:1",
      dtBattement: db.fn.now(),
    });
    const enCours = await session("E2E en cours", 1, { idTache });
    const erreur = await session("E2E erreur", 2, { dtFinSession: new Date() });
    const perdu = await session("E2E fichier perdu", 0, { dtFinSession: new Date() });
    await ouvrir(page, "redacteur");
    const liste = listeDemandee(page, [ids.tilleuls2025]);
    await cocher(page, `selection-campagne-${ids.tilleuls2025}`);
    await liste;
    await expect(page.getByTestId(`session-${enCours}`).getByTestId("session-statut")).toContainText("En cours");
    const barre = page.getByTestId(`session-${enCours}`).getByRole("progressbar", { name: "Progression de l'export" });
    await expect(barre).toHaveAttribute("aria-valuenow", "30");
    await expect(page.getByTestId(`session-${enCours}`)).toContainText("En cours : 30 %");
    await expect(page.getByTestId(`session-${erreur}`).getByTestId("session-statut")).toHaveText("Une erreur est survenue");
    await expect(page.getByTestId(`session-${erreur}`).getByText("Une erreur est survenue")).toHaveClass(/text-red-700/);
    // A reload shows the progress bar again: the job's id comes from the server.
    await page.reload();
    await expect(page.getByTestId(`session-${enCours}`).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "30");
    await axe(page);
    await page.screenshot({ path: `${SHOTS}/statuts.png`, fullPage: true });

    await page.getByRole("button", { name: "Télécharger E2E fichier perdu" }).click();
    await expect(page.getByTestId("error-dialog")).toContainText("Le fichier de cet export n'existe plus : relancez l'export.");
    await page.getByTestId("error-dialog").getByRole("button", { name: "OK" }).click();

    // Another campaign: the list is asked for again and is empty.
    const autre = listeDemandee(page, [ids.tilleuls2024]);
    await cocher(page, `selection-campagne-${ids.tilleuls2025}`, false);
    await cocher(page, `selection-campagne-${ids.tilleuls2024}`);
    await autre;
    await expect(page.getByTestId("sessions-vide")).toBeVisible();
    const retour = listeDemandee(page, [ids.tilleuls2025]);
    await cocher(page, `selection-campagne-${ids.tilleuls2024}`, false);
    await cocher(page, `selection-campagne-${ids.tilleuls2025}`);
    await retour;

    // Delete one.
    await page.getByRole("button", { name: "Supprimer E2E erreur" }).click();
    await expect(page.getByTestId("sessions-confirmer")).toContainText("Supprimer l'export sélectionné ?");
    const un = page.waitForRequest((r) => r.method() === "DELETE" && r.url().endsWith(`/home/resultats/session_exports/${erreur}`));
    await page.getByTestId("sessions-confirmer-oui").click();
    await un;
    await expect(page.getByTestId(`session-${erreur}`)).toHaveCount(0);
    // Tick two and delete them together: one DELETE each.
    await page.getByRole("checkbox", { name: "Sélectionner E2E en cours" }).check();
    await page.getByRole("checkbox", { name: "Sélectionner E2E fichier perdu" }).check();
    const supprimees: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "DELETE") supprimees.push(new URL(r.url()).pathname.split("/").pop()!);
    });
    await page.getByTestId("sessions-supprimer-selection").click();
    await expect(page.getByTestId("sessions-confirmer")).toContainText("Supprimer les 2 exports sélectionnés ?");
    await page.getByTestId("sessions-confirmer-oui").click();
    await expect(page.getByTestId("sessions-vide")).toBeVisible();
    expect(supprimees.sort()).toEqual([String(enCours), String(perdu)].sort());
    expect(await sessionsDe("redacteur")).toEqual([]);
    await db("tache").where({ id: idTache }).delete();
  });

  test("[A-EXPORT-12][A-EXPORT-10] in English the request carries the anglais flag and the workbook's headers are English; a file name is optional", async ({
    page,
  }) => {
    const ids = await ouvrir(page, "redacteur");
    await inEnglish(page, `${SCREEN}?campagne=${ids.tilleuls2025}`);
    await page.getByTestId("groupe-parcelles").check();
    const post = page.waitForRequest((r) => r.method() === "POST" && CREATION.test(r.url()));
    await page.getByTestId("export-lancer").click();
    const form = new URLSearchParams((await post).postData() ?? "");
    expect(form.get("anglais")).toBe("true");
    expect(form.get("libelle")).toBe("");
    await expect.poll(async () => (await sessionsDe("redacteur")).length).toBe(1);
    const [session] = await sessionsDe("redacteur");
    expect(session.anglais === true || session.anglais === 1).toBe(true);
    const bouton = page.getByTestId(`session-${session.id}`).getByRole("button", { name: `Download ${session.libelle}` });
    await expect(bouton).toBeVisible({ timeout: 20_000 });
    const telechargement = page.waitForEvent("download");
    await bouton.click();
    const chemin = `${SHOTS}/export-en.xlsx`;
    await (await telechargement).saveAs(chemin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(chemin);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Plots"]);
    expect(wb.worksheets[0].getRow(1).values).toEqual([
      undefined,
      "Farm",
      "Campaign",
      "Harvest year",
      "Plot",
      "Area (ha)",
      "Actual area (ha)",
      "Management mode",
      "CAP block",
      "INSEE code",
      "Irrigable",
      "Drained",
      "Target yield",
      "Note",
    ]);
  });

  test("[A-EXPORT-05][A-EXPORT-06][A-RIGHTS-18] the test role sees the version selector, v2 by default, and may export in v1", async ({ page }) => {
    const ids = await ouvrir(page, "admin");
    await expect(page.getByTestId("export-version")).toHaveValue("2");
    await expect(page.getByTestId("export-version").locator("option")).toHaveText(["v1", "v2"]);
    await cocher(page, `selection-campagne-${ids.tilleuls2025}`);
    await page.getByTestId("groupe-interventions").check();
    await page.getByTestId("export-version").selectOption("1");
    const post = page.waitForRequest((r) => r.method() === "POST" && CREATION.test(r.url()));
    await page.getByTestId("export-lancer").click();
    expect(new URLSearchParams((await post).postData() ?? "").get("version")).toBe("1");
    await expect.poll(async () => (await sessionsDe("admin"))[0]?.version).toBe(1);
  });

  test("[A-EXPORT-02][A-RIGHTS-15] rights at HTTP level: a reader cannot export an unpublished campaign, nobody downloads or deletes another user's session", async ({
    page,
  }) => {
    const ids = await demoIds();
    const idRedacteur = await userId("redacteur");
    const id = await insertId("session_export", {
      nature: 0,
      libelle: "E2E à moi",
      statut: 0,
      fichier: "x.xlsx",
      idUtilisateur: idRedacteur,
      version: 2,
      anglais: false,
    });
    await e2eDb()("session_export_campagne").insert({ idSessionExport: id, idCampagne: ids.tilleuls2024 });
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    const api = await apiAs("lecteur");
    const refus = await api.post("home/resultats/session_exports", {
      form: { nature: "0", version: "2", campagnes: JSON.stringify([ids.tilleuls2025]), groupes: JSON.stringify([GROUPE.parcelles]) },
      headers: { Accept: "application/json" },
    });
    expect(refus.status()).toBe(403);
    expect(await sessionsDe("lecteur")).toEqual([]);
    const telechargement = await api.get(`home/resultats/session_exports/${id}`, { headers: { Accept: "*/*" } });
    expect(telechargement.status()).toBe(404);
    expect(await telechargement.json()).toMatchObject({ ok: false, error: "errors.not-found" });
    const suppression = await api.delete(`home/resultats/session_exports/${id}`, { headers: { Accept: "application/json" } });
    expect(suppression.status()).toBe(404);
    const liste = await api.get(`home/resultats/session_exports?campagnes=${ids.tilleuls2024}&nature=0`, { headers: { Accept: "*/*" } });
    expect((await liste.json()).sessions).toEqual([]);
    // The published 2024 campaign is his to export.
    const ok = await api.post("home/resultats/session_exports", {
      form: { nature: "0", version: "2", campagnes: JSON.stringify([ids.tilleuls2024]), groupes: JSON.stringify([GROUPE.parcelles]) },
      headers: { Accept: "application/json" },
    });
    expect(ok.status()).toBe(200);
    expect((await sessionsDe("lecteur")).length).toBe(1);
    await api.dispose();
    await e2eDb()("session_export").where({ id }).delete();
    void page;
  });
});
