import type { Page } from "@playwright/test";
import { type DemoUser, e2eDb, expect, navigate, test, contextInEnglish } from "./fixtures";
import { signInOnTilleuls } from "./helpers";

/** Plot groups (B-LOT) and landscape features (B-AMEN) of spec 2, on EARL des Tilleuls 2025. */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";

async function campagneTilleuls(annee = 2025) {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  return (await db("campagne").where({ idExploitation: farm.id, anneeRecolte: annee, simulation: false }).first("id")).id as number;
}

async function open(page: Page, user: DemoUser, screen: "lot_parcelle" | "amenagements", annee = 2025, english = false) {
  const idCampagne = await campagneTilleuls(annee);
  await signInOnTilleuls(page, user, idCampagne, `/home/description/exploitation/${screen}`, english);
  return idCampagne;
}

async function insertParcelle(row: Record<string, unknown>): Promise<number> {
  const [r] = await e2eDb()("parcelle").insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

test.describe("plot groups", () => {
  const NAME = "Îlot 21 – Le Chêne";
  test.beforeEach(async () => {
    await e2eDb()("parcelle").whereIn("libelle", ["Lot E2E parcelle 1", "Lot E2E parcelle 2"]).delete();
    await e2eDb()("lot_parcelle").where({ libelle: NAME }).delete();
  });

  test("[B-LOT-01] [B-LOT-02] [B-LOT-03] [B-LOT-05] [B-LOT-06] [B-LOT-07] [B-LOT-04] a writer creates a group, saves it without then with propagation to its plots, and deletes it with the note", async ({
    page,
  }) => {
    const idCampagne = await open(page, "redacteur", "lot_parcelle");
    const db = e2eDb();
    const table = page.getByTestId("table-lot_parcelle");
    // The demo groups of the campaign are listed (B-LOT-01).
    await expect(table).toContainText("Îlot 12 – Les Grands Champs");
    await expect(table.locator("thead")).toContainText("N° d'îlot PAC");

    await page.getByTestId("list-new").click();
    const nom = page.getByLabel("Nom", { exact: true });
    // Name required (B-LOT-05): the message shows next to the field and the save button is disabled.
    await nom.fill("x");
    await nom.fill("");
    await nom.blur();
    await expect(page.getByText("Champ requis")).toBeVisible();
    await expect(page.getByTestId("list-save")).toBeDisabled();
    await nom.fill(NAME);
    await page.getByLabel("N° d'îlot PAC").fill("21");
    await page.getByLabel("Irrigable").check();
    await page.getByLabel("Remarques").fill("Parcelles du plateau");
    // The soil panel (B-LOT-03).
    await expect(page.getByTestId("lot-card-sol")).toContainText("Données de sol");
    await page.getByLabel("Type de sol (Arvalis)").selectOption({ label: "Limon profond" });
    await page.getByLabel("Réserve utile (mm)").fill("180,5");
    await page.getByLabel("Profondeur du sol (cm)").fill("110");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    await expect(table.locator("tbody tr").first()).toContainText(NAME);
    await expect.poll(async () => (await db("lot_parcelle").where({ idCampagne, libelle: NAME }).first())?.noIlotPac).toBe("21");
    const lot = await db("lot_parcelle").where({ idCampagne, libelle: NAME }).first();
    expect([Boolean(lot.irrigable), Boolean(lot.drainee), Number(lot.reserveUtileMm), lot.profondeurSolCm, lot.remarque]).toEqual([
      true,
      false,
      180.5,
      110,
      "Parcelles du plateau",
    ]);

    // Two plots of the group (written by the plots screen in real life).
    const p1 = await insertParcelle({ idCampagne, libelle: "Lot E2E parcelle 1", idLot: lot.id, surface: 4.5, noIlotPac: "99" });
    const p2 = await insertParcelle({ idCampagne, libelle: "Lot E2E parcelle 2", idLot: lot.id, drainee: true });
    await expect(page).toHaveURL(new RegExp(`[?&]id=${lot.id}`));
    await page.reload();
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue(NAME);

    // Saving an existing group asks; No changes the group only (B-LOT-06, B-LOT-07).
    await page.getByLabel("N° d'îlot PAC").fill("22");
    await page.getByTestId("list-save").click();
    const ask = page.getByTestId("replicate-dialog");
    await expect(ask).toContainText("sur ses 2 parcelles");
    await page.screenshot({ path: `${SHOTS}/lot-replicate-dialog.png` });
    await ask.getByRole("button", { name: "Non, le lot seulement" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect.poll(async () => (await db("lot_parcelle").where({ id: lot.id }).first()).noIlotPac).toBe("22");
    expect((await db("parcelle").where({ id: p1 }).first()).noIlotPac).toBe("99");

    // Yes copies the PAC number, flags and soil values onto the group's plots.
    await page.getByLabel("Drainé").check();
    await page.getByTestId("list-save").click();
    await ask.getByRole("button", { name: "Oui, répercuter" }).click();
    await expect(page.getByTestId("lot-replicated")).toHaveText("Valeurs du lot répercutées sur 2 parcelles.");
    await expect
      .poll(async () =>
        (await db("parcelle").whereIn("id", [p1, p2]).orderBy("id")).map((p) => [
          p.libelle,
          p.noIlotPac,
          Boolean(p.irrigable),
          Boolean(p.drainee),
          Number(p.reserveUtileMm),
          p.profondeurSolCm,
        ]),
      )
      .toEqual([
        ["Lot E2E parcelle 1", "22", true, true, 180.5, 110],
        ["Lot E2E parcelle 2", "22", true, true, 180.5, 110],
      ]);
    expect(Number((await db("parcelle").where({ id: p1 }).first()).surface)).toBe(4.5);
    await page.screenshot({ path: `${SHOTS}/lot-parcelle.png`, fullPage: true });

    // Deleting: the modal carries the note; the plots stay, without a group (B-LOT-04).
    await page.getByRole("checkbox", { name: new RegExp(NAME) }).check();
    await page.getByTestId("list-delete").click();
    const del = page.getByTestId("delete-dialog");
    await expect(del.getByTestId("delete-note")).toHaveText("Les parcelles de ces lots ne sont pas supprimées : elles restent dans la campagne, sans lot.");
    await del.getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
    await expect.poll(async () => (await db("lot_parcelle").where({ id: lot.id })).length).toBe(0);
    expect((await db("parcelle").whereIn("id", [p1, p2])).map((p) => p.idLot)).toEqual([null, null]);
  });
});

test.describe("landscape features", () => {
  const NAME = "Haie de la sente";
  test.beforeEach(async () => {
    await e2eDb()("amenagement").whereIn("libelle", [NAME]).delete();
    await e2eDb()("parcelle").where({ libelle: "Aménagement E2E parcelle" }).delete();
  });

  test("[B-AMEN-01] [B-AMEN-02] [B-AMEN-03] [B-AMEN-04] [B-AMEN-05] [B-AMEN-06] a writer creates, edits and deletes a feature; name and type required, surface numeric", async ({
    page,
  }) => {
    const idCampagne = await campagneTilleuls();
    const plot = await insertParcelle({ idCampagne, libelle: "Aménagement E2E parcelle" });
    await open(page, "redacteur", "amenagements");
    const db = e2eDb();
    const table = page.getByTestId("table-amenagement");
    // Columns name, type and adjacent plot (B-AMEN-01), with the demo features.
    await expect(table.locator("thead")).toContainText("Nom");
    await expect(table.locator("thead")).toContainText("Type");
    await expect(table.locator("thead")).toContainText("Parcelle adjacente");
    await expect(table).toContainText("Mare de la Cour");

    await page.getByTestId("list-new").click();
    // Required name and type, numeric surface (B-AMEN-04, B-AMEN-05).
    const nom = page.getByLabel("Nom", { exact: true });
    await nom.fill("x");
    await nom.fill("");
    await nom.blur();
    await expect(page.locator("[id$='-libelle-error']")).toHaveText("Champ requis");
    const type = page.getByLabel("Type", { exact: true });
    await type.focus();
    await type.blur();
    await expect(page.locator("[id$='-idTypeAmenagement-error']")).toHaveText("Champ requis");
    const surface = page.getByLabel("Surface", { exact: true });
    await surface.fill("beaucoup");
    await surface.blur();
    await expect(page.locator("[id$='-surface-error']")).toHaveText("Valeur numérique attendue");
    await expect(page.getByTestId("list-save")).toBeDisabled();

    // Types from the reference, with their unit next to the surface (B-AMEN-03).
    const types = await type.locator("option").allTextContents();
    expect(types.slice(1, 6)).toEqual(["Haie", "Alignement d'arbres", "Arbre isolé", "Bosquet", "Mare"]);
    await type.selectOption({ label: "Mare" });
    await expect(page.getByTestId("surface-unit")).toHaveText("m²");
    await type.selectOption({ label: "Haie" });
    await expect(page.getByTestId("surface-unit")).toHaveText("ml");
    await nom.fill(NAME);
    await surface.fill("120,5");
    // The adjacent plot is one of the campaign's plots.
    await page.getByLabel("Parcelle adjacente").selectOption({ label: "Aménagement E2E parcelle" });
    await page.getByLabel("N° d'îlot PAC").fill("21");
    await page.getByLabel("Drainé").check();
    await page.getByLabel("Acidité du sol").selectOption({ label: "Neutre" });
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    const row = table.locator("tbody tr").first();
    await expect(row).toContainText(NAME);
    await expect(row).toContainText("Haie");
    await expect(row).toContainText("Aménagement E2E parcelle");
    await expect(row).toContainText("120,5 ml");
    await expect.poll(async () => (await db("amenagement").where({ idCampagne, libelle: NAME }).first())?.idParcelleAdjacente).toBe(plot);
    const saved = await db("amenagement").where({ idCampagne, libelle: NAME }).first();
    expect([Number(saved.surface), saved.noIlotPac, Boolean(saved.drainee), Boolean(saved.irrigable)]).toEqual([120.5, "21", true, false]);
    await page.screenshot({ path: `${SHOTS}/amenagements.png`, fullPage: true });

    // Edit in place.
    await surface.fill("130");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect.poll(async () => Number((await db("amenagement").where({ id: saved.id }).first()).surface)).toBe(130);

    // Delete: a success snackbar (B-AMEN-06).
    await page.getByRole("checkbox", { name: new RegExp(NAME) }).check();
    await page.getByTestId("list-delete").click();
    await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
    await expect.poll(async () => (await db("amenagement").where({ id: saved.id })).length).toBe(0);
  });
});

test("[B-LOT-01] [B-AMEN-01] [A-RIGHTS-08] a reader sees the groups and the features read-only", async ({ page }) => {
  await open(page, "lecteur", "lot_parcelle");
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await page.getByTestId("table-lot_parcelle").getByText("Îlot 7 – La Vallée Sèche").click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Îlot 7 – La Vallée Sèche");
  await expect(page.getByLabel("Nom", { exact: true })).toBeDisabled();
  await expect(page.getByLabel("Type de sol (Arvalis)")).toBeDisabled();
  await expect(page.getByTestId("list-save")).toHaveCount(0);

  await navigate(page, "/home/description/exploitation/amenagements");
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await page.getByTestId("table-amenagement").getByText("Haie du chemin de Beaugency").click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Haie du chemin de Beaugency");
  await expect(page.getByLabel("Type", { exact: true })).toBeDisabled();
  await expect(page.getByTestId("surface-unit")).toHaveText("ml");
  await expect(page.getByTestId("list-save")).toHaveCount(0);
});

test.describe("in English", () => {
  test.beforeEach(async ({ context }) => contextInEnglish(context));

  test("[B-AMEN-03] [B-LOT-02] the two screens speak English", async ({ page }) => {
    await open(page, "redacteur", "amenagements", 2025, true);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByTestId("table-amenagement").getByText("Mare de la Cour").click();
    await expect(page.getByLabel("Adjacent plot")).toBeVisible();
    await expect(page.getByLabel("Type", { exact: true }).locator("option:checked")).toHaveText("Pond");
    await expect(page.getByTestId("surface-unit")).toHaveText("m²");
    await page.screenshot({ path: `${SHOTS}/amenagements-en.png`, fullPage: true });
    await navigate(page, "/home/description/exploitation/lot_parcelle");
    await page.getByTestId("table-lot_parcelle").getByText("Îlot 12 – Les Grands Champs").click();
    await expect(page.getByLabel("CAP block number")).toHaveValue("12");
    await expect(page.getByText("Soil data")).toBeVisible();
    await expect(page.getByLabel("Irrigable")).toBeChecked();
  });
});
