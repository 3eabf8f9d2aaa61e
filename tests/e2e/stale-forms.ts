import { mkdirSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { e2eDb, expect, login, navigate, userId, type DemoUser } from "./fixtures";
import { noSeriousAxeViolationInMain } from "./helpers";

/** The stale forms' journeys' steps (issue 29, decisions 0115 and 0136): formulaires-perimes*.spec.ts. */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/formulaires-perimes";

export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Sets the user's context on EARL des Tilleuls 2025 (Beauce), signs in and returns the campaign. */
export async function openScreen(page: Page, user: DemoUser, screen: string) {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const campagne = await db("campagne").where({ idExploitation: farm.id, anneeRecolte: 2025, simulation: false }).first("id");
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const idUser = await userId(user);
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({
    idUser,
    idOad: dossier.idOad,
    idDossier: dossier.id,
    exploitations: JSON.stringify([farm.id]),
    idCampagne: campagne.id,
  });
  await page.context().clearCookies();
  await login(page, user);
  await page.waitForURL(/home\/description\/home/);
  return {
    idCampagne: campagne.id as number,
    open: (id: number) => navigate(page, `${screen}?id=${id}`),
  };
}

export const inserted = (r: unknown) => (typeof r === "object" ? (r as { id: number }).id : (r as number));

/**
 * One stale round: someone else stores `theirs` in the row, the user types `mine` and saves; the stale dialog
 * first, then the panel with both values and the typed value kept; the choice is then made.
 */
export async function staleRound(
  page: Page,
  {
    input,
    change,
    mine,
    line,
    choose,
    shotName,
    said = /modifié par quelqu'un d'autre/,
    save = page.getByTestId("list-save"),
  }: {
    input: Locator;
    change: () => Promise<unknown>;
    mine: string;
    line: string;
    choose: "stale-keep" | "stale-take";
    shotName?: string;
    /** The stale dialog's message (French unless told). */
    said?: RegExp;
    /** The form's save button (a list form's unless told), or the steps of its save. */
    save?: Locator | (() => Promise<unknown>);
  },
) {
  await change();
  await input.fill(mine);
  await (typeof save === "function" ? save() : save.click());
  // The spec's stale dialog says it (C-ERR-01..04); behind it, the form kept the typed value.
  const dialog = page.getByTestId("error-dialog");
  await expect(dialog.getByRole("alert")).toHaveText(said);
  await dialog.getByRole("button", { name: "Ok" }).click();
  await expect(dialog).toHaveCount(0);
  const panel = page.getByTestId("stale-form");
  await expect(panel).toContainText(line);
  await expect(input).toHaveValue(mine);
  await noSeriousAxeViolationInMain(page);
  if (shotName) await shot(page, shotName);
  await panel.getByTestId(choose).click();
  await expect(panel).toHaveCount(0);
}

/**
 * Saves the form of `input` and waits until the screen has read the saved row again: the updatedAt the form sends
 * then changes (a form that starts again from the row does so in the same render), so that what the journey types
 * next is not typed into the form about to start again.
 */
export async function saveAndReload(page: Page, input: Locator, save: Locator | (() => Promise<unknown>) = page.getByTestId("list-save")) {
  const token = input.locator("xpath=ancestor::form").locator('input[name="updatedAt"]');
  const before = await token.inputValue();
  await (typeof save === "function" ? save() : save.click());
  await expect(page.getByTestId("snackbar")).toBeVisible();
  await expect(token).not.toHaveValue(before);
}
