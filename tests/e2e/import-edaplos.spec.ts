import type { Page } from "@playwright/test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { ouvrirInterop, axeInterop, nettoyerImports } from "./interop";
import { setContext } from "./helpers";

/**
 * The eDaplos import (issue 25; decisions 0108, 0121): the demo writer exports a campaign as eDaplos on the export
 * screen, downloads the XML and uploads it on the import screen (the Daplos one: the same preview, job and history),
 * reads the preview (created, updated, not taken with its reason and line), confirms, waits for the job and finds the
 * farm's plots on the plots screen; a malformed XML is told next to the file field, no dialog, nothing written; in
 * English as well; axe clean.
 */

const SHOTS = "/tmp/shots-import-edaplos";
mkdirSync(SHOTS, { recursive: true });
const IMPORT = "/home/interoperabilite/importdaplos";
const EXPORT = "/home/interoperabilite/export";
const PLOTS = "/home/description/exploitation/parcelle";

/** The writer exports the 2025 campaign of EARL des Tilleuls on the export screen and downloads it: its path. */
async function exporter(page: Page, idCampagne: number, termine: string): Promise<string> {
  await navigate(page, `${EXPORT}?campagne=${idCampagne}`);
  const case_ = page.getByTestId(`selection-campagne-${idCampagne}`);
  if (!(await case_.isChecked())) await case_.click();
  await page.getByTestId("edaplos-lancer").click();
  const ligne = page.locator('[data-testid^="edaplos-session-"]').first();
  await expect(ligne.getByTestId("edaplos-statut")).toHaveText(termine, { timeout: 60_000 });
  const telechargement = page.waitForEvent("download");
  await ligne.getByTestId("edaplos-telecharger").click();
  const fichier = await telechargement;
  const chemin = `${SHOTS}/${fichier.suggestedFilename()}`;
  await fichier.saveAs(chemin);
  return chemin;
}

async function comptes() {
  const db = e2eDb();
  const n = async (table: string) => Number((await db(table).count({ n: "*" }).first())?.n);
  return {
    exploitation: await n("exploitation"),
    campagne: await n("campagne"),
    parcelle: await n("parcelle"),
    action: await n("action"),
    importDaplos: await n("import_daplos"),
    cles: await n("import_daplos_cle"),
  };
}

/** An eDaplos message cut in the middle of a plot: not well-formed XML. */
const MALFORME = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<rsm:CropDataSheetMessage xmlns:rsm="urn:un:unece:uncefact:data:standard:CropDataSheetMessage:5">',
  "  <rsm:AgriculturalPlot>",
  "    <ram:Identification>P1</ram:Identification>",
  "  </rsm:CropDataSheet>",
  "",
].join("\n");

test.describe("eDaplos import", () => {
  test.beforeEach(() => nettoyerImports({ exportsEdaplos: true }));
  test.afterEach(() => nettoyerImports({ exportsEdaplos: true }));

  test("[issue25][C-DAP-03][C-DAP-08][C-DAP-11][C-EDAP-07][C-ERR-22] a writer exports a campaign as eDaplos, previews it on the import screen, confirms, waits for the job and finds the plots and interventions imported", async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const ids = await ouvrirInterop(page);
    const exporte = await exporter(page, ids.tilleuls2025, "Terminé");
    // Sillon's own file is read back nearly whole (decision 0130): an element it has no place for, added to the first
    // plot on line 20, is what the report must list as not taken, with its line, its element and its reason.
    const lignesXml = readFileSync(exporte, "utf8").split("\n");
    expect(lignesXml[18].trim()).toBe("<rsm:AgriculturalPlot>");
    lignesXml.splice(19, 0, "  <ram:NoteSansEquivalent>Ajoutée par le test</ram:NoteSansEquivalent>");
    const xml = exporte.replace(/\.xml$/, "-note.xml");
    writeFileSync(xml, lignesXml.join("\n"));
    const nom = xml.split("/").pop()!;
    const nbSource = Number((await e2eDb()("parcelle").where({ idCampagne: ids.tilleuls2025 }).count({ n: "*" }).first())?.n);
    expect(nbSource).toBeGreaterThan(0);

    await navigate(page, IMPORT);
    await expect(page.getByTestId("screen-importdaplos")).toBeVisible();
    await expect(page.getByText("Fichier Daplos à plat (.dap ou .edi) ou message eDaplos (.xml), 64 Mio au plus.")).toBeVisible();
    const champ = page.getByLabel("Fichier *");
    await champ.setInputFiles(xml);
    const avant = await comptes();
    // Into the Beauce folder, which holds EARL des Tilleuls with the file's SIRET: the preview says that farm, its
    // campaign and its plots (found by their names) are updated (decision 0138). Cancelled: nothing written.
    await expect(page.getByTestId("daplos-dossier")).toHaveValue(String(ids.beauce));
    await page.getByTestId("daplos-apercu").click();
    const rapport = page.getByTestId("daplos-apercu-rapport");
    await expect(rapport.getByRole("heading", { name: "Aperçu de l'import" })).toBeVisible({ timeout: 60_000 });
    await expect(rapport.getByTestId("daplos-rapport-exploitation")).toHaveText(
      "EARL des Tilleuls (SIRET 81234567800013) — À mettre à jour (l'exploitation « EARL des Tilleuls » de ce dossier, trouvée par son SIRET)",
    );
    await expect(rapport.getByTestId("daplos-rapport-campagnes")).toHaveText("2025 — À mettre à jour");
    await expect(rapport.getByTestId("daplos-rapport-parcelle").first().locator("td").nth(2)).toHaveText("À mettre à jour");
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/apercu-siret.png`, fullPage: true });
    await page.getByTestId("daplos-annuler").click();
    await expect(rapport).toBeHidden();
    expect(await comptes()).toEqual(avant);

    // Into the Bocage folder, where no farm has that SIRET: a new farm (the cancel cleared the file: chosen again).
    await page.getByTestId("daplos-dossier").selectOption({ label: "Groupe Polyculture-élevage Bocage" });
    await champ.setInputFiles(xml);
    await page.getByTestId("daplos-apercu").click();
    await expect(rapport.getByRole("heading", { name: "Aperçu de l'import" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("daplos-chargement")).toHaveCount(0);
    await expect(rapport).toContainText(`${nom} (version eDaplos RAM:5`);
    await expect(rapport.getByTestId("daplos-rapport-exploitation")).toContainText("EARL des Tilleuls");
    await expect(rapport.getByTestId("daplos-rapport-exploitation")).toContainText("— À créer");
    await expect(rapport.getByTestId("daplos-rapport-campagnes")).toHaveText("2025 — À créer");
    const parcelles = rapport.getByTestId("daplos-rapport-parcelle");
    await expect(parcelles).toHaveCount(nbSource);
    // Each plot: the line of the file where it starts, its name, what the import does with it.
    const premiere = parcelles.first().locator("td");
    await expect(premiere.nth(0)).toHaveText(/^\d+$/);
    await expect(premiere.nth(2)).toHaveText("À créer");
    // What the import does not take: its line, its element and its reason.
    const nonPris = rapport.getByTestId("daplos-non-pris").filter({ hasText: "NoteSansEquivalent" }).locator("td");
    await expect(nonPris.nth(0)).toHaveText("20");
    await expect(nonPris.nth(1)).toHaveText("NoteSansEquivalent");
    await expect(nonPris.nth(2)).not.toBeEmpty();
    await expect(rapport.getByTestId("daplos-rapport-interventions")).toContainText(/^\d+ créées, 0 mises à jour, 0 supprimées$/);
    const creees = Number((await rapport.getByTestId("daplos-rapport-interventions").textContent())!.split(" ")[0]);
    expect(creees).toBeGreaterThan(0);
    expect(await comptes()).toEqual(avant); // the preview writes nothing
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/apercu.png`, fullPage: true });

    await page.getByTestId("daplos-confirmer").click();
    await expect(page.getByTestId("daplos-progression").getByRole("progressbar", { name: "Progression de l'import" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("snackbar")).toHaveText("L'import est terminé", { timeout: 120_000 });
    const [row] = await e2eDb()("import_daplos").where({ idUser: await userId("redacteur") });
    const ligne = page.getByTestId(`daplos-import-${row.id}`);
    await expect(ligne).toHaveAttribute("data-etat", "termine");
    await expect(ligne.getByTestId("daplos-etat")).toHaveText("Terminé");
    await expect(ligne.locator("td").nth(0)).toHaveText(nom);
    await expect(ligne.locator("td").nth(4)).toHaveText(String(nbSource));
    await expect(ligne.locator("td").nth(5)).toHaveText(String(creees));
    await expect(ligne).toContainText(`Import terminé : ${nbSource} parcelles créées`);

    // The same file again: the farm, its campaign and its plots are updated in place, nothing is created.
    await page.getByTestId("daplos-dossier").selectOption({ label: "Groupe Polyculture-élevage Bocage" });
    await champ.setInputFiles(xml);
    await page.getByTestId("daplos-apercu").click();
    await expect(rapport).toBeVisible({ timeout: 60_000 });
    await expect(rapport.getByTestId("daplos-rapport-exploitation")).toContainText("— À mettre à jour (l'exploitation « EARL des Tilleuls », déjà importée)");
    await expect(rapport.getByTestId("daplos-rapport-campagnes")).toHaveText("2025 — À mettre à jour");
    await expect(parcelles.first().locator("td").nth(2)).toHaveText("À mettre à jour");
    await expect(rapport.getByTestId("daplos-rapport-interventions")).toHaveText(`0 créées, ${creees} mises à jour, 0 supprimées`);
    await page.getByTestId("daplos-annuler").click();
    await expect(rapport).toBeHidden();

    // The imported farm on the plots screen: its plots, as many as the exported campaign's.
    const cle = await e2eDb()("import_daplos_cle").where({ idOad: ids.reseauDemo, nature: "exploitation" }).first("idCible");
    const campagne = await e2eDb()("campagne").where({ idExploitation: cle.idCible, anneeRecolte: 2025 }).first("id");
    expect(Number((await e2eDb()("action").where({ idCampagne: campagne.id }).count({ n: "*" }).first())?.n)).toBe(creees);
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.bocage, exploitations: [cle.idCible], idCampagne: campagne.id });
    await navigate(page, PLOTS);
    const table = page.getByTestId("table-parcelle");
    const source = (await e2eDb()("parcelle").where({ idCampagne: ids.tilleuls2025 }).orderBy("libelle").pluck("libelle")) as string[];
    await expect(table.locator("tbody tr").first()).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(nbSource);
    for (const libelle of source) await expect(table.locator("tbody tr", { hasText: libelle })).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/parcelles-importees.png`, fullPage: true });

    // One imported plot's interventions, from its row: the dates and operations of the exported ones.
    const plot = await e2eDb()("parcelle").where({ idCampagne: campagne.id, libelle: source[0] }).first("id");
    const faites = await e2eDb()("action as a")
      .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
      .where("a.idParcelle", plot.id)
      .orderBy("a.date")
      .select("a.date", "o.libelle");
    expect(faites.length).toBeGreaterThan(0);
    await table.locator("tbody tr", { hasText: source[0] }).getByRole("link", { name: "Interventions" }).click();
    await expect(page).toHaveURL(new RegExp(`/au_champs/interventions\\?parcelleId=${plot.id}`));
    await expect(page.getByTestId("plot-filter-summary")).toHaveText(source[0]);
    const grille = page.locator('table[role="grid"]');
    const [annee, mois, jour] = String(faites[0].date instanceof Date ? faites[0].date.toISOString() : faites[0].date)
      .slice(0, 10)
      .split("-");
    const ligneIntervention = grille
      .locator("tbody tr")
      .filter({ hasText: `${jour}/${mois}/${annee}` })
      .first();
    await expect(ligneIntervention).toContainText(String(faites[0].libelle));
    await page.screenshot({ path: `${SHOTS}/interventions-importees.png`, fullPage: true });
  });

  test("[issue25][C-ERR-22][C-ERR-33] a malformed eDaplos file: its file name and error next to the file field, no dialog, the loading indicator gone, nothing written", async ({
    page,
  }) => {
    await ouvrirInterop(page);
    await navigate(page, IMPORT);
    const avant = await comptes();
    const champ = page.getByLabel("Fichier *");
    const apercu = page.getByTestId("daplos-apercu");
    const erreur = page.getByTestId("daplos-fichier-erreur");

    await champ.setInputFiles({ name: "parcelles-cassees.xml", mimeType: "application/xml", buffer: Buffer.from(MALFORME) });
    await expect(erreur).toHaveCount(0);
    // The upload held until the loading indicator is seen, then let through: the failure only stops the indicator.
    let laisser = () => {};
    const retenu = new Promise<void>((r) => (laisser = r));
    await page.route("**/importdaplos/fichier**", async (route) => {
      await retenu;
      await route.continue();
    });
    await apercu.click();
    await expect(page.getByTestId("daplos-chargement")).toHaveText("Lecture du fichier…");
    await expect(apercu).toBeDisabled();
    laisser();
    await expect(erreur).toHaveText(/^parcelles-cassees\.xml : Ligne 5 : ce fichier n'est pas un XML bien formé \(.+\)\.$/);
    await expect(champ).toHaveAttribute("aria-invalid", "true");
    await expect(champ).toHaveAttribute("aria-describedby", "daplos-fichier-erreur");
    await expect(page.getByTestId("daplos-chargement")).toHaveCount(0);
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);
    await expect(page.getByTestId("daplos-apercu-rapport")).toHaveCount(0);
    await expect(apercu).toBeEnabled(); // the form is as it was: the user may choose another file
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/malforme.png`, fullPage: true });
    await page.unrouteAll();

    // Another XML, not an eDaplos message.
    await champ.setInputFiles({ name: "facture.xml", mimeType: "application/xml", buffer: Buffer.from('<?xml version="1.0"?>\n<Invoice/>\n') });
    await expect(erreur).toHaveCount(0); // a new file clears the former error
    await apercu.click();
    await expect(erreur).toHaveText("facture.xml : Ce fichier XML n'est pas un message eDaplos : sa racine est « Invoice », pas CropDataSheetMessage.");
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);
    expect(await comptes()).toEqual(avant);
    expect(await e2eDb()("import_daplos").where({ idUser: await userId("redacteur") })).toEqual([]);
  });

  test("[issue25][C-ERR-22] in English: the export's file previewed, a malformed file's error next to the field", async ({ page }) => {
    test.setTimeout(180_000);
    const ids = await ouvrirInterop(page);
    await inEnglish(page, EXPORT);
    const xml = await exporter(page, ids.tilleuls2025, "Finished");
    await navigate(page, IMPORT);
    await expect(page.getByText("Flat Daplos file (.dap or .edi) or eDaplos message (.xml), 64 MiB at most.")).toBeVisible();
    const champ = page.getByLabel("File *");
    await champ.setInputFiles({ name: "broken.xml", mimeType: "application/xml", buffer: Buffer.from(MALFORME) });
    await page.getByRole("button", { name: "Preview the import" }).click();
    await expect(page.getByTestId("daplos-fichier-erreur")).toHaveText(/^broken\.xml: Line 5: this file is not well-formed XML \(.+\)\.$/);
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);

    await champ.setInputFiles(xml);
    await page.getByRole("button", { name: "Preview the import" }).click();
    const rapport = page.getByTestId("daplos-apercu-rapport");
    await expect(rapport.getByRole("heading", { name: "Import preview" })).toBeVisible({ timeout: 60_000 });
    // Into the Beauce folder: EARL des Tilleuls, which has the file's SIRET, is updated (decision 0138).
    await expect(rapport.getByTestId("daplos-rapport-exploitation")).toContainText("— To update (this folder's farm “EARL des Tilleuls”, found by its SIRET)");
    await expect(rapport.getByTestId("daplos-rapport-parcelle").first().locator("td").nth(2)).toHaveText("To update");
    await expect(rapport.getByRole("heading", { name: "Records not taken" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm the import" })).toBeEnabled();
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/apercu-en.png`, fullPage: true });
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(rapport).toBeHidden();
  });

  test("[C-ERR-27][C-EDAP-16] a session whose log file is empty: no file available, missing or erroneous data, in French and English", async ({ page }) => {
    const ids = await ouvrirInterop(page);
    const db = e2eDb();
    const [r] = await db("session_export")
      .insert({
        nature: 2,
        libelle: "sans-journal.xml",
        fichier: "sans-journal.xml",
        statut: 0,
        idUtilisateur: await userId("redacteur"),
        dtFinSession: new Date(),
      })
      .returning("id");
    const id = Number(typeof r === "object" ? r.id : r);
    await db("session_export_campagne").insert({ idSessionExport: id, idCampagne: ids.tilleuls2025 });
    await navigate(page, `${EXPORT}?campagne=${ids.tilleuls2025}`);
    await page.getByTestId("edaplos-choisir-session").selectOption(String(id));
    const logs = page.getByTestId("edaplos-logs");
    await expect(logs).toContainText("Aucun fichier disponible, données manquantes ou erronées.");
    await expect(logs.getByTestId("edaplos-logs-table")).toHaveCount(0);
    await axeInterop(page);
    await inEnglish(page, `${EXPORT}?campagne=${ids.tilleuls2025}&session=${id}`);
    await expect(page.getByTestId("edaplos-logs")).toContainText("No file available, missing or erroneous data.");
  });
});
