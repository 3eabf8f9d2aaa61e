import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test } from "./fixtures";
import { apiAs, demoIds, setContext, signIn, insertId } from "./helpers";

/**
 * Harvest products and harvest qualifiers on the interventions screen (spec 3 §2.2, §3.6, §4.1, §4.2; decision
 * 0031). Each test prepares its own harvest intervention on a plot of EARL des Tilleuls 2025 and removes it.
 */

const SHOTS = "/tmp/shots-recoltes";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

/** A harvest operation and one intervention on the first plot of Tilleuls 2025 (wheat concerned). */
async function prepare() {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const plot = await db("parcelle").where({ idCampagne }).orderBy("libelle").first("id", "libelle");
  const op = await insertId("operation_culturale", { idCampagne, idTypeAction: 15, libelle: "E2E Moisson" });
  const action = await insertId("action", {
    idCampagne,
    idParcelle: plot.id,
    date: "2025-07-23",
    anneeRecolte: 2025,
    idOperationCulturale: op,
    idCultureConcernee: 1,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  for (const user of ["redacteur", "lecteur"] as const)
    await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  return {
    ids,
    plot,
    action,
    cleanup: async () => {
      const series = (await db("recolte").where({ idAction: action }).whereNotNull("idObservationSerie").select("idObservationSerie")).map((r) =>
        Number(r.idObservationSerie),
      );
      await db("action").where({ id: action }).delete();
      if (series.length) await db("observation_serie").whereIn("id", series).delete();
      await db("operation_culturale").where({ id: op }).delete();
      await db("qualifiant_recolte").where({ idDossier: ids.beauce }).where("qrdNom", "like", "E2E%").delete();
    },
  };
}

async function openIntervention(page: Page, user: "redacteur" | "lecteur" | "animateur", plot: number, action: number) {
  await signIn(page, user);
  await navigate(page, `${SCREEN}?parcelleId=${plot}&id=${action}`);
  await expect(page.getByRole("heading", { name: "Interventions", level: 1 })).toBeVisible();
  await expect(page.getByTestId("intrants-panel")).toBeVisible();
}

const axeSerious = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);

test.describe("harvests", () => {
  test("[C-HARV-01] [C-HARV-02] [C-INT-06] [C-INT-12] [C-HARV-05] [C-HARV-06] [C-HARV-11] [C-HARV-12] [C-HARV-13] [C-HARV-15] [C-HARV-16] [C-HARV-23] [C-HARV-24] [C-HARV-25] [C-QUAL-01] [C-QUAL-02] [C-ERR-30] a writer records a harvest with observations and a new qualifier, finds its series, and edits it from the inputs detail", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openIntervention(page, "redacteur", s.plot.id, s.action);
      const panel = page.getByTestId("intrants-panel");
      await panel.getByTestId("add-recolte").click();
      const dialog = page.getByTestId("dialog-recolte");
      await expect(dialog.getByRole("heading", { name: "Produit de récolte" })).toBeVisible();
      // Main crops first (9017); the intervention's crop chosen; its output types loaded; t/ha by default.
      await expect(dialog.getByTestId("recolte-categorie").locator("option:checked")).toHaveText("Principale");
      await expect(dialog.getByTestId("recolte-culture").locator("option:checked")).toHaveText("Blé tendre d'hiver");
      await expect(dialog.getByTestId("recolte-type-sortie").locator("option")).toHaveText(["Choisir…", "Grain", "Paille"]);
      await expect(dialog.getByText("Rendement (t/ha)", { exact: true })).toBeVisible();
      // Crop and output type required, yield numeric.
      await dialog.getByTestId("recolte-rendement").fill("huit");
      await dialog.getByTestId("recolte-save").click();
      await expect(dialog.getByText("Champ requis")).toHaveCount(1);
      await expect(dialog.getByText("Valeur numérique attendue")).toBeVisible();
      // A new crop clears the output type and loads its own.
      await dialog.getByTestId("recolte-type-sortie").selectOption({ label: "Paille" });
      await dialog.getByTestId("recolte-culture").selectOption({ label: "Betterave sucrière" });
      await expect(dialog.getByTestId("recolte-type-sortie")).toHaveValue("");
      await expect(dialog.getByTestId("recolte-type-sortie").locator("option")).toHaveText(["Choisir…", "Racines"]);
      // A crop without output type (fallow) asks to contact support (C-ERR-30).
      await dialog.getByTestId("recolte-culture").selectOption({ label: "Jachère" });
      await expect(dialog.getByTestId("types-sortie-aucun")).toHaveText("Aucun type de sortie n'est défini pour cette culture : contactez le support.");
      await dialog.getByTestId("recolte-culture").selectOption({ label: "Blé tendre d'hiver" });
      await expect(dialog.getByTestId("recolte-type-sortie").locator("option")).toHaveText(["Choisir…", "Grain", "Paille"]);
      await expect(dialog.getByTestId("types-sortie-aucun")).toHaveCount(0);
      await dialog.getByTestId("recolte-type-sortie").selectOption({ label: "Grain" });

      // Qualifiers: the folder's; a new one needs typed text, then is chosen.
      await expect(dialog.getByTestId("recolte-qualifiant").locator("option")).toContainText(["Livré à la coopérative", "Stocké à la ferme"]);
      await dialog.getByTestId("qualifiant-creer").click();
      await expect(dialog.getByTestId("qualifiant-nouveau-error")).toHaveText("Champ requis");
      await dialog.getByTestId("qualifiant-nouveau").fill("E2E Lot silo 3");
      await dialog.getByTestId("qualifiant-creer").click();
      await expect(dialog.getByTestId("recolte-qualifiant").locator("option:checked")).toHaveText("E2E Lot silo 3");

      await dialog.getByTestId("recolte-rendement").fill("8,15");
      await dialog.getByTestId("recolte-humidite-reference").fill("15");
      await dialog.getByTestId("recolte-obsRendement").fill("8,4");
      await dialog.getByTestId("recolte-obsHumidite").fill("14,1");
      await dialog.getByTestId("recolte-obsPoidsSpecifique").fill("77,5");
      await dialog.getByTestId("recolte-obsProteines").fill("11,8");
      await page.screenshot({ path: `${SHOTS}/recolte-dialog-fr.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);
      await dialog.getByTestId("recolte-save").click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");

      // The inputs table and the grid's inputs detail show it.
      const row = panel.getByTestId("recolte-row");
      await expect(row).toContainText("Blé tendre d'hiver - Grain (E2E Lot silo 3)");
      await expect(row).toContainText("8,15");
      await expect(row).toContainText("t/ha");
      await panel.screenshot({ path: `${SHOTS}/intrants-recolte-fr.png` });
      // The search over inputs finds it by its label; the row's inputs detail (last columns, brought into view) shows it.
      const table = page.locator('table[role="grid"]');
      await page.getByTestId("filter-recherche").fill("silo 3");
      await expect(table.locator("tbody tr")).toHaveCount(1);
      await expect(table.locator("tbody tr")).toContainText("23/07/2025");
      const canvas = page.locator("canvas[data-testid=data-grid-canvas]");
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
      // End (the row's last cell), then left past the register's seven columns, the RDD and the crop to the inputs
      // column (interventions-grid.tsx: inputs is column 8 of 18).
      await page.keyboard.press("End");
      for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowLeft");
      await expect(table.locator("th", { hasText: "Intrants" })).toHaveCount(1);
      await expect(table.locator("tbody tr")).toContainText("Blé tendre d'hiver - Grain (E2E Lot silo 3) 8,15 t/ha");
      await page.getByTestId("filter-recherche").fill("");
      // The click chose the filtered row: open the intervention again.
      await navigate(page, `${SCREEN}?parcelleId=${s.plot.id}&id=${s.action}`);

      // Its series of type 1128, named from crop, output type and (qualifier), holds the observations.
      const saved = await e2eDb()("recolte").where({ idAction: s.action }).first("id", "idObservationSerie");
      const serie = await e2eDb()("observation_serie").where({ id: saved.idObservationSerie }).first("nom", "dicIdTypeSerie");
      expect(serie).toEqual({ nom: "Blé tendre d'hiver - Grain (E2E Lot silo 3)", dicIdTypeSerie: 1128 });
      const obs = await e2eDb()("observation").where({ idObservationSerie: saved.idObservationSerie }).orderBy("ordre").select("dicoIdEltObserve", "obsValNum");
      expect(obs.map((o) => [o.dicoIdEltObserve, Number(o.obsValNum)])).toEqual([
        [1680, 8.4],
        [1192, 14.1],
        [1190, 77.5],
        [1193, 11.8],
      ]);

      // Edited from the inputs detail: the dialog opens with the stored values and the series' name.
      await panel.getByRole("button", { name: "Modifier la récolte Blé tendre d'hiver - Grain (E2E Lot silo 3)" }).click();
      const edit = page.getByTestId("dialog-recolte");
      await expect(edit.getByTestId("recolte-rendement")).toHaveValue("8,15");
      await expect(edit.getByTestId("recolte-obsProteines")).toHaveValue("11,8");
      await expect(edit.getByTestId("recolte-serie")).toContainText("Blé tendre d'hiver - Grain (E2E Lot silo 3)");
      await edit.getByTestId("recolte-qualifiant").selectOption({ label: "Aucun qualifiant" });
      await edit.getByTestId("recolte-rendement").fill("8,3");
      await edit.getByTestId("recolte-save").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      await expect(row).toContainText("Blé tendre d'hiver - Grain");
      await expect(row).not.toContainText("E2E Lot silo 3");
      expect((await e2eDb()("observation_serie").where({ id: saved.idObservationSerie }).first("nom")).nom).toBe("Blé tendre d'hiver - Grain");
    } finally {
      await s.cleanup();
    }
  });

  test("[C-HARV-03] [C-HARV-04] [C-HARV-07] [C-HARV-08] [C-HARV-09] [C-HARV-10] [C-HARV-27] [C-HARV-28] a writer records a grazing: duration and animal rows, no yield, qualifier or observations", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openIntervention(page, "redacteur", s.plot.id, s.action);
      await page.getByTestId("add-recolte").click();
      const dialog = page.getByTestId("dialog-recolte");
      await dialog.getByTestId("recolte-categorie").selectOption({ label: "Intermédiaire" });
      await dialog.getByTestId("recolte-culture").selectOption({ label: "Mélange d'interculture (couvert multi-espèces)" });
      await dialog.getByTestId("recolte-type-sortie").selectOption({ label: "Pâturage" });
      await expect(dialog.getByTestId("recolte-rendement")).toHaveCount(0);
      await expect(dialog.getByTestId("recolte-qualifiant")).toHaveCount(0);
      await expect(dialog.getByTestId("recolte-observations")).toHaveCount(0);
      await expect(dialog.getByText("Durée de pâturage (jours)")).toBeVisible();
      await dialog.getByTestId("recolte-duree").fill("trois");
      await dialog.getByTestId("animal-add").click();
      await dialog.getByTestId("animal-0-type").selectOption({ label: "Ovins (brebis, béliers, agneaux)" });
      await dialog.getByTestId("animal-0-nombre").fill("beaucoup");
      await dialog.getByTestId("recolte-save").click();
      await expect(dialog.getByText("Valeur numérique attendue")).toHaveCount(2);
      await dialog.getByTestId("recolte-duree").fill("18");
      await dialog.getByTestId("animal-0-nombre").fill("180");
      await dialog.getByTestId("animal-add").click();
      await dialog.getByTestId("animal-1-type").selectOption({ label: "Caprins" });
      await dialog.getByTestId("animal-1-nombre").fill("12");
      await page.screenshot({ path: `${SHOTS}/paturage-dialog-fr.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);
      await dialog.getByTestId("recolte-save").click();
      await expect(dialog).toHaveCount(0);
      const row = page.getByTestId("intrants-panel").getByTestId("recolte-row");
      await expect(row).toContainText("Mélange d'interculture (couvert multi-espèces) - Pâturage");
      await expect(row).toContainText("jours");
      const saved = await e2eDb()("recolte").where({ idAction: s.action }).first("id", "rendement", "dicLlUnite", "idQualifiantRecolte", "idObservationSerie");
      expect([Number(saved.rendement), saved.dicLlUnite, saved.idQualifiantRecolte]).toEqual([18, "jours", null]);
      const animals = await e2eDb()("caracteristique_recolte").where({ idRecolte: saved.id }).orderBy("ordre").select("dicIdModalite", "valeurNum");
      expect(animals.map((a) => [a.dicIdModalite, Number(a.valeurNum)])).toEqual([
        [7, 180],
        [8, 12],
      ]);
      const zeros = (await e2eDb()("observation").where({ idObservationSerie: saved.idObservationSerie }).select("obsValNum")).map((o) => Number(o.obsValNum));
      expect(zeros).toEqual([0, 0, 0, 0, 0, 0]);
      // Reopened: the duration and the rows come back; a row is removed.
      await row.getByTestId("recolte-edit").click();
      const edit = page.getByTestId("dialog-recolte");
      await expect(edit.getByTestId("recolte-duree")).toHaveValue("18");
      await expect(edit.getByTestId("animal-row")).toHaveCount(2);
      await edit.getByTestId("animal-1-remove").click();
      await edit.getByTestId("recolte-save").click();
      await expect(edit).toHaveCount(0);
      expect((await e2eDb()("caracteristique_recolte").where({ idRecolte: saved.id }).select("dicIdModalite")).map((a) => a.dicIdModalite)).toEqual([7]);
      // In English too.
      await inEnglish(page, `${SCREEN}?parcelleId=${s.plot.id}&id=${s.action}`);
      await page.getByTestId("intrants-panel").getByTestId("recolte-edit").click();
      const english = page.getByTestId("dialog-recolte");
      await expect(english.getByRole("heading", { name: "Harvest product" })).toBeVisible();
      await expect(english.getByText("Grazing duration (days)")).toBeVisible();
      await expect(english.getByTestId("animal-0-type").locator("option:checked")).toHaveText("Sheep");
      await page.screenshot({ path: `${SHOTS}/paturage-dialog-en.png`, fullPage: true });
    } finally {
      await s.cleanup();
    }
  });

  test("[C-QUAL-03] [C-QUAL-04] [C-QUAL-05] [C-RIGHTS-16] a qualifier used by harvests cannot be deleted (warning); an unused one can; a reader sees harvests read-only", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openIntervention(page, "redacteur", s.plot.id, s.action);
      await page.getByTestId("add-recolte").click();
      const dialog = page.getByTestId("dialog-recolte");
      await dialog.getByTestId("recolte-type-sortie").selectOption({ label: "Grain" });
      // "Livré à la coopérative" is used by the demo's 2025 rapeseed harvests.
      await dialog.getByTestId("recolte-qualifiant").selectOption({ label: "Livré à la coopérative" });
      await dialog.getByTestId("qualifiant-supprimer").click();
      const warning = dialog.getByTestId("qualifiant-warning");
      await expect(warning).toContainText("Attention");
      await expect(warning).toContainText("Ce qualifiant est utilisé par des récoltes : il ne peut pas être supprimé.");
      await expect(page.getByTestId("error-dialog")).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/qualifiant-warning-fr.png`, fullPage: true });
      await expect(dialog.getByTestId("recolte-qualifiant").locator("option")).toContainText(["Livré à la coopérative"]);
      // An unused qualifier is deleted.
      await dialog.getByTestId("qualifiant-nouveau").fill("E2E Éphémère");
      await dialog.getByTestId("qualifiant-creer").click();
      await expect(dialog.getByTestId("recolte-qualifiant").locator("option:checked")).toHaveText("E2E Éphémère");
      await dialog.getByTestId("qualifiant-supprimer").click();
      await expect(dialog.getByTestId("recolte-qualifiant").locator("option", { hasText: "E2E Éphémère" })).toHaveCount(0);
      await expect(dialog.getByTestId("recolte-qualifiant")).toHaveValue("");
      expect(await e2eDb()("qualifiant_recolte").where({ qrdNom: "E2E Éphémère" }).first()).toBeUndefined();
      await dialog.getByRole("button", { name: "Annuler" }).click();

      // The reader: the demo harvest is shown, opened without save nor delete.
      const colza = await e2eDb()("recolte as r")
        .join("action as a", "a.id", "r.idAction")
        .where({ "a.idCampagne": s.ids.tilleuls2025, "r.idCulture": 14 })
        .first("a.id", "a.idParcelle");
      await page.context().clearCookies();
      await openIntervention(page, "lecteur", colza.idParcelle, colza.id);
      const panel = page.getByTestId("intrants-panel");
      await expect(panel.getByTestId("add-recolte")).toBeDisabled();
      await expect(panel.getByTestId("recolte-delete")).toHaveCount(0);
      await panel.getByRole("button", { name: /^Voir la récolte Colza d'hiver - Grain/ }).click();
      const read = page.getByTestId("dialog-recolte");
      await expect(read.getByTestId("recolte-rendement")).toHaveValue("3,6");
      await expect(read.getByTestId("recolte-save")).toHaveCount(0);
      await expect(read.getByTestId("qualifiant-creer")).toHaveCount(0);
      await expect(read.getByTestId("qualifiant-supprimer")).toHaveCount(0);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-RIGHTS-16] [C-QUAL-05] at HTTP level, a reader and a locked campaign are refused every harvest and qualifier write; the database is unchanged", async () => {
    const s = await prepare();
    const db = e2eDb();
    const tables = ["recolte", "caracteristique_recolte", "qualifiant_recolte", "observation_serie", "observation"];
    const snap = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await db(t).select("*").orderBy("id")] as const)));
    try {
      const used = await db("qualifiant_recolte").where({ idDossier: s.ids.beauce, qrdNom: "Livré à la coopérative" }).first("id");
      const harvest = await db("recolte as r").join("action as a", "a.id", "r.idAction").where({ "a.idCampagne": s.ids.tilleuls2025 }).first("r.id");
      const path = SCREEN.slice(1) + `?parcelleId=${s.plot.id}`;
      const writes: Record<string, string>[] = [
        { intent: "saveRecolte", idAction: String(s.action), idCulture: "1", dicIdTypeSortie: "661", rendement: "9" },
        { intent: "deleteRecolte", id: String(harvest.id) },
        { intent: "createQualifiant", qrdNom: "E2E Intrus" },
        { intent: "deleteQualifiant", id: String(used.id) },
      ];
      const before = await snap();
      const lecteur = await apiAs("lecteur");
      for (const form of writes) {
        const res = await lecteur.post(path, { form, maxRedirects: 0 });
        expect(res.status(), `lecteur ${form.intent}`).toBe(403);
      }
      // A writer on a locked campaign is refused too.
      await db("campagne").where({ id: s.ids.tilleuls2025 }).update({ serieValide: true });
      try {
        const redacteur = await apiAs("redacteur");
        for (const form of writes) {
          const res = await redacteur.post(path, { form, maxRedirects: 0 });
          expect(res.status(), `locked ${form.intent}`).toBe(403);
        }
      } finally {
        await db("campagne").where({ id: s.ids.tilleuls2025 }).update({ serieValide: false });
      }
      expect(await snap()).toEqual(before);
      // The same write passes for the writer once unlocked (the refusals above are the rights').
      const redacteur = await apiAs("redacteur");
      const ok = await redacteur.post(path, { form: writes[0], maxRedirects: 0 });
      expect(ok.status()).toBe(200);
      expect(await db("recolte").where({ idAction: s.action }).first("id")).toBeDefined();
    } finally {
      await s.cleanup();
    }
  });
});

test.describe("unreferenced inputs", () => {
  /** A phyto of the Beauce folder (origin 777) applied on two interventions of Tilleuls 2025. */
  async function preparePhyto() {
    const ids = await demoIds();
    const db = e2eDb();
    const idCampagne = ids.tilleuls2025;
    const plot = await db("parcelle").where({ idCampagne }).orderBy("libelle").first("id");
    const produit = await insertId("intrant_dossier", {
      idDossier: ids.beauce,
      dicIdTypeIntrant: 539,
      libelle: "E2E Purin d'ortie",
      idCategorie: 5399,
      biocontrole: true,
    });
    const actions: number[] = [];
    for (const date of ["2025-04-14", "2025-05-14"]) {
      const action = await insertId("action", {
        idCampagne,
        idParcelle: plot.id,
        date,
        anneeRecolte: 2025,
        frequence: 1,
        tauxSurface: 1,
        nombrePassage: 1,
        realisee: true,
        prevue: false,
      });
      actions.push(action);
      await insertId("intrant", {
        idAction: action,
        idCategorie: 5399,
        idIntrant: produit,
        dicIdOrigineIntrant: 777,
        idDossier: ids.beauce,
        libelleIntrant: "E2E Purin d'ortie",
        quantite: 5,
        dicLlUnite: "l/ha",
      });
    }
    for (const user of ["redacteur", "animateur"] as const)
      await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
    return {
      ids,
      plot,
      produit,
      actions,
      cleanup: async () => {
        await db("action").whereIn("id", actions).delete();
        await db("intrant_dossier").where({ idDossier: ids.beauce }).where("libelle", "like", "E2E%").delete();
      },
    };
  }

  test("[C-UNREF-04] [C-UNREF-05] [C-UNREF-07] [C-UNREF-08] [C-UNREF-12] [C-UNREF-13] an animator edits an unreferenced input after the warning and sees the new label on the interventions that use it", async ({
    page,
  }) => {
    const s = await preparePhyto();
    try {
      await openIntervention(page, "animateur", s.plot.id, s.actions[0]);
      const panel = page.getByTestId("intrants-panel");
      await panel.getByRole("button", { name: "Modifier l'intrant non référencé E2E Purin d'ortie" }).click();
      // The warning first; the dialog only once it is confirmed.
      const warning = page.getByTestId("non-reference-warning");
      await expect(warning.getByRole("heading", { name: "Attention" })).toBeVisible();
      await expect(page.getByTestId("dialog-non-reference")).toHaveCount(0);
      await warning.getByTestId("non-reference-continuer").click();
      const dialog = page.getByTestId("dialog-non-reference");
      await expect(dialog.getByTestId("non-reference-libelle")).toHaveValue("E2E Purin d'ortie");
      await expect(dialog.getByTestId("non-reference-type")).toBeDisabled();
      await expect(dialog.getByTestId("non-reference-unite-matiere").locator("option")).toHaveText(["Choisir…", "g/L", "%", "g/kg", "Autre"]);
      await dialog.getByTestId("non-reference-libelle").fill("E2E Purin d'ortie fermenté");
      await dialog.getByTestId("non-reference-code").fill("21A");
      await dialog.getByTestId("non-reference-save").click();
      await expect(dialog.getByText("Valeur numérique attendue")).toBeVisible();
      await dialog.getByTestId("non-reference-code").fill("");
      // The save is held until the slow-operation message is seen.
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      // The screen's action (a fetcher posts to interventions.data).
      const action = (url: URL) => /\/interventions(\.data)?$/.test(url.pathname);
      await page.route(action, async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      });
      await page.screenshot({ path: `${SHOTS}/non-reference-fr.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);
      await dialog.getByTestId("non-reference-save").click();
      await expect(dialog.getByTestId("non-reference-lent")).toHaveText("Mise à jour de tous les intrants liés : l'opération peut prendre du temps…");
      release();
      await expect(dialog).toHaveCount(0);
      await page.unroute(action);
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      await expect(panel.getByTestId("intrant-row")).toContainText(["E2E Purin d'ortie fermenté"]);
      // The other intervention made from it has the new label too.
      await navigate(page, `${SCREEN}?parcelleId=${s.plot.id}&id=${s.actions[1]}`);
      await expect(page.getByTestId("intrants-panel").getByTestId("intrant-row")).toContainText(["E2E Purin d'ortie fermenté"]);
      const labels = await e2eDb()("intrant").whereIn("idAction", s.actions).select("libelleIntrant");
      expect(labels.map((l) => l.libelleIntrant)).toEqual(["E2E Purin d'ortie fermenté", "E2E Purin d'ortie fermenté"]);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-UNREF-03] [C-UNREF-06] [C-UNREF-21] [C-UNREF-12] [C-RIGHTS-09] [C-PHYTO-09] a writer creates an unreferenced fertiliser whose composition totals 100 %, and may not edit one", async ({
    page,
  }) => {
    const s = await preparePhyto();
    try {
      await openIntervention(page, "redacteur", s.plot.id, s.actions[0]);
      const panel = page.getByTestId("intrants-panel");
      // A writer without the animation right is not offered the edit.
      await expect(panel.getByTestId("intrant-edit-non-reference")).toHaveCount(0);
      // The phyto dialog offers it too (spec 3 §2.2): the warning, then the dialog on a phyto.
      await panel.getByTestId("add-intrant-539").click();
      await page.getByTestId("dialog-phyto").getByTestId("phyto-non-reference").click();
      await expect(page.getByTestId("dialog-phyto")).toHaveCount(0);
      await page.getByTestId("non-reference-warning").getByTestId("non-reference-continuer").click();
      await expect(page.getByTestId("dialog-non-reference").getByTestId("non-reference-type")).toHaveValue("539");
      await page.getByTestId("dialog-non-reference").getByRole("button", { name: "Annuler" }).click();
      await panel.getByTestId("add-non-reference").click();
      await page.getByTestId("non-reference-warning").getByTestId("non-reference-continuer").click();
      const dialog = page.getByTestId("dialog-non-reference");
      await expect(dialog.getByTestId("non-reference-type").locator("option")).toHaveText(["Semence", "Phyto", "Fertilisant", "Autre intrant"]);
      await dialog.getByTestId("non-reference-type").selectOption({ label: "Fertilisant" });
      await dialog.getByTestId("non-reference-libelle").fill("E2E Engrais maison");
      await dialog.getByTestId("non-reference-categorie").selectOption({ label: "Engrais minéral" });
      await dialog.getByTestId("non-reference-n").fill("40");
      await dialog.getByTestId("non-reference-p2o5").fill("30");
      await dialog.getByTestId("non-reference-save").click();
      await expect(dialog.getByText("La composition doit totaliser 100 %")).toBeVisible();
      await dialog.getByTestId("non-reference-k2o").fill("30");
      await expect(dialog.getByTestId("non-reference-total")).toHaveText("Total : 100 %");
      await dialog.getByTestId("non-reference-save").click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
      const row = await e2eDb()("intrant_dossier").where({ idDossier: s.ids.beauce, libelle: "E2E Engrais maison" }).first("id", "dicIdTypeIntrant");
      expect(row.dicIdTypeIntrant).toBe(540);
      // At HTTP level, the writer's edit of the folder input is refused and changes nothing.
      const stored = await e2eDb()("intrant_dossier").where({ id: s.produit }).first("updatedAt", "libelle");
      const api = await apiAs("redacteur");
      const res = await api.post(SCREEN.slice(1), {
        form: {
          intent: "saveIntrantDossier",
          id: String(s.produit),
          updatedAt: new Date(stored.updatedAt).toISOString(),
          dicIdTypeIntrant: "539",
          libelle: "Piraté",
          idCategorie: "5399",
        },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(403);
      expect((await e2eDb()("intrant_dossier").where({ id: s.produit }).first("libelle")).libelle).toBe("E2E Purin d'ortie");
    } finally {
      await s.cleanup();
    }
  });
});
