import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, pick, setContext, signIn } from "./helpers";

/**
 * Two tabs of one session (issue 23, decision 0092): every write names the campaign its page shows; when another tab
 * has chosen another campaign since, the write is refused with errors.campaign-changed and nothing is stored, on
 * neither campaign. A reload shows the campaign now chosen (2024 is locked: read-only); back on 2025, the save goes through.
 */
const LABOUR = "/home/description/exploitation/main_oeuvre";
const NOM = "E2E deux onglets";

test("[issue23-two-tabs] a save from a tab whose campaign was changed in another tab is refused and stores nothing; after a reload the page shows the campaign chosen", async ({
  page,
}) => {
  const ids = await demoIds();
  const db = e2eDb();
  const enregistres = () => db("main_oeuvre").where({ libelle: NOM }).select("idCampagne");
  await db("main_oeuvre").where({ libelle: NOM }).delete();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  try {
    await signIn(page, "redacteur");
    await navigate(page, LABOUR);
    await page.getByTestId("list-new").click();
    await page.getByLabel("Nom", { exact: true }).fill(NOM);
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Salarié permanent" });
    await page.getByLabel("UTH", { exact: true }).fill("1");

    // The second tab (same session) chooses 2024.
    const autre = await page.context().newPage();
    await navigate(autre, "/home/description/home");
    await pick(autre, "select-campagne", "2024");
    await expect(autre.getByTestId("select-campagne")).toHaveText("2024");
    await autre.close();

    // The first tab still shows 2025: its save is refused, what was typed stays, nothing is stored.
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("error-dialog")).toContainText("La campagne sélectionnée a changé depuis l'affichage de cette page");
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue(NOM);
    expect(await enregistres()).toEqual([]);

    // After a reload the page shows 2024, locked by its validated series: read-only, nothing to save.
    await navigate(page, LABOUR);
    await expect(page.getByTestId("select-campagne")).toHaveText("2024");
    await expect(page.getByText("Lecture seule : campagne verrouillée")).toBeVisible();
    await expect(page.getByTestId("list-new")).toBeDisabled();

    // The other tab goes back to 2025; once reloaded, the first tab's save goes to 2025.
    const retour = await page.context().newPage();
    await navigate(retour, "/home/description/home");
    await pick(retour, "select-campagne", "2025");
    await expect(retour.getByTestId("select-campagne")).toHaveText("2025");
    await retour.close();
    await navigate(page, LABOUR);
    await expect(page.getByTestId("select-campagne")).toHaveText("2025");
    await page.getByTestId("list-new").click();
    await page.getByLabel("Nom", { exact: true }).fill(NOM);
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Salarié permanent" });
    await page.getByLabel("UTH", { exact: true }).fill("1");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    await expect.poll(async () => (await enregistres()).map((r) => Number(r.idCampagne))).toEqual([ids.tilleuls2025]);
  } finally {
    await db("main_oeuvre").where({ libelle: NOM }).delete();
  }
});
