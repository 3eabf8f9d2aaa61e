import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test } from "./fixtures";
import { apiAs, demoIds, setContext, signIn, insertId, gridRowTexts as rowTexts, pasteText as paste } from "./helpers";

/**
 * The price screens (issue 13; app/routes/prix/, the one grid of app/components/grid/): a column of prices pasted
 * from a spreadsheet and saved, the filters and the proposed prices, 'delete unused products' with its confirmation
 * and deleting indicator, the sale prices, and a reader's read-only screens (refused at HTTP level too).
 */

const SHOTS = "/tmp/shots-prix";
mkdirSync(SHOTS, { recursive: true });
const APPRO = "/home/description/prix/prix_approvisionnement";
const VENTE = "/home/description/prix/prix_vente";
const TYPING = { delay: 60 };
const N = 30;

async function context(user: "redacteur" | "lecteur") {
  const ids = await demoIds();
  await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  return ids;
}

/** 30 other inputs (category 5431, kg/ha) on an intervention of its own in Tilleuls 2025: 30 new products without a price. */
async function thirtyInputs() {
  const ids = await demoIds();
  const db = e2eDb();
  const plot = await db("parcelle").where({ idCampagne: ids.tilleuls2025 }).orderBy("id").first("id");
  const op = await db("operation_culturale").where({ idCampagne: ids.tilleuls2025 }).orderBy("id").first("id");
  const idAction = await insertId("action", {
    idCampagne: ids.tilleuls2025,
    idParcelle: plot.id,
    date: "2025-04-10",
    anneeRecolte: 2025,
    idOperationCulturale: op.id,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  for (let i = 1; i <= N; i++) {
    await insertId("intrant", {
      idAction,
      idCategorie: 5431,
      libelleIntrant: `E2E prix ${String(i).padStart(2, "0")}`,
      dicIdOrigineIntrant: 776,
      quantite: 1,
      dicLlUnite: "kg/ha",
    });
  }
  return {
    idAction,
    prices: () =>
      db("prix_appro")
        .where({ idCampagne: ids.tilleuls2025 })
        .where("libelleIntrant", "like", "E2E prix%")
        .orderBy("libelleIntrant")
        .select("libelleIntrant", "prixAchat", "unite"),
    cleanup: async () => {
      await db("action").where({ id: idAction }).delete();
      await db("prix_appro").where({ idCampagne: ids.tilleuls2025 }).where("libelleIntrant", "like", "E2E prix%").delete();
    },
  };
}

const canvas = (page: Page) => page.locator("canvas[data-testid=data-grid-canvas]");

/** The cursor on (col, row): a click on the label cell of the first row (read-only, opens no editor), then the arrows. */
async function goTo(page: Page, labelX: number, col: number, row: number, labelCol = 1) {
  const box = (await canvas(page).boundingBox())!;
  await page.mouse.click(box.x + labelX, box.y + 36 + 17);
  for (let i = labelCol; i < col; i++) await page.keyboard.press("ArrowRight");
  for (let i = col; i < labelCol; i++) await page.keyboard.press("ArrowLeft");
  for (let i = 0; i < row; i++) await page.keyboard.press("ArrowDown");
}
// Supply grid: row numbers (~32 px), type 150, label 320, price 130, price unit 100, unit 110, state 160.
const APPRO_LABEL_X = 32 + 150 + 100;
// Sale grid: row numbers, mode 200, crop 190, output 150, qualifier 130, price 150, state 160.
const VENTE_CROP_X = 32 + 200 + 100;

/** The position of a product among the rows of its type, as the screen sorts them (label, then id). */
async function rowOf(idCampagne: number, idTypeIntrant: number, label: string): Promise<number> {
  const rows = await e2eDb()("prix_appro").where({ idCampagne, idTypeIntrant }).select("id", "libelleIntrantConcat");
  rows.sort((a, b) => String(a.libelleIntrantConcat).localeCompare(String(b.libelleIntrantConcat), "fr") || Number(a.id) - Number(b.id));
  const at = rows.findIndex((r) => r.libelleIntrantConcat === label);
  expect(at, `${label} is a row`).toBeGreaterThanOrEqual(0);
  return at;
}

async function typeInCell(page: Page, text: string) {
  await page.keyboard.type(text[0]);
  const editor = page.locator("#portal textarea, #portal input");
  await expect(editor).toBeFocused();
  await page.keyboard.type(text.slice(1), TYPING);
  await expect(editor).toHaveValue(text);
  await page.keyboard.press("Enter");
  await expect(editor).toHaveCount(0);
}

async function noSeriousAxeViolation(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

test.describe("supply prices", () => {
  test("[C-PAPPRO-01] [C-PAPPRO-02] [C-PAPPRO-03] [C-PAPPRO-05] [C-PAPPRO-07] [C-PAPPRO-08] [C-PAPPRO-09] [C-PAPPRO-10] [C-PAPPRO-15] [C-PAPPRO-16] [C-PAPPRO-24] [C-PAPPRO-25] a writer pastes a column of 30 prices from a spreadsheet, fixes the invalid one, saves only those rows and finds them after reload", async ({
    page,
  }) => {
    test.slow();
    const s = await thirtyInputs();
    try {
      const ids = await context("redacteur");
      await signIn(page, "redacteur");
      await navigate(page, "/home/description/prix");
      await expect(page).toHaveURL(/\/home\/description\/prix\/prix_approvisionnement$/);
      await expect(canvas(page)).toBeVisible();
      await expect(page.getByTestId("delete-unused")).toBeEnabled();
      // The fuel row first: € per litre, the campaign's fuel price.
      await goTo(page, APPRO_LABEL_X, 1, 0);
      await expect
        .poll(() => rowTexts(page, 0))
        .toEqual(expect.arrayContaining(["Carburant", "Prix du fioul (caractéristiques économiques de la campagne)", "€/L", "L"]));
      await page.screenshot({ path: `${SHOTS}/appro.png` });
      // The other inputs: the 30 new products, without a price, then the demo's.
      await page.getByTestId("prix-filtre").selectOption("543");
      const first = await rowOf(ids.tilleuls2025, 543, "E2E prix 01");
      await goTo(page, APPRO_LABEL_X, 1, first);
      await expect.poll(() => rowTexts(page, first)).toEqual(expect.arrayContaining(["E2E prix 01", "€/KG", "KG/HA"]));
      // A column copied from a French spreadsheet: decimal commas, one value that is no number.
      const values = Array.from({ length: N }, (_, i) => (i === 6 ? "abc" : i === 0 ? "3,14159" : `${i + 10},5`));
      await goTo(page, APPRO_LABEL_X, 2, first);
      await paste(page, values.join("\r\n") + "\r\n");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText(`${N} lignes modifiées`);
      await expect(page.getByTestId("grid-save")).toBeDisabled();
      await expect(page.getByTestId("grid-message")).toContainText("1 ligne contient des erreurs");
      await page.screenshot({ path: `${SHOTS}/appro-invalid.png` });
      await goTo(page, APPRO_LABEL_X, 2, first + 6);
      await expect(page.getByTestId("grid-message")).toHaveText(`Ligne ${first + 7}, Prix d'achat : Valeur numérique attendue`);
      await typeInCell(page, "7,25");
      await expect(page.getByTestId("grid-save")).toBeEnabled();
      const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("prix_approvisionnement"));
      await page.getByTestId("grid-save").click();
      const body = new URLSearchParams((await posted).postData() ?? "");
      const patches = JSON.parse(body.get("patches") ?? "[]") as { id: number; values: Record<string, unknown> }[];
      // Only the 30 changed rows, each with its price only.
      expect(patches).toHaveLength(N);
      expect(patches.every((p) => Object.keys(p.values).join() === "prixAchat")).toBe(true);
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await page.reload();
      await expect(canvas(page)).toBeVisible();
      const stored = await s.prices();
      expect(stored.map((r) => Number(r.prixAchat))).toEqual(values.map((v, i) => (i === 0 ? 3.1416 : i === 6 ? 7.25 : i + 10.5)));
      expect(stored.every((r) => r.unite === "KG/HA")).toBe(true);
      await page.getByTestId("prix-filtre").selectOption("543");
      await goTo(page, APPRO_LABEL_X, 1, first);
      await expect.poll(() => rowTexts(page, first)).toEqual(expect.arrayContaining(["E2E prix 01", "3,1416"]));
      await page.screenshot({ path: `${SHOTS}/appro-saved.png` });
    } finally {
      await s.cleanup();
    }
  });

  test("[C-PAPPRO-04] [C-PAPPRO-06] [C-PAPPRO-11] [C-PAPPRO-12] [C-PAPPRO-13] [C-PAPPRO-14] [C-PAPPRO-18] [C-PAPPRO-19] the type and 'unspecified price' filters; the proposed prices of a product, none for the fuel row", async ({
    page,
  }) => {
    const ids = await context("redacteur");
    const db = e2eDb();
    await signIn(page, "redacteur");
    await navigate(page, APPRO);
    await expect(canvas(page)).toBeVisible();
    const unpriced = Number((await db("prix_appro").where({ idCampagne: ids.tilleuls2025 }).whereNull("prixAchat").count({ n: "*" }).first())!.n);
    expect(unpriced).toBeGreaterThan(0);
    await page.getByTestId("prix-filtre").selectOption({ label: "Prix non renseigné" });
    await expect(page.getByTestId("prix-compte")).toHaveText(`${unpriced} ligne${unpriced > 1 ? "s" : ""}`);
    await page.screenshot({ path: `${SHOTS}/appro-sans-prix.png` });
    // A phyto product: its prices elsewhere (Tilleuls 2024, GAEC du Moulin, Ferme de la Vallée), and for 2025.
    await page.getByTestId("prix-filtre").selectOption("539");
    await goTo(page, APPRO_LABEL_X, 1, 0);
    await expect.poll(() => rowTexts(page, 0)).toContain("Produit phytosanitaire");
    const [, label] = await rowTexts(page, 0);
    const row = await db("prix_appro").where({ idCampagne: ids.tilleuls2025, libelleIntrantConcat: label }).first("cle");
    const elsewhere = await db("prix_appro as p")
      .join("campagne as c", "c.id", "p.idCampagne")
      .where({ "p.cle": row.cle, "c.simulation": false })
      .whereNot("p.idCampagne", ids.tilleuls2025)
      .whereNotNull("p.prixAchat")
      .select("c.anneeRecolte");
    const panel = page.getByTestId("prix-proposes");
    await expect(panel.getByTestId("prix-proposes-toutes-count")).toHaveText(String(elsewhere.length));
    await expect(panel.getByTestId("prix-proposes-annee-count")).toHaveText(String(elsewhere.filter((e) => Number(e.anneeRecolte) === 2025).length));
    await expect(panel.getByTestId("prix-proposes-toutes-mean")).toContainText("€/L");
    await expect(panel.getByTestId("prix-proposes-toutes-cv")).toContainText("%");
    // The demo's reference prices come from its illustrative price scale, loaded like an organisation's (decision 0080).
    const reference = await db("prix_appro as a")
      .join("prix_phytcom as p", "p.idIntrantPhyto", "a.idIntrant")
      .where({ "a.idCampagne": ids.tilleuls2025, "a.libelleIntrantConcat": label })
      .orderBy("p.datePhytcom", "desc")
      .first("p.prixPhytcom", "p.source");
    expect(reference).toBeTruthy();
    const referencePanel = panel.getByTestId("prix-proposes-reference");
    await expect(referencePanel).toContainText(`${Number(reference.prixPhytcom).toFixed(2).replace(".", ",")} €/L`);
    await expect(referencePanel).toContainText("15/01/2025");
    await expect(referencePanel.getByTestId("prix-proposes-reference-source")).toContainText(reference.source);
    await page.screenshot({ path: `${SHOTS}/appro-proposes.png`, fullPage: true });
    // The fuel row loads no proposed prices.
    await page.getByTestId("prix-filtre").selectOption("");
    await goTo(page, APPRO_LABEL_X, 1, 0);
    await expect(panel.getByTestId("prix-proposes-vide")).toBeVisible();
    await noSeriousAxeViolation(page);
  });

  test("[C-PAPPRO-20] [C-PAPPRO-21] [C-PAPPRO-22] [C-PAPPRO-23] 'delete unused products' asks first, shows the deleting rows, deletes the unused products and reloads the list", async ({
    page,
  }) => {
    const ids = await context("redacteur");
    const db = e2eDb();
    const unused = await insertId("prix_appro", {
      idCampagne: ids.tilleuls2025,
      cle: "e2e|inutilise",
      idTypeIntrant: 543,
      libelleIntrant: "E2E produit inutilisé",
      libelleIntrantConcat: "E2E produit inutilisé",
      prixAchat: 4,
      unite: "KG/HA",
    });
    try {
      await signIn(page, "redacteur");
      await navigate(page, APPRO);
      await expect(canvas(page)).toBeVisible();
      await page.getByTestId("prix-filtre").selectOption("543");
      const at = await rowOf(ids.tilleuls2025, 543, "E2E produit inutilisé");
      await goTo(page, APPRO_LABEL_X, 1, at);
      await expect.poll(() => rowTexts(page, at)).toEqual(expect.arrayContaining(["E2E produit inutilisé", "Non utilisé"]));
      // The deletion answers slowly here, so that its indicator can be seen.
      await page.route(/prix_approvisionnement/, async (route) => {
        if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.getByTestId("delete-unused").click();
      const dialog = page.getByTestId("delete-unused-dialog");
      await expect(dialog).toContainText("Supprimer de cette campagne les produits qu'aucune intervention n'utilise plus, avec leurs prix ?");
      expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(500);
      await page.screenshot({ path: `${SHOTS}/appro-delete-confirm.png` });
      await dialog.getByRole("button", { name: "Ok" }).click();
      await expect(page.getByTestId("delete-unused")).toHaveText("Suppression en cours…");
      await expect.poll(() => rowTexts(page, at)).toContain("Suppression en cours…");
      await page.screenshot({ path: `${SHOTS}/appro-deleting.png` });
      await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
      await expect.poll(() => rowTexts(page, at)).not.toContain("E2E produit inutilisé");
      expect(await db("prix_appro").where({ id: unused }).first()).toBeUndefined();
    } finally {
      await db("prix_appro").where({ id: unused }).delete();
    }
  });
});

test.describe("sale prices", () => {
  test("[C-PVENTE-01] [C-PVENTE-02] [C-PVENTE-03] [C-PVENTE-04] [C-PVENTE-05] [C-PVENTE-06] [C-PVENTE-07] [C-PVENTE-08] [C-PVENTE-09] [C-PVENTE-10] [C-PVENTE-11] [C-PVENTE-12] [C-PVENTE-13] [C-PVENTE-14] [C-CONST-16] a writer filters by driving mode and unspecified price, prices an output, saves; unused rows are deleted after confirmation", async ({
    page,
  }) => {
    const ids = await context("redacteur");
    const db = e2eDb();
    const any = await db("prix_vente").where({ idCampagne: ids.tilleuls2025 }).first("idCulture", "idTypeSortie");
    const unused = await insertId("prix_vente", {
      idCampagne: ids.tilleuls2025,
      cle: "e2e|vente-inutilisee",
      idCulture: any.idCulture,
      idTypeSortie: any.idTypeSortie,
      idQualifiantRecolte: 999999,
      prixVente: 100,
    });
    const before = await db("prix_vente").where({ idCampagne: ids.tilleuls2025 }).select("id", "prixVente");
    try {
      await signIn(page, "redacteur");
      await navigate(page, VENTE);
      await expect(canvas(page)).toBeVisible();
      // The row no harvest gives (no driving mode: last), unused.
      const last = before.length - 1;
      await goTo(page, VENTE_CROP_X, 1, last);
      await expect.poll(() => rowTexts(page, last)).toEqual(expect.arrayContaining(["Sans mode de conduite", "Non utilisé", "#999999"]));
      await page.screenshot({ path: `${SHOTS}/vente.png` });
      // One driving mode: only its rows.
      const modes = await db("mode_conduite").where({ idCampagne: ids.tilleuls2025 }).orderBy("libelle").select("id", "libelle");
      const mode = modes[0];
      const ofMode = await db("prix_vente").where({ idCampagne: ids.tilleuls2025, idModeConduite: mode.id }).count({ n: "*" }).first();
      await page.getByTestId("prix-filtre").selectOption(String(mode.id));
      await expect(page.getByTestId("prix-compte")).toHaveText(new RegExp(`^${Number(ofMode!.n)} ligne`));
      // The outputs without a price: the demo leaves one; its empty cell says the price is required.
      await page.getByTestId("prix-filtre").selectOption({ label: "Prix non renseigné" });
      await expect(page.getByTestId("prix-compte")).toHaveText("1 ligne");
      await goTo(page, VENTE_CROP_X, 4, 0);
      await expect(page.getByTestId("grid-message")).toHaveText("Ligne 1, Prix de vente : Champ requis");
      const target = await db("prix_vente").where({ idCampagne: ids.tilleuls2025 }).whereNull("prixVente").first("id");
      await typeInCell(page, "201,123456");
      await expect(page.getByTestId("grid-save")).toBeEnabled();
      await page.keyboard.press("Control+s");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      expect(Number((await db("prix_vente").where({ id: target.id }).first("prixVente")).prixVente)).toBe(201.1235);
      await page.reload();
      await expect(canvas(page)).toBeVisible();
      await page.getByTestId("prix-filtre").selectOption({ label: "Prix non renseigné" });
      await expect(page.getByTestId("prix-compte")).toHaveText("0 ligne");
      // Emptied again: the cell says the price is required, yet the save takes it (numeric only at save).
      const { idModeConduite } = await db("prix_vente").where({ id: target.id }).first("idModeConduite");
      await page.getByTestId("prix-filtre").selectOption(String(idModeConduite));
      // The filtered rows are shown before the cursor is put on the first one.
      const ofTarget = await db("prix_vente").where({ idCampagne: ids.tilleuls2025, idModeConduite }).count({ n: "*" }).first();
      await expect(page.getByTestId("prix-compte")).toHaveText(new RegExp(`^${Number(ofTarget!.n)} ligne`));
      await goTo(page, VENTE_CROP_X, 4, 0);
      await page.keyboard.press("Delete");
      await expect(page.getByTestId("grid-message")).toHaveText("Ligne 1, Prix de vente : Champ requis");
      await expect(page.getByTestId("grid-save")).toBeEnabled();
      await page.getByTestId("grid-save").click();
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await expect.poll(async () => (await db("prix_vente").where({ id: target.id }).first("prixVente")).prixVente).toBeNull();
      // 'Delete unused products': the confirmation, then the row no harvest gives is gone.
      await page.getByTestId("prix-filtre").selectOption("");
      await page.getByTestId("delete-unused").click();
      const dialog = page.getByTestId("delete-unused-dialog");
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Ok" }).click();
      await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
      // The notice goes after 2000 ms.
      const shown = Date.now();
      await expect(page.getByTestId("snackbar")).toBeHidden({ timeout: 4000 });
      expect(Date.now() - shown).toBeLessThan(2600);
      await expect.poll(async () => db("prix_vente").where({ id: unused }).first()).toBeUndefined();
      await page.screenshot({ path: `${SHOTS}/vente-saved.png` });
      await noSeriousAxeViolation(page);
    } finally {
      await db("prix_vente").where({ id: unused }).delete();
      for (const r of before) if (r.id !== unused) await db("prix_vente").where({ id: r.id }).update({ prixVente: r.prixVente });
    }
  });
});

test.describe("prices for a reader", () => {
  test("[C-RIGHTS-05] [C-RIGHTS-06] a reader sees both price screens read-only, 'delete unused products' disabled; his posts are refused (403) and change nothing; the screen in English", async ({
    page,
  }) => {
    const ids = await context("lecteur");
    const db = e2eDb();
    await signIn(page, "lecteur");
    for (const path of [APPRO, VENTE]) {
      await navigate(page, path);
      await expect(canvas(page)).toBeVisible();
      await expect(page.getByTestId("read-only-note")).toBeVisible();
      await expect(page.getByText("Tableau en lecture seule")).toBeVisible();
      await expect(page.getByTestId("grid-save")).toHaveCount(0);
      await expect(page.getByTestId("delete-unused")).toBeDisabled();
      await noSeriousAxeViolation(page);
      await page.screenshot({ path: `${SHOTS}/lecteur-${path.endsWith("vente") ? "vente" : "appro"}.png` });
    }
    // Typing and pasting change nothing in a read-only grid.
    await goTo(page, VENTE_CROP_X, 4, 0);
    await paste(page, "999\r\n");
    await expect(page.getByTestId("grid-dirty-count")).toHaveCount(0);

    const state = async () => ({
      appro: await db("prix_appro").where({ idCampagne: ids.tilleuls2025 }).orderBy("id").select("*"),
      vente: await db("prix_vente").where({ idCampagne: ids.tilleuls2025 }).orderBy("id").select("*"),
      fuel: await db("caracteristique").where({ idCampagne: ids.tilleuls2025 }).select("*"),
    });
    const before = await state();
    const api = await apiAs("lecteur");
    const a = before.appro[0];
    const v = before.vente[0];
    const token = (r: { updatedAt: unknown }) => new Date(r.updatedAt as string).toISOString();
    const posts: { path: string; form: Record<string, string> }[] = [
      {
        path: "home/description/prix/prix_approvisionnement",
        form: { intent: "grid", patches: JSON.stringify([{ id: a.id, updatedAt: token(a), values: { prixAchat: 1 } }]) },
      },
      { path: "home/description/prix/prix_approvisionnement", form: { intent: "deleteUnused" } },
      {
        path: "home/description/prix/prix_vente",
        form: { intent: "grid", patches: JSON.stringify([{ id: v.id, updatedAt: token(v), values: { prixVente: 1 } }]) },
      },
      { path: "home/description/prix/prix_vente", form: { intent: "deleteUnused" } },
    ];
    for (const p of posts) {
      const res = await api.post(p.path, { form: p.form, maxRedirects: 0 });
      expect(`${p.path} ${p.form.intent}: ${res.status()}`).toBe(`${p.path} ${p.form.intent}: 403`);
    }
    expect(await state()).toEqual(before);

    // In English: the same screen, its filter and fuel row translated.
    await inEnglish(page, APPRO);
    await expect(canvas(page)).toBeVisible();
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Supply prices");
    await expect(page.getByTestId("prix-filtre").locator("option").last()).toHaveText("Unspecified price");
    await goTo(page, APPRO_LABEL_X, 1, 0);
    await expect.poll(() => rowTexts(page, 0)).toEqual(expect.arrayContaining(["Fuel", "0.98", "€/L"]));
    await page.screenshot({ path: `${SHOTS}/lecteur-appro-en.png` });
  });
});
