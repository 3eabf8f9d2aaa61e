import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/**
 * Read-only screens: `lecteur` (reads the Beauce folder) may open neither settings screen nor change a
 * campaign; `redacteur` writes the Bocage folder, where GAEC du Moulin is linked with the read right only.
 * Each test prepares its own state in the database and puts back what it changed.
 */

const SHOTS = "/tmp/shots-h10";
/** A screen that shows the context bar. */
const WITH_BAR = "/home/description/exploitation/description";

test.describe("read-only screens", () => {
  test("[A-RIGHTS-11] [A-CTX-24] [A-CTX-26] [A-CTX-27] [A-CTX-28] [A-FARM-21] [A-FARM-22] lecteur: settings icons disabled, settings routes send back home, no add-campaign or unlock icon", async ({
    page,
  }) => {
    const ids = await demoIds();
    // 2024 of EARL des Tilleuls is locked (published indicators): still no unlock icon for a reader.
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "lecteur");
    await navigate(page, WITH_BAR);
    const bar = page.getByTestId("context-bar");
    await expect(bar.getByTestId("select-campagne")).toHaveText("2024");
    await expect(bar.getByTestId("campaign-locked")).toBeVisible();

    await expect(bar.getByTestId("open-folder-settings")).toBeDisabled();
    await expect(bar.getByRole("link", { name: "Paramètres du dossier" })).toHaveCount(0);
    await expect(bar.getByTestId("open-farm-settings")).toBeDisabled();
    await expect(bar.getByRole("link", { name: "Paramètres de l'exploitation" })).toHaveCount(0);
    await expect(bar.getByTestId("add-farm")).toBeDisabled();
    await expect(bar.getByTestId("add-campaign")).toHaveCount(0);
    await expect(bar.getByTestId("unlock-campaign")).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/lecteur-context-bar-fr.png` });

    for (const screen of ["parametre_dossier", "parametre_exploitation"]) {
      await navigate(page, `/home/description/${screen}`);
      await expect(page).toHaveURL(/\/sillon\/home\/description\/home(\?refus=shell\.refused\.[a-z-]+)?$/);
      await expect(page.getByTestId(`screen-${screen}`)).toHaveCount(0);
    }
    await page.screenshot({ path: `${SHOTS}/lecteur-redirected-home-fr.png` });
  });

  test("[A-RIGHTS-11] [A-FARM-19] [A-FARM-20] [A-FARM-21] [A-FARM-22] redacteur on a farm linked with the read right only: the farm form is read-only, delete disabled, no add-campaign or unlock icon", async ({
    page,
  }) => {
    const ids = await demoIds();
    const moulin2024 = (await e2eDb()("campagne").where({ idExploitation: ids.moulin, anneeRecolte: 2024 }).first("id")).id as number;
    const link = await e2eDb()("dossier_exploitation")
      .where({ idDossier: ids.bocage, idExploitation: ids.moulin })
      .first("dexEcriture", "dexLecture", "dexAnimation");
    expect(link).toEqual({ dexEcriture: 0, dexLecture: 1, dexAnimation: 0 });
    // A locked campaign selected, so that an unlock icon would have something to unlock.
    await e2eDb()("campagne").where({ id: moulin2024 }).update({ indicateurPublie: true });
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.bocage, exploitations: [ids.moulin], idCampagne: moulin2024 });
    try {
      await signIn(page, "redacteur");
      await navigate(page, WITH_BAR);
      const bar = page.getByTestId("context-bar");
      await expect(bar.getByTestId("campaign-locked")).toBeVisible();
      await expect(bar.getByTestId("add-campaign")).toHaveCount(0);
      await expect(bar.getByTestId("unlock-campaign")).toHaveCount(0);
      await expect(bar.getByTestId("open-folder-settings")).toBeDisabled();

      await bar.getByRole("link", { name: "Paramètres de l'exploitation" }).click();
      await expect(page).toHaveURL(/\/sillon\/home\/description\/parametre_exploitation$/);
      const form = page.getByTestId("farm-form");
      await expect(form).toHaveAttribute("disabled", "");
      await expect(form.getByLabel("Nom de l'exploitation")).toBeDisabled();
      await expect(form.getByLabel("Nom de l'exploitation")).toHaveValue("GAEC du Moulin");
      await expect(form.getByLabel("Type d'exploitation")).toBeDisabled();
      await expect(page.getByRole("button", { name: "Enregistrer", exact: true })).toHaveCount(0);
      await expect(page.getByTestId("delete-farm")).toBeDisabled();
      await expect(page.getByTestId("farm-add-campaign")).toHaveCount(0);
      await expect(page.getByTestId("farm-unlock-campaign")).toHaveCount(0);
      // No campaign deletion, no scenarios, no folder linking either.
      await expect(page.getByTestId("farm-campagnes").getByRole("button", { name: "Supprimer" })).toHaveCount(0);
      await expect(page.getByTestId("add-folder-to-farm")).toHaveCount(0);
      for (const box of await page.getByTestId("farm-links").getByRole("checkbox").all()) await expect(box).toBeDisabled();
      await page.screenshot({ path: `${SHOTS}/redacteur-farm-settings-read-only-fr.png`, fullPage: true });
    } finally {
      await e2eDb()("campagne").where({ id: moulin2024 }).update({ indicateurPublie: false });
    }
  });

  test("[A-FARM-19] [A-FARM-21] [A-FARM-22] the same redacteur writes GAEC du Moulin through Beauce (write link): the form is editable and the icons are back", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.moulin] });
    await signIn(page, "redacteur");
    await navigate(page, "/home/description/parametre_exploitation");
    await expect(page.getByTestId("farm-form")).not.toHaveAttribute("disabled");
    await expect(page.getByTestId("farm-form").getByLabel("Nom de l'exploitation")).toBeEnabled();
    await expect(page.getByTestId("delete-farm")).toBeEnabled();
    await expect(page.getByTestId("farm-add-campaign")).toBeVisible();
    await expect(page.getByTestId("farm-unlock-campaign")).toBeVisible();
    await expect(page.getByTestId("context-bar").getByTestId("add-campaign")).toBeEnabled();
  });
});
