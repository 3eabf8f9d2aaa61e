import { mkdirSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { ouvrirInterop, axeInterop, nettoyerImports } from "./interop";

/**
 * The Daplos import screen (issue 25; app/routes/interoperabilite/importdaplos.tsx, spec 3 §2.10, §3.13, §4.5;
 * decision 0107): a writer previews the sample file, confirms, watches the job end, finds the history row finished
 * and the farm's plots in the database; bad files are refused with their message and nothing is written; in English
 * as well; axe clean.
 */

const SHOTS = "/tmp/shots-daplos";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/interoperabilite/importdaplos";
const SAMPLE = "tests/fixtures/daplos/sample-v0.94.dap";
const SIRET = "08900000000000";

async function comptes() {
  const db = e2eDb();
  const n = async (table: string) => Number((await db(table).count({ n: "*" }).first())?.n);
  return { exploitation: await n("exploitation"), parcelle: await n("parcelle"), importDaplos: await n("import_daplos"), tache: await n("tache") };
}

test.describe("Daplos import", () => {
  test.beforeEach(() => nettoyerImports());
  test.afterEach(() => nettoyerImports());

  test("[C-DAP-01][C-DAP-03][C-DAP-04][C-DAP-05][C-DAP-06][C-DAP-08][C-DAP-09][C-DAP-10][C-DAP-11] a writer previews the sample, confirms, watches the progress and finds the import finished and the plots written", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const ids = await ouvrirInterop(page);
    await navigate(page, "/home/interoperabilite");
    await expect(page).toHaveURL(/\/home\/interoperabilite\/importdaplos/);
    await expect(page.getByTestId("screen-importdaplos")).toBeVisible();
    await expect(page.getByLabel("Réseau de destination *")).toHaveValue(String(ids.reseauDemo));
    await expect(page.getByLabel("Dossier de destination")).toHaveValue(String(ids.beauce));
    await expect(page.getByTestId("daplos-historique")).toContainText("Aucun import dans ce réseau.");
    const apercu = page.getByTestId("daplos-apercu");
    await expect(apercu).toBeDisabled(); // no file yet
    await axeInterop(page);

    await page.getByLabel("Fichier *").setInputFiles(SAMPLE);
    await expect(apercu).toBeEnabled();
    const avant = await comptes();
    // Keyboard: the submit button takes Enter.
    await apercu.focus();
    await page.keyboard.press("Enter");
    const rapport = page.getByTestId("daplos-apercu-rapport");
    await expect(rapport.getByRole("heading", { name: "Aperçu de l'import" })).toBeVisible({ timeout: 60_000 });
    await expect(rapport.getByTestId("daplos-rapport-exploitation")).toContainText(`EXPLOITATION TEST (SIRET ${SIRET}) — À créer`);
    await expect(rapport.getByTestId("daplos-rapport-campagnes")).toContainText("À créer");
    const nbParcelles = await rapport.getByTestId("daplos-rapport-parcelle").count();
    expect(nbParcelles).toBe(93);
    await expect(rapport.getByTestId("daplos-rapport-parcelle").first()).toContainText("À créer");
    await expect(rapport.getByTestId("daplos-non-pris").first()).toBeVisible();
    await expect(rapport.getByTestId("daplos-rapport-avertissements")).toBeVisible();
    expect(await comptes()).toEqual(avant); // the preview writes nothing
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/apercu.png`, fullPage: true });

    // Cancel, then preview again and confirm.
    await page.getByTestId("daplos-annuler").click();
    await expect(rapport).toBeHidden();
    await expect(apercu).toBeDisabled();
    await page.getByLabel("Fichier *").setInputFiles(SAMPLE);
    await apercu.click();
    await expect(rapport).toBeVisible({ timeout: 60_000 });
    await page.getByTestId("daplos-confirmer").click();
    await expect(page.getByTestId("daplos-progression").getByRole("progressbar", { name: "Progression de l'import" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("snackbar")).toHaveText("L'import est terminé", { timeout: 120_000 });
    await expect(page.getByRole("progressbar", { name: "Progression de l'import" })).toHaveAttribute("aria-valuenow", "100");

    const [row] = await e2eDb()("import_daplos").where({ idUser: await userId("redacteur") });
    const ligne = page.getByTestId(`daplos-import-${row.id}`);
    await expect(ligne).toHaveAttribute("data-etat", "termine");
    await expect(ligne.getByTestId("daplos-etat")).toHaveText("Terminé");
    await expect(ligne).toContainText("sample-v0.94.dap");
    await expect(ligne).toContainText("Import terminé : 93 parcelles créées");
    await expect(ligne.locator("td").nth(4)).toHaveText("93");

    // The farm is in the chosen folder, with its plots.
    const cle = await e2eDb()("import_daplos_cle").where({ idOad: ids.reseauDemo, nature: "exploitation", cle: SIRET }).first("idCible");
    const farm = await e2eDb()("exploitation as e")
      .join("dossier_exploitation as de", "de.idExploitation", "e.id")
      .where({ "e.id": cle.idCible })
      .first("e.id", "e.libelle", "de.idDossier");
    expect(farm.libelle).toBe("EXPLOITATION TEST");
    expect(farm.idDossier).toBe(ids.beauce);
    const plots = await e2eDb()("parcelle as p").join("campagne as c", "c.id", "p.idCampagne").where({ "c.idExploitation": farm.id }).count({ n: "*" }).first();
    expect(Number(plots?.n)).toBe(93);

    // The report of the import, from the history.
    await ligne.getByTestId("daplos-voir-rapport").click();
    const detail = page.getByTestId("daplos-detail");
    await expect(detail.getByRole("heading", { name: "Rapport de l'import de sample-v0.94.dap" })).toBeVisible();
    await expect(detail.getByTestId("daplos-rapport-parcelle")).toHaveCount(93);
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/termine.png`, fullPage: true });
  });

  test("[C-DAP-07][C-DAP-08][C-DAP-12][C-ERR-22][C-ERR-33] a bad file shows its message and writes nothing: a .txt, an empty .dap, a .dap that is not Daplos", async ({
    page,
  }) => {
    await ouvrirInterop(page);
    await navigate(page, SCREEN);
    const avant = await comptes();
    const champ = page.getByLabel("Fichier *");
    const apercu = page.getByTestId("daplos-apercu");

    await champ.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("EI hello") });
    await expect(page.getByTestId("daplos-fichier-erreur")).toHaveText("Seuls les fichiers .dap et .edi (Daplos à plat) et .xml (eDaplos) sont acceptés.");
    await expect(champ).toHaveAttribute("aria-invalid", "true");
    await expect(apercu).toBeDisabled();

    await champ.setInputFiles({ name: "vide.dap", mimeType: "application/octet-stream", buffer: Buffer.alloc(0) });
    await expect(page.getByTestId("daplos-fichier-erreur")).toBeVisible();
    await expect(apercu).toBeDisabled();

    await champ.setInputFiles({ name: "faux.dap", mimeType: "application/octet-stream", buffer: Buffer.from("Bonjour, ceci n'est pas un fichier Daplos.\n") });
    await expect(page.getByTestId("daplos-fichier-erreur")).toHaveCount(0);
    await apercu.click();
    // The file's refusal: next to the field, its name and the detail, no dialog (C-ERR-22, C-ERR-33; decision 0121).
    await expect(page.getByTestId("daplos-fichier-erreur")).toHaveText(
      "faux.dap : Ce fichier n'est pas un fichier Daplos : il doit commencer par un enregistrement EI.",
    );
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);
    await expect(page.getByTestId("daplos-apercu-rapport")).toHaveCount(0);
    expect(await comptes()).toEqual(avant);
    await page.screenshot({ path: `${SHOTS}/mauvais-fichier.png`, fullPage: true });
  });

  test("[C-DAP-03][C-DAP-12] in English: the labels, the preview and a failed import in the history", async ({ page }) => {
    const ids = await ouvrirInterop(page);
    // A failed import recorded earlier (§4.5: its message holds the word echec).
    await e2eDb()("import_daplos").insert({
      idOad: ids.reseauDemo,
      idUser: await userId("redacteur"),
      nomFichier: "ancien.dap",
      dtDebImport: new Date(),
      dtFinImport: new Date(),
      message: "echec: daplos.echec",
      nbParcellesCreees: 0,
      nbInterventionsImportees: 0,
    });
    await inEnglish(page, SCREEN);
    await expect(page.getByRole("heading", { name: "File to import" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Import history" })).toBeVisible();
    const echec = page.locator('[data-etat="echec"]');
    await expect(echec.getByTestId("daplos-etat")).toHaveText("Failed");
    await expect(echec).toContainText("The import failed. Nothing was imported.");
    await page.getByLabel("File *").setInputFiles(SAMPLE);
    await page.getByRole("button", { name: "Preview the import" }).click();
    await expect(page.getByRole("heading", { name: "Import preview" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("daplos-rapport-exploitation")).toContainText("To create");
    await expect(page.getByRole("button", { name: "Confirm the import" })).toBeEnabled();
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/apercu-en.png`, fullPage: true });
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: "Import preview" })).toBeHidden();
  });
});
