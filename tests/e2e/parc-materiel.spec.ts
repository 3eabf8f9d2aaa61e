import path from "node:path";
import type { Page } from "@playwright/test";
import { type DemoUser, e2eDb, expect, navigate, test, userId, contextInEnglish } from "./fixtures";
import { afterRender } from "./helpers";

/**
 * The machinery fleet screen (spec 2 §2 "Machinery fleet", §4, §5, §6; B-MACH): a writer adds a tractor and a
 * plough from the catalogue, sees the calculated figures and duplicates the machines to another campaign;
 * a reader sees it read-only. Screenshots go to SHOTS_DIR (default /tmp/shots-h14).
 */

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-h14";
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const SCREEN = "/home/description/exploitation/parc_materiel";

async function ids() {
  const db = e2eDb();
  const farm = async (libelle: string) => (await db("exploitation").where({ libelle }).first("id")).id as number;
  const tilleuls = await farm("EARL des Tilleuls");
  const moulin = await farm("GAEC du Moulin");
  const campagne = async (idExploitation: number, anneeRecolte: number) =>
    (await db("campagne").where({ idExploitation, anneeRecolte, simulation: false }).first("id")).id as number;
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  return {
    tilleuls,
    moulin,
    beauce: dossier.id as number,
    idOad: dossier.idOad as number,
    tilleuls2025: await campagne(tilleuls, 2025),
    tilleuls2024: await campagne(tilleuls, 2024),
    moulin2025: await campagne(moulin, 2025),
  };
}

/** Sets the user's context on EARL des Tilleuls (Beauce) for the given year, empties the fleets the test uses, signs in. */
async function openFleet(page: Page, user: DemoUser, annee = 2025, { empty = true, signIn = true } = {}) {
  const db = e2eDb();
  const i = await ids();
  const idCampagne = annee === 2025 ? i.tilleuls2025 : i.tilleuls2024;
  const idUser = await userId(user);
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({ idUser, idOad: i.idOad, idDossier: i.beauce, exploitations: JSON.stringify([i.tilleuls]), idCampagne });
  if (empty) await db("parc_materiel").whereIn("idCampagne", [i.tilleuls2025, i.moulin2025]).delete();
  if (signIn) {
    await navigate(page, "/login");
    await page.locator("input[name=username]").fill(user);
    await page.locator("input[name=password]").fill("demo1234");
    await page.locator("form#login button[type=submit]").click();
    await page.waitForURL(/home\/description\/home/);
  }
  await navigate(page, SCREEN);
  return { ...i, idCampagne };
}

/** Two machines stored straight in the database: a 100 ch tractor and a CUMA plough. */
async function insertMachines(idCampagne: number) {
  const db = e2eDb();
  const insert = async (row: Record<string, unknown>) => {
    const [r] = await db("parc_materiel")
      .insert({ idCampagne, ...row })
      .returning("id");
    return typeof r === "object" ? (r as { id: number }).id : (r as number);
  };
  const tracteur = await insert({
    libelle: "Tracteur 100 ch",
    noClasse: 1,
    noCategorie: 1,
    idCategorieMateriel: 1,
    idBasemeq: 101,
    idenBasemeq: "TRA-100",
    typePropriete: 0,
    copropriete: 100,
    puissance: 100,
    poids: 4500,
    coutEntretienReparation: 3.5,
    prixNeuf: 75000,
    prixAchat: 75000,
    ageAchat: 0,
    neufOccasion: "n",
    utilisationAnnuelle: 500,
  });
  const charrue = await insert({
    libelle: "Charrue 5 corps",
    noClasse: 2,
    noCategorie: 1,
    idCategorieMateriel: 3,
    idBasemeq: 301,
    idenBasemeq: "CHA-5",
    typePropriete: 2,
    debit: 1.2,
    coutEntretienReparation: 6,
    coutLocation: 30,
    prixNeuf: 28000,
    prixAchat: 28000,
    utilisationAnnuelle: 150,
  });
  return { tracteur, charrue };
}

test("[B-MACH-01] [B-MACH-02] [B-MACH-03] [B-MACH-09] [B-MACH-10] [B-MACH-11] [B-MACH-12] [B-MACH-13] [B-MACH-16] [B-MACH-18] [B-MACH-19] [B-MACH-14] [B-MACH-15] [B-MACH-05] [B-MACH-06] a writer adds a tractor and a plough from the catalogue and sees the calculated figures", async ({
  page,
}) => {
  const { idCampagne } = await openFleet(page, "redacteur");
  await expect(page.getByRole("heading", { name: "Parc matériel", level: 1 })).toBeVisible();
  await expect(page.getByTestId("list-form")).toHaveCount(0);
  await page.getByTestId("list-new").click();

  // A new machine starts as own, 100 %, age 0.
  await expect(page.getByTestId("select-propriete")).toHaveValue("0");
  await expect(page.getByLabel("Copropriété (%)")).toHaveValue("100");
  await expect(page.getByLabel("Âge à l'achat (ans)")).toHaveValue("0");
  await expect(page.getByTestId("select-categorie")).toBeDisabled();

  // Class → category → characteristic.
  await page.getByTestId("select-classe").selectOption({ label: "Traction et manutention" });
  await expect(page.getByTestId("select-categorie").locator("option")).toHaveText(["Choisir…", "Tracteurs", "Chargeurs et automoteurs de manutention"]);
  await page.getByTestId("select-categorie").selectOption({ label: "Tracteurs" });
  await expect(page.getByTestId("select-caracteristique").locator("option", { hasText: "TRA-100" })).toHaveCount(1);
  await page.getByTestId("select-caracteristique").selectOption({ label: "Tracteur 4 RM 100 ch (TRA-100)" });
  // The characteristic fills power, flow, weight, repair cost, new price and (on creation) the purchase price.
  await expect(page.getByLabel("Puissance (ch)")).toHaveValue("100");
  await expect(page.getByLabel("Poids (kg)")).toHaveValue("4500");
  await expect(page.getByLabel("Entretien et réparations (€/h)")).toHaveValue("3,5");
  await expect(page.getByLabel("Prix neuf 2023-2024 (€)")).toHaveValue("75000");
  await expect(page.getByLabel("Prix d'achat (€)")).toHaveValue("75000");
  await expect(page.getByLabel("Usure (h)")).toHaveAttribute("placeholder", /^Référence : 10\s000$/);
  await page.getByLabel("Nom", { exact: true }).fill("Tracteur 100 ch");
  await page.getByLabel("Utilisation annuelle (h/an)").fill("500");
  // Calculated figures: 12 years (obsolescence of the reference), resale 43 % of 75 000 €.
  const calc = page.getByTestId("parc-materiel-calcul");
  await expect(calc.getByTestId("calc-usage")).toHaveText(/^500\sh\/an$/);
  await expect(calc.getByTestId("calc-duree")).toHaveText(/^12\sans$/);
  await expect(calc.getByTestId("calc-amortissement")).toHaveText(/^3\s562,50\s€\/an$/);
  await expect(calc.getByTestId("calc-financement")).toHaveText(/^1\s876,88\s€\/an$/);
  await expect(calc.getByTestId("calc-entretien-location")).toHaveText(/^3,50\s€\/h$/);
  await shot(page, "fr-01-tracteur-form");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  await expect(page).toHaveURL(/[?&]id=\d+/);

  // The plough: changing the class clears the category and characteristic; changing the category clears the characteristic.
  await page.getByTestId("list-new").click();
  await page.getByTestId("select-classe").selectOption({ label: "Traction et manutention" });
  await page.getByTestId("select-categorie").selectOption({ label: "Tracteurs" });
  await page.getByTestId("select-caracteristique").selectOption({ label: "Tracteur 4 RM 150 ch (TRA-150)" });
  await page.getByTestId("select-categorie").selectOption({ label: "Chargeurs et automoteurs de manutention" });
  await expect(page.getByTestId("select-caracteristique")).toHaveValue("");
  await page.getByTestId("select-classe").selectOption({ label: "Travail du sol" });
  await expect(page.getByTestId("select-categorie")).toHaveValue("");
  await expect(page.getByTestId("select-caracteristique")).toHaveValue("");
  await page.getByTestId("select-categorie").selectOption({ label: "Charrues" });
  await page.getByTestId("select-caracteristique").selectOption({ label: "Charrue portée réversible 5 corps (CHA-5)" });
  // No power field for ploughs (category 3); the flow comes from the reference.
  await expect(page.getByLabel("Puissance (ch)")).toHaveCount(0);
  await expect(page.getByLabel("Débit (ha/h)")).toHaveValue("1,2");
  await expect(page.getByLabel("Prix d'achat (€)")).toHaveValue("28000");
  // CUMA empties and locks the co-ownership; own sets it back to 100.
  await page.getByTestId("select-propriete").selectOption("2");
  await expect(page.getByLabel("Copropriété (%)")).toHaveValue("");
  await expect(page.getByLabel("Copropriété (%)")).toBeDisabled();
  await page.getByTestId("select-propriete").selectOption("0");
  await expect(page.getByLabel("Copropriété (%)")).toHaveValue("100");
  await page.getByTestId("select-propriete").selectOption("2");
  await page.getByLabel("Nom", { exact: true }).fill("Charrue 5 corps");
  await page.getByLabel("Location (€/h)").fill("30");
  await page.getByLabel("Utilisation annuelle (h/an)").fill("150");
  // A CUMA machine costs its rental only: 30 €/h ÷ 1.2 ha/h = 25 €/ha.
  await expect(calc.getByTestId("calc-amortissement")).toHaveText(/^0,00\s€\/an$/);
  await expect(calc.getByTestId("calc-charges-meca-ha")).toHaveText(/^25,00\s€\/ha$/);
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");

  // Newest first; the CUMA machine's name carries its suffix.
  const rows = page.getByTestId("table-parc_materiel").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Charrue 5 corps_E/I");
  await expect(rows.nth(0)).toContainText("Travail du sol");
  await expect(rows.nth(0)).toContainText("CUMA");
  await expect(rows.nth(1)).toContainText("Tracteur 100 ch");
  await expect(rows.nth(1)).not.toContainText("_E/");

  const saved = await e2eDb()("parc_materiel").where({ idCampagne }).orderBy("id");
  expect(
    saved.map((r) => [
      r.libelle,
      r.noClasse,
      r.idCategorieMateriel,
      r.idBasemeq,
      r.idenBasemeq,
      r.typePropriete,
      r.copropriete,
      r.puissance == null ? null : Number(r.puissance),
      Number(r.prixAchat),
      r.utilisationAnnuelle,
    ]),
  ).toEqual([
    ["Tracteur 100 ch", 1, 1, 101, "TRA-100", 0, 100, 100, 75000, 500],
    ["Charrue 5 corps", 2, 3, 301, "CHA-5", 2, null, null, 28000, 150],
  ]);
});

test("[B-MACH-17] [B-MACH-18] [B-LIST-10] [B-LIST-19] [B-ERR-21] [B-ERR-22] on an existing machine a new characteristic fills the defaults but not the purchase price; an update stays in place; delete", async ({
  page,
}) => {
  const { idCampagne } = await openFleet(page, "redacteur");
  const { tracteur, charrue } = await insertMachines(idCampagne);
  await navigate(page, SCREEN);
  await page.getByTestId("table-parc_materiel").getByText("Tracteur 100 ch").click();
  await expect(page.getByLabel("Prix neuf 2023-2024 (€)")).toHaveValue("75000");
  await page.getByTestId("select-caracteristique").selectOption({ label: "Tracteur 4 RM 150 ch (TRA-150)" });
  await expect(page.getByLabel("Puissance (ch)")).toHaveValue("150");
  await expect(page.getByLabel("Prix neuf 2023-2024 (€)")).toHaveValue("125000");
  await expect(page.getByLabel("Prix d'achat (€)")).toHaveValue("75000");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect(page.getByTestId("table-parc_materiel").locator("tbody tr").nth(1)).toContainText("Tracteur 100 ch");
  const row = await e2eDb()("parc_materiel").where({ id: tracteur }).first();
  expect([row.idBasemeq, row.idenBasemeq, Number(row.puissance), Number(row.prixNeuf), Number(row.prixAchat)]).toEqual([102, "TRA-150", 150, 125000, 75000]);

  // Deleting needs a ticked row and a confirmation.
  await expect(page.getByTestId("list-delete")).toBeDisabled();
  await page.getByTestId(`check-${charrue}`).check();
  await page.getByTestId("list-delete").click();
  await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByTestId("snackbar")).toHaveText("Suppression effectuée");
  await expect.poll(async () => (await e2eDb()("parc_materiel").where({ idCampagne })).map((r) => r.id)).toEqual([tracteur]);
});

test("[B-MACH-24] [B-MACH-27] [B-LIST-14] bad values are refused beside the field", async ({ page }) => {
  const { idCampagne } = await openFleet(page, "redacteur");
  await insertMachines(idCampagne);
  await navigate(page, SCREEN);
  await page.getByTestId("table-parc_materiel").getByText("Tracteur 100 ch").click();
  await page.getByLabel("Utilisation annuelle (h/an)").fill("12000");
  await page.getByLabel("Utilisation annuelle (h/an)").blur();
  await expect(page.getByText("Valeur hors des bornes")).toBeVisible();
  await expect(page.getByText("De 0 à 10 000 h/an")).toBeVisible();
  await expect(page.getByTestId("list-save")).toBeDisabled();
  await page.getByLabel("Utilisation annuelle (h/an)").fill("600");
  await page.getByLabel("Âge à l'achat (ans)").fill("2,5");
  await page.getByLabel("Âge à l'achat (ans)").blur();
  await expect(page.getByText("Nombre entier attendu")).toBeVisible();
  await expect(page.getByTestId("list-save")).toBeDisabled();
});

test("[B-MACH-29] [B-MACH-30] [B-RIGHTS-11] [B-RIGHTS-12] [B-ERR-20] a writer duplicates the ticked machines to another campaign", async ({ page }) => {
  const { idCampagne, moulin2025 } = await openFleet(page, "redacteur");
  const { tracteur, charrue } = await insertMachines(idCampagne);
  await navigate(page, SCREEN);
  await expect(page.getByTestId("parc-materiel-duplicate")).toBeDisabled();
  await page.getByTestId(`check-${tracteur}`).check();
  await page.getByTestId(`check-${charrue}`).check();
  await page.getByTestId("parc-materiel-duplicate").click();
  const dialog = page.getByTestId("duplication-dialog");
  await expect(dialog).toBeVisible();
  // Without folder animation the folder is fixed on the current one.
  await expect(dialog.getByTestId("dupli-dossier")).toBeDisabled();
  await expect(dialog.getByTestId("dupli-dossier")).toHaveValue(String((await ids()).beauce));
  await expect(dialog.getByText("Seul un animateur du dossier peut choisir un autre dossier.")).toBeVisible();
  // Only farms whose link gives write access.
  await expect(dialog.getByTestId("dupli-exploitation").locator("option")).toHaveText(["Choisir…", "EARL des Tilleuls", "GAEC du Moulin"]);
  // The locked 2024 campaign cannot be ticked.
  await expect(dialog.getByRole("checkbox", { name: /2024/ })).toBeDisabled();
  await expect(dialog.getByTestId("duplication-submit")).toBeDisabled();
  await dialog.getByTestId("dupli-exploitation").selectOption({ label: "GAEC du Moulin" });
  await expect(dialog.getByRole("checkbox")).toHaveCount(2);
  await dialog.getByRole("checkbox", { name: "2025" }).check();
  await expect(dialog.getByTestId("duplication-submit")).toBeEnabled();
  await shot(page, "fr-02-duplication");
  await dialog.getByTestId("duplication-submit").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Duplication effectuée");
  await expect(dialog).toHaveCount(0);
  const copies = await e2eDb()("parc_materiel").where({ idCampagne: moulin2025 }).orderBy("id");
  expect(copies.map((r) => [r.libelle, r.idBasemeq, r.typePropriete, r.utilisationAnnuelle])).toEqual([
    ["Tracteur 100 ch", 101, 0, 500],
    ["Charrue 5 corps", 301, 2, 150],
  ]);
  expect(await e2eDb()("parc_materiel").where({ idCampagne }).count({ n: "*" }).first()).toMatchObject({ n: 2 });
});

test("[B-RIGHTS-10] with folder animation the destination folder can be changed; only farms with write access are offered", async ({ page }) => {
  const { idCampagne } = await openFleet(page, "animateur");
  const { tracteur } = await insertMachines(idCampagne);
  await navigate(page, SCREEN);
  await page.getByTestId(`check-${tracteur}`).check();
  await page.getByTestId("parc-materiel-duplicate").click();
  const dialog = page.getByTestId("duplication-dialog");
  await expect(dialog.getByTestId("dupli-dossier")).toBeEnabled();
  await dialog.getByTestId("dupli-dossier").selectOption({ label: "Groupe Polyculture-élevage Bocage" });
  // GAEC du Moulin is linked to Bocage with the read right only.
  await expect(dialog.getByTestId("dupli-exploitation").locator("option")).toHaveText(["Choisir…", "Ferme de la Vallée"]);
  await expect(dialog.getByTestId("duplication-submit")).toBeDisabled();
  await dialog.getByRole("button", { name: "Annuler" }).click();
});

test("[B-RIGHTS-03] [B-LIST-18] [B-LIST-20] a reader sees the fleet read-only, with the calculated figures", async ({ page }) => {
  const { idCampagne } = await openFleet(page, "lecteur");
  await insertMachines(idCampagne);
  await navigate(page, SCREEN);
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await expect(page.getByTestId("list-delete")).toBeDisabled();
  await expect(page.getByTestId("parc-materiel-duplicate")).toBeDisabled();
  await page.getByTestId("table-parc_materiel").getByText("Tracteur 100 ch").click();
  await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Tracteur 100 ch");
  await expect(page.getByLabel("Nom", { exact: true })).toBeDisabled();
  await expect(page.getByTestId("select-classe")).toBeDisabled();
  await expect(page.getByTestId("select-categorie")).toHaveValue("1");
  await expect(page.getByTestId("select-caracteristique")).toHaveValue("101");
  await expect(page.getByLabel("Puissance (ch)")).toHaveValue("100");
  await expect(page.getByLabel("Prix neuf 2023-2024 (€)")).toBeDisabled();
  await expect(page.getByText("De 0 à 10 000 h/an")).toBeVisible();
  await expect(page.getByTestId("list-save")).toHaveCount(0);
  await expect(page.getByTestId("calc-duree")).toHaveText(/^12\sans$/);
  await shot(page, "fr-03-lecteur");
});

test("[B-RIGHTS-02] a locked campaign's fleet is read-only even for its animator", async ({ page }) => {
  await openFleet(page, "animateur", 2024);
  await expect(page.getByTestId("campaign-locked")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
});

test.describe("in English", () => {
  test.beforeEach(async ({ context }) => contextInEnglish(context));

  test("[B-MACH-02] [B-MACH-03] [A-LOCALE-06] the machine form and its calculated figures in English, with English numbers", async ({ page }) => {
    const { idCampagne } = await openFleet(page, "redacteur");
    await insertMachines(idCampagne);
    await navigate(page, SCREEN);
    await expect(page.getByRole("heading", { name: "Equipment park", level: 1 })).toBeVisible();
    await page.getByTestId("table-parc_materiel").getByText("Tracteur 100 ch").click();
    await expect(page.getByText("Calculated figures")).toBeVisible();
    // The figures follow the language (issue 10): a decimal point and the euro sign first, as in English.
    await expect(page.getByTestId("calc-amortissement")).toHaveText("€3,562.50/year");
    await expect(page.getByTestId("calc-entretien-location")).toHaveText("€3.50/h");
    await expect(page.getByLabel("New price 2023-2024 (€)")).toHaveValue("75000");
    await shot(page, "en-01-tracteur-form");
  });
});

test("[B-ERR-19] [B-MACH-16] a characteristic's reference is fetched by id; when that fetch fails no error is shown and the defaults stay empty", async ({
  page,
}) => {
  const db = e2eDb();
  const [r] = await db("reference_materiel")
    .insert({
      identifiant: "TRA-RETIRE",
      libelle: "Tracteur retiré du catalogue",
      idCategorieMateriel: 1,
      puissance: 150,
      poids: 6000,
      prixMoyen: 99000,
      anneeprix: 2024,
    })
    .returning("id");
  const idRetire = typeof r === "object" ? (r as { id: number }).id : (r as number);
  try {
    await openFleet(page, "redacteur");
    await page.getByTestId("list-new").click();
    await page.getByTestId("select-classe").selectOption({ label: "Traction et manutention" });
    await page.getByTestId("select-categorie").selectOption({ label: "Tracteurs" });
    await expect(page.getByTestId("select-caracteristique").locator("option", { hasText: "TRA-RETIRE" })).toHaveCount(1);
    // The characteristic leaves the catalogue after the list was shown: its fetch by id fails.
    await db("reference_materiel").where({ id: idRetire }).delete();
    const fetched = page.waitForResponse((res) => res.url().includes(`reference=${idRetire}`));
    await page.getByTestId("select-caracteristique").selectOption({ label: "Tracteur retiré du catalogue (TRA-RETIRE)" });
    await (await fetched).finished();
    await afterRender(page);
    await expect(page.getByTestId("error-dialog")).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByTestId("parc-materiel-form").locator(".field-error:not(:empty)")).toHaveCount(0);
    await expect(page.getByLabel("Puissance (ch)")).toHaveValue("");
    await expect(page.getByLabel("Poids (kg)")).toHaveValue("");
    await expect(page.getByLabel("Prix d'achat (€)")).toHaveValue("");
    // Another characteristic is fetched and fills the defaults.
    const ok = page.waitForResponse((res) => res.url().includes("reference=") && !res.url().includes(`reference=${idRetire}`));
    await page.getByTestId("select-caracteristique").selectOption({ label: "Tracteur 4 RM 100 ch (TRA-100)" });
    await ok;
    await expect(page.getByLabel("Puissance (ch)")).toHaveValue("100");
    await expect(page.getByLabel("Poids (kg)")).toHaveValue("4500");
  } finally {
    await db("reference_materiel").where({ id: idRetire }).delete();
  }
});
