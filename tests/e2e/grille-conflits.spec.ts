import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { contextInEnglish, DEMO_PASSWORD, e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn, insertId } from "./helpers";
import { E2E } from "./settings";

/**
 * Conflicts resolved per row (issue 29, decision 0100): two browsers edit the same interventions grid; the second
 * save has one row the first browser changed meanwhile. The fresh rows are saved, the stale one keeps the user's
 * edit with the other value beside it, and "keep mine" / "take theirs" resolve it without a reload: nothing lost.
 */

const SHOTS = "/tmp/shots-grille-conflits";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/interventions";

/** A plot of its own in Tilleuls 2025 with three interventions (frequency 1). */
async function prepare(name: string) {
  const ids = await demoIds();
  const db = e2eDb();
  const idCampagne = ids.tilleuls2025;
  const idPlot = await insertId("parcelle", { idCampagne, libelle: `E2E Conflits ${name}`, surface: 5 });
  const labour = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: `E2E Conflits labour ${name}`, debitReel: 2 });
  for (const date of ["2025-03-01", "2025-03-02", "2025-03-03"])
    await insertId("action", {
      idCampagne,
      idParcelle: idPlot,
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
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  const frequences = async () =>
    (
      await db("action")
        .where({ idCampagne, idParcelle: idPlot })
        .orderBy([{ column: "date" }, { column: "id" }])
        .select("frequence")
    ).map((r) => Number(r.frequence));
  return {
    idPlot,
    frequences,
    cleanup: async () => {
      await db("parcelle").where({ id: idPlot }).delete();
      await db("operation_culturale").where({ id: labour }).delete();
    },
  };
}

async function openGrid(page: Page, idParcelle: number, english = false) {
  if (english) {
    // The login page in English (the context's cookie and stored choice say so).
    await navigate(page, "/login");
    await page.locator("input[name=username]").fill("redacteur");
    await page.locator("input[name=password]").fill(DEMO_PASSWORD);
    await page.locator("form#login button[type=submit]").click();
    await page.waitForURL(/home\/description\/home/);
  } else await signIn(page, "redacteur");
  await navigate(page, `${SCREEN}?parcelleId=${idParcelle}`);
  await expect(page.locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();
}

/** The cursor on the frequency cell of a row: a click on the (read-only) P/R cell of the first row, then the arrows. */
async function goToFrequence(page: Page, row: number) {
  const box = (await page.locator("canvas[data-testid=data-grid-canvas]").boundingBox())!;
  await page.mouse.click(box.x + 32 + 110 + 220 + 30, box.y + 36 + 17);
  for (let i = 2; i < 5; i++) await page.keyboard.press("ArrowRight");
  for (let i = 0; i < row; i++) await page.keyboard.press("ArrowDown");
}

async function typeInCell(page: Page, text: string) {
  await page.keyboard.type(text);
  const editor = page.locator("#portal textarea, #portal input");
  await expect(editor).toHaveValue(text);
  await page.keyboard.press("Enter");
  await expect(editor).toHaveCount(0);
}

/** Sets frequencies (row → value) and saves with the button. */
async function editAndSave(page: Page, values: Record<number, string>) {
  await page.bringToFront();
  for (const [row, value] of Object.entries(values)) {
    await goToFrequence(page, Number(row));
    await typeInCell(page, value);
  }
  await expect(page.getByTestId("grid-dirty-count")).not.toHaveText(/Aucune modification|No changes/);
  await page.getByTestId("grid-save").click();
}

async function noSeriousAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual(
    [],
  );
}

async function otherBrowser(browser: Browser, english: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: E2E.baseURL, locale: english ? "en-GB" : "fr-FR", timezoneId: "Europe/Paris" });
  if (english) await contextInEnglish(context);
  return context;
}

test.describe("grid conflicts per row", () => {
  test("[issue29-conflicts] [C-INT-05] two browsers on one grid: the two fresh rows are saved, the stale one keeps my value beside theirs; kept, then taken, without a reload", async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const s = await prepare("fr");
    const other = await otherBrowser(browser, false);
    try {
      await openGrid(page, s.idPlot);
      const second = await other.newPage();
      await openGrid(second, s.idPlot);
      // The other browser saves row 2 first.
      await editAndSave(second, { 1: "3" });
      await expect(second.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await expect.poll(s.frequences).toEqual([1, 3, 1]);

      // This one edits rows 1, 2 and 3 from what it loaded: rows 1 and 3 are saved, row 2 is set aside.
      await editAndSave(page, { 0: "4", 1: "5", 2: "6" });
      const conflicts = page.getByTestId("grid-conflicts");
      await expect(conflicts).toBeVisible();
      await expect(conflicts.getByTestId("grid-conflict")).toHaveCount(1);
      await expect(conflicts.getByTestId("grid-conflict")).toContainText("Ligne 2");
      await expect(conflicts.getByTestId("grid-conflict")).toContainText("Fréquence : la vôtre 5, la leur 3");
      await expect(page.getByTestId("grid-message")).toContainText("2 lignes enregistrées");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("1 ligne modifiée");
      await expect(page.getByTestId("error-dialog")).toHaveCount(0);
      expect(await s.frequences()).toEqual([4, 3, 6]);
      await noSeriousAxe(page);
      await conflicts.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/conflict-fr.png` });

      // Keep mine: saved over the other browser's version.
      await conflicts.getByRole("button", { name: "Garder les miennes" }).click();
      await expect(conflicts).toHaveCount(0);
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("1 ligne modifiée");
      await page.getByTestId("grid-save").click();
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await expect.poll(s.frequences).toEqual([4, 5, 6]);

      // Again: the other browser (reloaded) changes row 1; this one edits rows 1 and 3, and takes theirs for row 1.
      await second.reload();
      await expect(second.locator("canvas[data-testid=data-grid-canvas]")).toBeVisible();
      await editAndSave(second, { 0: "8" });
      await expect(second.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      await editAndSave(page, { 0: "9", 2: "7" });
      await expect(conflicts.getByTestId("grid-conflict")).toContainText("Fréquence : la vôtre 9, la leur 8");
      expect(await s.frequences()).toEqual([8, 5, 7]);
      await conflicts.getByRole("button", { name: "Prendre les leurs" }).click();
      await expect(conflicts).toHaveCount(0);
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      expect(await s.frequences()).toEqual([8, 5, 7]);
      await page.screenshot({ path: `${SHOTS}/taken-fr.png` });
    } finally {
      await other.close();
      await s.cleanup();
    }
  });

  test.describe("in English", () => {
    test.beforeEach(async ({ context }) => contextInEnglish(context));

    test("[issue29-conflicts] two stale rows and a fresh one: the fresh one saved; one row kept, the other taken, each with both values shown", async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      const s = await prepare("en");
      const other = await otherBrowser(browser, true);
      try {
        await openGrid(page, s.idPlot, true);
        await expect(page.locator("html")).toHaveAttribute("lang", "en");
        const second = await other.newPage();
        await openGrid(second, s.idPlot, true);
        await editAndSave(second, { 0: "2", 1: "3" });
        await expect(second.getByTestId("grid-dirty-count")).toHaveText("No changes");
        await expect.poll(s.frequences).toEqual([2, 3, 1]);

        await editAndSave(page, { 0: "4", 1: "5", 2: "6" });
        const conflicts = page.getByTestId("grid-conflicts");
        await expect(conflicts.getByTestId("grid-conflict")).toHaveCount(2);
        await expect(conflicts).toContainText("Rows changed by someone else while you were editing");
        await expect(conflicts.getByTestId("grid-conflict").nth(0)).toContainText("Frequency: yours 4, theirs 2");
        await expect(conflicts.getByTestId("grid-conflict").nth(1)).toContainText("Frequency: yours 5, theirs 3");
        await expect(conflicts.getByRole("button", { name: "Keep all mine" })).toBeVisible();
        await expect(conflicts.getByRole("button", { name: "Take all theirs" })).toBeVisible();
        await expect(page.getByTestId("grid-dirty-count")).toHaveText("2 rows changed");
        expect(await s.frequences()).toEqual([2, 3, 6]);
        await noSeriousAxe(page);
        await conflicts.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/conflict-en.png` });

        // Row 1: take theirs; row 2: keep mine; then save.
        await conflicts.getByTestId("grid-conflict").nth(0).getByRole("button", { name: "Take theirs" }).click();
        await expect(conflicts.getByTestId("grid-conflict")).toHaveCount(1);
        await conflicts.getByRole("button", { name: "Keep mine" }).click();
        await expect(conflicts).toHaveCount(0);
        await expect(page.getByTestId("grid-dirty-count")).toHaveText("1 row changed");
        await page.getByTestId("grid-save").click();
        await expect(page.getByTestId("grid-dirty-count")).toHaveText("No changes");
        await expect.poll(s.frequences).toEqual([2, 5, 6]);
      } finally {
        await other.close();
        await s.cleanup();
      }
    });
  });
});
