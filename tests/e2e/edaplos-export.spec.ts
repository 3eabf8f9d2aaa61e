import { XMLParser } from "fast-xml-parser";
import { mkdirSync, readFileSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { ouvrirInterop, axeInterop } from "./interop";

/**
 * The eDaplos export screen (issue 25; app/routes/interoperabilite/export.tsx, spec 3 §2.10, §3.12, §4.6): a writer
 * ticks two campaigns, launches the edition, watches the session finish, downloads the XML and reads it back, reads
 * the logs (level-2 lines in red), deletes the session; in English as well; axe clean.
 */

const SHOTS = "/tmp/shots-edaplos";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/interoperabilite/export";

async function nettoyer() {
  await e2eDb()("session_export")
    .where({ idUtilisateur: await userId("redacteur"), nature: 2 })
    .delete();
}

test.describe("eDaplos export", () => {
  test.afterEach(nettoyer);

  test("[C-EDAP-01][C-EDAP-02][C-EDAP-03][C-EDAP-04][C-EDAP-05][C-EDAP-06][C-EDAP-07][C-EDAP-08][C-EDAP-09][C-EDAP-12][C-EDAP-13][C-EDAP-15][C-EDAP-16][C-EDAP-17] a writer exports two campaigns, downloads the XML, reads the logs and deletes the session", async ({
    page,
  }) => {
    const ids = await ouvrirInterop(page);
    await navigate(page, SCREEN);
    await expect(page.getByTestId("screen-export")).toBeVisible();
    await expect(page.getByTestId("selection-campagnes")).toBeVisible();
    await expect(page.getByTestId("edaplos-sessions")).toBeVisible();
    await expect(page.getByTestId("edaplos-logs")).toBeVisible();
    const lancer = page.getByTestId("edaplos-lancer");
    await expect(lancer).toBeDisabled(); // no campaign ticked
    await page.getByTestId(`selection-campagne-${ids.tilleuls2025}`).click();
    await expect(page.getByTestId(`selection-campagne-${ids.tilleuls2025}`)).toBeChecked();
    await page.getByTestId(`selection-campagne-${ids.tilleuls2024}`).click();
    await expect(page.getByTestId(`selection-campagne-${ids.tilleuls2024}`)).toBeChecked();
    await expect(page.getByTestId("edaplos-sessions")).toContainText("Aucune session d'export pour les campagnes cochées.");
    await expect(lancer).toBeEnabled();
    await axeInterop(page);

    await lancer.click();
    await expect(page.getByTestId("snackbar")).toHaveText("L'export a démarré");
    const ligne = page.locator('[data-testid^="edaplos-session-"]').first();
    await expect(ligne.getByTestId("edaplos-statut")).toHaveText("Terminé", { timeout: 30_000 });
    const [session] = await e2eDb()("session_export").where({ idUtilisateur: await userId("redacteur"), nature: 2 });
    await expect(page.getByTestId(`edaplos-session-${session.id}`)).toContainText("EARL des Tilleuls");

    const telechargement = page.waitForEvent("download");
    await ligne.getByTestId("edaplos-telecharger").click();
    const fichier = await telechargement;
    expect(fichier.suggestedFilename()).toMatch(/^edaplos-\d{8}-\d{6}\.xml$/);
    const chemin = `${SHOTS}/export.xml`;
    await fichier.saveAs(chemin);
    const arbre = new XMLParser({ processEntities: false }).parse(readFileSync(chemin, "utf8"));
    const plots = [arbre["rsm:CropDataSheetMessage"]["rsm:AgriculturalPlot"]].flat();
    const n = await e2eDb()("parcelle").whereIn("idCampagne", [ids.tilleuls2025, ids.tilleuls2024]).count<{ n: number | string }[]>({ n: "*" });
    expect(plots).toHaveLength(Number(n[0].n));

    // The logs of the session: level-2 lines in red.
    await page.getByTestId("edaplos-choisir-session").selectOption(String(session.id));
    await expect(page.getByTestId("edaplos-logs-table")).toBeVisible();
    const erreur = page.locator('[data-testid="edaplos-log"][data-niveau="2"]').first();
    await expect(erreur).toBeVisible();
    await expect(erreur).toHaveClass(/text-red-700/);
    await expect(erreur.locator("td").first()).toHaveText("Erreur");
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/edaplos-export.png`, fullPage: true });

    // Delete it (a confirmation first).
    page.once("dialog", (d) => void d.accept());
    await ligne.getByTestId("edaplos-supprimer").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
    await expect(page.locator('[data-testid^="edaplos-session-"]')).toHaveCount(0);
    expect(await e2eDb()("session_export").where({ id: session.id }).first()).toBeUndefined();
  });

  test("[C-EDAP-01][C-EDAP-09][C-EDAP-17] in English: the panels, a finished session and its logs", async ({ page }) => {
    const ids = await ouvrirInterop(page);
    await inEnglish(page, `${SCREEN}?campagne=${ids.tilleuls2025}`);
    await expect(page.getByRole("heading", { name: "Data to export" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Session files" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Logs" })).toBeVisible();
    await page.getByTestId("edaplos-lancer").click();
    const ligne = page.locator('[data-testid^="edaplos-session-"]').first();
    await expect(ligne.getByTestId("edaplos-statut")).toHaveText("Finished", { timeout: 30_000 });
    const [session] = await e2eDb()("session_export").where({ idUtilisateur: await userId("redacteur"), nature: 2 });
    await page.getByTestId("edaplos-choisir-session").selectOption(String(session.id));
    await expect(page.locator('[data-testid="edaplos-log"]').first()).toBeVisible();
    await expect(page.locator('[data-testid="edaplos-log"][data-niveau="2"]').first().locator("td").first()).toHaveText("Error");
    await axeInterop(page);
    await page.screenshot({ path: `${SHOTS}/edaplos-export-en.png`, fullPage: true });
  });
});
