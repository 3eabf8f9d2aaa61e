import type { Page } from "@playwright/test";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { demoIds, setContext, signIn, storedContext } from "./helpers";

/**
 * Folder settings (parametre_dossier) and the new folder dialog, as an animator.
 * Each test prepares its own state in the database and puts back what it changed.
 */

const BOCAGE = "Groupe Polyculture-élevage Bocage";
const AGRICULTEURS = "Agriculteurs du réseau démo";
const SAVED = "Enregistrement effectué";
const SHOTS = "/tmp/shots-h10";
/** A screen that shows the context bar. */
const WITH_BAR = "/home/description/exploitation/description";

const rightsOf = (idUser: number, idDossier: number) =>
  e2eDb()("utilisateur_dossier").where({ idUser, idDossier }).first("udoAnimation", "udoEcriture", "udoLecture", "udoSynthese");

/** The four right boxes of one user row of the folder settings list. */
function boxes(page: Page, displayName: string) {
  const cell = (right: string) => page.getByRole("checkbox", { name: `${right} ${displayName}`, exact: true });
  return { animation: cell("Animation"), ecriture: cell("Écriture"), lecture: cell("Lecture"), synthese: cell("Synthèse") };
}

async function expectTicks(page: Page, displayName: string, ticks: { animation: boolean; ecriture: boolean; lecture: boolean; synthese: boolean }) {
  const b = boxes(page, displayName);
  for (const key of ["animation", "ecriture", "lecture", "synthese"] as const) {
    if (ticks[key]) await expect(b[key], `${displayName} ${key}`).toBeChecked();
    else await expect(b[key], `${displayName} ${key}`).not.toBeChecked();
  }
}

/** Opens the folder settings from the context bar's cog icon (A-CTX-24). */
async function openFolderSettings(page: Page) {
  await navigate(page, WITH_BAR);
  await page.getByTestId("context-bar").getByRole("link", { name: "Paramètres du dossier" }).click();
  await expect(page).toHaveURL(/\/sillon\/home\/description\/parametre_dossier$/);
  await expect(page.getByRole("heading", { name: "Paramètres du dossier", level: 1 })).toBeVisible();
}

test.describe("folder settings", () => {
  test("[A-CTX-24] [A-FOLDER-03] [A-FOLDER-04] [A-FOLDER-05] [A-FOLDER-12] [A-FOLDER-13] [A-FOLDER-14] [A-FOLDER-15] [A-FOLDER-16] [A-CASC-11] [A-CASC-12] [A-CASC-13] [A-CASC-14] [A-ERR-23] an animator shares the folder with a user picked by group, changes the user's rights with their cascades, saves, then removes the user", async ({
    page,
  }) => {
    // A long journey (several sign-ins or screens): on a busy 2-core machine it needs more than the default 30 s.
    test.slow();
    const ids = await demoIds();
    const nouveau = await userId("nouveau");
    const before = await e2eDb()("utilisateur").where({ id: nouveau }).first("isVisible", "acceptcgu");
    // Only visible users can be picked: `nouveau` accepts the terms and visibility first.
    await e2eDb()("utilisateur").where({ id: nouveau }).update({ isVisible: true, acceptcgu: true });
    await e2eDb()("utilisateur_dossier").where({ idUser: nouveau, idDossier: ids.bocage }).delete();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    try {
      await signIn(page, "animateur");
      await openFolderSettings(page);

      // The users holding rights on the folder, each by "NOM Prénom" with four rights.
      const list = page.getByTestId("folder-users");
      await expect(list.locator("tbody tr")).toHaveText([/DURAND Bruno/, /LEFÈVRE Claire/]);
      await expect(list.locator("thead th")).toHaveText(["Sélection", "Utilisateur", "Animation", "Écriture", "Lecture", "Synthèse"]);
      await expectTicks(page, "DURAND Bruno", { animation: true, ecriture: true, lecture: true, synthese: true });
      await expectTicks(page, "LEFÈVRE Claire", { animation: false, ecriture: true, lecture: true, synthese: true });

      // Users are looked up by group; the list names the group's visible users not yet in the folder.
      const groupe = page.getByLabel("Groupe d'utilisateurs");
      await expect(groupe.locator("option")).toHaveText(["Choisir…", "Agriculteurs du réseau démo", "Conseillers du réseau démo"]);
      const candidate = page.getByTestId("candidate-select");
      await expect(candidate).toBeDisabled();
      await groupe.selectOption({ label: AGRICULTEURS });
      await expect(candidate.locator("option")).toHaveText(["Choisir…", "GARNIER Émilie", "MOREAU David", "PETIT François"]);
      await candidate.selectOption({ label: "PETIT François" });
      await page.getByRole("button", { name: "Ajouter un utilisateur" }).click();
      await expect(list.locator("tbody tr")).toHaveText([/DURAND Bruno/, /LEFÈVRE Claire/, /PETIT François/]);
      await expect(candidate.locator("option")).toHaveText(["Choisir…", "GARNIER Émilie", "MOREAU David"]);
      // A new user starts with reading and synthesis.
      await expectTicks(page, "PETIT François", { animation: false, ecriture: false, lecture: true, synthese: true });

      const petit = boxes(page, "PETIT François");
      // A-CASC-11: ticking animation ticks writing, reading and synthesis.
      await petit.animation.check();
      await expectTicks(page, "PETIT François", { animation: true, ecriture: true, lecture: true, synthese: true });
      // A-CASC-14: unticking writing unticks animation.
      await petit.ecriture.uncheck();
      await expectTicks(page, "PETIT François", { animation: false, ecriture: false, lecture: true, synthese: true });
      // A-CASC-13: unticking reading unticks writing and animation.
      await petit.animation.check();
      await petit.lecture.uncheck();
      await expectTicks(page, "PETIT François", { animation: false, ecriture: false, lecture: false, synthese: true });
      // A-CASC-12: unticking synthesis unticks reading, writing and animation.
      await petit.animation.check();
      await expectTicks(page, "PETIT François", { animation: true, ecriture: true, lecture: true, synthese: true });
      await petit.synthese.uncheck();
      await expectTicks(page, "PETIT François", { animation: false, ecriture: false, lecture: false, synthese: false });
      // Writing: reading and synthesis come with it.
      await petit.ecriture.check();
      await expectTicks(page, "PETIT François", { animation: false, ecriture: true, lecture: true, synthese: true });
      // Another user's change is saved in the same list (A-FOLDER-16).
      await boxes(page, "LEFÈVRE Claire").ecriture.uncheck();
      await expectTicks(page, "LEFÈVRE Claire", { animation: false, ecriture: false, lecture: true, synthese: true });

      await page.getByTestId("save-rights").click();
      await expect(page.getByTestId("snackbar")).toHaveText(SAVED);
      await expect.poll(() => rightsOf(nouveau, ids.bocage)).toEqual({ udoAnimation: 0, udoEcriture: 1, udoLecture: 1, udoSynthese: 1 });
      expect(await rightsOf(await userId("redacteur"), ids.bocage)).toEqual({ udoAnimation: 0, udoEcriture: 0, udoLecture: 1, udoSynthese: 1 });
      await expect(page.getByTestId("save-rights")).toBeDisabled();

      // After a reload the list shows what was saved; the user is then removed from the folder.
      await page.reload();
      await expectTicks(page, "PETIT François", { animation: false, ecriture: true, lecture: true, synthese: true });
      await page.getByRole("checkbox", { name: "Supprimer PETIT François", exact: true }).check();
      await page.getByRole("button", { name: "Retirer les utilisateurs cochés" }).click();
      await expect(list.locator("tbody tr")).toHaveText([/DURAND Bruno/, /LEFÈVRE Claire/]);
      await page.getByTestId("save-rights").click();
      await expect(page.getByTestId("snackbar")).toHaveText(SAVED);
      await expect.poll(() => rightsOf(nouveau, ids.bocage)).toBeUndefined();
      // The audit trail of the folder shows both rights changes, by the animator, newest first.
      const audit = page.getByTestId("audit-list");
      await audit.getByText("Historique des modifications").click();
      const auditRows = audit.locator("tbody tr");
      await expect(auditRows.nth(0)).toContainText("DURAND Bruno");
      await expect(auditRows.nth(0)).toContainText("Modification des droits");
      await expect(auditRows.nth(1)).toContainText("DURAND Bruno");
      await expect(auditRows.nth(1)).toContainText("Modification des droits");
      await page.screenshot({ path: `${SHOTS}/folder-settings-fr.png`, fullPage: true });
    } finally {
      await e2eDb()("utilisateur_dossier").where({ idUser: nouveau, idDossier: ids.bocage }).delete();
      await e2eDb()("utilisateur_dossier")
        .where({ idUser: await userId("redacteur"), idDossier: ids.bocage })
        .update({ udoEcriture: true, udoLecture: true, udoSynthese: true, udoAnimation: false });
      await e2eDb()("utilisateur").where({ id: nouveau }).update(before);
    }
  });

  test("[A-CASC-15] [A-CASC-16] unticking or removing the only animator of a folder is refused with an error dialog, and the box stays ticked", async ({
    page,
  }) => {
    const ids = await demoIds();
    const animateur = await userId("animateur");
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    const rightsBefore = await e2eDb()("utilisateur_dossier").where({ idDossier: ids.bocage }).orderBy("id").select("*");
    await signIn(page, "animateur");
    await openFolderSettings(page);
    const durand = boxes(page, "DURAND Bruno");
    const dialog = page.getByTestId("error-dialog");

    for (const box of [durand.animation, durand.synthese, durand.lecture, durand.ecriture]) {
      await box.click();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("heading", { name: "Erreur" })).toBeVisible();
      await expect(dialog.getByRole("alert")).toHaveText("Un dossier doit avoir au moins un animateur");
      await dialog.getByRole("button", { name: "Ok" }).click();
      await expect(dialog).toHaveCount(0);
      await expectTicks(page, "DURAND Bruno", { animation: true, ecriture: true, lecture: true, synthese: true });
    }
    // Removing the only animator is refused the same way.
    await page.getByRole("checkbox", { name: "Supprimer DURAND Bruno", exact: true }).check();
    await page.getByRole("button", { name: "Retirer les utilisateurs cochés" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Un dossier doit avoir au moins un animateur");
    await dialog.getByRole("button", { name: "Ok" }).click();
    await expect(page.getByTestId("folder-users").locator("tbody tr")).toHaveText([/DURAND Bruno/, /LEFÈVRE Claire/]);
    await expect(page.getByTestId("save-rights")).toBeDisabled();
    expect(await e2eDb()("utilisateur_dossier").where({ idDossier: ids.bocage }).orderBy("id").select("*")).toEqual(rightsBefore);
    expect((await rightsOf(animateur, ids.bocage))?.udoAnimation).toBe(1);
  });

  test("[A-CASC-15] with two animators one of them may lose the animation right", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce });
    await signIn(page, "animateur");
    await openFolderSettings(page);
    await boxes(page, "MARTIN Alice").animation.uncheck();
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);
    await expectTicks(page, "MARTIN Alice", { animation: false, ecriture: true, lecture: true, synthese: true });
    await expect(page.getByTestId("save-rights")).toBeEnabled();
  });

  test("[A-FOLDER-06] [A-FOLDER-07] [A-FOLDER-08] users with synthesis come first, then by order, then by name", async ({ page }) => {
    const ids = await demoIds();
    const rows = e2eDb()("utilisateur_dossier").where({ idDossier: ids.beauce });
    const before = await rows.clone().select("id", "ordre", "udoAnimation", "udoEcriture", "udoLecture", "udoSynthese");
    const lecteur = await userId("lecteur");
    try {
      // lecteur: order 0 but no right at all, so after every synthesis holder; admin and redacteur share order 1 with animateur: by name.
      await rows.clone().where({ idUser: lecteur }).update({ ordre: 0, udoAnimation: false, udoEcriture: false, udoLecture: false, udoSynthese: false });
      await rows
        .clone()
        .whereIn("idUser", [await userId("admin"), await userId("redacteur")])
        .update({ ordre: 1 });
      await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce });
      await signIn(page, "animateur");
      await openFolderSettings(page);
      await expect(page.getByTestId("folder-users").locator("tbody tr td:nth-child(2)")).toHaveText([
        "DURAND Bruno",
        "LEFÈVRE Claire",
        "MARTIN Alice",
        "GARNIER Émilie",
        "MOREAU David",
      ]);
    } finally {
      for (const r of before) await e2eDb()("utilisateur_dossier").where({ id: r.id }).update(r);
    }
  });

  test("[A-FOLDER-09] [A-FOLDER-10] [A-FOLDER-11] without accepted visibility, a message and a button to the profile replace the user list", async ({
    page,
  }) => {
    const ids = await demoIds();
    const animateur = await userId("animateur");
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    await e2eDb()("utilisateur").where({ id: animateur }).update({ isVisible: false });
    try {
      await signIn(page, "animateur");
      await openFolderSettings(page);
      await expect(page.getByTestId("folder-users")).toHaveCount(0);
      await expect(page.getByTestId("groupe-select")).toHaveCount(0);
      const panel = page.getByTestId("visibility-required");
      await expect(panel).toContainText("La liste des utilisateurs n'est visible que si vous acceptez vous-même d'être visible des autres utilisateurs.");
      await page.screenshot({ path: `${SHOTS}/folder-settings-not-visible-fr.png`, fullPage: true });
      await panel.getByRole("link", { name: "Aller à mon profil" }).click();
      await expect(page).toHaveURL(/\/sillon\/home\/profil$/);
    } finally {
      await e2eDb()("utilisateur").where({ id: animateur }).update({ isVisible: true });
    }
  });

  test("[A-FOLDER-01] [A-FOLDER-02] [A-ERR-23] the folder form edits the name, the remark and the network; an empty name is refused", async ({ page }) => {
    const ids = await demoIds();
    const before = await e2eDb()("dossier").where({ id: ids.bocage }).first("libelle", "remarque", "idOad");
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    try {
      await signIn(page, "animateur");
      await openFolderSettings(page);
      const screen = page.getByTestId("screen-parametre_dossier");
      const name = screen.getByLabel("Nom du dossier");
      await expect(name).toHaveValue(BOCAGE);
      await expect(screen.getByLabel("Réseau", { exact: true })).toHaveValue(String(ids.reseauDemo));
      await name.fill("");
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
      await expect(page.getByText("Champ requis")).toBeVisible();
      expect(await e2eDb()("dossier").where({ id: ids.bocage }).first("libelle")).toEqual({ libelle: BOCAGE });

      await name.fill(`${BOCAGE} (modifié)`);
      await screen.getByLabel("Remarque").fill("Remarque écrite par le test");
      await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
      await expect(page.getByTestId("snackbar")).toHaveText(SAVED);
      await expect
        .poll(() => e2eDb()("dossier").where({ id: ids.bocage }).first("libelle", "remarque", "idOad"))
        .toEqual({ libelle: `${BOCAGE} (modifié)`, remarque: "Remarque écrite par le test", idOad: ids.reseauDemo });
      await expect(page.getByTestId("context-bar").getByTestId("select-dossier")).toHaveText(`${BOCAGE} (modifié)`);
    } finally {
      await e2eDb()("dossier").where({ id: ids.bocage }).update(before);
    }
  });

  test("[A-ERR-10] a user who can no longer be added makes the save fail with the right-creation error, and nothing is written", async ({ page }) => {
    const ids = await demoIds();
    const synthese = await userId("synthese");
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    try {
      await signIn(page, "animateur");
      await openFolderSettings(page);
      await page.getByLabel("Groupe d'utilisateurs").selectOption({ label: AGRICULTEURS });
      await page.getByTestId("candidate-select").selectOption({ label: "GARNIER Émilie" });
      await page.getByRole("button", { name: "Ajouter un utilisateur" }).click();
      // The account is disabled meanwhile.
      await e2eDb()("utilisateur").where({ id: synthese }).update({ actif: false });
      await page.getByTestId("save-rights").click();
      const dialog = page.getByTestId("error-dialog");
      await expect(dialog.getByRole("alert")).toHaveText("Impossible d'ajouter les droits de l'utilisateur");
      expect(await rightsOf(synthese, ids.bocage)).toBeUndefined();
    } finally {
      await e2eDb()("utilisateur").where({ id: synthese }).update({ actif: true });
      await e2eDb()("utilisateur_dossier").where({ idUser: synthese, idDossier: ids.bocage }).delete();
    }
  });

  test("[A-ERR-09] [C-ERR-28] a failed load of a group's users says so", async ({ page, browserErrors }) => {
    // The group's users answer 500 on purpose (route below).
    browserErrors.allow(/status of 500 \(Internal Server Error\) \(.*utilisateurs\?idGroupe/);
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    await signIn(page, "animateur");
    await openFolderSettings(page);
    await page.route(/\/home\/utilisateurs(\.data)?\?/, (route) => route.fulfill({ status: 500, body: "boom" }));
    await page.getByLabel("Groupe d'utilisateurs").selectOption({ label: AGRICULTEURS });
    const dialog = page.getByTestId("error-dialog");
    await expect(dialog.getByRole("alert")).toHaveText(/^service grpeUser 500\b/);
    // Not a translation key: the server's words come after the generic introduction (C-ERR-28).
    await expect(dialog.getByTestId("error-dialog-intro")).toHaveText("Une erreur est survenue. Le message d'erreur est :");
    await dialog.getByRole("button", { name: "Ok" }).click();
    // The screen is still there behind the dialog; no user can be picked.
    await expect(page.getByTestId("folder-users")).toBeVisible();
    await expect(page.getByTestId("candidate-select")).toBeDisabled();
  });
});

test.describe("folder settings in English", () => {
  test("[A-LOCALE-06] the folder settings and the add-user controls speak English", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.bocage });
    await signIn(page, "animateur");
    await inEnglish(page, "/home/description/parametre_dossier");
    await expect(page.getByRole("heading", { name: "Folder settings", level: 1 })).toBeVisible();
    await expect(page.getByTestId("folder-users").locator("thead th")).toHaveText(["Select", "User", "Animation", "Writing", "Reading", "Synthesis"]);
    await page.getByLabel("User group").selectOption({ label: AGRICULTEURS });
    await expect(page.getByTestId("candidate-select").locator("option")).toHaveCount(3);
    await page.screenshot({ path: `${SHOTS}/folder-settings-en.png`, fullPage: true });
  });
});

test.describe("new folder and folder deletion", () => {
  test("[A-CTX-23] [A-CRUD-01] [A-CRUD-02] [A-CRUD-03] [A-ERR-21] the new folder dialog refuses an empty name and a missing network; creating a folder selects it", async ({
    page,
  }) => {
    const ids = await demoIds();
    const name = "Dossier créé par le test h10";
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce });
    try {
      await signIn(page, "animateur");
      await navigate(page, WITH_BAR);
      await page.getByTestId("context-bar").getByRole("button", { name: "Nouveau dossier" }).click();
      const dialog = page.getByTestId("new-dossier-dialog");
      await expect(dialog.getByRole("heading", { name: "Nouveau dossier" })).toBeVisible();
      // The network defaults to the selected one; both fields are required.
      const network = dialog.getByLabel("Réseau");
      await expect(network).toHaveValue(String(ids.reseauDemo));
      await network.selectOption("");
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(dialog.getByText("Champ requis")).toHaveCount(2);
      expect(await e2eDb()("dossier").where({ libelle: name }).first("id")).toBeUndefined();

      await dialog.getByLabel("Nom du dossier").fill(name);
      await network.selectOption({ label: "Réseau démo" });
      await dialog.getByLabel("Remarque").fill("Créé par un parcours Playwright");
      await dialog.getByRole("button", { name: "Ajouter" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("select-dossier")).toHaveText(name);
      const row = await e2eDb()("dossier").where({ libelle: name }).first("id", "idOad", "remarque");
      expect(row).toMatchObject({ idOad: ids.reseauDemo, remarque: "Créé par un parcours Playwright" });
      // Its creator animates it, and it is the selected folder.
      expect(await rightsOf(await userId("animateur"), row.id)).toEqual({ udoAnimation: 1, udoEcriture: 1, udoLecture: 1, udoSynthese: 1 });
      expect(await storedContext("animateur")).toMatchObject({ idOad: ids.reseauDemo, idDossier: row.id, exploitations: [] });
    } finally {
      await e2eDb()("dossier").where({ libelle: name }).delete();
    }
  });

  test("[A-CRUD-01] the new folder dialog opened again shows no error of the last opening", async ({ page }) => {
    const ids = await demoIds();
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce });
    await signIn(page, "animateur");
    await navigate(page, WITH_BAR);
    const open = () => page.getByTestId("context-bar").getByRole("button", { name: "Nouveau dossier" }).click();
    const dialog = page.getByTestId("new-dossier-dialog");
    await open();
    await dialog.getByRole("button", { name: "Ajouter" }).click();
    await expect(dialog.getByText("Champ requis")).toHaveCount(1);
    await dialog.getByLabel("Nom du dossier").fill("Brouillon");
    await dialog.getByRole("button", { name: "Annuler" }).click();
    await open();
    await expect(dialog.getByText("Champ requis")).toHaveCount(0);
    await expect(dialog.getByLabel("Nom du dossier")).toHaveValue("");
    await expect(dialog.getByLabel("Réseau")).toHaveValue(String(ids.reseauDemo));
  });

  test("[A-CRUD-12] [A-CRUD-13] [A-CRUD-14] deleting a folder asks for confirmation, deletes it and clears the folder selection", async ({ page }) => {
    const ids = await demoIds();
    const name = "Dossier à supprimer h10";
    const [row] = await e2eDb()("dossier").insert({ libelle: name, idOad: ids.reseauDemo, remarque: "" }).returning("id");
    const id = typeof row === "object" ? row.id : row;
    await e2eDb()("utilisateur_dossier").insert({
      idUser: await userId("animateur"),
      idDossier: id,
      udoAnimation: true,
      udoEcriture: true,
      udoLecture: true,
      udoSynthese: true,
      ordre: 1,
    });
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: id });
    try {
      await signIn(page, "animateur");
      await openFolderSettings(page);
      await page.getByRole("button", { name: "Supprimer le dossier" }).click();
      const confirm = page.getByTestId("delete-dossier-dialog");
      await expect(confirm).toContainText(`Supprimer définitivement le dossier « ${name} » ?`);
      await confirm.getByRole("button", { name: "Annuler" }).click();
      await expect(confirm).toHaveCount(0);
      expect(await e2eDb()("dossier").where({ id }).first("id")).toBeDefined();

      await page.getByRole("button", { name: "Supprimer le dossier" }).click();
      await confirm.getByRole("button", { name: "Supprimer" }).click();
      await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
      await expect.poll(() => e2eDb()("dossier").where({ id }).first("id")).toBeUndefined();
      await navigate(page, WITH_BAR);
      await expect(page.getByTestId("select-dossier")).toHaveText("Choisir…");
      await page.getByTestId("select-dossier").click();
      await expect(page.getByRole("option", { name })).toHaveCount(0);
    } finally {
      await e2eDb()("dossier").where({ id }).delete();
    }
  });
});
