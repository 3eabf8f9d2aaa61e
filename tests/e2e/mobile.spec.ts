import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, login, navigate, resetContext, test } from "./fixtures";
import { demoIds, pick, setContext, toggleFarms } from "./helpers";

/**
 * A phone, 390 × 844 (issue 10): the header collapses into a menu, nothing scrolls sideways, dialogs do not
 * squeeze the page behind them, controls are at least 40 px, and axe finds nothing serious. The screenshots
 * (tests/.artifacts/screenshots/mobile-*.png) are for a person to look at.
 */
const PHONE = { width: 390, height: 844 };
const dir = path.resolve("tests/.artifacts/screenshots");
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(dir, `mobile-${name}.png`), fullPage: true });

test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** No serious or critical accessibility violation (axe-core). */
async function accessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const grave = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(grave.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Visible buttons, links and form fields of `scope` smaller than 40 px in height or width. */
async function smallControls(page: Page, scope: string) {
  return page.locator(scope).evaluate((root) => {
    const small: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>(
      "button, a[href], select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, [role=button]",
    )) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      if (r.height < 40 || r.width < 40)
        small.push(
          `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`,
        );
    }
    return small;
  });
}

test.describe("on a phone", () => {
  test.beforeEach(async () => {
    await resetContext("redacteur");
  });
  test.afterAll(async () => {
    await resetContext("redacteur");
  });

  // axe-core reads whole pages: slow on a busy 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("[A-CTX-01] [A-SHELL-06] sign in, the header folds into a menu, the context is chosen on the home page", async ({ page }) => {
    await login(page, "redacteur");
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    await expect(page.getByTestId("home-page")).toBeVisible();
    await shot(page, "01-home");
    await noSidewaysScroll(page);
    await accessible(page);
    expect(await smallControls(page, "[data-testid=app-header]")).toEqual([]);
    expect(await smallControls(page, "[data-testid=context-bar]")).toEqual([]);

    // The header's links are in one menu, opened and walked with the keyboard.
    const menu = page.getByRole("button", { name: "Menu", exact: true });
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Description" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Notice" })).toBeVisible();
    await shot(page, "02-menu");
    await noSidewaysScroll(page);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menuitem", { name: "Description" })).toHaveCount(0);
    await expect(menu).toBeFocused();

    // The context, chosen on the home page: the first campaign opens the description.
    await pick(page, "select-oad", "Réseau démo");
    await pick(page, "select-dossier", "Groupe Grandes cultures Beauce");
    await toggleFarms(page, "EARL des Tilleuls");
    await shot(page, "03-context");
    await noSidewaysScroll(page);
    await page.getByTestId("select-campagne").click();
    await page.getByRole("option", { name: "2025", exact: true }).click();
    await expect(page).toHaveURL(/\/home\/description\/exploitation\/description$/);
    await noSidewaysScroll(page);
  });

  test("three screens and a dialog without sideways scroll, 40 px controls, nothing serious for axe", async ({ page }) => {
    const ids = await demoIds();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await login(page, "redacteur");
    await expect(page.getByTestId("home-page")).toBeVisible();
    for (const [name, screen, heading] of [
      ["04-parcelles", "/home/description/exploitation/parcelle", "Parcelles"],
      ["05-parc-materiel", "/home/description/exploitation/parc_materiel", "Parc matériel"],
      ["06-main-oeuvre", "/home/description/exploitation/main_oeuvre", "Main-d'œuvre"],
    ] as const) {
      await navigate(page, screen);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await shot(page, name);
      await noSidewaysScroll(page);
      await accessible(page);
    }

    // A dialog: the page behind keeps its width.
    const before = await page.locator("main").boundingBox();
    await page.getByTestId("add-campaign").click();
    const dialog = page.getByTestId("new-campagne-dialog");
    await expect(dialog).toBeVisible();
    await shot(page, "07-dialog");
    await noSidewaysScroll(page);
    expect((await page.locator("main").boundingBox())?.width).toBe(before?.width);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await smallControls(page, "[data-testid=new-campagne-dialog]")).toEqual([]);
    await accessible(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
  });
});
