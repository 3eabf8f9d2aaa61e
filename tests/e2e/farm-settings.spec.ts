import type { Page } from "@playwright/test";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { demoIds, setContext, signIn, storedContext } from "./helpers";

/**
 * Farm settings (parametre_exploitation): the farm form, its linked folders with their rights, the
 * add-folder dialog, the at-least-one-folder rule; the new farm dialog and farm deletion.
 * Each test prepares its own state in the database and puts back what it changed.
 */

const BEAUCE = "Groupe Grandes cultures Beauce";
const BOCAGE = "Groupe Polyculture-élevage Bocage";
const SHOTS = "/tmp/shots-h10";
/** A screen that shows the context bar. */
const WITH_BAR = "/home/description/exploitation/description";

type Ticks = { ecriture: boolean; lecture: boolean; synthese: boolean; animation: boolean; nominatif?: boolean };
const LABELS = { ecriture: "Écriture", lecture: "Lecture", synthese: "Synthèse", animation: "Animation", nominatif: "Nominatif" } as const;

/** The right boxes of one linked folder in the farm settings list. */
function linkBoxes(page: Page, folder: string) {
  const box = (label: string) => page.getByTestId("farm-links").getByRole("checkbox", { name: `${label} ${folder}`, exact: true });
  return {
    ecriture: box(LABELS.ecriture),
    lecture: box(LABELS.lecture),
    synthese: box(LABELS.synthese),
    animation: box(LABELS.animation),
    nominatif: box(LABELS.nominatif),
  };
}

async function expectTicks(boxes: Record<keyof Ticks, ReturnType<Page["getByRole"]>>, ticks: Ticks, what: string) {
  for (const key of Object.keys(ticks) as (keyof Ticks)[]) {
    if (ticks[key]) await expect(boxes[key], `${what} ${key}`).toBeChecked();
    else await expect(boxes[key], `${what} ${key}`).not.toBeChecked();
  }
}

/** Opens the farm settings from the context bar's cog icon (A-CTX-26). */
async function openFarmSettings(page: Page) {
  await navigate(page, WITH_BAR);
  await page.getByTestId("context-bar").getByRole("link", { name: "Paramètres de l'exploitation" }).click();
  await expect(page).toHaveURL(/\/sillon\/home\/description\/parametre_exploitation$/);
  await expect(page.getByRole("heading", { name: "Paramètres de l'exploitation", level: 1 })).toBeVisible();
}

const linkRow = (idDossier: number, idExploitation: number) =>
  e2eDb()("dossier_exploitation").where({ idDossier, idExploitation }).first("dexEcriture", "dexLecture", "dexSynthese", "dexAnimation", "dexNominatif");

test.describe("farm settings: linked folders", () => {
  test("[A-CTX-26] [A-FARM-05] [A-FARM-06] [A-FARM-08] [A-FARM-09] [A-FARM-10] [A-FARM-11] [A-FARM-12] [A-FARM-13] [A-CASC-07] [A-CASC-08] [A-CASC-09] [A-CASC-10] [A-ERR-21] [A-ERR-23] a farm gets a second folder from the add-folder dialog, then loses it", async ({
    page,
  }) => {
    const ids = await demoIds();
    await e2eDb()("dossier_exploitation").where({ idDossier: ids.bocage, idExploitation: ids.tilleuls }).delete();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await openFarmSettings(page);

      // The linked folders, each by name with its five rights.
      const links = page.getByTestId("farm-links");
      await expect(links.locator("thead th")).toHaveText(["Sélection", "Nom du dossier", "Écriture", "Lecture", "Synthèse", "Animation", "Nominatif"]);
      await expect(links.locator("tbody tr")).toHaveText([BEAUCE]);
      await expectTicks(linkBoxes(page, BEAUCE), { ecriture: true, lecture: true, synthese: true, animation: true, nominatif: false }, BEAUCE);

      // The add-folder dialog: network and folder required.
      await page.getByTestId("add-folder-to-farm").click();
      const dialog = page.getByTestId("add-folder-dialog");
      await expect(dialog.getByRole("heading", { name: "Rattacher un dossier" })).toBeVisible();
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(dialog.getByText("Champ requis")).toHaveCount(2);
      const network = dialog.getByLabel("Réseau");
      const folder = dialog.getByLabel("Dossier");
      await expect(folder).toBeDisabled();
      await network.selectOption({ label: "Réseau démo" });
      // The folders already linked to the farm are not offered.
      await expect(folder.locator("option")).toHaveText(["Choisir…", BOCAGE]);
      await expect(dialog.getByText("Champ requis")).toHaveCount(1);
      await page.screenshot({ path: `${SHOTS}/add-folder-dialog-fr.png` });

      // The rights cascade in the dialog.
      const box = (label: string) => dialog.getByRole("checkbox", { name: label, exact: true });
      const dialogBoxes = {
        ecriture: box("Écriture"),
        lecture: box("Lecture"),
        synthese: box("Synthèse"),
        animation: box("Animation"),
        nominatif: box("Nominatif"),
      };
      await expectTicks(dialogBoxes, { ecriture: false, lecture: false, synthese: false, animation: false, nominatif: false }, "dialog");
      await dialogBoxes.lecture.check(); // A-CASC-08: read ticks synthesis
      await expectTicks(dialogBoxes, { ecriture: false, lecture: true, synthese: true, animation: false }, "dialog");
      await dialogBoxes.synthese.uncheck(); // A-CASC-09: unticking synthesis unticks read
      await expectTicks(dialogBoxes, { ecriture: false, lecture: false, synthese: false, animation: false }, "dialog");
      await dialogBoxes.ecriture.check(); // A-CASC-07: write ticks read (and read synthesis)
      await expectTicks(dialogBoxes, { ecriture: true, lecture: true, synthese: true, animation: false }, "dialog");
      await dialogBoxes.lecture.uncheck(); // A-CASC-10: unticking read unticks write
      await expectTicks(dialogBoxes, { ecriture: false, lecture: false, synthese: true, animation: false }, "dialog");
      await dialogBoxes.ecriture.check();
      await dialogBoxes.nominatif.check();
      await expectTicks(dialogBoxes, { ecriture: true, lecture: true, synthese: true, animation: false, nominatif: true }, "dialog");

      await folder.selectOption({ label: BOCAGE });
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      await expect(dialog).toHaveCount(0);
      await expect(links.locator("tbody tr")).toHaveText([BEAUCE, BOCAGE]);
      expect(await linkRow(ids.bocage, ids.tilleuls)).toEqual({ dexEcriture: 1, dexLecture: 1, dexSynthese: 1, dexAnimation: 0, dexNominatif: 1 });
      await expectTicks(linkBoxes(page, BOCAGE), { ecriture: true, lecture: true, synthese: true, animation: false, nominatif: true }, BOCAGE);
      await page.screenshot({ path: `${SHOTS}/farm-settings-fr.png`, fullPage: true });

      // Linked now: the dialog no longer offers it.
      await page.getByTestId("add-folder-to-farm").click();
      await dialog.getByLabel("Réseau").selectOption({ label: "Réseau démo" });
      await expect(dialog.getByLabel("Dossier").locator("option")).toHaveText(["Choisir…"]);
      await dialog.getByRole("button", { name: "Annuler" }).click();

      // The second folder is unlinked: ticked, removed, saved.
      await page.getByRole("checkbox", { name: `Supprimer ${BOCAGE}`, exact: true }).check();
      await page.getByTestId("remove-folders").click();
      await expect(links.locator("tbody tr")).toHaveText([BEAUCE]);
      expect(await linkRow(ids.bocage, ids.tilleuls)).toBeDefined();
      await page.getByTestId("save-links").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
      await expect.poll(() => linkRow(ids.bocage, ids.tilleuls)).toBeUndefined();
      expect(await linkRow(ids.beauce, ids.tilleuls)).toEqual({ dexEcriture: 1, dexLecture: 1, dexSynthese: 1, dexAnimation: 1, dexNominatif: 0 });
      // The audit trail names both changes.
      await page.getByText("Historique des modifications").click();
      await expect(page.getByText("Rattachement d'un dossier").first()).toBeVisible();
      await expect(page.getByText("Détachement d'un dossier").first()).toBeVisible();
    } finally {
      await e2eDb()("dossier_exploitation").where({ idDossier: ids.bocage, idExploitation: ids.tilleuls }).delete();
    }
  });

  test("[A-FARM-14] [A-FARM-15] unlinking the last folder of a farm shows the warning and deletes nothing", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    const before = await e2eDb()("dossier_exploitation").where({ idExploitation: ids.tilleuls }).select("*");
    expect(before).toHaveLength(1);
    await signIn(page, "animateur");
    await openFarmSettings(page);
    await page.getByRole("checkbox", { name: `Supprimer ${BEAUCE}`, exact: true }).check();
    await page.getByTestId("remove-folders").click();
    const dialog = page.getByTestId("error-dialog");
    await expect(dialog.getByRole("alert")).toHaveText("Une exploitation doit rester rattachée à au moins un dossier");
    await dialog.getByRole("button", { name: "Ok" }).click();
    await expect(page.getByTestId("farm-links").locator("tbody tr")).toHaveText([BEAUCE]);
    await expect(page.getByTestId("save-links")).toBeDisabled();
    expect(await e2eDb()("dossier_exploitation").where({ idExploitation: ids.tilleuls }).select("*")).toEqual(before);
  });

  test("[A-FARM-14] [A-FARM-15] with two folders, unlinking both at once is refused too", async ({ page }) => {
    const ids = await demoIds();
    await e2eDb()("dossier_exploitation").insert({
      idDossier: ids.bocage,
      idExploitation: ids.tilleuls,
      dexEcriture: true,
      dexLecture: true,
      dexSynthese: true,
      dexAnimation: false,
      dexNominatif: false,
    });
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      const before = await e2eDb()("dossier_exploitation").where({ idExploitation: ids.tilleuls }).orderBy("id").select("*");
      await signIn(page, "animateur");
      await openFarmSettings(page);
      await page.getByRole("checkbox", { name: `Supprimer ${BEAUCE}`, exact: true }).check();
      await page.getByRole("checkbox", { name: `Supprimer ${BOCAGE}`, exact: true }).check();
      await page.getByTestId("remove-folders").click();
      await expect(page.getByTestId("error-dialog").getByRole("alert")).toHaveText("Une exploitation doit rester rattachée à au moins un dossier");
      await page.getByTestId("error-dialog").getByRole("button", { name: "Ok" }).click();
      await expect(page.getByTestId("farm-links").locator("tbody tr")).toHaveText([BEAUCE, BOCAGE]);
      expect(await e2eDb()("dossier_exploitation").where({ idExploitation: ids.tilleuls }).orderBy("id").select("*")).toEqual(before);
    } finally {
      await e2eDb()("dossier_exploitation").where({ idDossier: ids.bocage, idExploitation: ids.tilleuls }).delete();
    }
  });

  test("[A-CASC-01] [A-CASC-02] [A-CASC-03] [A-CASC-04] [A-CASC-05] [A-CASC-06] [A-FARM-06] a link's rights cascade on screen; the nominatif right is saved alone", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await openFarmSettings(page);
      const b = linkBoxes(page, BEAUCE);
      await b.ecriture.uncheck(); // A-CASC-06: unticking write clears animation
      await expectTicks(b, { ecriture: false, lecture: true, synthese: true, animation: false }, BEAUCE);
      await b.animation.check(); // A-CASC-05: animation ticks write
      await expectTicks(b, { ecriture: true, lecture: true, synthese: true, animation: true }, BEAUCE);
      await b.lecture.uncheck(); // A-CASC-04: unticking read unticks write (and animation)
      await expectTicks(b, { ecriture: false, lecture: false, synthese: true, animation: false }, BEAUCE);
      await b.synthese.uncheck(); // A-CASC-03: unticking synthesis unticks read
      await b.lecture.check(); // A-CASC-02: read ticks synthesis
      await expectTicks(b, { ecriture: false, lecture: true, synthese: true, animation: false }, BEAUCE);
      await b.synthese.uncheck();
      await expectTicks(b, { ecriture: false, lecture: false, synthese: false, animation: false }, BEAUCE);
      await b.ecriture.check(); // A-CASC-01: write ticks read (and synthesis)
      await expectTicks(b, { ecriture: true, lecture: true, synthese: true, animation: false }, BEAUCE);
      await b.animation.check();
      // Back to where it started: nothing to save.
      await expect(page.getByTestId("save-links")).toBeDisabled();

      await b.nominatif.check();
      await expectTicks(b, { ecriture: true, lecture: true, synthese: true, animation: true, nominatif: true }, BEAUCE);
      await page.getByTestId("save-links").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
      await expect.poll(() => linkRow(ids.beauce, ids.tilleuls)).toEqual({ dexEcriture: 1, dexLecture: 1, dexSynthese: 1, dexAnimation: 1, dexNominatif: 1 });
    } finally {
      await e2eDb()("dossier_exploitation")
        .where({ idDossier: ids.beauce, idExploitation: ids.tilleuls })
        .update({ dexEcriture: true, dexLecture: true, dexSynthese: true, dexAnimation: true, dexNominatif: false });
    }
  });

  test("[A-FARM-07] [A-FARM-12] [A-FARM-13] without the farm animation right, link rights are read-only and folders cannot be added or removed", async ({
    page,
  }) => {
    const ids = await demoIds();
    // animateur writes GAEC du Moulin through Beauce (link: write, no animation); Bocage links it with read only.
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.moulin] });
    await signIn(page, "animateur");
    await openFarmSettings(page);
    await expect(page.getByTestId("farm-links").locator("tbody tr")).toHaveText([BEAUCE, BOCAGE]);
    for (const folder of [BEAUCE, BOCAGE]) {
      for (const box of Object.values(linkBoxes(page, folder))) await expect(box).toBeDisabled();
      await expect(page.getByRole("checkbox", { name: `Supprimer ${folder}`, exact: true })).toBeDisabled();
    }
    await expect(page.getByTestId("add-folder-to-farm")).toHaveCount(0);
    await expect(page.getByTestId("remove-folders")).toHaveCount(0);
    await expect(page.getByTestId("save-links")).toHaveCount(0);
    // The farm itself may still be written.
    await expect(page.getByTestId("farm-form")).not.toHaveAttribute("disabled");
    await expect(page.getByTestId("farm-form").getByLabel("Nom de l'exploitation")).toBeEnabled();
  });
});

test.describe("add-folder dialog: refusals and reopening", () => {
  test("[A-ERR-16] [A-FARM-11] a folder moved to another network meanwhile: the add-folder dialog shows the folder service error and links nothing", async ({
    page,
  }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await navigate(page, "/home/description/parametre_exploitation");
      await page.getByTestId("add-folder-to-farm").click();
      const dialog = page.getByTestId("add-folder-dialog");
      await dialog.getByLabel("Réseau").selectOption({ label: "Réseau démo" });
      await dialog.getByLabel("Dossier").selectOption({ label: BOCAGE });
      await dialog.getByRole("checkbox", { name: "Lecture", exact: true }).check();
      await e2eDb()("dossier").where({ id: ids.bocage }).update({ idOad: ids.international });
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      const error = page.getByTestId("error-dialog");
      await expect(error.getByRole("alert")).toHaveText("Erreur du service des dossiers");
      await error.getByRole("button", { name: "Ok" }).click();
      expect(await linkRow(ids.bocage, ids.tilleuls)).toBeUndefined();
    } finally {
      await e2eDb()("dossier").where({ id: ids.bocage }).update({ idOad: ids.reseauDemo });
      await e2eDb()("dossier_exploitation").where({ idDossier: ids.bocage, idExploitation: ids.tilleuls }).delete();
    }
  });

  test("[A-FARM-08] [A-CASC-07] each opening of the add-folder dialog starts afresh: no stale right, value or error", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "animateur");
    await navigate(page, "/home/description/parametre_exploitation");
    await page.getByTestId("add-folder-to-farm").click();
    const dialog = page.getByTestId("add-folder-dialog");
    await dialog.getByRole("button", { name: "Ajouter" }).click();
    await expect(dialog.getByText("Champ requis")).toHaveCount(2);
    await dialog.getByLabel("Réseau").selectOption({ label: "Réseau démo" });
    await dialog.getByRole("checkbox", { name: "Écriture", exact: true }).check();
    await expect(dialog.getByRole("checkbox", { name: "Lecture", exact: true })).toBeChecked();
    await dialog.getByRole("button", { name: "Annuler" }).click();
    await page.getByTestId("add-folder-to-farm").click();
    await expect(dialog.getByLabel("Réseau")).toHaveValue("");
    await expect(dialog.getByText("Champ requis")).toHaveCount(0);
    for (const name of ["Écriture", "Lecture", "Synthèse", "Animation", "Nominatif"]) {
      await expect(dialog.getByRole("checkbox", { name, exact: true })).not.toBeChecked();
    }
  });
});

test.describe("farm settings: the farm", () => {
  test("[A-FARM-01] [A-FARM-02] [A-FARM-03] [A-FARM-04] [A-FARM-16] [A-FARM-17] [A-FARM-18] the farm form edits the name and type; an empty name is refused; delete, add-campaign and unlock actions are there", async ({
    page,
  }) => {
    const ids = await demoIds();
    const before = await e2eDb()("exploitation").where({ id: ids.moulin }).first("libelle", "idTypeExploitation");
    const types = await e2eDb()("type_exploitation").orderBy("id").select("id", "libelle");
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.moulin] });
    try {
      await signIn(page, "animateur");
      await openFarmSettings(page);
      const form = page.getByTestId("farm-form");
      const name = form.getByLabel("Nom de l'exploitation");
      const type = form.getByLabel("Type d'exploitation");
      await expect(name).toHaveValue("GAEC du Moulin");
      await expect(type).toHaveValue(String(before.idTypeExploitation));
      const offered = await type.locator("option").allInnerTexts();
      expect(offered.slice(1).sort()).toEqual(types.map((t: { libelle: string }) => t.libelle).sort());
      await expect(page.getByTestId("delete-farm")).toBeEnabled();
      await expect(page.getByTestId("farm-add-campaign")).toBeVisible();
      await expect(page.getByTestId("farm-unlock-campaign")).toBeVisible();

      await name.fill("");
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
      await expect(form.getByText("Champ requis")).toBeVisible();
      expect(await e2eDb()("exploitation").where({ id: ids.moulin }).first("libelle")).toEqual({ libelle: "GAEC du Moulin" });

      const other = types.find((t: { id: number }) => t.id !== before.idTypeExploitation)!;
      await name.fill("GAEC du Moulin (modifié)");
      await type.selectOption(String(other.id));
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
      await expect
        .poll(() => e2eDb()("exploitation").where({ id: ids.moulin }).first("libelle", "idTypeExploitation"))
        .toEqual({ libelle: "GAEC du Moulin (modifié)", idTypeExploitation: other.id });
    } finally {
      await e2eDb()("exploitation").where({ id: ids.moulin }).update(before);
    }
  });
});

test.describe("scenarios and farm duplication", () => {
  test("[C-SCEN-01] [C-SCEN-02] the scenarios dialog makes exactly one campaign of the year the base one, the others simulations", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    const flags = async () => await e2eDb()("campagne").whereIn("id", [ids.tilleuls2025, ids.tilleulsSimulation]).orderBy("id").select("id", "simulation");
    try {
      await signIn(page, "animateur");
      await navigate(page, "/home/description/parametre_exploitation");
      // Only a year with several campaigns has scenarios.
      await expect(page.getByRole("button", { name: /^Scénarios/ })).toHaveText(["Scénarios 2025"]);
      await page.getByRole("button", { name: "Scénarios 2025" }).click();
      const dialog = page.getByTestId("scenarios-dialog");
      await expect(dialog.getByRole("heading", { name: "Scénarios de l'année 2025" })).toBeVisible();
      const base = dialog.getByRole("radio", { name: "2025", exact: true });
      const simulation = dialog.getByRole("radio", { name: "2025 Simulation réduction phyto" });
      await expect(base).toBeChecked();
      await expect(simulation).not.toBeChecked();
      await simulation.check();
      await expect(base).not.toBeChecked();
      await dialog.getByRole("button", { name: "Enregistrer" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
      await expect.poll(flags).toEqual([
        { id: ids.tilleuls2025, simulation: 1 },
        { id: ids.tilleulsSimulation, simulation: 0 },
      ]);
    } finally {
      await e2eDb()("campagne").where({ id: ids.tilleuls2025 }).update({ simulation: false });
      await e2eDb()("campagne").where({ id: ids.tilleulsSimulation }).update({ simulation: true });
    }
  });

  test("[C-SCEN-05] [C-SCEN-06] [C-SCEN-07] [C-SCEN-08] [C-SCEN-09] [C-SCEN-10] [C-SCEN-12] a farm is duplicated into another folder with the chosen campaigns; name, type, network and folder are required", async ({
    page,
  }) => {
    const ids = await demoIds();
    const db = e2eDb();
    const copyName = "EARL des Tilleuls_h10";
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    try {
      await signIn(page, "animateur");
      await navigate(page, "/home/description/parametre_exploitation");
      await page.getByTestId("duplicate-farm").click();
      const dialog = page.getByTestId("duplicate-dialog");
      const name = dialog.getByLabel("Nom de l'exploitation");
      const type = dialog.getByLabel("Type d'exploitation");
      const network = dialog.getByLabel("Réseau de destination");
      const folder = dialog.getByLabel("Dossier de destination");
      // C-SCEN-09: the name defaults to the current one plus "_"; type, network and folder to the current ones.
      await expect(name).toHaveValue("EARL des Tilleuls_");
      await expect(type).not.toHaveValue("");
      await expect(network).toHaveValue(String(ids.reseauDemo));
      await expect(folder).toHaveValue(String(ids.beauce));

      await name.fill("");
      await type.selectOption("");
      await network.selectOption("");
      await dialog.getByRole("button", { name: "Dupliquer l'exploitation" }).click();
      // Name, type, network, folder and the campaigns to copy: all required.
      await expect(dialog.getByText("Champ requis")).toHaveCount(5);
      expect(await db("exploitation").where({ libelle: copyName }).first("id")).toBeUndefined();

      await name.fill(copyName);
      await type.selectOption({ index: 1 });
      await network.selectOption({ label: "Réseau démo" });
      await folder.selectOption({ label: BOCAGE });
      await dialog.getByRole("checkbox", { name: "2024" }).check();
      await dialog.getByRole("checkbox", { name: "2025", exact: true }).check();
      await dialog.getByRole("button", { name: "Dupliquer l'exploitation" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("L'exploitation a été dupliquée");
      await expect(dialog).toHaveCount(0);

      const copy = await db("exploitation").where({ libelle: copyName }).first("id");
      expect(await db("dossier_exploitation").where({ idExploitation: copy.id }).select("idDossier")).toEqual([{ idDossier: ids.bocage }]);
      const campagnes = await db("campagne")
        .where({ idExploitation: copy.id })
        .orderBy("anneeRecolte")
        .select("anneeRecolte", "simulation", "idCampagneSource", "indicateurPublie");
      expect(campagnes).toEqual([
        { anneeRecolte: 2024, simulation: 0, idCampagneSource: ids.tilleuls2024, indicateurPublie: 0 },
        { anneeRecolte: 2025, simulation: 0, idCampagneSource: ids.tilleuls2025, indicateurPublie: 0 },
      ]);
      // C-SCEN-10, 12: recorded with its source and the base-folder flag (destination differs from the current folder).
      const audit = await db("audit").where({ action: "exploitation.duplicate", idEntite: copy.id }).first("details");
      expect(JSON.parse(audit.details)).toMatchObject({ dossierSource: ids.beauce, exploitationSource: ids.tilleuls, dupliBaseDossier: true });
    } finally {
      await db("exploitation").where({ libelle: copyName }).delete();
    }
  });
});

test.describe("farm settings in English", () => {
  test("[A-LOCALE-06] the farm settings and the add-folder dialog speak English", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "animateur");
    await inEnglish(page, "/home/description/parametre_exploitation");
    await expect(page.getByRole("heading", { name: "Farm settings", level: 1 })).toBeVisible();
    await expect(page.getByTestId("farm-links").locator("thead th")).toHaveText([
      "Select",
      "Folder name",
      "Writing",
      "Reading",
      "Synthesis",
      "Animation",
      "Named",
    ]);
    await page.screenshot({ path: `${SHOTS}/farm-settings-en.png`, fullPage: true });
    await page.getByTestId("add-folder-to-farm").click();
    const dialog = page.getByTestId("add-folder-dialog");
    await expect(dialog.getByRole("heading", { name: "Link a folder" })).toBeVisible();
    await dialog.getByRole("button", { name: "Add" }).click();
    await expect(dialog.getByText("Required field")).toHaveCount(2);
    await page.screenshot({ path: `${SHOTS}/add-folder-dialog-en.png` });
  });
});

test.describe("new farm and farm deletion", () => {
  test("[A-CTX-25] [A-CRUD-04] [A-CRUD-05] [A-CRUD-06] [A-CRUD-07] [A-CRUD-08] [A-CRUD-09] [A-CRUD-10] [A-CRUD-11] [A-ERR-21] a farm is created from the context bar (name and type required) and selected; deleting it asks first, removes it from the farm list and clears the selection", async ({
    page,
  }) => {
    const ids = await demoIds();
    const animateur = await userId("animateur");
    const db = e2eDb();
    // A folder of its own, with one other farm, so that the demo folders stay as they are.
    const [d] = await db("dossier").insert({ libelle: "Dossier des fermes h10", idOad: ids.reseauDemo, remarque: "" }).returning("id");
    const idDossier = typeof d === "object" ? d.id : d;
    await db("utilisateur_dossier").insert({
      idUser: animateur,
      idDossier,
      udoAnimation: true,
      udoEcriture: true,
      udoLecture: true,
      udoSynthese: true,
      ordre: 1,
    });
    const [w] = await db("exploitation").insert({ libelle: "Ferme témoin h10", idTypeExploitation: 1 }).returning("id");
    const witness = typeof w === "object" ? w.id : w;
    await db("dossier_exploitation").insert({ idDossier, idExploitation: witness, dexEcriture: true, dexLecture: true, dexSynthese: true, dexAnimation: true });
    const name = "Ferme créée par le test h10";
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier, exploitations: [witness] });
    try {
      await signIn(page, "animateur");
      await navigate(page, WITH_BAR);
      await page.getByTestId("context-bar").getByRole("button", { name: "Nouvelle exploitation" }).click();
      const dialog = page.getByTestId("new-exploitation-dialog");
      await expect(dialog.getByRole("heading", { name: "Nouvelle exploitation" })).toBeVisible();
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(dialog.getByText("Champ requis")).toHaveCount(2);
      await dialog.getByLabel("Nom de l'exploitation").fill(name);
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      // The type is still missing.
      await expect(dialog.getByText("Champ requis")).toHaveCount(1);
      expect(await db("exploitation").where({ libelle: name }).first("id")).toBeUndefined();
      await dialog.getByLabel("Type d'exploitation").selectOption({ index: 1 });
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("select-exploitations")).toHaveText(name);
      const created = await db("exploitation").where({ libelle: name }).first("id", "idTypeExploitation");
      expect(created.idTypeExploitation).toBeGreaterThan(0);
      expect(await linkRow(idDossier, created.id)).toEqual({ dexEcriture: 1, dexLecture: 1, dexSynthese: 1, dexAnimation: 1, dexNominatif: 0 });
      expect((await storedContext("animateur"))?.exploitations).toEqual([created.id]);

      await openFarmSettings(page);
      await expect(page.getByTestId("farm-form").getByLabel("Nom de l'exploitation")).toHaveValue(name);
      await page.getByTestId("delete-farm").click();
      const confirm = page.getByTestId("delete-farm-dialog");
      await expect(confirm).toContainText(`Supprimer définitivement l'exploitation « ${name} » et toutes ses campagnes ?`);
      await confirm.getByRole("button", { name: "Annuler" }).click();
      await expect(confirm).toHaveCount(0);
      expect(await db("exploitation").where({ id: created.id }).first("id")).toBeDefined();

      await page.getByTestId("delete-farm").click();
      await confirm.getByRole("button", { name: "Supprimer" }).click();
      await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
      await expect.poll(() => db("exploitation").where({ id: created.id }).first("id")).toBeUndefined();
      expect((await storedContext("animateur"))?.exploitations).toEqual([]);
      await navigate(page, WITH_BAR);
      await expect(page.getByTestId("select-exploitations")).toHaveText("Choisir…");
      await page.getByTestId("select-exploitations").click();
      await expect(page.getByRole("option")).toHaveText(["✓Ferme témoin h10"]);
    } finally {
      await db("exploitation").where({ libelle: name }).delete();
      await db("exploitation").where({ id: witness }).delete();
      await db("dossier").where({ id: idDossier }).delete();
    }
  });
});
