import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { apiAs, demoIds, gridRowTexts, insertId, noSeriousAxeViolationInMain, setContext, signIn } from "./helpers";

/**
 * Inputs in the interventions grid (issue 29, decision 0126): the inputs column in view at 1440 × 900; under the
 * grid, the selected intervention's inputs as a grid of their own where a writer adds a product from the catalogue
 * (the drop-down filtered as typed) and its dose by the keyboard, saves, reloads and finds it; a reader sees them
 * read only and his POST of the same intent is refused.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

async function prepare() {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const idPlot = await insertId("parcelle", { idCampagne, libelle: "E2E Intrants grille", surface: 3 });
  const op = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Intrants traitement", debitReel: 2 });
  const idAction = await insertId("action", {
    idCampagne,
    idParcelle: idPlot,
    date: "2025-04-10",
    anneeRecolte: 2025,
    idOperationCulturale: op,
    debit: 2,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  for (const user of ["redacteur", "lecteur"] as const)
    await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  return {
    idPlot,
    idAction,
    inputs: () => db("intrant").where({ idAction }).select("id", "libelleIntrant", "quantite", "dicLlUnite"),
    cleanup: async () => {
      await db("parcelle").where({ id: idPlot }).delete();
      await db("operation_culturale").where({ id: op }).delete();
    },
  };
}

const mainCanvas = (page: Page) => page.locator("canvas[data-testid=data-grid-canvas]").first();
const inputsGrid = (page: Page) => page.getByTestId("intrants-grille");

async function openInputs(page: Page, idPlot: number, idAction: number) {
  await navigate(page, `${SCREEN}?parcelleId=${idPlot}&id=${idAction}`);
  await expect(mainCanvas(page)).toBeVisible();
  await inputsGrid(page).getByTestId("intrants-grille-ouvrir").click();
  await expect(inputsGrid(page).locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();
}

test.describe("[issue29-intrants] inputs in the interventions grid", () => {
  test("[issue29-intrants] a writer adds a product and its dose from the grid, by the keyboard; saved, reloaded, shown", async ({ page }) => {
    test.slow();
    const s = await prepare();
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.idPlot}`);
      await expect(mainCanvas(page)).toBeVisible();
      // The inputs column is in view without scrolling right (the accessible table names the columns in view).
      await expect(page.locator('table[role="grid"]').first().locator("th", { hasText: "Intrants" })).toHaveCount(1);
      await expect(page.getByTestId("intrants-grille-vide")).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/grille-intrants-avant.png` });

      // Choosing the intervention (a click on its row) opens its inputs under the grid.
      const box = (await mainCanvas(page).boundingBox())!;
      await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
      await expect(page).toHaveURL(new RegExp(`id=${s.idAction}`));
      const grid = inputsGrid(page);
      await expect(grid.getByRole("heading")).toHaveText(/Intrants de l'intervention du 10\/04\/2025 \(0\)/);
      // The detail opens by the keyboard: its button focused, Enter.
      await grid.getByTestId("intrants-grille-ouvrir").focus();
      await page.keyboard.press("Enter");
      await expect(grid.getByTestId("intrants-grille-ouvrir")).toHaveAttribute("aria-expanded", "true");
      await expect(grid.locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();

      // A new row: the cursor lands on its product; typing opens the catalogue filtered by the letters typed.
      await grid.getByTestId("grid-add-row").click();
      await page.keyboard.type("a");
      const editor = page.getByTestId("grid-choice-editor");
      await expect(editor).toBeVisible();
      await page.keyboard.type("c");
      const first = editor.getByRole("option").first();
      await expect(first).toBeVisible();
      const label = (await first.textContent())!.trim();
      expect(label.toLowerCase()).toContain("ac");
      // Tab chooses it and moves to the dose; the dose typed, Enter; the unit is l/ha by default.
      await page.keyboard.press("Tab");
      await expect(editor).toBeHidden();
      await page.keyboard.type("0,8");
      await page.keyboard.press("Enter");
      const rows = grid.locator('table[role="grid"] tbody tr');
      await expect(rows.first()).toContainText("0,8");
      await expect(grid.getByTestId("grid-dirty-count")).toHaveText("1 ligne modifiée");
      await noSeriousAxeViolationInMain(page);
      await page.screenshot({ path: `${SHOTS}/grille-intrants-saisie.png` });
      await page.keyboard.press("Control+s");
      await expect(grid.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await expect.poll(async () => (await s.inputs()).map((i) => [Number(i.quantite), i.dicLlUnite]), { timeout: 10_000 }).toEqual([[0.8, "l/ha"]]);
      const [stored] = await s.inputs();
      expect(label.startsWith(String(stored.libelleIntrant))).toBe(true);

      // Reloaded: the intervention's inputs column says it, and its inputs grid lists it.
      await openInputs(page, s.idPlot, s.idAction);
      await expect.poll(() => gridRowTexts(page, 0)).toEqual(expect.arrayContaining([`${stored.libelleIntrant} 0,8 l/ha`]));
      await expect(grid.locator('table[role="grid"] tbody tr').first()).toContainText(String(stored.libelleIntrant));
      await expect(grid.locator('table[role="grid"] tbody tr').first()).toContainText("0,8");
      await noSeriousAxeViolationInMain(page);
      await page.screenshot({ path: `${SHOTS}/grille-intrants-apres.png`, fullPage: true });

      // Ctrl+Z in the inputs grid undoes a dose typed before it is saved.
      // The dose cell of the first row: row numbers (about 32 px), product (300), then inside the dose (110).
      const inputsBox = (await grid.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
      await page.mouse.click(inputsBox.x + 32 + 300 + 50, inputsBox.y + 36 + 17);
      await page.keyboard.type("2");
      await page.keyboard.press("Enter");
      await expect(grid.getByTestId("grid-dirty-count")).toHaveText("1 ligne modifiée");
      await page.keyboard.press("Control+z");
      await expect(grid.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
    } finally {
      await s.cleanup();
    }
  });

  test("[issue29-intrants] a reader sees the inputs read only, and his POST of the grid's intent is refused", async ({ page }) => {
    const s = await prepare();
    try {
      const ids = await demoIds();
      const phyto = await e2eDb()("intrant_phyto").orderBy("idProduit").first("idProduit");
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, "lecteur");
      await openInputs(page, s.idPlot, s.idAction);
      const grid = inputsGrid(page);
      await expect(grid).toContainText("Lecture seule");
      await expect(grid.getByTestId("grid-add-row")).toHaveCount(0);
      await expect(grid.getByTestId("grid-save")).toHaveCount(0);
      await noSeriousAxeViolationInMain(page);
      await page.screenshot({ path: `${SHOTS}/grille-intrants-lecteur.png` });

      const api = await apiAs("lecteur");
      const res = await api.post(`${SCREEN.slice(1)}?parcelleId=${s.idPlot}`, {
        form: {
          intent: "intrantsGrid",
          idAction: String(s.idAction),
          patches: JSON.stringify([{ id: -1, updatedAt: null, values: { produit: `776:${phyto.idProduit}`, quantite: 1, dicLlUnite: "l/ha" } }]),
        },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(403);
      expect(await s.inputs()).toEqual([]);
      expect(ids.tilleuls2025).toBeGreaterThan(0);
      await api.dispose();
    } finally {
      await s.cleanup();
    }
  });
});
