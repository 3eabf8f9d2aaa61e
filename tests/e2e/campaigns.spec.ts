import type { Page } from "@playwright/test";
import { e2eDb, expect, inEnglish, navigate, test } from "./fixtures";
import { demoIds, optionsOf, pick, setContext, signIn, storedContext, insertId } from "./helpers";

/**
 * Campaigns: the new campaign dialog with its duplication options, the base campaign of a year that
 * cannot be deleted while simulations exist, and the campaign lock.
 * Each test prepares its own state in the database and puts back what it changed.
 */

const SHOTS = "/tmp/shots-h10";
/** A screen that shows the context bar. */
const WITH_BAR = "/home/description/exploitation/description";

const FLAGS = [
  "anneeRecolte",
  "apiLibelle",
  "simulation",
  "idCampagneSource",
  "idCampagneHistoParcelle",
  "inter",
  "majDtInter",
  "obs",
  "eltObserve",
  "valeur",
  "prix",
] as const;

async function openNewCampaignDialog(page: Page) {
  await page.getByTestId("context-bar").getByRole("button", { name: "Nouvelle campagne" }).click();
  const dialog = page.getByTestId("new-campagne-dialog");
  await expect(dialog.getByRole("heading", { name: "Nouvelle campagne" })).toBeVisible();
  return dialog;
}

/** Rows of the description tables (registered for duplication) in a campaign; the copy's links are remapped. */
async function seedCampaignContent(idCampagne: number) {
  const idParc = await insertId("parc_materiel", { idCampagne, libelle: "Tracteur h10", noClasse: 1, noCategorie: 1, idCategorieMateriel: 1, idBasemeq: 1 });
  const idMo = await insertId("main_oeuvre", { idCampagne, libelle: "Chef d'exploitation h10", uta: 1, idTypeUser: 1 });
  const idOp = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "Labour h10", idMaterielTractant: idParc });
  await insertId("operation_culturale_materiel", { idOperationCulturale: idOp, idParcMateriel: idParc });
  await insertId("operation_culturale_main_oeuvre", { idOperationCulturale: idOp, idMainOeuvre: idMo });
  // The demo campaign has its characteristics already: their MSA contributions are changed, and put back after.
  const previous = await e2eDb()("caracteristique").where({ idCampagne }).first("cotisationMsa");
  if (previous) await e2eDb()("caracteristique").where({ idCampagne }).update({ cotisationMsa: 1234.5 });
  else await insertId("caracteristique", { idCampagne, cotisationMsa: 1234.5 });
  return { idParc, idMo, idOp, cotisationMsa: previous ? (previous.cotisationMsa as number | null) : undefined };
}

async function dropCampaignContent(ids: { idParc: number; idMo: number; idOp: number; cotisationMsa?: number | null }, idCampagne: number) {
  const db = e2eDb();
  await db("operation_culturale").where({ id: ids.idOp }).delete();
  await db("parc_materiel").where({ id: ids.idParc }).delete();
  await db("main_oeuvre").where({ id: ids.idMo }).delete();
  if (ids.cotisationMsa === undefined) await db("caracteristique").where({ idCampagne }).delete();
  else await db("caracteristique").where({ idCampagne }).update({ cotisationMsa: ids.cotisationMsa });
}

test.describe("new campaign", () => {
  test("[A-CTX-28] [A-CAMP-01] [A-CAMP-02] [A-CAMP-03] [A-CAMP-04] [A-CAMP-05] [A-CAMP-06] [A-CAMP-07] [A-CAMP-08] [A-CAMP-09] [A-CAMP-10] [A-CAMP-11] [A-CAMP-12] [A-CAMP-13] [A-CAMP-14] [A-CAMP-15] [A-CAMP-16] [A-ERR-21] [C-SCEN-13] a campaign is created from a source with every duplication option; its flags and copied rows are checked", async ({
    page,
  }) => {
    const ids = await demoIds();
    const db = e2eDb();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    const content = await seedCampaignContent(ids.tilleuls2024);
    try {
      await signIn(page, "animateur");
      await navigate(page, WITH_BAR);
      const dialog = await openNewCampaignDialog(page);
      const year = dialog.getByLabel("Année de récolte");
      const simulation = dialog.getByTestId("campagne-simulation");
      const source = dialog.getByLabel("Campagne à dupliquer");
      const histo = dialog.getByTestId("campagne-histo");
      const options = dialog.getByTestId("duplication-options");

      // A-CAMP-11: no duplication option before a source; A-CAMP-04: the simulation flag is read-only.
      await expect(options).toHaveCount(0);
      await expect(simulation).toBeDisabled();
      await expect(simulation).not.toBeChecked();
      // A-CAMP-07: the farm has campaigns, so a source is offered.
      await expect(source.locator("option")).toHaveText(["Aucune (campagne vide)", "2025", "2025 Simulation réduction phyto (simulation)", "2024"]);

      // A-CAMP-01, 02: the year is required and numeric.
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(dialog.getByText("Champ requis")).toBeVisible();
      await year.fill("deux mille");
      await year.blur();
      await expect(dialog.getByText("Valeur numérique attendue")).toBeVisible();

      // A-CAMP-05, 06: a simulation when the year already has a campaign.
      await year.fill("2025");
      await expect(dialog.getByText("Valeur numérique attendue")).toHaveCount(0);
      await expect(simulation).toBeChecked();
      await year.fill("2026");
      await expect(simulation).not.toBeChecked();

      // A-CAMP-10: a source of the previous year is the history reference, automatically.
      await source.selectOption({ label: "2025" });
      await expect(dialog.getByTestId("histo-automatic")).toHaveText("Référence automatique : la campagne dupliquée (2025)");
      await expect(histo).toHaveCount(0);
      // A-CAMP-12..14: the options show with a source; the sub-options with their option.
      await expect(options.getByRole("checkbox")).toHaveCount(3);
      await expect(options.getByRole("checkbox", { name: "Dupliquer les interventions" })).toBeVisible();
      await expect(options.getByRole("checkbox", { name: "Dupliquer les observations" })).toBeVisible();
      await expect(options.getByRole("checkbox", { name: "Dupliquer les prix" })).toBeVisible();
      await options.getByRole("checkbox", { name: "Dupliquer les interventions" }).check();
      await expect(options.getByRole("checkbox", { name: "Mettre à jour les dates" })).toBeVisible();
      await options.getByRole("checkbox", { name: "Dupliquer les observations" }).check();
      await expect(options.getByRole("checkbox", { name: "Horizons et éléments observés" })).toBeVisible();
      await expect(options.getByRole("checkbox", { name: "Valeurs observées" })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/new-campaign-dialog-fr.png` });

      // Any source of the previous year is the reference, a simulation too.
      await source.selectOption({ label: "2025 Simulation réduction phyto (simulation)" });
      await expect(dialog.getByTestId("histo-automatic")).toHaveText("Référence automatique : la campagne dupliquée (2025 Simulation réduction phyto)");
      // A-CAMP-08, 09: otherwise the reference is picked among year − 1 with the same simulation flag:
      // 2026 is not a simulation, so the 2025 simulation is not offered.
      // (Focus the list first, as a user's click does: a focused option box removed from the page would blur mid-render.)
      await source.focus();
      await source.selectOption({ label: "Aucune (campagne vide)" });
      await expect(options).toHaveCount(0);
      await expect(dialog.getByTestId("histo-automatic")).toHaveCount(0);
      await expect(histo.locator("option")).toHaveText(["—", "2025"]);
      // A simulation of 2025 from a 2025 source: the references would be the 2024 simulations, and there are none.
      await year.fill("2025");
      await expect(simulation).toBeChecked();
      await source.selectOption({ label: "2025" });
      await expect(histo.locator("option")).toHaveText(["—"]);

      // The campaign: 2026 from 2024 (not the previous year), reference 2025 picked, every option.
      await year.fill("2026");
      await dialog.getByLabel("Libellé").fill("Essai h10");
      await source.selectOption({ label: "2024" });
      await expect(histo.locator("option")).toHaveText(["—", "2025"]);
      await histo.selectOption({ label: "2025" });
      for (const name of [
        "Dupliquer les interventions",
        "Mettre à jour les dates",
        "Dupliquer les observations",
        "Horizons et éléments observés",
        "Valeurs observées",
        "Dupliquer les prix",
      ]) {
        await options.getByRole("checkbox", { name }).check();
      }
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      await expect(dialog).toHaveCount(0);

      // A-CAMP-16: the campaign list is refreshed, and the new campaign is the one selected (issue 10).
      await expect(page.getByTestId("select-campagne")).toHaveText("2026 Essai h10");
      expect(await optionsOf(page, "select-campagne")).toContain("2026 Essai h10");
      const row = await db("campagne")
        .where({ idExploitation: ids.tilleuls, anneeRecolte: 2026 })
        .first("id", "prefixeCampagne", "serieValide", "indicateurPublie", ...FLAGS);
      expect(row).toEqual({
        id: expect.any(Number),
        prefixeCampagne: "2026",
        serieValide: 0,
        indicateurPublie: 0,
        anneeRecolte: 2026,
        apiLibelle: "Essai h10",
        simulation: 0,
        idCampagneSource: ids.tilleuls2024,
        idCampagneHistoParcelle: ids.tilleuls2025,
        inter: 1,
        majDtInter: 1,
        obs: 1,
        eltObserve: 1,
        valeur: 1,
        prix: 1,
      });

      // The campaign-scoped rows of the source (the demo's and the h10 ones) were copied, their links pointing to the copies.
      const libelles = async (table: string, idCampagne: number) =>
        (await db(table).where({ idCampagne }).orderBy(["libelle", "id"]).select("libelle")).map((r) => r.libelle);
      for (const table of ["parc_materiel", "main_oeuvre", "operation_culturale"]) {
        expect(await libelles(table, row.id)).toEqual(await libelles(table, ids.tilleuls2024));
      }
      const parc = await db("parc_materiel").where({ idCampagne: row.id, libelle: "Tracteur h10" }).select("id", "libelle");
      const mo = await db("main_oeuvre").where({ idCampagne: row.id, libelle: "Chef d'exploitation h10" }).select("id", "libelle");
      const op = await db("operation_culturale").where({ idCampagne: row.id, libelle: "Labour h10" }).select("id", "libelle", "idMaterielTractant");
      expect(parc).toEqual([{ id: expect.any(Number), libelle: "Tracteur h10" }]);
      expect(mo).toEqual([{ id: expect.any(Number), libelle: "Chef d'exploitation h10" }]);
      expect(op).toEqual([{ id: expect.any(Number), libelle: "Labour h10", idMaterielTractant: parc[0].id }]);
      expect(parc[0].id).not.toBe(content.idParc);
      expect(await db("operation_culturale_materiel").where({ idOperationCulturale: op[0].id }).select("idParcMateriel")).toEqual([
        { idParcMateriel: parc[0].id },
      ]);
      expect(await db("operation_culturale_main_oeuvre").where({ idOperationCulturale: op[0].id }).select("idMainOeuvre")).toEqual([
        { idMainOeuvre: mo[0].id },
      ]);
      expect(await db("caracteristique").where({ idCampagne: row.id }).select("cotisationMsa")).toEqual([{ cotisationMsa: 1234.5 }]);
      // The source is untouched: its own machines, the h10 tractor among them.
      const sourceMachines = (await db("parc_materiel").where({ idCampagne: ids.tilleuls2024 }).select("id")).map((r) => r.id);
      expect(sourceMachines).toContain(content.idParc);
      expect(sourceMachines).not.toContain(parc[0].id);
    } finally {
      await db("campagne").where({ idExploitation: ids.tilleuls, anneeRecolte: 2026 }).delete();
      await dropCampaignContent(content, ids.tilleuls2024);
    }
  });

  test("[A-CAMP-05] [A-CAMP-10] [A-CAMP-12] [A-CAMP-13] [A-CAMP-15] [A-FARM-17] a simulation created from the farm settings keeps only the options chosen; hidden sub-options are not sent", async ({
    page,
  }) => {
    const ids = await demoIds();
    const db = e2eDb();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await navigate(page, "/home/description/parametre_exploitation");
      await page.getByTestId("farm-add-campaign").click();
      const dialog = page.getByTestId("new-campagne-dialog");
      await dialog.getByLabel("Année de récolte").fill("2025");
      await dialog.getByLabel("Libellé").fill("Simulation h10");
      await expect(dialog.getByTestId("campagne-simulation")).toBeChecked();
      await dialog.getByLabel("Campagne à dupliquer").selectOption({ label: "2024" });
      await expect(dialog.getByTestId("histo-automatic")).toHaveText("Référence automatique : la campagne dupliquée (2024)");
      const options = dialog.getByTestId("duplication-options");
      await options.getByRole("checkbox", { name: "Dupliquer les interventions" }).check();
      await options.getByRole("checkbox", { name: "Mettre à jour les dates" }).check();
      // Interventions dropped again: their date option goes with them.
      await options.getByRole("checkbox", { name: "Dupliquer les interventions" }).uncheck();
      await expect(options.getByRole("checkbox", { name: "Mettre à jour les dates" })).toHaveCount(0);
      await options.getByRole("checkbox", { name: "Dupliquer les observations" }).check();
      await options.getByRole("checkbox", { name: "Valeurs observées" }).check();
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      await expect(dialog).toHaveCount(0);
      // The farm's campaign list shows it.
      await expect(page.getByTestId("farm-campagnes")).toContainText("2025 Simulation h10");
      const row = await db("campagne")
        .where({ idExploitation: ids.tilleuls, apiLibelle: "Simulation h10" })
        .first(...FLAGS);
      expect(row).toEqual({
        anneeRecolte: 2025,
        apiLibelle: "Simulation h10",
        simulation: 1,
        idCampagneSource: ids.tilleuls2024,
        idCampagneHistoParcelle: ids.tilleuls2024,
        inter: 0,
        majDtInter: 0,
        obs: 1,
        eltObserve: 0,
        valeur: 1,
        prix: 0,
      });
    } finally {
      await db("campagne").where({ idExploitation: ids.tilleuls, apiLibelle: "Simulation h10" }).delete();
    }
  });

  test("[A-ERR-15] a source campaign deleted meanwhile makes the creation fail with the campaign service error", async ({ page }) => {
    const ids = await demoIds();
    const db = e2eDb();
    const temp = await insertId("campagne", { idExploitation: ids.tilleuls, anneeRecolte: 2019, prefixeCampagne: "2019" });
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await navigate(page, WITH_BAR);
      const dialog = await openNewCampaignDialog(page);
      await dialog.getByLabel("Année de récolte").fill("2031");
      await dialog.getByLabel("Campagne à dupliquer").selectOption({ label: "2019" });
      await db("campagne").where({ id: temp }).delete();
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(page.getByTestId("error-dialog").getByRole("alert")).toHaveText("Erreur du service des campagnes");
      expect(await db("campagne").where({ idExploitation: ids.tilleuls, anneeRecolte: 2031 }).first("id")).toBeUndefined();
    } finally {
      await db("campagne").where({ id: temp }).delete();
      await db("campagne").where({ idExploitation: ids.tilleuls, anneeRecolte: 2031 }).delete();
    }
  });
});

test.describe("new campaign dialog state", () => {
  test("[A-CAMP-11] [A-CAMP-12] [A-CAMP-13] each opening of the new campaign dialog starts afresh, and a sub-option shows only with its ticked option", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "animateur");
    await navigate(page, WITH_BAR);
    let dialog = await openNewCampaignDialog(page);
    await dialog.getByRole("button", { name: "Ajouter" }).click();
    await expect(dialog.getByText("Champ requis")).toBeVisible();
    await dialog.getByLabel("Année de récolte").fill("2026");
    await dialog.getByLabel("Campagne à dupliquer").selectOption({ label: "2025" });
    const options = dialog.getByTestId("duplication-options");
    await options.getByRole("checkbox", { name: "Dupliquer les interventions" }).check();
    await options.getByRole("checkbox", { name: "Dupliquer les observations" }).check();
    // Source dropped and chosen again: the boxes and their sub-options still agree.
    await dialog.getByLabel("Campagne à dupliquer").focus();
    await dialog.getByLabel("Campagne à dupliquer").selectOption({ label: "Aucune (campagne vide)" });
    await dialog.getByLabel("Campagne à dupliquer").selectOption({ label: "2025" });
    const inter = options.getByRole("checkbox", { name: "Dupliquer les interventions" });
    const dates = options.getByRole("checkbox", { name: "Mettre à jour les dates" });
    expect(await inter.isChecked()).toBe((await dates.count()) === 1);
    await dialog.getByRole("button", { name: "Annuler" }).click();

    // Opened again: empty, no error, no option ticked, no sub-option shown.
    dialog = await openNewCampaignDialog(page);
    await expect(dialog.getByLabel("Année de récolte")).toHaveValue("");
    await expect(dialog.getByText("Champ requis")).toHaveCount(0);
    await expect(dialog.getByLabel("Campagne à dupliquer")).toHaveValue("");
    await dialog.getByLabel("Année de récolte").fill("2026");
    await dialog.getByLabel("Campagne à dupliquer").selectOption({ label: "2025" });
    await expect(options.getByRole("checkbox", { name: "Dupliquer les interventions" })).not.toBeChecked();
    await expect(options.getByRole("checkbox", { name: "Dupliquer les observations" })).not.toBeChecked();
    await expect(options.getByRole("checkbox", { name: "Mettre à jour les dates" })).toHaveCount(0);
    await expect(options.getByRole("checkbox", { name: "Valeurs observées" })).toHaveCount(0);
  });
});

test.describe("campaign deletion and scenarios", () => {
  test("[A-CAMP-17] [A-CAMP-18] [C-SCEN-03] [C-SCEN-04] the base campaign of 2025 of EARL des Tilleuls, which has a 2025 simulation, cannot be deleted: the message names the year and nothing is deleted", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    const before = await e2eDb()("campagne").orderBy("id").select("*");
    await signIn(page, "animateur");
    await navigate(page, "/home/description/parametre_exploitation");
    await page.getByTestId(`delete-campagne-${ids.tilleuls2025}`).click();
    const confirm = page.getByTestId("delete-campagne-dialog");
    await expect(confirm).toContainText("Supprimer définitivement la campagne « 2025 » ?");
    await confirm.getByRole("button", { name: "Supprimer" }).click();
    const error = page.getByTestId("error-dialog");
    await expect(error.getByRole("alert")).toHaveText(
      "La campagne de base de l'année 2025 ne peut pas être supprimée tant que des simulations de cette année existent.",
    );
    await error.getByRole("button", { name: "Ok" }).click();
    expect(await e2eDb()("campagne").orderBy("id").select("*")).toEqual(before);
    await expect(page.getByTestId("farm-campagnes").locator("tbody tr")).toHaveCount(3);
  });

  test("[A-ERR-20] a campaign without simulations is deleted after confirmation and leaves the list", async ({ page }) => {
    const ids = await demoIds();
    const temp = await insertId("campagne", { idExploitation: ids.tilleuls, anneeRecolte: 2030, prefixeCampagne: "2030", apiLibelle: "À supprimer h10" });
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await navigate(page, "/home/description/parametre_exploitation");
      const list = page.getByTestId("farm-campagnes");
      await expect(list).toContainText("2030 À supprimer h10");
      await page.getByTestId(`delete-campagne-${temp}`).click();
      const confirm = page.getByTestId("delete-campagne-dialog");
      await confirm.getByRole("button", { name: "Annuler" }).click();
      expect(await e2eDb()("campagne").where({ id: temp }).first("id")).toBeDefined();
      await page.getByTestId(`delete-campagne-${temp}`).click();
      await confirm.getByRole("button", { name: "Supprimer" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
      await expect(list).not.toContainText("2030 À supprimer h10");
      await expect.poll(() => e2eDb()("campagne").where({ id: temp }).first("id")).toBeUndefined();
    } finally {
      await e2eDb()("campagne").where({ id: temp }).delete();
    }
  });
});

test.describe("campaign lock", () => {
  test("[A-CTX-27] [A-LOCK-02] [A-LOCK-03] [A-LOCK-04] [A-LOCK-06] [A-LOCK-07] [A-LOCK-08] [A-LOCK-09] [A-LOCK-10] [A-ERR-22] a campaign with published indicators is locked; the unlock icon warns first, then unlocks it; choosing the campaign again locks it again", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "animateur");
    await navigate(page, WITH_BAR);
    const bar = page.getByTestId("context-bar");
    const lock = bar.getByTestId("campaign-locked");
    const unlock = bar.getByRole("button", { name: "Déverrouiller la campagne" });
    await expect(lock).toBeVisible();
    await expect(lock).toHaveAttribute("aria-label", "Campagne verrouillée");
    await expect(unlock).toBeEnabled();

    // The warning first; cancelling keeps the lock.
    await unlock.click();
    const dialog = page.getByTestId("unlock-dialog");
    await expect(dialog.getByRole("heading", { name: "Déverrouiller la campagne" })).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Cette campagne est verrouillée parce que ses résultats sont publiés. La déverrouiller permet de la modifier ; ses indicateurs devront alors être recalculés et republiés.",
    );
    await page.screenshot({ path: `${SHOTS}/unlock-warning-fr.png` });
    await dialog.getByRole("button", { name: "Annuler" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(lock).toBeVisible();

    await unlock.click();
    await dialog.getByRole("button", { name: "Confirmer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect(dialog).toHaveCount(0);
    await expect(lock).toHaveCount(0);
    await expect(unlock).toBeDisabled();
    expect(
      (
        await e2eDb()("utilisateur_contexte")
          .where({ idUser: (await e2eDb()("utilisateur").where({ username: "animateur" }).first("id")).id })
          .first("idCampagneDeverrouillee")
      ).idCampagneDeverrouillee,
    ).toBe(ids.tilleuls2024);
    // The unlock holds across a reload.
    await page.reload();
    await expect(bar.getByTestId("select-campagne")).toHaveText("2024");
    await expect(lock).toHaveCount(0);

    // Choosing the campaign again locks it again.
    await pick(page, "select-campagne", "2024");
    await expect(lock).toBeVisible();
    await expect(unlock).toBeEnabled();

    // A campaign with neither published indicators nor a validated series is not locked.
    await pick(page, "select-campagne", "2025");
    await expect(lock).toHaveCount(0);
    await expect(unlock).toBeDisabled();
    expect((await storedContext("animateur"))?.idCampagne).toBe(ids.tilleuls2025);
  });

  test("[A-LOCK-01] [A-LOCK-05] [A-LOCK-06] a campaign whose series is validated is locked and cannot be unlocked", async ({ page }) => {
    const ids = await demoIds();
    await e2eDb()("campagne").where({ id: ids.tilleuls2025 }).update({ serieValide: true });
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    try {
      await signIn(page, "animateur");
      await navigate(page, WITH_BAR);
      const bar = page.getByTestId("context-bar");
      await expect(bar.getByTestId("campaign-locked")).toBeVisible();
      await expect(bar.getByRole("button", { name: "Déverrouiller la campagne" })).toBeDisabled();
      await navigate(page, "/home/description/parametre_exploitation");
      await expect(page.getByTestId("farm-unlock-campaign")).toBeDisabled();
      await expect(page.getByTestId("farm-campagnes")).toContainText("Série validée");
    } finally {
      await e2eDb()("campagne").where({ id: ids.tilleuls2025 }).update({ serieValide: false });
    }
  });

  test("[A-FARM-18] [A-LOCK-07] the farm settings' unlock icon unlocks the selected campaign after the warning", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "animateur");
    await navigate(page, "/home/description/parametre_exploitation");
    const unlock = page.getByTestId("farm-unlock-campaign");
    await expect(page.getByTestId("campaign-locked")).toBeVisible();
    await expect(unlock).toBeEnabled();
    await unlock.click();
    const dialog = page.getByTestId("unlock-dialog");
    await expect(dialog.getByRole("alert")).toContainText("ses indicateurs devront alors être recalculés et republiés");
    await dialog.getByRole("button", { name: "Confirmer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect(page.getByTestId("campaign-locked")).toHaveCount(0);
    await expect(unlock).toBeDisabled();
  });
});

test.describe("campaign dialogs in English", () => {
  test("[A-LOCALE-06] the new campaign dialog and the unlock warning speak English", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "animateur");
    await inEnglish(page, WITH_BAR);
    await page.getByTestId("context-bar").getByRole("button", { name: "New campaign" }).click();
    const dialog = page.getByTestId("new-campagne-dialog");
    await dialog.getByLabel("Harvest year").fill("2026");
    await dialog.getByLabel("Campaign to duplicate").selectOption({ label: "2025" });
    await expect(dialog.getByTestId("histo-automatic")).toHaveText("Automatic reference: the duplicated campaign (2025)");
    await dialog.getByRole("checkbox", { name: "Duplicate interventions" }).check();
    await dialog.getByRole("checkbox", { name: "Duplicate observations" }).check();
    await page.screenshot({ path: `${SHOTS}/new-campaign-dialog-en.png` });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);

    await page.getByTestId("context-bar").getByRole("button", { name: "Unlock the campaign" }).click();
    const unlock = page.getByTestId("unlock-dialog");
    await expect(unlock.getByRole("alert")).toHaveText(
      "This campaign is locked because its results are published. Unlocking it lets you change it; its indicators will then have to be recalculated and republished.",
    );
    await page.screenshot({ path: `${SHOTS}/unlock-warning-en.png` });
    await unlock.getByRole("button", { name: "Cancel" }).click();
  });
});
