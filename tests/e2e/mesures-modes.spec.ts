import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, insertId, setContext, signIn } from "./helpers";

/**
 * The measures screen, second part (issue 15, decision 0050): a series whose observations belong to a placette is
 * shown in plot mode though its box was never ticked (B-PLAC-07); a failed import or copy opens no error dialog,
 * its button stops being busy and the dialog says why (B-ERR-18).
 */

const SHOTS = "/tmp/shots-mesures";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/mesures";

async function prepare() {
  const ids = await demoIds();
  const idCampagne = ids.tilleuls2025;
  const a = await insertId("parcelle", { idCampagne, libelle: "AAA E2E modes", surface: 4 });
  const b = await insertId("parcelle", { idCampagne, libelle: "AAB E2E modes cible", surface: 3 });
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  return { ids, idCampagne, a, b, cleanup: () => e2eDb()("parcelle").whereIn("id", [a, b]).delete() };
}

async function openScreen(page: Page, query: string) {
  await signIn(page, "redacteur");
  await navigate(page, `${SCREEN}${query}`);
  await expect(page.getByRole("heading", { name: "Mesures et observations", level: 1 })).toBeVisible();
}

test.describe("measures screen: modes and transfer failures", () => {
  test("[B-PLAC-07] a series with a value recorded on a placette is in plot mode: box ticked, one value column for that placette", async ({ page }) => {
    const s = await prepare();
    try {
      const placette = await insertId("placette", { idCampagne: s.idCampagne, idExploitation: s.ids.tilleuls, idParcelle: s.a, libelle: "Placette E2E nord" });
      const serie = (nom: string) =>
        insertId("observation_serie", {
          idCampagne: s.idCampagne,
          idExploitation: s.ids.tilleuls,
          idParcelle: s.a,
          nom,
          date: "2025-04-01",
          dicIdTypeSerie: 1130,
        });
      const parcelMode = await serie("E2E mode parcelle");
      await insertId("observation", {
        idObservationSerie: parcelMode,
        idParcelle: s.a,
        dicoIdEltObserve: 2100,
        obsValNum: 4.2,
        dicLlUnite: "t MS/ha",
        ordre: 1,
      });
      const plotMode = await serie("E2E mode placette");
      const row = await insertId("observation", {
        idObservationSerie: plotMode,
        idParcelle: s.a,
        dicoIdEltObserve: 2100,
        obsValNum: 4.2,
        dicLlUnite: "t MS/ha",
        ordre: 1,
      });
      await insertId("observation", {
        idObservationSerie: plotMode,
        idParcelle: s.a,
        idObservationParent: row,
        idPlacette: placette,
        dicoIdEltObserve: 2100,
        obsValNum: 3.9,
        dicLlUnite: "t MS/ha",
      });

      await openScreen(page, `?parcelleId=${s.a}&id=${parcelMode}`);
      await expect(page.getByTestId("serie-par-placette")).not.toBeChecked();
      const grid = page.locator('table[role="grid"]');
      await expect(grid).toContainText("Valeur");
      await expect(grid).not.toContainText("Placette E2E nord");

      await navigate(page, `${SCREEN}?parcelleId=${s.a}&id=${plotMode}`);
      await expect(page.getByTestId("serie-par-placette")).toBeChecked();
      await expect(grid).toContainText("Valeur Placette E2E nord");
      await expect(page.getByTestId("serie-placettes").getByRole("checkbox", { name: "Placette E2E nord" })).toBeChecked();
      await page.screenshot({ path: `${SHOTS}/plot-mode.png`, fullPage: true });
    } finally {
      await s.cleanup();
    }
  });

  test("[B-ERR-18] [C-ERR-34] a failed import or copy opens no error dialog: the button stops being busy and the dialog says why", async ({ page }) => {
    const s = await prepare();
    try {
      const one = await insertId("observation_serie", {
        idCampagne: s.idCampagne,
        idExploitation: s.ids.tilleuls,
        idParcelle: s.a,
        nom: "E2E échec un",
        date: "2025-04-01",
        dicIdTypeSerie: 1126,
      });
      await openScreen(page, `?parcelleId=${s.a}`);

      // Import of a file that is no export.
      await page.getByTestId("mesures-import").click();
      const importDialog = page.getByTestId("import-dialog");
      await importDialog
        .getByTestId("import-file")
        .setInputFiles({ name: "pas-un-export.json", mimeType: "application/json", buffer: Buffer.from("pas du json") });
      await importDialog.getByTestId("import-send").click();
      await expect(importDialog.getByTestId("import-erreur")).toHaveText("Ce fichier n'est pas un export de séries d'observations.");
      await expect(page.getByTestId("error-dialog")).toHaveCount(0);
      await expect(importDialog.getByTestId("import-send")).toBeEnabled();
      await expect(importDialog.getByTestId("import-send")).not.toHaveAttribute("aria-busy", "true");
      await page.screenshot({ path: `${SHOTS}/import-failed.png` });
      await importDialog.getByRole("button", { name: "Annuler" }).click();

      // Copy of a series deleted meanwhile (by someone else).
      await page
        .getByRole("row", { name: /E2E échec un/ })
        .getByRole("checkbox")
        .check();
      await page.getByTestId("mesures-copy").click();
      const copyDialog = page.getByTestId("copie-dialog");
      await copyDialog.getByTestId("copie-cible").selectOption(String(s.b));
      await e2eDb()("observation_serie").where({ id: one }).delete();
      await copyDialog.getByTestId("copie-send").click();
      await expect(copyDialog.getByTestId("copie-erreur")).toHaveText("Le formulaire contient des erreurs");
      await expect(page.getByTestId("error-dialog")).toHaveCount(0);
      // The loading indicator stopped (the button stays disabled: the form now carries the server's refusal).
      await expect(copyDialog.getByTestId("copie-send")).not.toHaveAttribute("aria-busy", "true");
      await expect(copyDialog).toBeVisible();
      expect(await e2eDb()("observation_serie").where({ idParcelle: s.b }).select("id")).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/copy-failed.png` });
    } finally {
      await s.cleanup();
    }
  });
});
