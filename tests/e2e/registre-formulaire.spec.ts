import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, insertId, noSeriousAxeViolationInMain, signInOnTilleuls } from "./helpers";

/**
 * The register's fields in the intervention form (issue 28, decision 0125): a writer chooses the BBCH stage from the
 * stage list and types the contractor's SIRET and the times of a treatment in the form, bad input is shown beside its
 * field and saves nothing; once saved, the register's line shows them.
 */
const SHOTS = "tests/.artifacts/shots-registre-formulaire";
mkdirSync(SHOTS, { recursive: true });
const GRILLE = "/home/description/au_champs/interventions";
const REGISTRE = "/home/description/au_champs/registre";
const PLOT = "E2E Registre formulaire";

/** A plot of its own in Tilleuls 2025, one done treatment of winter wheat with a demo phyto input. */
async function prepare() {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const phyto = await db("intrant as i")
    .join("categorie_intrant as c", "c.id", "i.idCategorie")
    .join("action as a", "a.id", "i.idAction")
    .where({ "a.idCampagne": idCampagne, "c.idTypeIntrant": 539, "a.realisee": true })
    .orderBy("i.id")
    .first("i.*", "a.idOperationCulturale");
  const crop = await db("culture as c")
    .join("culture_code_eppo as ce", "ce.idCulture", "c.id")
    .join("code_eppo as e", "e.id", "ce.idCodeEppo")
    .where("e.code", "TRZAW")
    .first("c.id", "c.idEchelleStadeAee");
  const stage = await db("stade_culture").where({ idEchelleStadeAee: crop.idEchelleStadeAee, code: "32" }).first("id", "libelle", "code");
  const idParcelle = await insertId("parcelle", { idCampagne, libelle: PLOT, surface: 3, noIlotPac: "78" });
  const idAction = await insertId("action", {
    idCampagne,
    idParcelle,
    date: "2025-04-11",
    anneeRecolte: 2025,
    idOperationCulturale: phyto.idOperationCulturale,
    idCultureConcernee: crop.id,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  const { id: _id, idOperationCulturale: _op, createdAt: _c, updatedAt: _u, ...input } = phyto;
  await insertId("intrant", { ...input, idAction });
  return {
    ids,
    idParcelle,
    idAction,
    stage,
    stored: () => db("action").where({ id: idAction }).first("idStadeCulture", "precisionStade", "heureDebut", "heureFin", "siretPrestataire", "updatedAt"),
    cleanup: async () => {
      await db("intrant").where({ idAction }).delete();
      await db("action").where({ id: idAction }).delete();
      await db("parcelle").where({ id: idParcelle }).delete();
    },
  };
}

test("[issue28-champs] a writer fills the BBCH stage and the contractor's SIRET in the intervention form, saves, and sees them in the register", async ({
  page,
}) => {
  test.slow();
  const s = await prepare();
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInOnTilleuls(page, "redacteur", s.ids.tilleuls2025, `${GRILLE}?parcelleId=${s.idParcelle}&id=${s.idAction}`);
    const form = page.getByTestId("intervention-form");
    const registre = form.getByTestId("intervention-registre");
    await expect(form.getByRole("group", { name: "Registre phytosanitaire" })).toBeVisible();
    const before = await s.stored();

    // Bad input: the message beside its field (the form's schema, checked as one types), and no save.
    await registre.getByLabel("SIRET prestataire").fill("1234567890123");
    await registre.getByLabel("SIRET prestataire").blur();
    await registre.getByLabel("Heure de début").fill("10:00");
    await registre.getByLabel("Heure de début").blur();
    await registre.getByLabel("Heure de fin").fill("09:30");
    await registre.getByLabel("Heure de fin").blur();
    await expect(page.getByTestId("list-save")).toBeDisabled();
    const siret = registre.getByTestId("intervention-siret-prestataire");
    await expect(siret).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`[id="${await siret.getAttribute("id")}-error"]`)).toHaveText("Valeur invalide");
    const fin = registre.getByTestId("intervention-heure-fin");
    await expect(fin).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`[id="${await fin.getAttribute("id")}-error"]`)).toHaveText("Valeur invalide");
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/formulaire-erreurs-fr.png`, fullPage: true });
    expect(await s.stored()).toEqual(before);

    // The stage from the same stage list as the grid's, the free text beside it, the contractor's SIRET and the times.
    await registre.getByLabel("Stade BBCH").selectOption({ label: s.stage.libelle });
    await registre.getByLabel("Stade (texte)").fill("2 nœuds bien visibles");
    await registre.getByLabel("Heure de début").fill("7h30");
    await registre.getByLabel("Heure de fin").fill("09:15");
    await registre.getByLabel("SIRET prestataire").fill("732 829 320 00074");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect
      .poll(async () => {
        const { updatedAt: _u, ...v } = await s.stored();
        return v;
      })
      .toEqual({
        idStadeCulture: s.stage.id,
        precisionStade: "2 nœuds bien visibles",
        heureDebut: "07:30",
        heureFin: "09:15",
        siretPrestataire: "73282932000074",
      });
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/formulaire-enregistre-fr.png`, fullPage: true });

    await navigate(page, REGISTRE);
    const line = page.getByTestId("registre-page").getByRole("table").getByRole("row").filter({ hasText: PLOT });
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(`BBCH ${s.stage.code}`);
    await expect(line).toContainText("2 nœuds bien visibles");
    // The contractor's column is one of the register's optional columns: shown through the columns menu.
    const page_ = page.getByTestId("registre-page");
    await page_.getByTestId("columns-menu").first().click();
    const toggle = page.getByTestId("columns-menu-panel").getByTestId("column-toggle-prestataire");
    const shown = await toggle.isChecked();
    if (!shown) await toggle.check();
    await page.keyboard.press("Escape");
    await expect(line).toContainText("73282932000074");
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/registre-fr.png`, fullPage: true });
    if (!shown) {
      await page_.getByTestId("columns-menu").first().click();
      await page.getByTestId("columns-menu-panel").getByTestId("column-toggle-prestataire").uncheck();
      await page.keyboard.press("Escape");
    }
  } finally {
    await s.cleanup();
  }
});
