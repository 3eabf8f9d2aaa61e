import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn, insertId } from "./helpers";

/**
 * The interventions screen's form and input dialogs (spec 3 §2.1, §2.2, §4.1, §5; issue 11). Each test prepares its
 * own operation and interventions on a plot of EARL des Tilleuls 2025 and removes them.
 */

const SHOTS = "/tmp/shots-interventions";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

/** An operation with its tractor and worker, and one plot's interventions of Tilleuls 2025. */
async function prepare() {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const plots = await db("parcelle").where({ idCampagne }).orderBy("libelle").select("id", "libelle");
  const tracteur = await insertId("parc_materiel", {
    idCampagne,
    libelle: "E2E Tracteur 160 ch",
    noClasse: 1,
    noCategorie: 1,
    idCategorieMateriel: 1,
    idBasemeq: 1,
  });
  const pulve = await insertId("parc_materiel", {
    idCampagne,
    libelle: "E2E Pulvérisateur 24 m",
    noClasse: 1,
    noCategorie: 1,
    idCategorieMateriel: 1,
    idBasemeq: 1,
  });
  const chef = await insertId("main_oeuvre", { idCampagne, libelle: "E2E Chef d'exploitation", uta: 1, idTypeUser: 953 });
  const traitement = await insertId("operation_culturale", {
    idCampagne,
    idTypeAction: 1,
    libelle: "E2E Traitement fongicide",
    idMaterielTractant: tracteur,
    debitReel: 6,
    debitCalcule: 5.5,
    volumeBouillie: 150,
  });
  const irrigation = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Irrigation", debitReel: null, debitCalcule: 1.2 });
  await insertId("operation_culturale_materiel", { idOperationCulturale: traitement, idParcMateriel: pulve });
  await insertId("operation_culturale_main_oeuvre", { idOperationCulturale: traitement, idMainOeuvre: chef });
  const plot = plots[0];
  const existing = await insertId("action", {
    idCampagne,
    idParcelle: plot.id,
    date: "2025-04-12",
    anneeRecolte: 2025,
    idOperationCulturale: traitement,
    idCultureConcernee: 1,
    debit: 6,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  await insertId("intrant", {
    idAction: existing,
    idCategorie: 5421,
    idIntrant: 20011,
    dicIdOrigineIntrant: 776,
    libelleIntrant: "Irrigation par aspersion (enrouleur, rampe, pivot)",
    quantite: 25,
    dicLlUnite: "mm",
  });
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  return {
    ids,
    plot,
    plots,
    existing,
    traitement,
    irrigation,
    cleanup: async () => {
      // Only what the test created: the interventions of its two operations.
      await db("action").where({ idCampagne }).whereIn("idOperationCulturale", [traitement, irrigation]).delete();
      await db("operation_culturale").whereIn("id", [traitement, irrigation]).delete();
      await db("parc_materiel").whereIn("id", [tracteur, pulve]).delete();
      await db("main_oeuvre").where({ id: chef }).delete();
    },
  };
}

async function openScreen(page: Page, user: "redacteur" | "lecteur", query = "") {
  await signIn(page, user);
  await navigate(page, `${SCREEN}${query}`);
  await expect(page.getByRole("heading", { name: "Interventions", level: 1 })).toBeVisible();
}

test.describe("interventions screen", () => {
  test("[C-INT-08] [C-INT-01] [C-INT-04] [C-INT-05] [C-INT-06] [C-INT-07] [C-INT-09] [C-INT-10] [C-INT-11] [C-INT-12] [C-INT-13] [C-INT-14] [C-INT-15] [C-INT-16] [C-INT-17] the screen lists the plot's interventions with their columns and filters", async ({
    page,
  }) => {
    const s = await prepare();
    // C-INT-08: an intervention with a decision-rule evaluation is flagged.
    const idRdd = await insertId("rdd", { idCampagne: s.ids.tilleuls2025, libelle: "E2E Règle fongicide", dicIdTypeRdd: 1 });
    await insertId("rdd_evaluation", { idRdd, idAction: s.existing, ecartSolution: 0 });
    try {
      // C-INT-01: au_champs leads to the measurements.
      await signIn(page, "redacteur");
      await navigate(page, "/home/description/au_champs");
      await expect(page).toHaveURL(/\/au_champs\/mesures$/);
      await navigate(page, `${SCREEN}?parcelleId=${s.plot.id}`);
      await expect(page.getByTestId("plot-filter-summary")).toHaveText(s.plot.libelle);
      const table = page.locator('table[role="grid"]');
      // The grid's accessible table (visually hidden) names the columns in view.
      await expect(table.locator("th")).toContainText([
        "Date",
        "Opération culturale",
        "P/R",
        "Réalisée",
        "Prévue",
        "Fréquence",
        "Taux de surface",
        "Nb passages",
        "Intrants",
      ]);
      const row = table.locator("tbody tr").filter({ hasText: "12/04/2025" });
      await expect(row).toContainText("E2E Traitement fongicide");
      await expect(row.locator("td").nth(2)).toHaveText("R");
      const sameRow = table.locator(`tbody tr[aria-rowindex="${await row.getAttribute("aria-rowindex")}"]`);
      // The inputs and RDD columns come into view with the cursor: End (the row's last cell), then left past the
      // register's seven columns, the RDD and the crop to the inputs column (before the crop since decision 0126).
      await page.locator("canvas[data-testid=data-grid-canvas]").scrollIntoViewIfNeeded();
      const box = (await page.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
      await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
      await page.keyboard.press("End");
      for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowLeft");
      await expect(table.locator("th", { hasText: "Intrants" })).toHaveCount(1);
      await expect(table.locator("th", { hasText: "RDD" })).toHaveCount(1);
      await expect(sameRow).toContainText("Irrigation par aspersion (enrouleur, rampe, pivot) 25 mm");
      await expect(sameRow).toContainText("Évaluée");
      await page.keyboard.press("Home");
      await expect(table.locator("th", { hasText: "Date" })).toHaveCount(1);
      await expect(page.getByTestId("plot-irrigable")).toBeVisible();
      // C-INT-12: the search keeps the rows whose inputs match.
      await page.getByTestId("filter-recherche").fill("engrais");
      await expect(table.locator("tbody tr").filter({ hasText: "12/04/2025" })).toHaveCount(0);
      await page.getByTestId("filter-recherche").fill("aspersion");
      await expect(table.locator("tbody tr").filter({ hasText: "12/04/2025" })).toHaveCount(1);
      // C-INT-11: without an operation: none here.
      await page.getByTestId("filter-sans-operation").check();
      await expect(table.locator("tbody tr").filter({ hasText: "12/04/2025" })).toHaveCount(0);
      await page.getByTestId("filter-sans-operation").uncheck();
      // C-INT-09: a second plot added to the filter shows a plot column.
      await page.getByTestId("plot-filter-summary").click();
      await page.getByTestId(`plot-filter-${s.plots[1].id}`).click();
      await expect(page.getByTestId(`plot-filter-${s.plots[1].id}`)).toBeChecked();
      await expect(page.getByTestId("plot-filter-summary")).toHaveText("2 parcelles");
      await expect(table.locator("th").first()).toHaveText("Parcelle");
      // C-INT-14, 15: the Other menu's entries and the copy selection.
      await page.getByTestId("interventions-other").click();
      await expect(page.getByRole("menuitem")).toHaveText([
        "Exporter les interventions cochées vers d'autres parcelles ou dossiers",
        "Importer depuis une autre parcelle",
        "Dupliquer les interventions d'une parcelle",
        "Mise à jour des affectations",
        "Mise à jour des dates",
      ]);
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("interventions-copy")).toBeVisible();
      await expect(page.getByTestId("list-new")).toBeEnabled();
      await page.screenshot({ path: `${SHOTS}/interventions-fr.png`, fullPage: true });
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    } finally {
      await e2eDb()("rdd").where({ id: idRdd }).delete();
      await s.cleanup();
    }
  });

  test("[C-INT-02] the field, prices, protocols, interoperability and results areas answer only a signed-in user", async ({ page }) => {
    for (const path of [
      "/home/description/au_champs/interventions",
      "/home/description/prix/prix_approvisionnement",
      "/home/description/protocole/rdd",
      "/home/interoperabilite/export",
      "/home/resultats/calcul",
    ]) {
      await navigate(page, path);
      await expect(page).toHaveURL(/\/login/);
    }
  });

  test("[C-FORM-03] [C-FORM-04] [C-FORM-05] [C-FORM-06] [C-FORM-07] [C-FORM-08] [C-FORM-09] [C-FORM-10] [C-FORM-11] [C-FORM-12] [C-FORM-13] [C-FORM-14] [C-FORM-17] [C-FORM-21] [C-FORM-22] [C-FORM-24] [C-FORM-25] [C-FORM-26] [C-FORM-27] [C-FORM-29] [C-FORM-30] [C-FORM-42] [C-FORM-43] a writer creates an intervention in the form, then edits it", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}`);
      await page.getByTestId("list-new").click();
      const form = page.getByTestId("intervention-form");
      // A new intervention: frequency 1, surface rate 1, done.
      await expect(form.getByTestId("intervention-frequence")).toHaveValue("1");
      await expect(form.getByTestId("intervention-taux-surface")).toHaveValue("1");
      await expect(form.getByTestId("intervention-realisee")).toBeChecked();
      await expect(form.getByTestId("intervention-prevue")).not.toBeChecked();
      await expect(page.getByTestId("panel-autres-details")).toHaveText("Autres Détails");
      await expect(page.getByTestId("panel-observations-liees")).toHaveText("Observations Liées");
      // Required fields.
      await form.getByTestId("intervention-date-text").fill("31/02/2025");
      await form.getByTestId("intervention-date-text").blur();
      await expect(form.getByText("Date invalide")).toBeVisible();
      // The text date and the picker follow each other.
      await form.getByTestId("intervention-date-text").fill("15/03/2025");
      await expect(form.getByTestId("intervention-date-picker")).toHaveValue("2025-03-15");
      await form.getByTestId("intervention-date-picker").fill("2025-03-16");
      await expect(form.getByTestId("intervention-date-text")).toHaveValue("16/03/2025");
      // The operation: its work rate shown, the intervention's taken from it (actual, else calculated).
      await form.getByTestId("intervention-operation").selectOption({ label: "E2E Irrigation" });
      await expect(form.getByTestId("debit-operation")).toHaveText("Débit de l'opération : 1,2 ha/h");
      await expect(form.getByTestId("intervention-debit")).toHaveValue("1,2");
      await form.getByTestId("intervention-operation").selectOption({ label: "E2E Traitement fongicide" });
      await expect(form.getByTestId("intervention-debit")).toHaveValue("6");
      await expect(page.getByTestId("operation-materiels")).toContainText("E2E Tracteur 160 ch");
      await expect(page.getByTestId("operation-materiels")).toContainText("E2E Pulvérisateur 24 m");
      await expect(page.getByTestId("operation-main-oeuvres")).toContainText("E2E Chef d'exploitation");
      // A typed rate that differs from the operation's warns.
      await form.getByTestId("intervention-debit").fill("4,5");
      await expect(form.getByTestId("debit-warning")).toContainText("diffère de celui de l'opération");
      // Passes computed live.
      await form.getByTestId("intervention-frequence").fill("2");
      await form.getByTestId("intervention-taux-surface").fill("0,5");
      await expect(form.getByTestId("intervention-passages")).toHaveText("1");
      await form.getByTestId("intervention-taux-surface").fill("0");
      await expect(form.getByTestId("intervention-passages")).toHaveText("2");
      await form.getByTestId("intervention-taux-surface").fill("0,75");
      await expect(form.getByTestId("intervention-passages")).toHaveText("1,5");
      await form.getByTestId("intervention-prevue").check();
      await page.getByTestId("list-save").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      const created = await e2eDb()("action")
        .where({ idParcelle: s.plot.id, date: "2025-03-16" })
        .first("id", "debit", "frequence", "tauxSurface", "nombrePassage", "prevue", "realisee");
      expect({ ...created, id: undefined }).toEqual({ id: undefined, debit: 4.5, frequence: 2, tauxSurface: 0.75, nombrePassage: 1.5, prevue: 1, realisee: 1 });
      const table = page.locator('table[role="grid"]');
      await expect(table.locator("tbody tr").filter({ hasText: "16/03/2025" })).toContainText("P/R");
      // Editing it: the form shows it, a change is saved in place.
      await form.getByTestId("intervention-frequence").fill("3");
      await page.getByTestId("list-save").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      await expect.poll(async () => Number((await e2eDb()("action").where({ id: created.id }).first("frequence")).frequence)).toBe(3);
      await page.screenshot({ path: `${SHOTS}/intervention-form-fr.png`, fullPage: true });
    } finally {
      await s.cleanup();
    }
  });

  test("[C-ERR-35] [C-WATER-01] [C-WATER-02] [C-WATER-03] [C-WATER-04] [C-WATER-05] [C-WATER-06] [C-OTHER-01] [C-OTHER-02] [C-OTHER-03] [C-OTHER-04] [C-OTHER-05] [C-FORM-18] [C-FORM-19] [C-FORM-20] [C-FORM-31] [C-FORM-32] [C-FORM-33] [C-FORM-34] [C-FORM-35] [C-CONST-09] water and other inputs are added, edited and deleted from the intervention", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      const panel = page.getByTestId("intrants-panel");
      await expect(panel.getByTestId("intrant-row")).toHaveCount(1);
      // Water: type and quantity required, in mm.
      await panel.getByTestId("add-intrant-542").click();
      const water = page.getByTestId("dialog-eau");
      await expect(water.getByRole("heading", { name: "Eau" })).toBeVisible();
      await water.getByTestId("intrant-save").click();
      await expect(water.getByText("Champ requis")).toHaveCount(2);
      await water.getByTestId("eau-type").selectOption({ label: "Irrigation localisée (goutte-à-goutte)" });
      await water.getByTestId("eau-quantite").fill("douze");
      await water.getByTestId("eau-quantite").blur();
      await expect(water.getByText("Valeur numérique attendue")).toBeVisible();
      await water.getByTestId("eau-quantite").fill("12,5");
      await water.getByTestId("intrant-save").click();
      await expect(water).toHaveCount(0);
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      // Newest first; quantities to 4 decimals at most.
      await expect(panel.getByTestId("intrant-row").first()).toContainText("Irrigation localisée (goutte-à-goutte)");
      await expect(panel.getByTestId("intrant-row").first()).toContainText("12,5");
      const stored = await e2eDb()("intrant")
        .where({ idAction: s.existing })
        .orderBy("id", "desc")
        .first("idIntrant", "dicIdOrigineIntrant", "dicLlUnite", "quantite");
      expect(stored).toEqual({ idIntrant: 20011, dicIdOrigineIntrant: 776, dicLlUnite: "mm", quantite: 12.5 });

      // Other input: name and quantity, unit 'autre'.
      await panel.getByTestId("add-intrant-543").click();
      const other = page.getByTestId("dialog-autre");
      await other.getByTestId("autre-type").selectOption({ label: "Ficelle, filet" });
      await other.getByTestId("autre-libelle").fill("Ficelle sisal");
      await other.getByTestId("autre-quantite").fill("1,23456");
      await other.getByTestId("intrant-save").click();
      await expect(other).toHaveCount(0);
      await expect(panel.getByTestId("intrant-row").first()).toContainText("Ficelle sisal");
      await expect(panel.getByTestId("intrant-row").first()).toContainText("1,2346");
      await page.screenshot({ path: `${SHOTS}/intrants-fr.png`, fullPage: true });

      // Edit mode: the dialog opens with the stored values; saving updates.
      await panel.getByRole("button", { name: "Modifier Ficelle sisal" }).click();
      const edit = page.getByTestId("dialog-autre");
      await expect(edit.getByTestId("autre-libelle")).toHaveValue("Ficelle sisal");
      await edit.getByTestId("autre-quantite").fill("2");
      await edit.getByTestId("intrant-save").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      await expect(panel.getByTestId("intrant-row").first()).toContainText("2");

      // Delete after confirmation.
      await panel.getByRole("button", { name: "Supprimer Ficelle sisal" }).click();
      await page.getByTestId("intrant-delete-dialog").getByRole("button", { name: "Supprimer" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
      await expect(panel.getByTestId("intrant-row")).toHaveCount(2);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-RIGHTS-04] [C-RIGHTS-01] [C-RIGHTS-02] [C-RIGHTS-03] [C-RIGHTS-16] a reader sees the interventions read-only: New, Other, copy and input deletion are not offered", async ({
    page,
  }) => {
    const s = await prepare();
    const variety = await e2eDb()("reference_semence").where({ libelle: "Chevignon" }).first("id");
    await insertId("intrant", {
      idAction: s.existing,
      idCategorie: 5381,
      idIntrant: variety.id,
      dicIdOrigineIntrant: 776,
      libelleIntrant: "Chevignon",
      idCulture: 1,
      quantite: 150,
      dicLlUnite: "kg/ha",
    });
    try {
      await openScreen(page, "lecteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      await expect(page.getByTestId("list-new")).toBeDisabled();
      await expect(page.getByTestId("interventions-other")).toBeDisabled();
      await expect(page.getByTestId("interventions-copy")).toBeDisabled();
      const panel = page.getByTestId("intrants-panel");
      await expect(panel.getByTestId("intrant-row")).toHaveCount(2);
      await expect(panel.getByTestId("intrant-delete")).toHaveCount(0);
      await expect(panel.getByTestId("add-intrant-542")).toBeDisabled();
      await expect(page.getByTestId("list-save")).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/interventions-lecteur-fr.png`, fullPage: true });
      // C-RIGHTS-04: a seed opened by a reader has no confirmation button.
      await panel.getByRole("button", { name: "Voir Chevignon" }).click();
      const seedDialog = page.getByTestId("dialog-semence");
      await expect(seedDialog.getByTestId("semence-dose")).toHaveValue("150");
      await expect(seedDialog.getByTestId("intrant-save")).toHaveCount(0);
      await expect(seedDialog.getByRole("button", { name: "Fermer" })).toBeVisible();
    } finally {
      await s.cleanup();
    }
  });

  test("[C-PHYTO-16] [C-PHYTO-01] [C-PHYTO-02] [C-PHYTO-03] [C-PHYTO-04] [C-PHYTO-05] [C-PHYTO-06] [C-PHYTO-07] [C-PHYTO-08] [C-PHYTO-10] [C-PHYTO-11] [C-PHYTO-12] [C-PHYTO-14] [C-CONST-03] a writer records a phyto input with two targets and sees their reference doses", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      await page.getByTestId("intrants-panel").getByTestId("add-intrant-539").click();
      const dialog = page.getByTestId("dialog-phyto");
      await expect(dialog.getByRole("heading", { name: "Produit phytosanitaire" })).toBeVisible();
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog.getByText("Champ requis")).toHaveCount(3);
      await dialog.getByTestId("phyto-produit-search").fill("karate");
      await expect(dialog.getByTestId("phyto-produit").locator("option", { hasText: "KARATE AVEC TECHNOLOGIE ZEON (9800336)" })).toHaveCount(1);
      await dialog.getByTestId("phyto-produit").selectOption({ label: "KARATE AVEC TECHNOLOGIE ZEON (9800336)" });
      // Per-hectolitre units too (issue 24, decision 0085).
      await expect(dialog.getByTestId("phyto-unite").locator("option")).toHaveText(["Choisir…", "l/ha", "kg/ha", "l/hl", "kg/hl"]);
      // C-PHYTO-16: its active matter, read by idProduit-idSource.
      await expect(dialog.getByTestId("phyto-matieres")).toHaveText("Matières actives : lambda-cyhalothrine 100 g/L");
      await dialog.getByTestId("phyto-dose").fill("0,05");
      await dialog.getByTestId("phyto-unite").selectOption("l/ha");
      await dialog.getByTestId("phyto-cible-1").selectOption({ label: "Pucerons" });
      await expect(dialog.getByTestId("phyto-dose-ref-1")).toHaveText("Dose de référence : 0,063 L/HA — dose appliquée : 0,05 L/HA");
      await dialog.getByTestId("phyto-ajouter-cible").click();
      // A target already chosen is not offered again.
      await expect(dialog.getByTestId("phyto-cible-2").locator("option", { hasText: /^Pucerons$/ })).toHaveCount(0);
      await expect(dialog.getByTestId("phyto-cible-1").locator("option", { hasText: /^Pucerons$/ })).toHaveCount(1);
      await dialog.getByTestId("phyto-cible-2").selectOption({ label: "Cicadelles" });
      await expect(dialog.getByTestId("phyto-dose-ref-2")).toContainText("Dose de référence : 0,075 L/HA");
      await dialog.getByTestId("phyto-ajouter-cible").click();
      await dialog.getByTestId("phyto-ajouter-cible").click();
      // Four targets at most.
      await expect(dialog.getByTestId("phyto-ajouter-cible")).toHaveCount(0);
      await expect(dialog.getByTestId("phyto-volume")).toHaveText("Volume de bouillie de l'opération : 150 L/ha");
      await page.screenshot({ path: `${SHOTS}/dialog-phyto-fr.png` });
      // [issue24-ift] A dose per hL is put in the reference's unit by the engine's conversion: 0.05 L/hL × 150 L/ha / 100 = 0.075 L/ha.
      await dialog.getByTestId("phyto-unite").selectOption("l/hl");
      await expect(dialog.getByTestId("phyto-dose-ref-1")).toHaveText("Dose de référence : 0,063 L/HA — dose appliquée : 0,075 L/HA");
      await page.screenshot({ path: `${SHOTS}/dialog-phyto-hl-fr.png` });
      await dialog.getByTestId("phyto-unite").selectOption("l/ha");
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      const intrant = await e2eDb()("intrant")
        .where({ idAction: s.existing, codeIntrant: "9800336" })
        .first("id", "idIntrant", "libelleIntrant", "quantite", "dicLlUnite");
      expect(intrant).toMatchObject({ idIntrant: 9800336, libelleIntrant: "KARATE AVEC TECHNOLOGIE ZEON", quantite: 0.05, dicLlUnite: "l/ha" });
      const cibles = await e2eDb()("intrant_cible as ic")
        .join("intrant_cible_cible as icc", "icc.idIntrantCible", "ic.id")
        .join("cible as c", "c.id", "icc.idCible")
        .where("ic.idIntrant", intrant.id)
        .orderBy("icc.rang")
        .select("c.libelle", "icc.rang", "icc.doseRef", "ic.uniteRefCible1");
      expect(cibles).toEqual([
        { libelle: "Pucerons", rang: 1, doseRef: 0.063, uniteRefCible1: "L/HA" },
        { libelle: "Cicadelles", rang: 2, doseRef: 0.075, uniteRefCible1: "L/HA" },
      ]);
      // Opened again, it shows its targets in order.
      await page.getByRole("button", { name: "Modifier KARATE AVEC TECHNOLOGIE ZEON" }).click();
      const edit = page.getByTestId("dialog-phyto");
      await expect(edit.getByTestId("phyto-cible-1")).toHaveValue(String((await e2eDb()("cible").where({ libelle: "Pucerons" }).first("id")).id));
      await expect(edit.getByTestId("phyto-cible-2")).toHaveValue(String((await e2eDb()("cible").where({ libelle: "Cicadelles" }).first("id")).id));
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-SEED-01] [C-SEED-02] [C-SEED-03] [C-SEED-04] [C-SEED-05] [C-SEED-07] [C-SEED-08] [C-SEED-09] [C-SEED-10] [C-SEED-15] [C-SEED-20] [C-SEED-21] [C-SEED-25] a seed input with a treatment creates two inputs; shares must total 100; the conversion helps", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      await page.getByTestId("intrants-panel").getByTestId("add-intrant-538").click();
      const dialog = page.getByTestId("dialog-semence");
      await expect(dialog.getByTestId("semence-unite")).toHaveValue("kg/ha");
      // The intervention's crop is the species offered first.
      await expect(dialog.getByTestId("semence-espece")).toHaveValue("1");
      await dialog.getByTestId("semence-variete").selectOption({ label: "Chevignon" });
      await dialog.getByTestId("semence-dose").fill("160");
      await dialog.getByTestId("semence-ferme").fill("30");
      await dialog.getByTestId("semence-certifiee").fill("60");
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog.getByText("La somme des semences fermières et certifiées doit être égale à 100 %")).toBeVisible();
      await dialog.getByTestId("semence-certifiee").fill("70");
      // The conversion: the species' thousand-grain weight is proposed; a missing density is named.
      await expect(dialog.getByTestId("conversion-pmg")).toHaveValue("45");
      await dialog.getByTestId("conversion-calculer").click();
      await expect(dialog.getByTestId("conversion-resultat")).toHaveText("Veuillez sélectionner une densité et un PMG!");
      await dialog.getByTestId("conversion-densite").fill("300");
      await dialog.getByTestId("conversion-calculer").click();
      await expect(dialog.getByTestId("conversion-resultat")).toHaveText("Résultat : 135");
      // The treatment, on a new seed only.
      await dialog.getByTestId("traitement-produit-search").fill("vibrance trio");
      await dialog.getByTestId("traitement-produit").selectOption({ label: "VIBRANCE TRIO (2170753)" });
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog.getByText("Champ requis")).toHaveCount(2);
      await dialog.getByTestId("traitement-dose").fill("0,2");
      await dialog.getByTestId("traitement-unite").selectOption("l/ha");
      await page.screenshot({ path: `${SHOTS}/dialog-semence-fr.png` });
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog).toHaveCount(0);
      const rows = await e2eDb()("intrant")
        .where({ idAction: s.existing })
        .whereIn("libelleIntrant", ["Chevignon", "VIBRANCE TRIO"])
        .orderBy("id")
        .select("id", "libelleIntrant", "idCategorie", "idIntrantSemence", "quantite");
      expect(rows.map((r) => [r.libelleIntrant, r.idCategorie, r.quantite])).toEqual([
        ["Chevignon", 5381, 160],
        ["VIBRANCE TRIO", 5397, 0.2],
      ]);
      expect(rows[1].idIntrantSemence).toBe(rows[0].id);
      expect(await e2eDb()("caracteristique_intrant").where({ idIntrant: rows[0].id }).first("semenceFerme", "semenceCertifiee")).toEqual({
        semenceFerme: 30,
        semenceCertifiee: 70,
      });
      // Edited, the seed no longer offers a treatment.
      await page.getByRole("button", { name: "Modifier Chevignon" }).click();
      await expect(page.getByTestId("dialog-semence").getByTestId("semence-traitement")).toHaveCount(0);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-FERT-01] [C-FERT-02] [C-FERT-03] [C-FERT-04] [C-FERT-05] [C-FERT-06] [C-FERT-07] [C-FERT-08] [C-FERT-09] [C-FERT-10] [C-FERT-11] [C-FERT-12] [C-FERT-18] [C-CONST-04] [C-CONST-05] a fertiliser's type sets its unit and its products; the composition is shown and kept", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      await page.getByTestId("intrants-panel").getByTestId("add-intrant-540").click();
      const dialog = page.getByTestId("dialog-fertilisant");
      await dialog.getByTestId("fertilisant-type").selectOption({ label: "Produit organique solide (fumier, compost)" });
      await expect(dialog.getByTestId("fertilisant-unite")).toHaveValue("t/ha");
      await dialog.getByTestId("fertilisant-produit").selectOption({ label: "Fumier de bovins" });
      await expect(dialog.getByTestId("fertilisant-reference")).toContainText("N");
      // Another type clears the product and sets kg/ha.
      await dialog.getByTestId("fertilisant-type").selectOption({ label: "Engrais minéral" });
      await expect(dialog.getByTestId("fertilisant-produit")).toHaveValue("");
      await expect(dialog.getByTestId("fertilisant-unite")).toHaveValue("kg/ha");
      await dialog.getByTestId("fertilisant-produit").selectOption({ label: "Ammonitrate 33,5" });
      await dialog.getByTestId("fertilisant-copier-reference").click();
      await expect(dialog.getByTestId("fertilisant-n")).toHaveValue("33,5");
      await dialog.getByTestId("fertilisant-dose").fill("200");
      await expect(dialog.getByText("soit 67 kg/ha")).toBeVisible();
      await expect(dialog.getByTestId("fertilisant-mgo")).toBeHidden();
      await dialog.getByTestId("oligo-elements").locator("summary").click();
      await expect(dialog.getByTestId("fertilisant-mgo")).toBeVisible();
      await dialog.getByTestId("fertilisant-type").selectOption({ label: "Autre fertilisant" });
      await expect(dialog.getByTestId("fertilisant-autre-warning")).toBeVisible();
      await dialog.getByTestId("fertilisant-type").selectOption({ label: "Engrais minéral" });
      await dialog.getByTestId("fertilisant-produit").selectOption({ label: "Ammonitrate 33,5" });
      await page.screenshot({ path: `${SHOTS}/dialog-fertilisant-fr.png` });
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog).toHaveCount(0);
      const row = await e2eDb()("intrant")
        .where({ idAction: s.existing, libelleIntrant: "Ammonitrate 33,5" })
        .first("id", "idCategorie", "quantite", "dicLlUnite");
      expect(row).toMatchObject({ idCategorie: 655, quantite: 200, dicLlUnite: "kg/ha" });
      expect(Number((await e2eDb()("caracteristique_intrant").where({ idIntrant: row.id }).first("n")).n)).toBe(33.5);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-FORM-23] [C-FORM-36] [C-FORM-37] [C-FORM-28] the generic product entry opens the chosen kind's dialog; leaving an edited intervention asks first; New takes the picked day", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      await page.getByTestId("add-intrant-produit").click();
      await page.getByTestId("intrant-kind").selectOption({ label: "Eau" });
      await page.getByTestId("intrant-kind-continue").click();
      await expect(page.getByTestId("dialog-eau")).toBeVisible();
      await page.getByTestId("dialog-eau").getByRole("button", { name: "Annuler" }).click();
      // An unsaved change, then another row: save, discard or cancel.
      await page.getByTestId("intervention-form").getByTestId("intervention-frequence").fill("4");
      // Another row of the grid: its P/R cell (row numbers, date and operation columns before it).
      await page.locator("canvas[data-testid=data-grid-canvas]").scrollIntoViewIfNeeded();
      const box = (await page.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
      // The first row: the demo's autumn stubble cultivation, not the intervention being edited.
      await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
      const leave = page.getByTestId("switch-dialog");
      await expect(leave.getByRole("button")).toHaveText(["Rester sur la page", "Abandonner les modifications", "Enregistrer"]);
      await leave.getByRole("button", { name: "Rester sur la page" }).click();
      await expect(page.getByTestId("intervention-form").getByTestId("intervention-frequence")).toHaveValue("4");
      // C-FORM-28: New with a picked day starts on it.
      await navigate(page, `${SCREEN}?parcelleId=${s.plot.id}&date=2025-06-02`);
      await page.getByTestId("list-new").click();
      await expect(page.getByTestId("intervention-date-text")).toHaveValue("02/06/2025");
    } finally {
      await s.cleanup();
    }
  });

  test("[C-SEED-18] [C-SEED-19] a saved seed without a unit asks for it, and the unit is required", async ({ page }) => {
    const s = await prepare();
    try {
      const variety = await e2eDb()("reference_semence").where({ libelle: "Chevignon" }).first("id");
      await insertId("intrant", {
        idAction: s.existing,
        idCategorie: 5381,
        idIntrant: variety.id,
        dicIdOrigineIntrant: 776,
        libelleIntrant: "Chevignon",
        idCulture: 1,
        quantite: 150,
        dicLlUnite: null,
      });
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      await page.getByRole("button", { name: "Modifier Chevignon" }).click();
      const dialog = page.getByTestId("dialog-semence");
      await expect(dialog.getByLabel("Unité (à préciser)")).toHaveValue("");
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog.getByTestId("semence-unite").locator("xpath=..").getByText("Champ requis")).toBeVisible();
      await dialog.getByLabel("Unité (à préciser)").selectOption("kg/ha");
      await dialog.getByTestId("intrant-save").click();
      await expect(dialog).toHaveCount(0);
      expect((await e2eDb()("intrant").where({ idAction: s.existing, libelleIntrant: "Chevignon" }).first("dicLlUnite")).dicLlUnite).toBe("kg/ha");
    } finally {
      await s.cleanup();
    }
  });
  test("[C-ERR-01] [C-ERR-02] [C-ERR-03] [C-ERR-04] an intervention changed by someone else meanwhile: the save shows the error dialog (title, message, Ok, at most 500 wide) and nothing is overwritten", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}&id=${s.existing}`);
      const form = page.getByTestId("intervention-form");
      await expect(form.getByTestId("intervention-frequence")).toHaveValue("1");
      // Someone else saves the intervention meanwhile.
      await e2eDb()("action")
        .where({ id: s.existing })
        .update({ frequence: 3, updatedAt: new Date(Date.now() + 60_000) });
      await form.getByTestId("intervention-frequence").fill("2");
      await page.getByTestId("list-save").click();
      const dialog = page.getByTestId("error-dialog");
      await expect(dialog.getByRole("heading", { name: "Erreur" })).toBeVisible();
      await expect(dialog.getByRole("alert")).toHaveText(/modifié par quelqu'un d'autre/);
      expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(500);
      await dialog.getByRole("button", { name: "Ok" }).click();
      await expect(dialog).toHaveCount(0);
      expect(Number((await e2eDb()("action").where({ id: s.existing }).first("frequence")).frequence)).toBe(3);
      // After a reload the other's change shows, and a save goes through with the update confirmation.
      await page.reload();
      await expect(form.getByTestId("intervention-frequence")).toHaveValue("3");
      await form.getByTestId("intervention-frequence").fill("2");
      await page.getByTestId("list-save").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      expect(Number((await e2eDb()("action").where({ id: s.existing }).first("frequence")).frequence)).toBe(2);
    } finally {
      await s.cleanup();
    }
  });
  test("[C-INT-15] 'Copier la sélection' exports the interventions selected in the grid: the export dialog opens with them ticked", async ({ page }) => {
    const s = await prepare();
    const second = await insertId("action", {
      idCampagne: s.ids.tilleuls2025,
      idParcelle: s.plot.id,
      date: "2025-04-13",
      anneeRecolte: 2025,
      idOperationCulturale: s.traitement,
      idCultureConcernee: 1,
      debit: 6,
      frequence: 1,
      tauxSurface: 1,
      nombrePassage: 1,
      realisee: true,
      prevue: false,
    });
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.plot.id}`);
      const copy = page.getByTestId("interventions-copy");
      const table = page.locator('table[role="grid"]');
      const rowOf = async (date: string) => Number(await table.locator("tbody tr").filter({ hasText: date }).getAttribute("aria-rowindex")) - 2;
      const [a, b] = [await rowOf("12/04/2025"), await rowOf("13/04/2025")];
      expect(b).toBe(a + 1);
      // Nothing selected: nothing to copy.
      await expect(copy).toBeDisabled();
      // A cell of the first row, then shift+click a cell of the next: the two rows are the selection.
      const canvas = page.locator("canvas[data-testid=data-grid-canvas]");
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      const y = (row: number) => box.y + 36 + 34 * row + 17;
      await page.mouse.click(box.x + 32 + 110 + 220 + 30, y(a));
      await page.keyboard.down("Shift");
      await page.mouse.click(box.x + 32 + 110 + 220 + 30, y(b));
      await page.keyboard.up("Shift");
      await expect(copy).toBeEnabled();
      await copy.click();
      const dialog = page.getByTestId("copie-export-selection");
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId(`copie-actions-${s.existing}`)).toBeChecked();
      await expect(dialog.getByTestId(`copie-actions-${second}`)).toBeChecked();
      expect((await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
        [],
      );
    } finally {
      await s.cleanup();
    }
  });
});
