import path from "node:path";
import type { Page } from "@playwright/test";
import { type DemoUser, e2eDb, expect, localeCookie, login, navigate, test } from "./fixtures";
import { demoIds, setContext } from "./helpers";

/**
 * The cultural operations screen (spec 2 §2 "Cultural operations", §3, §4, §5, §7; B-OPS): a writer
 * creates a ploughing operation with a tractor and a plough of the fleet and sees the work rate, the
 * fuel use and the costs computed; a reader sees it read-only. The machines are written straight into
 * parc_materiel from the catalogue (reference_materiel), as the machinery screen would store them.
 */

const SCREEN = "/home/description/exploitation/operations_culturales";
const shotsDir = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shotsDir) await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
};

async function insert(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await e2eDb()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** A machine of the campaign from a catalogue reference, with the defaults the machinery form fills (B-MACH-16, B-MACH-17). */
async function machineFromCatalogue(idCampagne: number, identifiant: string, extra: Record<string, unknown> = {}) {
  const db = e2eDb();
  const ref = await db("reference_materiel").where({ identifiant }).first();
  const categorie = await db("categorie_materiel").where({ id: ref.idCategorieMateriel }).first();
  return insert("parc_materiel", {
    idCampagne,
    libelle: ref.libelle,
    noClasse: categorie.idClasseMateriel,
    noCategorie: categorie.ordre,
    idCategorieMateriel: categorie.id,
    idBasemeq: ref.id,
    idenBasemeq: ref.identifiant,
    typePropriete: 0,
    copropriete: 100,
    poids: ref.poids,
    puissance: ref.puissance,
    debit: ref.debit,
    neufOccasion: "n",
    ageAchat: 0,
    coutEntretienReparation: ref.reparation,
    prixAchat: ref.prixMoyen,
    prixNeuf: ref.prixMoyen,
    utilisationAnnuelle: ref.utilisationAnnuelle,
    ...extra,
  });
}

/** EARL des Tilleuls 2025 with a 150 ch tractor, a 5-furrow plough, an irrigation reel and one labour item; no operation yet. */
async function prepare() {
  const db = e2eDb();
  const ids = await demoIds();
  const idCampagne = ids.tilleuls2025;
  await db("operation_culturale").where({ idCampagne }).delete();
  await db("parc_materiel").where({ idCampagne }).delete();
  await db("main_oeuvre").where({ idCampagne }).delete();
  const tracteur = await machineFromCatalogue(idCampagne, "TRA-150");
  const charrue = await machineFromCatalogue(idCampagne, "CHA-5");
  const enrouleur = await machineFromCatalogue(idCampagne, "ENR-110");
  const mo = await insert("main_oeuvre", { idCampagne, libelle: "Chef d'exploitation", uta: 1, idTypeUser: 953 });
  return { ids, idCampagne, tracteur, charrue, enrouleur, mo };
}

async function open(page: Page, user: DemoUser) {
  const ids = await demoIds();
  await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await page.context().clearCookies();
  await login(page, user);
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, SCREEN);
}

/** A stored ploughing operation, as the screen saves it (depth 25 cm, reference fuel use stored as `conso`). */
async function storedPloughing(f: Awaited<ReturnType<typeof prepare>>, conso: number) {
  const id = await insert("operation_culturale", {
    idCampagne: f.idCampagne,
    idTypeAction: 1,
    libelle: "Labour d'hiver",
    idMaterielTractant: f.tracteur,
    eta: false,
    debitCalcule: 1.2,
    consoCarburantCalculee: conso,
    profondeurTravail: 25,
    volumeBouillie: 1000,
    proportionSurfaceTravaillee: 1,
  });
  await insert("operation_culturale_materiel", { idOperationCulturale: id, idParcMateriel: f.charrue });
  await insert("operation_culturale_main_oeuvre", { idOperationCulturale: id, idMainOeuvre: f.mo });
  return id;
}

test("[B-OPS-01] [B-OPS-02] [B-OPS-03] [B-OPS-04] [B-OPS-05] [B-OPS-07] [B-OPS-08] [B-OPS-09] [B-OPS-10] [B-OPS-11] [B-OPS-12] [B-OPS-14] [B-OPS-18] [B-OPS-20] [B-OPS-21] [B-OPS-22] [B-OPS-23] [B-CONST-07] a writer creates a ploughing operation and sees work rate, fuel and costs computed", async ({
  page,
}) => {
  const f = await prepare();
  await open(page, "redacteur");
  const table = page.getByTestId("table-operations_culturales");
  await expect(page.getByRole("heading", { name: "Opérations culturales" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /^Nom/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /^Type d'opération/ })).toBeVisible();
  await expect(page.getByTestId("list-form")).toHaveCount(0);
  // Optional columns (B-OPS-03): every one can be shown or hidden; name and type cannot.
  await page.getByTestId("columns-menu").click();
  for (const id of [
    "chargesMecaTotales",
    "consoCarburantReelle",
    "consoCarburantCalculee",
    "debitIrrigation",
    "debitReel",
    "debitCalcule",
    "eta",
    "profondeurTravail",
    "proportionSurfaceTravaillee",
  ]) {
    await expect(page.getByTestId(`column-toggle-${id}`)).toBeVisible();
  }
  await expect(page.getByTestId("column-toggle-libelle")).toHaveCount(0);
  await page.getByTestId("column-toggle-profondeurTravail").check();
  await page.keyboard.press("Escape");

  await page.getByTestId("list-new").click();
  const form = page.getByTestId("operation-form");
  // A new operation: depth 0, share of surface 100 % (B-OPS-11), no spray volume until a spraying type is
  // chosen (issue 10); the button reads add (B-OPS-09).
  await expect(form.getByLabel("Profondeur de travail (cm)")).toHaveValue("0");
  await expect(form.getByLabel("Volume de bouillie (L/ha)")).toHaveValue("");
  await expect(form.getByLabel("Part de la surface travaillée (%)")).toHaveValue("100");
  await expect(form.getByText("100 % quand toute la surface de la parcelle est travaillée.")).toBeVisible();
  // User words for the tractor list, and the actual values say before any save that they are required.
  await expect(form.getByText("Les tracteurs et automoteurs du parc matériel de la campagne")).toBeVisible();
  await expect(form.getByText(/puissance supérieure à 0/)).toHaveCount(0);
  await expect(form.getByText("Obligatoire : aucun débit n'est calculé à partir des matériels choisis.")).toBeVisible();
  await expect(form.getByLabel("Débit réel (ha/h)")).toHaveAttribute("aria-required", "true");
  await expect(form.getByText("Obligatoire : aucune consommation n'est calculée pour cette opération.")).toBeVisible();
  await expect(page.getByTestId("list-save")).toHaveText("Ajouter");
  await expect(page.getByTestId("operation-costs")).toContainText("Les coûts sont calculés à l'enregistrement");

  // Choosing the type prefills the name (B-OPS-12).
  await form.getByLabel("Type d'opération").selectOption({ label: "Labour" });
  await expect(form.getByLabel("Nom", { exact: true })).toHaveValue("Labour");
  await expect(page.getByTestId("debit-calcule")).toHaveText("—");
  await expect(page.getByTestId("conso-calculee")).toHaveText("—");

  // Tractor and plough: the calculated rate is the plough's (the tractor is not self-propelled, B-OPS-18);
  // with type, power and depth known the fuel reference comes from the server (B-OPS-21, B-OPS-22).
  const fuelCalls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("conso_carburant")) fuelCalls.push(r.url());
  });
  await form.getByLabel("Tracteur", { exact: true }).selectOption({ label: "Tracteur 4 RM 150 ch (150 ch)" });
  await form.getByRole("checkbox", { name: /Charrue portée réversible 5 corps/ }).check();
  await expect(page.getByTestId("debit-calcule")).toHaveText("1,2");
  await expect(page.getByTestId("conso-calculee")).toHaveText("20,59");
  // With a calculated rate and fuel use, the actual values become optional, and say so.
  await expect(form.getByText("Facultatif : laissé vide, le débit calculé s'applique.")).toBeVisible();
  await expect(form.getByLabel("Débit réel (ha/h)")).not.toHaveAttribute("aria-required", "true");
  await expect(form.getByText("Facultatif : laissée vide, la consommation calculée s'applique.")).toBeVisible();
  await expect(form.getByLabel("Volume de bouillie (L/ha)")).toHaveValue("");
  expect(fuelCalls.at(-1)).toMatch(/id_type_action=1&debit=1\.2&puissance=150&profondeur_travail=0/);
  // Refetched when the depth changes (B-OPS-20), shown to 2 decimals (B-OPS-23): 20.594 × 30 / 25.
  await form.getByLabel("Profondeur de travail (cm)").selectOption({ label: "30 cm" });
  await expect(page.getByTestId("conso-calculee")).toHaveText("24,71");
  // …and when the actual rate changes (B-OPS-20).
  await form.getByLabel("Débit réel (ha/h)").fill("1,5");
  await expect(page.getByTestId("conso-calculee")).toHaveText("19,77");
  await form.getByLabel("Débit réel (ha/h)").fill("");
  await expect(page.getByTestId("conso-calculee")).toHaveText("24,71");

  // The chosen equipment (B-OPS-08).
  const equipment = page.getByTestId("operation-equipment");
  await expect(equipment.getByTestId(`equipment-${f.tracteur}`)).toContainText("Tracteur");
  await expect(equipment.getByTestId(`equipment-${f.charrue}`)).toContainText("Tracté");

  // The workforce list shows for an own workforce (B-OPS-05); switching clears it (B-OPS-14).
  const chef = form.getByRole("checkbox", { name: "Chef d'exploitation" });
  await chef.check();
  await form.getByTestId("switch-eta").check();
  await expect(page.getByTestId("main-oeuvre-list")).toHaveCount(0);
  await form.getByTestId("switch-eta").uncheck();
  await expect(chef).not.toBeChecked();
  await chef.check();

  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  const first = table.locator("tbody tr").first();
  await expect(first).toContainText("Labour");
  await expect(first).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("list-save")).toHaveText("Enregistrer");

  const stored = await e2eDb()("operation_culturale").where({ idCampagne: f.idCampagne }).first();
  expect(stored).toMatchObject({ idTypeAction: 1, libelle: "Labour", idMaterielTractant: f.tracteur, debitReel: null });
  expect([Number(stored.debitCalcule), Number(stored.consoCarburantCalculee), Number(stored.profondeurTravail)]).toEqual([1.2, 24.71, 30]);
  expect((await e2eDb()("operation_culturale_materiel").where({ idOperationCulturale: stored.id })).map((r) => r.idParcMateriel)).toEqual([f.charrue]);
  expect((await e2eDb()("operation_culturale_main_oeuvre").where({ idOperationCulturale: stored.id })).map((r) => r.idMainOeuvre)).toEqual([f.mo]);

  // After the save, the calculations are refreshed (B-OPS-10): the costs table (B-OPS-07) and the table's columns.
  const costs = page.getByTestId("operation-costs");
  await expect(costs.getByTestId("cost-EGESCarburant")).toHaveText("76,6"); // 24.71 L/ha × 3.10 kg CO2e/L
  await expect(costs.getByTestId("cost-consoNRJPrimaireCarburant")).toHaveText(/1\s?063/); // 24.71 × 43 MJ/L
  await expect(costs.getByTestId("cost-chargesCarburant")).not.toHaveText("0");
  await expect(costs).toContainText("kg CO2-eq/ha");
  await expect(costs).toContainText("MJ/ha");
  const total = await costs.getByTestId("cost-chargesMecaTotales").textContent();
  expect(Number(total!.replace(/\s/g, "").replace(",", "."))).toBeGreaterThan(0);
  await expect(first).toContainText(total!);
  await expect(first).toContainText("24,71");
  await expect(first).toContainText("Exploitation");
  await shot(page, "fr-operations-culturales-redacteur");

  await page.context().addCookies([{ name: "lng", value: localeCookie("en"), domain: "127.0.0.1", path: "/" }]);
  await page.evaluate(() => window.localStorage.setItem("locale", "en"));
  await page.reload();
  await expect(page.getByRole("heading", { name: "Cultural operations" })).toBeVisible();
  await expect(page.getByTestId("list-save")).toHaveText("Save");
  await expect(page.getByTestId("conso-calculee")).toHaveText("24.71");
  await shot(page, "en-operations-culturales-redacteur");
});

test("[B-OPS-24] [B-OPS-25] [B-OPS-26] [B-OPS-13] on edit, a changed reference shows a red warning; a changed work rate asks whether to propagate it", async ({
  page,
}) => {
  const f = await prepare();
  // Stored with a fuel reference the server no longer gives (it gives 20.59 L/ha at 25 cm).
  const id = await storedPloughing(f, 18);
  await open(page, "redacteur");
  await page.getByTestId("table-operations_culturales").getByText("Labour d'hiver").click();
  const form = page.getByTestId("operation-form");
  await expect(page.getByTestId("conso-calculee")).toHaveText("20,59");
  const warning = page.getByTestId("conso-changed");
  await expect(warning).toBeVisible();
  await warning.getByRole("img").focus();
  await expect(warning.getByRole("tooltip")).toBeVisible();
  await expect(warning.getByRole("tooltip")).toHaveText(/a changé depuis le chargement.*18,00 L\/ha/);
  await expect(warning.getByRole("img")).toHaveClass(/bg-red-700/);

  // A new actual rate: the save asks first, with a No option; the answer is sent as repercutAction.
  await form.getByLabel("Débit réel (ha/h)").fill("1");
  await page.getByTestId("list-save").click();
  const dialog = page.getByTestId("repercut-dialog");
  await expect(dialog).toContainText("de 1,2 à 1 ha/h");
  await expect(dialog.getByRole("button", { name: "Non" })).toBeVisible();
  const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("operations_culturales"));
  await dialog.getByRole("button", { name: "Oui" }).click();
  expect((await posted).postData()).toContain("repercutAction=true");
  await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
  await expect.poll(async () => Number((await e2eDb()("operation_culturale").where({ id }).first()).debitReel)).toBe(1);

  // Another change of rate answered No: saved, with repercutAction false.
  await form.getByLabel("Débit réel (ha/h)").fill("0,9");
  await page.getByTestId("list-save").click();
  const posted2 = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("operations_culturales"));
  await page.getByTestId("repercut-dialog").getByRole("button", { name: "Non" }).click();
  expect((await posted2).postData()).toContain("repercutAction=false");
  await expect.poll(async () => Number((await e2eDb()("operation_culturale").where({ id }).first()).debitReel)).toBe(0.9);

  // Changing the type of an existing operation keeps its name and resets depth, flow and spray volume (B-OPS-13).
  await form.getByLabel("Type d'opération").selectOption({ label: "Pulvérisation" });
  await expect(form.getByLabel("Nom", { exact: true })).toHaveValue("Labour d'hiver");
  await expect(form.getByLabel("Profondeur de travail (cm)")).toHaveValue("0");
  await expect(form.getByLabel("Volume de bouillie (L/ha)")).toHaveValue("1000");
  await expect(form.getByLabel("Volume de bouillie (L/ha)")).toBeEnabled();
  await expect(form.getByLabel("Débit d'irrigation (m3/h)")).toHaveValue("");
});

test("[B-OPS-15] [B-OPS-19] [B-OPS-27] [B-OPS-29] [B-OPS-30] [B-OPS-32] [B-OPS-34] irrigation: the towed reel gives the flow, no calculated rate, and the actual values are then required", async ({
  page,
}) => {
  await prepare();
  await open(page, "redacteur");
  await page.getByTestId("list-new").click();
  const form = page.getByTestId("operation-form");
  const nom = form.getByLabel("Nom", { exact: true });
  await nom.fill("x");
  await nom.fill("");
  await nom.blur();
  await expect(page.getByTestId(`${await nom.getAttribute("id")}-error`)).toHaveText("Champ requis");
  await form.getByLabel("Type d'opération").selectOption({ label: "Irrigation" });
  await expect(form.getByLabel("Nom", { exact: true })).toHaveValue("Irrigation");
  await form.getByRole("checkbox", { name: /Enrouleur/ }).check();
  await expect(form.getByLabel("Débit d'irrigation (m3/h)")).toHaveValue("35");
  await expect(page.getByTestId("debit-calcule")).toHaveText("—");
  await form.getByLabel("Débit d'irrigation (m3/h)").fill("0");
  await form.getByLabel("Débit d'irrigation (m3/h)").blur();
  await expect(form.getByText("La valeur ne peut pas être nulle")).toBeVisible();
  await form.getByLabel("Débit d'irrigation (m3/h)").fill("35");
  await form.getByLabel("Débit réel (ha/h)").fill("0");
  await form.getByLabel("Débit réel (ha/h)").blur();
  await expect(form.getByText("La valeur ne peut pas être nulle")).toBeVisible();
  await expect(page.getByTestId("list-save")).toBeDisabled();
  // No calculated rate and no fuel reference for irrigation: both actual values are required (B-OPS-30, B-OPS-32).
  await form.getByLabel("Débit réel (ha/h)").fill("");
  await expect(page.getByTestId(`${await form.getByLabel("Débit réel (ha/h)").getAttribute("id")}-error`)).toHaveText("Champ requis");
  await form.getByLabel("Consommation réelle (L/ha)").focus();
  await form.getByLabel("Consommation réelle (L/ha)").blur();
  await expect(page.getByTestId(`${await form.getByLabel("Consommation réelle (L/ha)").getAttribute("id")}-error`)).toHaveText("Champ requis");
  await expect(page.getByTestId("list-save")).toBeDisabled();
  await form.getByLabel("Débit réel (ha/h)").fill("0,5");
  await form.getByLabel("Consommation réelle (L/ha)").fill("12");
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  const stored = await e2eDb()("operation_culturale").where({ libelle: "Irrigation" }).first();
  expect([stored.debitCalcule, Number(stored.debitIrrigation), Number(stored.debitReel), Number(stored.consoCarburantReelle)]).toEqual([null, 35, 0.5, 12]);
});

test("[B-RIGHTS-03] [B-LIST-18] [B-OPS-07] [B-OPS-08] a reader sees the operation, its equipment and costs read-only", async ({ page }) => {
  const f = await prepare();
  await storedPloughing(f, 20.59);
  await open(page, "lecteur");
  await expect(page.getByTestId("read-only-note")).toBeVisible();
  await expect(page.getByTestId("list-new")).toBeDisabled();
  await expect(page.getByTestId("list-delete")).toBeDisabled();
  await page.getByTestId("table-operations_culturales").getByText("Labour d'hiver").click();
  const form = page.getByTestId("operation-form");
  await expect(form.getByLabel("Nom", { exact: true })).toHaveValue("Labour d'hiver");
  await expect(form.getByLabel("Nom", { exact: true })).toBeDisabled();
  await expect(form.getByLabel("Type d'opération")).toBeDisabled();
  await expect(form.getByRole("checkbox", { name: /Charrue/ })).toBeDisabled();
  await expect(form.getByTestId("switch-eta")).toBeDisabled();
  await expect(page.getByTestId("list-save")).toHaveCount(0);
  await expect(page.getByTestId("debit-calcule")).toHaveText("1,2");
  await expect(page.getByTestId("conso-calculee")).toHaveText("20,59");
  await expect(page.getByTestId("conso-changed")).toHaveCount(0);
  await expect(page.getByTestId("operation-equipment").getByTestId(`equipment-${f.charrue}`)).toBeVisible();
  await expect(page.getByTestId("operation-costs").getByTestId("cost-EGESCarburant")).toHaveText("63,8");
  await shot(page, "fr-operations-culturales-lecteur");
});
