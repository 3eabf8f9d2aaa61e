import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn, insertId, gridRowTexts as rowTexts, pasteText as paste } from "./helpers";
import { E2E } from "./settings";

/**
 * The interventions grid (issue 11; app/components/interventions/interventions-grid.tsx on the one grid of
 * app/components/grid/): keyboard edits, a block pasted from a spreadsheet, undo, Ctrl+S, the stale row set aside
 * between two browsers, the reader's read-only grid, and the column widths kept per table.
 */

const SHOTS = "/tmp/shots-interventions-grid";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

/** A plot of its own in Tilleuls 2025 (the demo's plots keep their interventions), two operations and two interventions. */
async function prepare() {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const idPlot = await insertId("parcelle", { idCampagne, libelle: "E2E Grille parcelle", surface: 5 });
  const plot = await db("parcelle").where({ id: idPlot }).first("id", "libelle");
  const labour = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Grille labour", debitReel: 2 });
  const semis = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Grille semis", debitReel: 3 });
  const action = (date: string) => ({
    idCampagne,
    idParcelle: plot.id,
    date,
    anneeRecolte: 2025,
    idOperationCulturale: labour,
    debit: 2,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    realisee: true,
    prevue: false,
  });
  const first = await insertId("action", action("2025-03-01"));
  const second = await insertId("action", action("2025-03-02"));
  for (const user of ["redacteur", "lecteur"] as const)
    await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  const rows = () =>
    db("action")
      .where({ idCampagne, idParcelle: plot.id })
      .orderBy([{ column: "date" }, { column: "id" }])
      .select("id", "date", "idOperationCulturale", "frequence", "tauxSurface", "nombrePassage", "realisee", "prevue");
  return {
    plot,
    labour,
    semis,
    first,
    second,
    rows,
    cleanup: async () => {
      await db("parcelle").where({ id: plot.id }).delete();
      await db("operation_culturale").whereIn("id", [labour, semis]).delete();
    },
  };
}

async function openGrid(page: Page, user: "redacteur" | "lecteur", idParcelle: number) {
  await signIn(page, user);
  await navigate(page, `${SCREEN}?parcelleId=${idParcelle}`);
  await expect(page.locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();
}

/**
 * Puts the cursor on a cell: a click on the P/R cell of the first row (read-only, so a second click opens no
 * editor), then the arrow keys.
 */
async function goTo(page: Page, col: number, row: number) {
  const box = (await page.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
  // Below the header (36 px), in the P/R column: row numbers (about 32 px), date (110), operation (220).
  await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
  for (let i = 2; i < col; i++) await page.keyboard.press("ArrowRight");
  for (let i = col; i < 2; i++) await page.keyboard.press("ArrowLeft");
  for (let i = 0; i < row; i++) await page.keyboard.press("ArrowDown");
}

/** Types into the cursor's cell as a quick user does (the first key opens the cell's editor and the next ones may come before it is shown), Enter writes the value. */
async function typeInCell(page: Page, text: string) {
  await page.keyboard.type(text);
  const editor = page.locator("#portal textarea, #portal input");
  await expect(editor).toHaveValue(text);
  await page.keyboard.press("Enter");
  await expect(editor).toHaveCount(0);
}

// Columns (one plot shown): 0 date, 1 operation, 2 P/R, 3 done, 4 planned, 5 frequency, 6 surface rate, 7 passes, 8 crop.

test.describe("interventions grid", () => {
  test("[C-INT-05] [C-INT-06] [C-INT-07] [C-INT-16] [C-INT-17] a writer edits cells by quick typing, pastes 20 rows from a spreadsheet, undoes one edit, saves with Ctrl+S and finds the rows after reload", async ({
    page,
  }) => {
    // Typing, a 20-row paste, undo, save and reload: longer than the default 30 s on the 2-core machine since the
    // grid split (decision 0093); the screenshot of the failure showed every row saved. Issue 23 note: to measure.
    test.slow();
    const s = await prepare();
    try {
      await openGrid(page, "redacteur", s.plot.id);
      await goTo(page, 0, 0);
      await expect.poll(() => rowTexts(page, 0)).toEqual(expect.arrayContaining(["01/03/2025", "E2E Grille labour", "R", "1"]));
      // Three cells by keyboard: the surface rate and the frequency of row 1 (passes recomputed live), the date of row 2.
      await goTo(page, 6, 0);
      await typeInCell(page, "0,5");
      await goTo(page, 5, 0);
      await typeInCell(page, "2,5");
      await expect.poll(() => rowTexts(page, 0)).toEqual(expect.arrayContaining(["2,5", "0,5", "1,25"]));
      await goTo(page, 0, 1);
      await typeInCell(page, "15/05/2025");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("2 lignes modifiées");
      // A block of 20 rows copied from a spreadsheet, from the date of row 2: it updates row 2 and appends 19 rows.
      const block =
        Array.from({ length: 20 }, (_, i) => `${String(i + 1).padStart(2, "0")}/06/2025\te2e grille SEMIS\t\t1\t0\t1,5\t0,25`).join("\r\n") + "\r\n";
      await goTo(page, 0, 1);
      await paste(page, block);
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("21 lignes modifiées");
      await expect.poll(() => rowTexts(page, 1)).toEqual(expect.arrayContaining(["01/06/2025", "E2E Grille semis", "R", "1,5", "0,25", "0,375"]));
      // One more edit, invalid: the cell says why (below the grid for the cursor's cell, beside it under the mouse); undone.
      await goTo(page, 5, 0);
      await typeInCell(page, "abc");
      await expect.poll(() => rowTexts(page, 0)).toContain("abc");
      await page.keyboard.press("ArrowUp");
      await expect(page.getByTestId("grid-message")).toHaveText("Ligne 1, Fréquence : Valeur numérique attendue");
      const box = (await page.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
      await page.mouse.move(box.x + 32 + 110 + 220 + 60 + 90 + 80 + 50, box.y + 36 + 17);
      await expect(page.getByTestId("grid-tooltip")).toHaveText("Valeur numérique attendue");
      await page.screenshot({ path: `${SHOTS}/invalid.png` });
      await page.keyboard.press("Control+z");
      await expect.poll(() => rowTexts(page, 0)).toContain("2,5");
      await page.screenshot({ path: `${SHOTS}/edited.png` });
      // Ctrl+S while a cell's editor is still open saves the value being typed too.
      await goTo(page, 6, 2);
      await page.keyboard.type("0,75");
      await expect(page.locator("#portal textarea, #portal input")).toHaveValue("0,75");
      await page.keyboard.press("Control+s");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await page.reload();
      await expect(page.locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();
      const rows = await s.rows();
      expect(rows).toHaveLength(21);
      expect(rows[0]).toMatchObject({ id: s.first, idOperationCulturale: s.labour });
      expect([Number(rows[0].frequence), Number(rows[0].tauxSurface), Number(rows[0].nombrePassage)]).toEqual([2.5, 0.5, 1.25]);
      expect(rows.slice(1).every((r) => Number(r.idOperationCulturale) === s.semis && Number(r.frequence) === 1.5)).toBe(true);
      expect(rows.slice(1).map((r) => Number(r.tauxSurface))).toEqual([0.25, 0.75, ...Array(18).fill(0.25)]);
      expect(rows.find((r) => r.id === s.second)?.date).toMatch(/^2025-06-01/);
      await goTo(page, 0, 20);
      await expect.poll(() => rowTexts(page, 20)).toEqual(expect.arrayContaining(["20/06/2025", "E2E Grille semis"]));
      await page.screenshot({ path: `${SHOTS}/saved.png` });
    } finally {
      await s.cleanup();
    }
  });

  test("[C-INT-05] a row changed in another browser since it was loaded is set aside with both values, the other rows saved, and nothing is overwritten", async ({
    page,
    browser,
  }) => {
    const s = await prepare();
    const other = await browser.newContext({ baseURL: E2E.baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
    try {
      await openGrid(page, "redacteur", s.plot.id);
      const second = await other.newPage();
      await openGrid(second, "redacteur", s.plot.id);
      // The other browser saves row 1 first.
      await second.bringToFront();
      await goTo(second, 5, 0);
      await typeInCell(second, "3");
      await expect(second.getByTestId("grid-dirty-count")).toHaveText("1 ligne modifiée");
      await second.keyboard.press("Control+s");
      await expect(second.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await expect.poll(async () => (await s.rows()).map((r) => Number(r.frequence))).toEqual([3, 1]);
      // This one edits rows 1 and 2 from what it loaded.
      await page.bringToFront();
      await goTo(page, 5, 0);
      await typeInCell(page, "4");
      await goTo(page, 5, 1);
      await typeInCell(page, "5");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("2 lignes modifiées");
      await page.getByTestId("grid-save").click();
      // Row 2 is saved; row 1 is set aside with both values (decision 0100), the other browser's value kept.
      await expect(page.getByTestId("grid-conflict")).toContainText("Fréquence : la vôtre 4, la leur 3");
      await page.screenshot({ path: `${SHOTS}/stale.png` });
      await expect.poll(async () => (await s.rows()).map((r) => Number(r.frequence))).toEqual([3, 5]);
      // This one keeps its edit of row 1 to choose.
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("1 ligne modifiée");
    } finally {
      await other.close();
      await s.cleanup();
    }
  });

  test("[C-CONST-17] a reader sees the grid read-only (no save, no paste) and can copy; column widths persist per table", async ({ page }) => {
    const s = await prepare();
    try {
      await openGrid(page, "lecteur", s.plot.id);
      await expect(page.getByText("Tableau en lecture seule")).toBeVisible();
      await expect(page.getByTestId("grid-save")).toHaveCount(0);
      await expect(page.locator('table[role="grid"]')).toHaveAttribute("aria-label", "Interventions");
      await goTo(page, 0, 0);
      await page.keyboard.press("Shift+ArrowDown");
      await page.keyboard.press("Shift+ArrowRight");
      const copied = await page.evaluate(async () => {
        const dt = new DataTransfer();
        document.activeElement!.dispatchEvent(new ClipboardEvent("copy", { clipboardData: dt, bubbles: true, cancelable: true }));
        await new Promise((r) => setTimeout(r, 200));
        return dt.getData("text/plain");
      });
      expect(copied).toBe("01/03/2025\tE2E Grille labour\n02/03/2025\tE2E Grille labour");
      await paste(page, "01/01/2025\tE2E Grille semis\r\n");
      await page.keyboard.type("7");
      await page.keyboard.press("Delete");
      expect((await s.rows()).map((r) => String(r.date).slice(0, 10))).toEqual(["2025-03-01", "2025-03-02"]);
      await expect.poll(() => rowTexts(page, 0)).toEqual(expect.arrayContaining(["01/03/2025", "E2E Grille labour"]));
      const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/reader.png` });
      // Widening the date column (drag the header's right edge) is kept in this browser for this table.
      const box = (await page.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
      const edge = await findHeaderEdge(page, box);
      await page.mouse.move(edge, box.y + 18);
      await page.mouse.down();
      await page.mouse.move(edge + 60, box.y + 18, { steps: 5 });
      await page.mouse.up();
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("sillon.grid.interventions") ?? "{}"));
      expect(stored.widths.date).toBeGreaterThan(150);
      await page.reload();
      await expect(page.locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("sillon.grid.interventions") ?? "{}").widths.date)).toBe(stored.widths.date);
      expect(await page.evaluate(() => localStorage.getItem("sillon.grid.harness"))).toBeNull();
    } finally {
      await s.cleanup();
    }
  });
});

/** The x of the date column's right edge in the header: where the cursor turns to a resize cursor. */
async function findHeaderEdge(page: Page, box: { x: number; y: number }): Promise<number> {
  for (let x = box.x + 120; x < box.x + 200; x += 2) {
    await page.mouse.move(x, box.y + 18);
    const cursor = await page.evaluate(() => getComputedStyle(document.querySelector("canvas[data-testid=data-grid-canvas]")!).cursor);
    if (cursor === "col-resize" || cursor === "ew-resize") return x;
  }
  throw new Error("no resize edge found");
}
