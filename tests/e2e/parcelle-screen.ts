import type { Page } from "@playwright/test";
import { e2eDb, expect, login, navigate, userId, type DemoUser } from "./fixtures";

/** The plots screen of EARL des Tilleuls 2025, shared by the plot journeys. */
export const PARCELLE_SCREEN = "/home/description/exploitation/parcelle";

export async function parcelleIds() {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const c2024 = await db("campagne").where({ idExploitation: farm.id, anneeRecolte: 2024, simulation: false }).first("id");
  const c2025 = await db("campagne").where({ idExploitation: farm.id, anneeRecolte: 2025, simulation: false }).first("id");
  return { farm: farm.id as number, c2024: c2024.id as number, c2025: c2025.id as number };
}

/** Opens the plots of EARL des Tilleuls 2025; the plots created by earlier journeys are removed (the demo ones stay). */
export async function openPlots(page: Page, user: DemoUser) {
  const db = e2eDb();
  const { farm, c2025 } = await parcelleIds();
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const idUser = await userId(user);
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({ idUser, idOad: dossier.idOad, idDossier: dossier.id, exploitations: JSON.stringify([farm]), idCampagne: c2025 });
  await db("parcelle").where({ idCampagne: c2025 }).where("libelle", "like", "E2E %").delete();
  await page.context().clearCookies();
  await login(page, user);
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, PARCELLE_SCREEN);
  return c2025;
}

export const parcelleTable = (page: Page) => page.getByTestId("table-parcelle");
export const parcelleRow = (page: Page, libelle: string) => parcelleTable(page).locator("tbody tr", { hasText: libelle });

export async function createPlot(page: Page, libelle: string, surface = "4,2") {
  await page.getByTestId("list-new").click();
  await page.getByLabel("Nom", { exact: true }).fill(libelle);
  await page.getByLabel("Surface (ha)", { exact: true }).fill(surface);
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  await expect(parcelleRow(page, libelle)).toHaveAttribute("aria-selected", "true");
}
