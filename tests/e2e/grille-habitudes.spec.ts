import type { Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { defaultCampaignDate } from "../../app/domain/campaign-date";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { demoIds, gridRowTexts as rowTexts, insertId, noSeriousAxeViolationInMain, setContext, signIn } from "./helpers";

/**
 * Excel habits in the interventions grid and its form (issue 29, decision 0115): the fill handle dragged down copies
 * a value as Ctrl+D does, a value out of bounds says the bounds (grid and form, French and English), a new row's date
 * lies in the campaign, and a form saved from a row someone else changed keeps what was typed beside their values.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

// Column geometry at the default widths (interventions-grid.tsx): row numbers 32 px, date 110, operation 220, P/R 60,
// done 90, planned 80, frequency 100, surface rate 120; header 36 px, rows 34 px.
const ROW_MARKERS = 32;
const WIDTHS = [110, 220, 60, 90, 80, 100, 120];
const HEADER = 36;
const ROW = 34;
const left = (col: number) => ROW_MARKERS + WIDTHS.slice(0, col).reduce((a, b) => a + b, 0);

/** A plot of its own with three interventions in a demo campaign of Tilleuls. */
async function prepare(idCampagne: number, anneeRecolte: number) {
  const ids = await demoIds();
  const db = e2eDb();
  const idPlot = await insertId("parcelle", { idCampagne, libelle: "E2E Habitudes parcelle", surface: 4 });
  const labour = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "E2E Habitudes labour", debitReel: 2 });
  const action = (date: string, frequence: number) => ({
    idCampagne,
    idParcelle: idPlot,
    date,
    anneeRecolte,
    idOperationCulturale: labour,
    debit: 2,
    frequence,
    tauxSurface: 1,
    nombrePassage: frequence,
    realisee: true,
    prevue: false,
  });
  const first = await insertId("action", action(`${anneeRecolte}-03-01`, 2));
  await insertId("action", action(`${anneeRecolte}-03-02`, 1));
  await insertId("action", action(`${anneeRecolte}-03-03`, 1));
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  // A published campaign (2024) is locked: unlocked for the writer, as the lock button would (campaigns.spec.ts).
  await db("utilisateur_contexte")
    .where({ idUser: await userId("redacteur") })
    .update({ idCampagneDeverrouillee: idCampagne });
  const rows = () =>
    db("action")
      .where({ idParcelle: idPlot })
      .orderBy([{ column: "date" }, { column: "id" }])
      .select("id", "date", "frequence", "tauxSurface");
  return {
    idPlot,
    first,
    rows,
    cleanup: async () => {
      await db("parcelle").where({ id: idPlot }).delete();
      await db("operation_culturale").where({ id: labour }).delete();
    },
  };
}

const canvas = (page: Page) => page.locator("canvas[data-testid=data-grid-canvas]");

async function openGrid(page: Page, idPlot: number, english = false) {
  if (english) await inEnglish(page, `${SCREEN}?parcelleId=${idPlot}`);
  else await navigate(page, `${SCREEN}?parcelleId=${idPlot}`);
  await expect(canvas(page)).toBeVisible();
}

/**
 * Puts the cursor on a cell: a click on the row's P/R cell (read-only, so a click on a cell already selected opens
 * no editor), then the arrow keys.
 */
async function clickCell(page: Page, col: number, row: number) {
  const box = (await canvas(page).boundingBox())!;
  await page.mouse.click(box.x + left(2) + WIDTHS[2] / 2, box.y + HEADER + ROW * row + ROW / 2);
  for (let i = 2; i < col; i++) await page.keyboard.press("ArrowRight");
  for (let i = col; i < 2; i++) await page.keyboard.press("ArrowLeft");
}

test.describe("Excel habits in the interventions grid", () => {
  test("dragging the fill handle of a frequency down copies it into the rows below, saved like any edit; Ctrl+D does the same", async ({ page }) => {
    test.slow();
    const ids = await demoIds();
    const s = await prepare(ids.tilleuls2025, 2025);
    try {
      await signIn(page, "redacteur");
      await openGrid(page, s.idPlot);
      await expect.poll(() => rowTexts(page, 0)).toEqual(expect.arrayContaining(["01/03/2025", "E2E Habitudes labour", "2"]));
      // The frequency of row 1 selected, its handle (the cell's bottom-right corner) dragged to row 3.
      await clickCell(page, 5, 0);
      const box = (await canvas(page).boundingBox())!;
      const handleX = box.x + left(5) + WIDTHS[5] - 2;
      await page.mouse.move(handleX, box.y + HEADER + ROW - 2);
      await page.mouse.down();
      await page.mouse.move(handleX - 20, box.y + HEADER + ROW * 2 + ROW / 2, { steps: 4 });
      await page.mouse.move(handleX - 20, box.y + HEADER + ROW * 2 + ROW / 2 + 4, { steps: 2 });
      await page.mouse.up();
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("2 lignes modifiées");
      for (const row of [1, 2]) await expect.poll(async () => (await rowTexts(page, row))[5]).toBe("2");
      await page.screenshot({ path: `${SHOTS}/grille-habitudes-poignee.png` });
      // One undo step takes the fill back; Ctrl+D on the same three cells fills them again.
      await page.keyboard.press("Control+z");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await clickCell(page, 5, 0);
      await page.keyboard.press("Shift+ArrowDown");
      await page.keyboard.press("Shift+ArrowDown");
      await page.keyboard.press("Control+d");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("2 lignes modifiées");
      await page.getByTestId("grid-save").click();
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      expect((await s.rows()).map((r) => Number(r.frequence))).toEqual([2, 2, 2]);
      await noSeriousAxeViolationInMain(page);
    } finally {
      await s.cleanup();
    }
  });

  test("a surface rate out of bounds says the bounds, in the grid and in the form, in French and in English", async ({ page }) => {
    test.slow();
    const ids = await demoIds();
    const s = await prepare(ids.tilleuls2025, 2025);
    try {
      await signIn(page, "redacteur");
      await openGrid(page, s.idPlot);
      await clickCell(page, 6, 0);
      await page.keyboard.type("150");
      await expect(page.locator("#portal textarea, #portal input")).toHaveValue("150");
      await page.keyboard.press("Enter");
      // The editor closed and the cursor went down before it goes back up (on a loaded machine an early ArrowUp
      // reached the editor and the cursor stayed on the row below).
      await expect(page.locator("#portal textarea, #portal input")).toHaveCount(0);
      await expect(page.getByTestId("grid-message")).toContainText("1 ligne contient des erreurs");
      await page.keyboard.press("ArrowUp");
      await expect(page.getByTestId("grid-message")).toContainText("Valeur hors des bornes : entre 0 et 99,9999");
      await page.screenshot({ path: `${SHOTS}/grille-habitudes-bornes-fr.png` });
      await page.getByTestId("grid-cancel").click();
      // The form below the grid, the same message for the same field.
      await navigate(page, `${SCREEN}?parcelleId=${s.idPlot}&id=${s.first}`);
      const form = page.getByTestId("intervention-form");
      await form.getByTestId("intervention-taux-surface").fill("150");
      await form.getByTestId("intervention-taux-surface").blur();
      await expect(form.getByText("Valeur hors des bornes : entre 0 et 99,9999")).toBeVisible();
      await noSeriousAxeViolationInMain(page);
      // In English: the grid, then the form.
      await inEnglish(page, `${SCREEN}?parcelleId=${s.idPlot}`);
      await expect(canvas(page)).toBeVisible();
      await clickCell(page, 6, 0);
      await page.keyboard.type("150");
      await expect(page.locator("#portal textarea, #portal input")).toHaveValue("150");
      await page.keyboard.press("Enter");
      await expect(page.locator("#portal textarea, #portal input")).toHaveCount(0);
      await expect(page.getByTestId("grid-message")).toContainText("1 row has errors");
      await page.keyboard.press("ArrowUp");
      await expect(page.getByTestId("grid-message")).toContainText("Value out of bounds: between 0 and 99.9999");
      await page.getByTestId("grid-cancel").click();
      await navigate(page, `${SCREEN}?parcelleId=${s.idPlot}&id=${s.first}`);
      const formEn = page.getByTestId("intervention-form");
      await formEn.getByTestId("intervention-frequence").fill("-1");
      await formEn.getByTestId("intervention-frequence").blur();
      await expect(formEn.getByText(/^Value out of bounds: between 0 and 99,?999\.999$/)).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/grille-habitudes-bornes-en.png` });
      await noSeriousAxeViolationInMain(page);
    } finally {
      await s.cleanup();
    }
  });

  test("[C-INT-16] a row added in the grid of a past campaign is dated in that campaign (day/month/year), not today", async ({ page }) => {
    const ids = await demoIds();
    const s = await prepare(ids.tilleuls2024, 2024);
    try {
      await signIn(page, "redacteur");
      await openGrid(page, s.idPlot);
      await page.getByTestId("grid-add-row").click();
      const expected = defaultCampaignDate(2024);
      expect(expected.slice(0, 4)).toBe("2024");
      const shown = `${expected.slice(8, 10)}/${expected.slice(5, 7)}/${expected.slice(0, 4)}`;
      await expect.poll(async () => (await rowTexts(page, 3))[0]).toBe(shown);
      // The form's New starts inside the campaign too.
      await page.getByTestId("grid-cancel").click();
      await page.getByTestId("list-new").click();
      await expect(page.getByTestId("intervention-form").getByTestId("intervention-date-text")).toHaveValue(shown);
      await noSeriousAxeViolationInMain(page);
    } finally {
      await s.cleanup();
    }
  });

  test("[issue29-stale] an intervention saved in its form after someone else changed it keeps the typed values beside theirs, to keep or take", async ({
    page,
  }) => {
    const ids = await demoIds();
    const s = await prepare(ids.tilleuls2025, 2025);
    try {
      await signIn(page, "redacteur");
      await navigate(page, `${SCREEN}?parcelleId=${s.idPlot}&id=${s.first}`);
      const form = page.getByTestId("intervention-form");
      await expect(form.getByTestId("intervention-frequence")).toHaveValue("2");
      // Someone else saves the intervention meanwhile.
      await e2eDb()("action")
        .where({ id: s.first })
        .update({ frequence: 3, nombrePassage: 3, updatedAt: new Date(Date.now() + 1000) });
      await form.getByTestId("intervention-frequence").fill("4");
      await page.getByTestId("list-save").click();
      const panel = page.getByTestId("stale-form");
      await expect(panel).toContainText("Fréquence : la vôtre 4, la leur 3");
      await expect(form.getByTestId("intervention-frequence")).toHaveValue("4");
      // The spec's stale dialog says it (C-ERR-01..04); behind it, the form kept the typed values.
      const stale = page.getByTestId("error-dialog");
      await expect(stale.getByRole("alert")).toHaveText(/modifié par quelqu'un d'autre/);
      await stale.getByRole("button", { name: "Ok" }).click();
      await expect(stale).toHaveCount(0);
      expect(Number((await s.rows())[0].frequence)).toBe(3);
      await page.screenshot({ path: `${SHOTS}/grille-habitudes-formulaire-perime.png`, fullPage: true });
      await noSeriousAxeViolationInMain(page);
      // Keep mine: the next save writes it.
      await panel.getByTestId("stale-keep").click();
      await expect(panel).toHaveCount(0);
      await page.getByTestId("list-save").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      await expect.poll(async () => Number((await s.rows())[0].frequence)).toBe(4);
      // Again, and this time take theirs: their value in the form, nothing written.
      await e2eDb()("action")
        .where({ id: s.first })
        .update({ frequence: 5, nombrePassage: 5, updatedAt: new Date(Date.now() + 5000) });
      await form.getByTestId("intervention-frequence").fill("6");
      await page.getByTestId("list-save").click();
      await expect(panel).toContainText("Fréquence : la vôtre 6, la leur 5");
      await stale.getByRole("button", { name: "Ok" }).click();
      await expect(stale).toHaveCount(0);
      await panel.getByTestId("stale-take").click();
      await expect(form.getByTestId("intervention-frequence")).toHaveValue("5");
      expect(Number((await s.rows())[0].frequence)).toBe(5);
    } finally {
      await s.cleanup();
    }
  });
});

test("at 1440 × 900 the interventions grid starts above the fold, its first rows in view without scrolling", async ({ page }) => {
  const ids = await demoIds();
  const s = await prepare(ids.tilleuls2025, 2025);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, "redacteur");
    await openGrid(page, s.idPlot);
    await expect.poll(() => rowTexts(page, 0)).toEqual(expect.arrayContaining(["01/03/2025"]));
    const box = (await canvas(page).boundingBox())!;
    await page.screenshot({ path: `${SHOTS}/grille-habitudes-1440x900.png` });
    // The header and three rows at least within the 900 px, the page not scrolled.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(box.y + HEADER + 3 * ROW).toBeLessThanOrEqual(900);
  } finally {
    await s.cleanup();
  }
});
