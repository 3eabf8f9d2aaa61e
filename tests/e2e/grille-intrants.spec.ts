import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { contextInEnglish, DEMO_PASSWORD, e2eDb, expect, navigate, test } from "./fixtures";
import { apiAs, demoIds, gridRowTexts, insertId, noSeriousAxeViolationInMain, pasteText, setContext, signIn } from "./helpers";
import { toIso } from "../../server/db/dialect";

/**
 * Inputs in the interventions grid (issue 29, decision 0126): the inputs column in view at 1440 × 900; under the
 * grid, the selected intervention's inputs as a grid of their own where a writer adds a product from the catalogue
 * (the drop-down filtered as typed) and its dose by the keyboard, saves, reloads and finds it; a reader sees them
 * read only and his POST of the same intent is refused. Decision 0137: the selected inputs deleted after the
 * confirmation (a reader's and a locked campaign's POST refused); a block pasted while several interventions are
 * selected added to each of them in one save; another user's change of an input meanwhile resolved per row.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

async function prepare(dates: string[] = ["2025-04-10"]) {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const idPlot = await insertId("parcelle", { idCampagne, libelle: "E2E Intrants grille", surface: 3 });
  const op = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Intrants traitement", debitReel: 2 });
  const actions: number[] = [];
  for (const date of dates)
    actions.push(
      await insertId("action", {
        idCampagne,
        idParcelle: idPlot,
        date,
        anneeRecolte: 2025,
        idOperationCulturale: op,
        debit: 2,
        frequence: 1,
        tauxSurface: 1,
        nombrePassage: 1,
        realisee: true,
        prevue: false,
      }),
    );
  const idAction = actions[0];
  for (const user of ["redacteur", "lecteur", "animateur"] as const)
    await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  return {
    idPlot,
    idAction,
    actions,
    // Newest first, as the inputs grid lists them.
    inputs: (of = idAction) =>
      db("intrant").where({ idAction: of }).orderBy("id", "desc").select("id", "libelleIntrant", "quantite", "dicLlUnite", "updatedAt"),
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
      // Nor may he add inputs to several interventions (decision 0137).
      const several = await api.post(`${SCREEN.slice(1)}?parcelleId=${s.idPlot}`, {
        form: {
          intent: "intrantsGridActions",
          idActions: JSON.stringify([s.idAction]),
          patches: JSON.stringify([{ id: -1, updatedAt: null, values: { produit: `776:${phyto.idProduit}`, quantite: 1, dicLlUnite: "l/ha" } }]),
        },
        maxRedirects: 0,
      });
      expect(several.status()).toBe(403);
      expect(await s.inputs()).toEqual([]);
      expect(ids.tilleuls2025).toBeGreaterThan(0);
      await api.dispose();
    } finally {
      await s.cleanup();
    }
  });

  test("[issue29-intrants-suppression] a writer deletes the selected inputs after the confirmation; a reader's and a locked campaign's POST are refused", async ({
    page,
  }) => {
    test.slow();
    const s = await prepare();
    try {
      const writer = await apiAs("redacteur");
      await addByApi(writer, s.idPlot, s.idAction, ["0,5", "1", "1,5"]);
      expect((await s.inputs()).map((i) => Number(i.quantite))).toEqual([1.5, 1, 0.5]);
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, "redacteur");
      await openInputs(page, s.idPlot, s.idAction);
      const grid = inputsGrid(page);
      const remove = grid.getByTestId("intrants-grille-supprimer");
      await expect(remove).toBeDisabled();
      // The first two rows selected (a cell, Shift+Down), as in the interventions grid: the button names them.
      await grid.locator("canvas[data-testid=data-grid-canvas]").scrollIntoViewIfNeeded();
      const box = (await grid.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
      await page.mouse.click(box.x + 32 + 300 + 50, box.y + 36 + 17);
      await page.keyboard.press("Shift+ArrowDown");
      await expect(remove).toHaveText("Supprimer les 2 intrants sélectionnés");
      await remove.click();
      const dialog = page.getByTestId("intrants-grille-delete-dialog");
      await expect(dialog).toContainText("Supprimer les 2 intrants sélectionnés de l'intervention ?");
      await noSeriousAxeViolationInMain(page);
      // Cancel keeps them; confirmed, they are deleted by the dialogs' path and the grid reads the one left.
      await dialog.getByRole("button", { name: "Annuler" }).click();
      await expect(dialog).toBeHidden();
      expect(await s.inputs()).toHaveLength(3);
      await remove.click();
      await dialog.getByRole("button", { name: "Supprimer" }).click();
      await expect.poll(async () => (await s.inputs()).map((i) => Number(i.quantite))).toEqual([0.5]);
      await expect(grid.getByRole("heading")).toHaveText(/\(1\)/);
      await expect(grid.locator('table[role="grid"] tbody tr')).toHaveCount(1);
      await expect(grid.locator('table[role="grid"] tbody tr').first()).toContainText("0,5");
      await page.screenshot({ path: `${SHOTS}/grille-intrants-suppression.png` });

      // At HTTP level: a reader's POST, and the animator's on the campaign locked by its published indicators.
      const [left] = await s.inputs();
      const ids = await demoIds();
      const reader = await apiAs("lecteur");
      const post = (api: typeof reader) =>
        api.post(`${SCREEN.slice(1)}?parcelleId=${s.idPlot}`, { form: { intent: "deleteIntrants", ids: JSON.stringify([left.id]) }, maxRedirects: 0 });
      expect((await post(reader)).status()).toBe(403);
      await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
      const animator = await apiAs("animateur");
      expect((await post(animator)).status()).toBe(403);
      expect(await s.inputs()).toHaveLength(1);
      await Promise.all([reader.dispose(), animator.dispose(), writer.dispose()]);
    } finally {
      await s.cleanup();
    }
  });

  test("[issue29-intrants-conflit] another user changes an input meanwhile: the fresh row is saved, the stale one keeps my dose beside theirs; kept, then taken", async ({
    page,
  }) => {
    test.slow();
    const s = await prepare();
    try {
      const writer = await apiAs("redacteur");
      await addByApi(writer, s.idPlot, s.idAction, ["1", "1"]);
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, "redacteur");
      await openInputs(page, s.idPlot, s.idAction);
      const grid = inputsGrid(page);
      // The other user (the animator of the folder, through his own session) changes the first input's dose.
      const other = await apiAs("animateur");
      await changeDoseByApi(other, s, 0, 3);
      await expect.poll(async () => (await s.inputs()).map((i) => Number(i.quantite))).toEqual([3, 1]);

      // This one edits both doses from what it loaded: the second is saved, the first set aside.
      await typeDose(page, 0, "2");
      await typeDose(page, 1, "4");
      await grid.getByTestId("grid-save").click();
      const conflicts = grid.getByTestId("grid-conflicts");
      await expect(conflicts.getByTestId("grid-conflict")).toHaveCount(1);
      await expect(conflicts.getByTestId("grid-conflict")).toContainText("Ligne 1");
      await expect(conflicts.getByTestId("grid-conflict")).toContainText("Dose : la vôtre 2, la leur 3");
      await expect(grid.getByTestId("grid-message")).toContainText("1 ligne enregistrée");
      await expect(page.getByTestId("error-dialog")).toHaveCount(0);
      expect((await s.inputs()).map((i) => Number(i.quantite))).toEqual([3, 4]);
      await noSeriousAxeViolationInMain(page);
      await page.screenshot({ path: `${SHOTS}/grille-intrants-conflit.png`, fullPage: true });
      // Keep mine: saved over the other user's version.
      await conflicts.getByRole("button", { name: "Garder les miennes" }).click();
      await expect(conflicts).toHaveCount(0);
      await grid.getByTestId("grid-save").click();
      await expect(grid.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await expect.poll(async () => (await s.inputs()).map((i) => Number(i.quantite))).toEqual([2, 4]);

      // Again: the other user changes the second input; this one edits it too, and takes theirs.
      await changeDoseByApi(other, s, 1, 6);
      await typeDose(page, 1, "5");
      await grid.getByTestId("grid-save").click();
      await expect(conflicts.getByTestId("grid-conflict")).toContainText("Dose : la vôtre 5, la leur 6");
      await conflicts.getByRole("button", { name: "Prendre les leurs" }).click();
      await expect(conflicts).toHaveCount(0);
      await expect(grid.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      expect((await s.inputs()).map((i) => Number(i.quantite))).toEqual([2, 6]);
      await expect(grid.locator('table[role="grid"] tbody tr').nth(1)).toContainText("6");
      await Promise.all([other.dispose(), writer.dispose()]);
    } finally {
      await s.cleanup();
    }
  });

  test.describe("in English", () => {
    test.beforeEach(async ({ context }) => contextInEnglish(context));

    test("[issue29-intrants-plusieurs] a block of products and doses pasted while three interventions are selected is added to each, in one save; undone before", async ({
      page,
    }) => {
      test.slow();
      const s = await prepare(["2025-04-10", "2025-04-11", "2025-04-12"]);
      try {
        await page.setViewportSize({ width: 1440, height: 900 });
        await navigate(page, "/login");
        await page.locator("input[name=username]").fill("redacteur");
        await page.locator("input[name=password]").fill(DEMO_PASSWORD);
        await page.locator("form#login button[type=submit]").click();
        await page.waitForURL(/home\/description\/home/);
        await navigate(page, `${SCREEN}?parcelleId=${s.idPlot}`);
        await expect(mainCanvas(page)).toBeVisible();
        // The three interventions selected in the grid (a cell of the first, Shift+Down twice).
        const box = (await mainCanvas(page).boundingBox())!;
        await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
        await page.keyboard.press("Shift+ArrowDown");
        await page.keyboard.press("Shift+ArrowDown");
        const grid = inputsGrid(page);
        await expect(grid.getByRole("heading")).toHaveText("▸Inputs to add to the 3 selected interventions");
        await grid.getByTestId("intrants-grille-ouvrir").click();
        await expect(grid).toContainText("each is added to every intervention selected in the grid");
        await expect(grid.getByTestId("intrants-grille-supprimer")).toHaveCount(0);
        // A product's label as the catalogue lists it (typed, the first option), then the block pasted from a sheet.
        await grid.getByTestId("grid-add-row").click();
        await page.keyboard.type("ac");
        const editor = page.getByTestId("grid-choice-editor");
        const label = (await editor.getByRole("option").first().textContent())!.trim();
        await page.keyboard.press("Escape");
        await expect(editor).toBeHidden();
        await pasteText(page, `${label}\t0,5\tl/ha\r\n${label}\t1,25\tmm\r\n`);
        await expect(grid.getByTestId("grid-dirty-count")).toHaveText("2 rows changed");
        await expect(grid.locator('table[role="grid"] tbody tr').nth(1)).toContainText("1.25");
        // Undone and done again, as any paste.
        await page.keyboard.press("Control+z");
        await expect(grid.getByTestId("grid-dirty-count")).not.toHaveText("2 rows changed");
        await page.keyboard.press("Control+y");
        await expect(grid.getByTestId("grid-dirty-count")).toHaveText("2 rows changed");
        // A plant-protection product does not take mm: the save is refused, row 2 named, nothing written.
        await grid.getByTestId("grid-save").click();
        await expect(grid.getByTestId("grid-message")).toContainText("1 row has errors");
        const dialog = page.getByTestId("error-dialog");
        if (await dialog.isVisible()) await dialog.getByRole("button").last().click();
        for (const idAction of s.actions) expect(await s.inputs(idAction)).toEqual([]);
        // The unit corrected (pasted over the cell), saved: both rows added to each of the three interventions.
        await grid.locator("canvas[data-testid=data-grid-canvas]").scrollIntoViewIfNeeded();
        const inputsBox = (await grid.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
        await page.mouse.click(inputsBox.x + 32 + 300 + 110 + 50, inputsBox.y + 36 + 34 + 17);
        await pasteText(page, "l/ha");
        await expect(grid.locator('table[role="grid"] tbody tr').nth(1)).toContainText("l/ha");
        await noSeriousAxeViolationInMain(page);
        await page.screenshot({ path: `${SHOTS}/grille-intrants-plusieurs-en.png` });
        await page.keyboard.press("Control+s");
        await expect(grid.getByTestId("grid-dirty-count")).toHaveText("No changes");
        for (const idAction of s.actions)
          await expect
            .poll(async () => (await s.inputs(idAction)).map((i) => [Number(i.quantite), i.dicLlUnite]))
            .toEqual([
              [1.25, "l/ha"],
              [0.5, "l/ha"],
            ]);
        // Back to one intervention: its own inputs grid lists the two rows, in English.
        await openInputs(page, s.idPlot, s.actions[1]);
        await expect(grid.getByRole("heading")).toHaveText(/Inputs of the intervention of 11\/04\/2025 \(2\)/);
        await expect(grid.locator('table[role="grid"] tbody tr')).toHaveCount(2);
        await noSeriousAxeViolationInMain(page);
        await page.screenshot({ path: `${SHOTS}/grille-intrants-en.png`, fullPage: true });
      } finally {
        await s.cleanup();
      }
    });
  });
});

type Api = Awaited<ReturnType<typeof apiAs>>;

/** New phyto inputs through the grid's intent (the first catalogue product), one per dose. */
async function addByApi(api: Api, idPlot: number, idAction: number, doses: string[]) {
  const phyto = await e2eDb()("intrant_phyto").orderBy("idProduit").first("idProduit");
  const res = await api.post(`${SCREEN.slice(1)}?parcelleId=${idPlot}`, {
    form: {
      intent: "intrantsGrid",
      idAction: String(idAction),
      patches: JSON.stringify(
        doses.map((d, i) => ({ id: -1 - i, updatedAt: null, values: { produit: `776:${phyto.idProduit}`, quantite: d, dicLlUnite: "l/ha" } })),
      ),
    },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(200);
}

/** Another session changes one input's dose, with the token it reads now (the dialogs' and grid's stale check). */
async function changeDoseByApi(api: Api, s: Awaited<ReturnType<typeof prepare>>, row: number, dose: number) {
  const inputs = await s.inputs();
  const phyto = await e2eDb()("intrant_phyto").orderBy("idProduit").first("idProduit");
  const res = await api.post(`${SCREEN.slice(1)}?parcelleId=${s.idPlot}`, {
    form: {
      intent: "intrantsGrid",
      idAction: String(s.idAction),
      patches: JSON.stringify([
        {
          id: inputs[row].id,
          updatedAt: toIso(inputs[row].updatedAt),
          values: { produit: `776:${phyto.idProduit}`, quantite: dose, dicLlUnite: inputs[row].dicLlUnite },
        },
      ]),
    },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(200);
}

/** Types a dose in a row of the inputs grid (a click on its dose cell), Enter. */
async function typeDose(page: Page, row: number, dose: string) {
  await inputsGrid(page).locator("canvas[data-testid=data-grid-canvas]").scrollIntoViewIfNeeded();
  const box = (await inputsGrid(page).locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
  await page.mouse.click(box.x + 32 + 300 + 50, box.y + 36 + 34 * row + 17);
  await page.keyboard.type(dose);
  const editor = page.locator("#portal textarea, #portal input");
  await expect(editor).toHaveValue(dose);
  await page.keyboard.press("Enter");
  await expect(editor).toHaveCount(0);
}
