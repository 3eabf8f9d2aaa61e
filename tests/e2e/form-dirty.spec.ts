import { e2eDb, expect, login, navigate, test, userId } from "./fixtures";

/**
 * The forms' unsaved-changes state (issue 10, form kit): an edit typed after a save, while the screen reloads
 * its data, stays unsaved. The old effect cleared it again when the reload ended.
 */

const NAME = "Haie du chemin de Beaugency";

test("[issue10] [B-LIST-14] an edit typed while the list reloads after a save stays unsaved", async ({ page }) => {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const idCampagne = (await db("campagne").where({ idExploitation: farm.id, anneeRecolte: 2025, simulation: false }).first("id")).id as number;
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const idUser = await userId("redacteur");
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({ idUser, idOad: dossier.idOad, idDossier: dossier.id, exploitations: JSON.stringify([farm.id]), idCampagne });
  const row = await db("amenagement").where({ libelle: NAME, idCampagne }).first();
  try {
    await login(page, "redacteur");
    await page.waitForURL(/home\/description\/home/);
    await navigate(page, `/home/description/exploitation/amenagements?id=${row.id}`);
    const nom = page.getByLabel("Nom", { exact: true });
    await expect(nom).toHaveValue(NAME);
    await nom.fill(`${NAME} (1)`);

    // The reload that follows the save waits until the next edit is typed.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/amenagements\.data/, async (route) => {
      if (route.request().method() === "GET") await held;
      await route.continue();
    });
    const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("amenagements"));
    await page.getByTestId("list-save").click();
    expect((await saved).ok()).toBe(true);
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await nom.fill(`${NAME} (2)`);
    const reloaded = page.waitForResponse((r) => r.request().method() === "GET" && /amenagements\.data/.test(r.url()));
    release();
    await reloaded;
    await page.unroute(/amenagements\.data/);

    // The second edit is still unsaved: the save button is on, and saving it writes it.
    await expect(nom).toHaveValue(`${NAME} (2)`);
    await expect(page.getByTestId("list-save")).toBeEnabled();
    await page.getByTestId("list-save").click();
    await expect.poll(async () => (await db("amenagement").where({ id: row.id }).first()).libelle).toBe(`${NAME} (2)`);
  } finally {
    await db("amenagement").where({ id: row.id }).update({ libelle: NAME });
  }
});
