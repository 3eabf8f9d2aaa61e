import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { apiAs, demoIds, setContext, signIn } from "./helpers";

/**
 * Copy and duplication of interventions, date update from the interventions screen's Other menu (spec 3 §2.3, §5,
 * §6, §7; issue 12, decision 0047). Each test removes the interventions it made.
 */

const SHOTS = "/tmp/shots-copie";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

async function prepare() {
  const ids = await demoIds();
  const db = e2eDb();
  const moulin2025 = (await db("campagne").where({ idExploitation: ids.moulin, anneeRecolte: 2025, simulation: false }).first("id")).id as number;
  const plots = (await db("parcelle").where({ idCampagne: ids.tilleuls2025 }).orderBy("libelle").pluck("id")).map(Number);
  const destinations = (await db("parcelle").where({ idCampagne: moulin2025 }).orderBy("libelle").limit(2).pluck("id")).map(Number);
  const source = (
    await db("action")
      .where({ idCampagne: ids.tilleuls2025, idParcelle: plots[0] })
      .orderBy([{ column: "date" }, { column: "id" }])
      .limit(3)
      .pluck("id")
  ).map(Number);
  expect(source).toHaveLength(3);
  const lastAction = Number((await db("action").max({ m: "id" }).first())?.m ?? 0);
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  return { ids, moulin2025, plots, destinations, source, cleanup: () => db("action").where("id", ">", lastAction).delete() };
}

async function openOther(page: Page, entry: string) {
  await page.getByTestId("interventions-other").click();
  await page.getByTestId(`other-${entry}`).click();
}

test.describe("copy and duplication of interventions", () => {
  test("[C-COPY-01] [C-COPY-02] [C-COPY-03] [C-COPY-04] [C-RIGHTS-21] [C-ERR-37] a writer copies three interventions to two plots of another farm and finds them", async ({
    page,
  }) => {
    const s = await prepare();
    const db = e2eDb();
    try {
      const before = await Promise.all(s.destinations.map((p) => db("action").where({ idParcelle: p }).count({ n: "*" }).first()));
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.plots[0]}`);
      await openOther(page, "export-selection");
      const dialog = page.getByTestId("copie-export-selection");
      await expect(dialog.getByTestId("copie-dossier")).toBeVisible();
      // Only folders and farms the user may write: in Bocage, GAEC du Moulin (a read link) is not offered.
      await dialog.getByTestId("copie-dossier").selectOption(String(s.ids.bocage));
      await expect(dialog.getByTestId("copie-exploitation").locator("option")).toHaveText(["", "Ferme de la Vallée"]);
      await dialog.getByTestId("copie-dossier").selectOption(String(s.ids.beauce));
      await dialog.getByTestId("copie-exploitation").selectOption(String(s.ids.moulin));
      await dialog.getByTestId("copie-campagne").selectOption(String(s.moulin2025));
      for (const id of s.source) await dialog.getByTestId(`copie-actions-${id}`).check();
      // Saving needs a destination plot (C-COPY-04).
      await expect(dialog.getByTestId("copie-valider")).toBeDisabled();
      for (const id of s.destinations) await dialog.getByTestId(`copie-parcelles-${id}`).check();
      await expect(dialog.getByTestId("copie-suppression")).not.toBeChecked();
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/export.png` });
      await dialog.getByTestId("copie-valider").click();
      await expect(page.getByText("Copie terminée")).toBeVisible();
      await expect(dialog).toBeHidden();
      // Each destination plot got the three interventions, with their inputs.
      for (const [k, p] of s.destinations.entries()) {
        expect(Number((await db("action").where({ idParcelle: p }).count({ n: "*" }).first())?.n)).toBe(Number(before[k]?.n) + 3);
      }
      const srcInputs = Number((await db("intrant").whereIn("idAction", s.source).count({ n: "*" }).first())?.n);
      const copies = db("action")
        .whereIn("idParcelle", s.destinations)
        .where("id", ">", Math.max(...s.source))
        .select("id");
      expect(Number((await db("intrant").whereIn("idAction", copies).count({ n: "*" }).first())?.n)).toBeGreaterThanOrEqual(srcInputs * 2);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-COPY-05] [C-COPY-06] [C-COPY-07] [C-COPY-08] [C-COPY-09] [C-COPY-10] [C-COPY-11] [C-COPY-12] [C-COPY-13] [C-ERR-37] import from another plot, then duplicate a plot's interventions", async ({
    page,
  }) => {
    const s = await prepare();
    const db = e2eDb();
    try {
      const had = Number((await db("action").where({ idParcelle: s.plots[1] }).count({ n: "*" }).first())?.n);
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.plots[1]}`);
      await openOther(page, "import-parcelle");
      const imp = page.getByTestId("copie-import-parcelle");
      await imp.getByTestId("copie-import-campagne").selectOption(String(s.ids.tilleuls2025));
      await imp.getByTestId("copie-import-parcelle").selectOption(String(s.plots[0]));
      await expect(imp.getByTestId("copie-valider")).toBeDisabled();
      await imp.getByTestId(`copie-actions-${s.source[0]}`).check();
      await imp.getByTestId("copie-valider").click();
      await expect(page.getByText("Copie terminée")).toBeVisible();
      expect(Number((await db("action").where({ idParcelle: s.plots[1] }).count({ n: "*" }).first())?.n)).toBe(had + 1);

      await openOther(page, "duplication");
      const dup = page.getByTestId("copie-duplication");
      await dup.getByTestId("copie-source-exploitation").selectOption(String(s.ids.tilleuls));
      await dup.getByTestId("copie-source-campagne").selectOption(String(s.ids.tilleuls2025));
      await dup.getByTestId("copie-dossier").selectOption(String(s.ids.beauce));
      await dup.getByTestId("copie-exploitation").selectOption(String(s.ids.tilleuls));
      await dup.getByTestId("copie-campagne").selectOption(String(s.ids.tilleuls2025));
      await dup.getByTestId(`copie-parcelles-${s.plots[2]}`).check();
      // A source plot is required (C-COPY-11), and it leaves the destinations (C-COPY-13).
      await expect(dup.getByTestId("copie-valider")).toBeDisabled();
      await dup.getByTestId("copie-source-parcelle").selectOption(String(s.plots[0]));
      await expect(dup.getByTestId(`copie-parcelles-${s.plots[0]}`)).toHaveCount(0);
      await dup.getByTestId("copie-suppression").check();
      await page.screenshot({ path: `${SHOTS}/duplication.png` });
      await dup.getByTestId("copie-valider").click();
      await expect(page.getByText("Duplication terminée")).toBeVisible();
      const n = async (p: number) => Number((await db("action").where({ idParcelle: p }).count({ n: "*" }).first())?.n);
      // With the deletion option, the destination holds exactly the source's interventions.
      expect(await n(s.plots[2])).toBe(await n(s.plots[0]));
    } finally {
      await s.cleanup();
    }
  });

  test("[issue30-duplication] [C-COPY-08] [C-COPY-09] [C-COPY-10] the duplication dialog copies several plots at once, each to its destination plot (same name by default), in one request", async ({
    page,
  }) => {
    const s = await prepare();
    const db = e2eDb();
    // A destination plot named as the first source plot: the dialog pairs them by default.
    const [first, second] = s.plots;
    const [sameName, other] = s.destinations;
    const names = await db("parcelle").whereIn("id", [first, sameName]).select("id", "libelle");
    const libelleOf = (id: number) => String(names.find((p) => Number(p.id) === id)?.libelle);
    await db("parcelle")
      .where({ id: sameName })
      .update({ libelle: libelleOf(first) });
    try {
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${first}`);
      await openOther(page, "duplication");
      const dup = page.getByTestId("copie-duplication");
      await dup.getByTestId("copie-source-exploitation").selectOption(String(s.ids.tilleuls));
      await dup.getByTestId("copie-source-campagne").selectOption(String(s.ids.tilleuls2025));
      await dup.getByTestId("copie-plusieurs").check();
      await expect(dup.getByTestId("copie-source-parcelle")).toHaveCount(0);
      await dup.getByTestId(`copie-sources-${first}`).check();
      await dup.getByTestId(`copie-sources-${second}`).check();
      await dup.getByTestId("copie-dossier").selectOption(String(s.ids.beauce));
      await dup.getByTestId("copie-exploitation").selectOption(String(s.ids.moulin));
      await dup.getByTestId("copie-campagne").selectOption(String(s.moulin2025));
      await expect(dup.getByTestId(`copie-paire-${first}`)).toHaveValue(String(sameName));
      // The second source plot has no plot of its name: saving waits for its destination.
      await expect(dup.getByTestId("copie-paires-invalides")).toBeVisible();
      await expect(dup.getByTestId("copie-valider")).toBeDisabled();
      await dup.getByTestId(`copie-paire-${second}`).selectOption(String(sameName));
      // One destination for two sources is not allowed either.
      await expect(dup.getByTestId("copie-valider")).toBeDisabled();
      await dup.getByTestId(`copie-paire-${second}`).selectOption(String(other));
      await expect(dup.getByTestId("copie-paires-invalides")).toHaveCount(0);
      await dup.getByTestId("copie-suppression").check();
      await page.screenshot({ path: `${SHOTS}/duplication-plusieurs.png` });
      const posts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("interventions")) posts.push(r.postData() ?? "");
      });
      await dup.getByTestId("copie-valider").click();
      await expect(page.getByText("Duplication terminée")).toBeVisible();
      await expect(dup).toBeHidden();
      expect(posts.filter((b) => b.includes("duplicationCampagneInterventions"))).toHaveLength(1);
      const n = async (p: number, c: number) => Number((await db("action").where({ idParcelle: p, idCampagne: c }).count({ n: "*" }).first())?.n);
      // With the deletion option, each destination holds exactly its source's interventions.
      expect(await n(sameName, s.moulin2025)).toBe(await n(first, s.ids.tilleuls2025));
      expect(await n(other, s.moulin2025)).toBe(await n(second, s.ids.tilleuls2025));
    } finally {
      await db("parcelle")
        .where({ id: sameName })
        .update({ libelle: libelleOf(sameName) });
      await s.cleanup();
    }
  });

  test("[C-DATE-01] [C-DATE-02] [C-DATE-03] [C-DATE-04] [C-DATE-05] the Other menu's date update moves the plot's interventions of the initial year; the assignment update form opens", async ({
    page,
  }) => {
    const s = await prepare();
    const db = e2eDb();
    const moved = await db("action")
      .insert({
        idCampagne: s.ids.tilleuls2025,
        idParcelle: s.plots[3],
        date: "2024-03-15",
        anneeRecolte: 2024,
        frequence: 1,
        tauxSurface: 1,
        realisee: true,
        prevue: false,
      })
      .returning("id");
    const id = Number(typeof moved[0] === "object" ? (moved[0] as { id: number }).id : moved[0]);
    try {
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.plots[3]}`);
      await openOther(page, "maj-dates");
      const dialog = page.getByTestId("maj-dates-dialog");
      const initiale = dialog.getByLabel("Année initiale", { exact: true });
      const finale = dialog.getByLabel("Année finale", { exact: true });
      await expect(finale).toHaveValue("2025");
      await finale.fill("");
      await dialog.getByTestId("maj-dates-submit").click();
      await expect(dialog.locator(`[id="${await initiale.getAttribute("id")}-error"]`)).toHaveText("Champ requis");
      await expect(dialog.locator(`[id="${await finale.getAttribute("id")}-error"]`)).toHaveText("Champ requis");
      await initiale.fill("deux");
      await finale.fill("2025a");
      await finale.blur();
      await expect(dialog.locator(`[id="${await initiale.getAttribute("id")}-error"]`)).toHaveText("Valeur numérique attendue");
      await expect(dialog.locator(`[id="${await finale.getAttribute("id")}-error"]`)).toHaveText("Valeur numérique attendue");
      await page.screenshot({ path: `${SHOTS}/maj-dates.png` });
      await initiale.fill("2024");
      await finale.fill("2025");
      await dialog.getByTestId("maj-dates-submit").click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      const row = await db("action").where({ id }).first("date", "anneeRecolte");
      expect([String(row.date instanceof Date ? row.date.toISOString() : row.date).slice(0, 10), Number(row.anneeRecolte)]).toEqual(["2025-03-15", 2025]);
      // The assignment update form opens from the same menu.
      await openOther(page, "maj-affectation");
      const affectations = page.getByTestId("affectations-dialog");
      // It lists the campaign's plots, read through the interventions screen (saving it is the plots screen's journey).
      await expect(affectations.getByTestId("affectations-save")).toBeEnabled();
      await page.screenshot({ path: `${SHOTS}/affectations.png` });
      await page.keyboard.press("Escape");
      await expect(affectations).toHaveCount(0);
    } finally {
      await db("action").where({ id }).delete();
      await s.cleanup();
    }
  });

  test("[C-ERR-31] a failed duplication shows no error dialog: the dialog stays open, nothing is written", async ({ page }) => {
    const s = await prepare();
    const db = e2eDb();
    try {
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.plots[0]}`);
      await openOther(page, "duplication");
      const dup = page.getByTestId("copie-duplication");
      await dup.getByTestId("copie-source-exploitation").selectOption(String(s.ids.tilleuls));
      await dup.getByTestId("copie-source-campagne").selectOption(String(s.ids.tilleuls2025));
      await dup.getByTestId("copie-source-parcelle").selectOption(String(s.plots[0]));
      await dup.getByTestId("copie-dossier").selectOption(String(s.ids.beauce));
      await dup.getByTestId("copie-exploitation").selectOption(String(s.ids.moulin));
      await dup.getByTestId("copie-campagne").selectOption(String(s.moulin2025));
      await dup.getByTestId(`copie-parcelles-${s.destinations[0]}`).check();
      // Meanwhile the destination campaign's indicators are published: it is locked, the server refuses the write.
      await db("campagne").where({ id: s.moulin2025 }).update({ indicateurPublie: true });
      const before = await db("action").where({ idParcelle: s.destinations[0] }).count({ n: "*" }).first();
      const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("interventions"));
      await dup.getByTestId("copie-valider").click();
      await answered;
      await expect(dup.getByTestId("copie-valider")).toBeEnabled();
      await expect(page.getByTestId("error-dialog")).toHaveCount(0);
      await expect(dup).toBeVisible();
      await expect(page.getByText("Duplication terminée")).toHaveCount(0);
      expect(await db("action").where({ idParcelle: s.destinations[0] }).count({ n: "*" }).first()).toEqual(before);
    } finally {
      await db("campagne").where({ id: s.moulin2025 }).update({ indicateurPublie: false });
      await s.cleanup();
    }
  });

  test("[C-DATE-06] the date update of the whole campaign sends anneeRecolteCible: the campaign's interventions of its last-action year move", async ({
    page,
  }) => {
    const s = await prepare();
    const db = e2eDb();
    const campagne = await db("campagne").where({ id: s.ids.tilleuls2025 }).first("anneeDerniereAction");
    const plots = await db("parcelle").where({ idCampagne: s.ids.tilleuls2025 }).select("id", "anneeDerniereAction");
    // The campaign's last-action year is 2031 here: only this intervention has it.
    await db("campagne").where({ id: s.ids.tilleuls2025 }).update({ anneeDerniereAction: 2031 });
    const inserted = await db("action")
      .insert({
        idCampagne: s.ids.tilleuls2025,
        idParcelle: s.plots[3],
        date: "2030-11-02",
        anneeRecolte: 2031,
        frequence: 1,
        tauxSurface: 1,
        realisee: true,
        prevue: false,
      })
      .returning("id");
    const id = Number(typeof inserted[0] === "object" ? (inserted[0] as { id: number }).id : inserted[0]);
    try {
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.plots[3]}`);
      await openOther(page, "maj-dates");
      const dialog = page.getByTestId("maj-dates-dialog");
      // The year field has the focus: pressing the label makes it show its error, and the dialog moves (see the dialog).
      await dialog.getByText("Toute la campagne").click();
      await expect(dialog.getByTestId("maj-dates-campagne")).toBeChecked();
      const cible = dialog.getByLabel("Année de récolte cible", { exact: true });
      await expect(cible).toHaveValue("2025");
      await cible.fill("2032");
      const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("interventions"));
      await dialog.getByTestId("maj-dates-campagne-submit").click();
      const body = new URLSearchParams((await posted).postData() ?? "");
      expect([body.get("intent"), body.get("anneeRecolteCible")]).toEqual(["majDatesCampagne", "2032"]);
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      const row = await db("action").where({ id }).first("date", "anneeRecolte");
      expect([String(row.date instanceof Date ? row.date.toISOString() : row.date).slice(0, 10), Number(row.anneeRecolte)]).toEqual(["2031-11-02", 2032]);
      expect(Number((await db("campagne").where({ id: s.ids.tilleuls2025 }).first("anneeDerniereAction")).anneeDerniereAction)).toBe(2032);
    } finally {
      await db("action").where({ id }).delete();
      await db("campagne")
        .where({ id: s.ids.tilleuls2025 })
        .update({ anneeDerniereAction: campagne.anneeDerniereAction ?? null });
      for (const p of plots)
        await db("parcelle")
          .where({ id: p.id })
          .update({ anneeDerniereAction: p.anneeDerniereAction ?? null });
      await s.cleanup();
    }
  });

  test("[C-RIGHTS-21] a reader cannot copy into a farm by posting the form (HTTP)", async () => {
    const s = await prepare();
    const db = e2eDb();
    try {
      const before = await db("action").count({ n: "*" }).first();
      const api = await apiAs("lecteur");
      const form = new URLSearchParams({ intent: "exportInterventions", dossierDestination: String(s.ids.beauce), campagneDestination: String(s.moulin2025) });
      for (const id of s.source) form.append("actionsSource", String(id));
      for (const id of s.destinations) form.append("parcellesDestination", String(id));
      const res = await api.post(`${SCREEN.slice(1)}`, {
        data: form.toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        maxRedirects: 0,
      });
      expect([302, 403]).toContain(res.status());
      expect(await db("action").count({ n: "*" }).first()).toEqual(before);
      await api.dispose();
    } finally {
      await s.cleanup();
    }
  });
});
