import path from "node:path";
import type { Page } from "@playwright/test";
import { e2eDb, expect, navigate, resetContext, test, contextInEnglish } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/**
 * Farm description I, the four farm forms: coordinates, description, economic and soil characteristics.
 * A writer (redacteur) fills them, bad values are refused next to the field, good ones are saved; an
 * administrator gets the admin-only economic cards; the soil values are replicated to every campaign;
 * a reader (lecteur) sees all of it read-only. Each test puts back what it changed.
 */

const SHOTS = "/tmp/shots-h13";
const BASE = "/home/description/exploitation";
const SOIL_COLUMNS = ["idTypeSolArvalis", "idAeeTypeSol", "profondeurSolCm", "reserveUtileMm", "idTypeSousSol", "idAciditeSol", "idProfondeurSol"];
const SOIL_TABLES = ["parcelle", "lot_parcelle", "amenagement"];
const FARM_COLUMNS = [
  "raisonSociale",
  "siret",
  "nom",
  "prenom",
  "adresse",
  "idPays",
  "libelleDepartement",
  "ville",
  "codeInsee",
  "codePostal",
  "email",
  "portable",
  "bassin",
  "petiteRegionAgricole",
  "idOtex",
  "idTypeAgriculture",
  "strategie",
  "remarque",
  ...SOIL_COLUMNS,
];

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** The labelled field's box: its input and its error message. */
function field(page: Page, label: string | RegExp) {
  const input = page.getByLabel(label, { exact: typeof label === "string" });
  const box = page.locator("div.mb-3", { has: input });
  return { input, error: box.locator(".field-error") };
}

/** The form's fieldset is disabled, and so is every field in it. */
async function expectReadOnly(page: Page, form: string) {
  const fieldset = page.getByTestId(form);
  await expect(fieldset).toHaveAttribute("disabled", "");
  const controls = fieldset.locator("input:not([type=hidden]), select, textarea");
  expect(await controls.count()).toBeGreaterThan(0);
  for (const control of await controls.all()) await expect(control).toBeDisabled();
}

/** The rows these screens write. */
async function farmSnapshot() {
  const ids = await demoIds();
  return {
    farm: await e2eDb()("exploitation").where({ id: ids.tilleuls }).first(),
    caracteristiques: await e2eDb()("caracteristique").orderBy("id").select(),
  };
}

/**
 * The demo's own farm columns and economic characteristics of EARL des Tilleuls, kept before these journeys empty
 * them and put back after, so that the journeys after this file find the demo as it was (its fuel price, say).
 */
let demo: { farm: Record<string, unknown>; caracteristiques: Record<string, unknown>[] } | undefined;
async function keepDemo() {
  if (demo) return;
  const ids = await demoIds();
  demo = {
    farm: await e2eDb()("exploitation").where({ id: ids.tilleuls }).first(FARM_COLUMNS),
    caracteristiques: await e2eDb()("caracteristique").whereIn("idCampagne", [ids.tilleuls2024, ids.tilleuls2025, ids.tilleulsSimulation]).select(),
  };
}
async function restoreDemo() {
  if (!demo) return;
  const ids = await demoIds();
  await e2eDb()("exploitation").where({ id: ids.tilleuls }).update(demo.farm);
  await e2eDb()("caracteristique").whereIn("idCampagne", [ids.tilleuls2024, ids.tilleuls2025, ids.tilleulsSimulation]).delete();
  if (demo.caracteristiques.length) await e2eDb()("caracteristique").insert(demo.caracteristiques);
}

async function resetFarm() {
  const ids = await demoIds();
  await e2eDb()("exploitation")
    .where({ id: ids.tilleuls })
    .update(Object.fromEntries(FARM_COLUMNS.map((c) => [c, null])));
  await e2eDb()("caracteristique").whereIn("idCampagne", [ids.tilleuls2024, ids.tilleuls2025, ids.tilleulsSimulation]).delete();
}

async function openAs(page: Page, who: "redacteur" | "lecteur" | "admin", idCampagne?: number) {
  const ids = await demoIds();
  await setContext(who, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: idCampagne ?? ids.tilleuls2025 });
  await signIn(page, who);
  return ids;
}

test.describe("farm description forms", () => {
  test.beforeAll(keepDemo);
  test.beforeEach(resetFarm);
  test.afterAll(async () => {
    await restoreDemo();
    for (const who of ["redacteur", "lecteur", "admin"] as const) await resetContext(who);
  });

  test("[B-COORD-01] [B-COORD-02] [B-COORD-03] [B-COORD-04] [B-RIGHTS-01] [B-ERR-21] a writer fills the coordinates: bad values are refused next to the field, then the good ones are saved", async ({
    page,
  }) => {
    const ids = await openAs(page, "redacteur");
    await navigate(page, `${BASE}/coordonnees`);
    const screen = page.getByTestId("screen-coordonnees");
    await expect(screen.getByRole("heading", { name: "Coordonnées", level: 1 })).toBeVisible();
    for (const label of ["Raison sociale", "SIRET", "Nom", "Prénom", "Adresse", "Pays", "Code INSEE", "Code postal", "E-mail", "Téléphone portable"]) {
      await expect(page.getByLabel(label, { exact: true }), label).toBeVisible();
    }
    const save = page.getByTestId("save-coordonnees");

    await field(page, "Raison sociale").input.fill("EARL des Tilleuls");
    // Bad values: each refused beside its field, and the save button is disabled.
    const bad: [string, string][] = [
      ["SIRET", "73282932000075"],
      ["E-mail", "earl-at-tilleuls"],
      ["Téléphone portable", "12 34"],
      ["Code postal", "280"],
    ];
    for (const [label, value] of bad) {
      await field(page, label).input.fill(value);
      await field(page, label).input.blur();
      await expect(field(page, label).error, label).toHaveText("Valeur invalide");
      await expect(field(page, label).input).toHaveAttribute("aria-invalid", "true");
    }
    await expect(save).toBeDisabled();

    // France shows the department and commune pickers; a department's communes are required.
    await expect(page.getByLabel("Département", { exact: true })).toHaveCount(0);
    await expect(page.getByLabel("Ville", { exact: true })).toBeVisible();
    await page.getByLabel("Pays", { exact: true }).selectOption({ label: "France" });
    await expect(page.getByLabel("Ville", { exact: true })).toHaveCount(0);
    const commune = page.getByTestId("select-commune");
    await expect(commune).toBeDisabled();
    await page.getByTestId("select-departement").selectOption({ label: "45 - Loiret" });
    await expect(commune).toBeEnabled();
    // Orléans has several postal codes: the first is set, the others are offered.
    await commune.selectOption({ label: "Orléans" });
    await expect(page.getByTestId("code-insee")).toHaveValue("45234");
    await expect(field(page, "Code postal").input).toHaveValue("45000");
    // Choosing another department clears the commune (and its INSEE code).
    await page.getByTestId("select-departement").selectOption({ label: "28 - Eure-et-Loir" });
    await expect(commune).toHaveValue("");
    await expect(page.getByTestId("code-insee")).toHaveValue("");

    // Good values, except the commune still missing: refused beside the commune picker.
    await field(page, "SIRET").input.fill("732 829 320 00074");
    await field(page, "E-mail").input.fill("earl@tilleuls.fr");
    await field(page, "Téléphone portable").input.fill("06 12 34 56 78");
    await field(page, "Code postal").input.fill("28000");
    await field(page, "Code postal").input.blur();
    await expect(save).toBeEnabled();
    await save.click();
    await expect(field(page, "Commune").error).toHaveText("Champ requis");
    await commune.selectOption({ label: "Chartres (28000)" });
    await expect(field(page, "Commune").error).toHaveCount(0);
    await expect(page.getByTestId("code-insee")).toHaveValue("28085");
    await shot(page, "fr-coordonnees-redacteur");
    await save.click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    const row = await e2eDb()("exploitation").where({ id: ids.tilleuls }).first();
    expect(row).toMatchObject({
      raisonSociale: "EARL des Tilleuls",
      siret: "73282932000074",
      idPays: 26,
      libelleDepartement: "Eure-et-Loir",
      ville: "Chartres",
      codeInsee: "28085",
      codePostal: "28000",
      email: "earl@tilleuls.fr",
      portable: "06 12 34 56 78",
    });

    // After the reload the form shows what was saved, the commune list of its department included.
    await page.reload();
    await expect(page.getByTestId("select-commune")).toHaveValue("28085");
    await expect(field(page, "SIRET").input).toHaveValue("73282932000074");
  });

  test("[B-DESC-01] [B-DESC-02] [B-DESC-03] a writer saves the description with Ctrl+S; the animators dialog lists the farm's animators", async ({ page }) => {
    const ids = await openAs(page, "redacteur");
    await navigate(page, `${BASE}/description`);
    await expect(page.getByTestId("screen-description").getByRole("heading", { name: "Description de l'exploitation", level: 1 })).toBeVisible();
    await page.getByLabel("Bassin", { exact: true }).selectOption({ label: "Seine-Normandie" });
    await page.getByLabel("Orientation technico-économique (OTEX)").selectOption({ index: 1 });
    await page.getByLabel("Type d'agriculture").selectOption({ label: "Agriculture biologique" });
    await page.getByLabel("Petite région agricole").fill("Beauce chartraine");
    await page.getByLabel("Stratégie", { exact: true }).fill("Allonger la rotation");
    await page.getByLabel("Remarques", { exact: true }).fill("Sols limoneux profonds");
    await page.getByLabel(/^Remarque annuelle \(campagne 2025/).fill("Printemps sec");
    // The soil fields of the farm are shown here too, edited on their own screen.
    await expect(page.getByTestId("description-soil")).toContainText("Type de sol (Arvalis)");
    await expect(page.getByTestId("description-soil").getByRole("link", { name: "Modifier les caractéristiques pédologiques" })).toBeVisible();

    await page.keyboard.press("Control+s");
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect.poll(async () => (await e2eDb()("exploitation").where({ id: ids.tilleuls }).first("strategie")).strategie).toBe("Allonger la rotation");
    expect(await e2eDb()("exploitation").where({ id: ids.tilleuls }).first("bassin", "petiteRegionAgricole", "remarque", "idTypeAgriculture")).toEqual({
      bassin: "SEINE-NORMANDIE",
      petiteRegionAgricole: "Beauce chartraine",
      remarque: "Sols limoneux profonds",
      idTypeAgriculture: 2,
    });
    expect(await e2eDb()("caracteristique").where({ idCampagne: ids.tilleuls2025 }).first("remarqueAnnuelle", "anneeprix")).toEqual({
      remarqueAnnuelle: "Printemps sec",
      anneeprix: 2025,
    });

    await page.getByTestId("open-animateurs").click();
    const dialog = page.getByTestId("animateurs-dialog");
    await expect(dialog.locator("thead th")).toHaveText(["Nom", "Prénom", "E-mail"]);
    await expect(dialog.locator("tbody tr")).toHaveText(["DurandBrunoanimateur@sillon.example", "MartinAliceadmin@sillon.example"]);
    await shot(page, "fr-description-animateurs");
    await dialog.getByRole("button", { name: "Fermer" }).click();

    // Leaving with unsaved changes asks first.
    await page.getByLabel("Stratégie", { exact: true }).fill("Autre chose");
    await page.getByTestId("drawer").getByRole("link", { name: "Coordonnées", exact: true }).click();
    await expect(page.getByTestId("leave-dialog")).toBeVisible();
    await page.getByRole("button", { name: "Rester sur la page" }).click();
    await expect(page).toHaveURL(/\/exploitation\/description$/);
  });

  test("[B-ECO-01] [B-ECO-02] [B-ECO-03] [B-ECO-04] [B-ECO-06] [B-CONST-05] [B-CONST-06] [B-CONST-12] [B-ERR-20] a writer fills the economic characteristics: bad values refused next to the field, the admin-only cards hidden", async ({
    page,
  }) => {
    const ids = await openAs(page, "redacteur");
    await navigate(page, `${BASE}/caracteristiques_economiques`);
    await expect(
      page.getByTestId("screen-caracteristiques_economiques").getByRole("heading", { name: "Caractéristiques économiques", level: 1 }),
    ).toBeVisible();
    // Non-administrators: no long-term loan, short-term rate/duration or own-capital card.
    for (const card of ["eco-card-long-terme", "eco-card-court-terme-taux", "eco-card-capitaux-propres"]) await expect(page.getByTestId(card)).toHaveCount(0);
    await expect(page.getByLabel("Taux à long terme (%)")).toHaveCount(0);
    // The defaults used when a field is empty are said beside it.
    await expect(page.getByText("Si vide : 100,00 € par ha")).toBeVisible();
    await expect(page.getByText("Si vide : 4 600,00 € par exploitation + 45,00 € par ha")).toBeVisible();
    await expect(page.getByTestId("annee-prix")).toHaveText("Année des prix : 2025");

    const save = page.getByTestId("save-caracteristiques");
    for (const [label, value] of [
      ["Cotisations MSA (€)", "cinq mille"],
      ["Fermage moyen (€/ha)", "12O"],
      ["Prix du fioul (€/L)", "-1"],
    ] as const) {
      await field(page, label).input.fill(value);
      await field(page, label).input.blur();
    }
    await expect(field(page, "Cotisations MSA (€)").error).toHaveText("Valeur numérique attendue");
    await expect(field(page, "Fermage moyen (€/ha)").error).toHaveText("Valeur numérique attendue");
    await expect(field(page, "Prix du fioul (€/L)").error).toHaveText("Valeur hors des bornes");
    await expect(save).toBeDisabled();
    await shot(page, "fr-caracteristiques-economiques-errors");

    const good: [string, string][] = [
      ["Cotisations MSA (€)", "5 200"],
      ["Fermage moyen (€/ha)", "180"],
      ["Prix du fioul (€/L)", "0,95"],
      ["Charges diverses (€)", "9100"],
      ["Aides découplées (€)", "24000,50"],
      ["Montant emprunté à court terme (€)", "15000"],
      ["Salariés permanents (€)", "21000"],
    ];
    for (const [label, value] of good) await field(page, label).input.fill(value);
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    expect(await e2eDb()("caracteristique").where({ idCampagne: ids.tilleuls2025 }).first()).toMatchObject({
      cotisationMsa: 5200,
      fermageMoyen: 180,
      prixFioul: 0.95,
      chargesDiverses: 9100,
      aidesDecouplees: 24000.5,
      courtTermeSomme: 15000,
      chargesMainOeuvreSalarialePermanente: 21000,
      anneeprix: 2025,
      longTermeTaux: null,
    });
    // A second save updates the same row.
    await field(page, "Cotisations MSA (€)").input.fill("5300");
    await save.click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    expect(await e2eDb()("caracteristique").where({ idCampagne: ids.tilleuls2025 }).count({ n: "*" }).first()).toMatchObject({ n: 1 });
  });

  test("[B-ECO-04] [B-ECO-05] [B-ECO-07] [B-ECO-08] [B-ECO-09] [B-ECO-10] [B-ECO-11] [B-ECO-12] [B-ECO-13] [B-CONST-04] an administrator edits the admin-only cards within their bounds", async ({
    page,
  }) => {
    const ids = await openAs(page, "admin");
    await navigate(page, `${BASE}/caracteristiques_economiques`);
    for (const card of ["eco-card-long-terme", "eco-card-court-terme-taux", "eco-card-capitaux-propres"]) await expect(page.getByTestId(card)).toBeVisible();
    const save = page.getByTestId("save-caracteristiques");
    // Required: an empty form is refused, each admin-only field showing its message.
    await save.click();
    for (const label of ["Taux à long terme (%)", "Durée à long terme (ans)", "Taux à court terme (%)", "Durée à court terme", "Taux de rémunération (%)"]) {
      await expect(field(page, label).error, label).toHaveText("Champ requis");
    }
    const bad: [string, string, string][] = [
      ["Taux à long terme (%)", "101", "Valeur hors des bornes"],
      ["Durée à long terme (ans)", "25", "Valeur hors des bornes"],
      ["Taux à court terme (%)", "-2", "Valeur hors des bornes"],
      ["Durée à court terme", "un an", "Valeur numérique attendue"],
    ];
    for (const [label, value, message] of bad) {
      await field(page, label).input.fill(value);
      await field(page, label).input.blur();
      await expect(field(page, label).error, label).toHaveText(message);
    }
    await expect(save).toBeDisabled();
    await shot(page, "fr-caracteristiques-economiques-admin-errors");
    const good: [RegExp | string, string][] = [
      ["Taux à long terme (%)", "3,5"],
      ["Durée à long terme (ans)", "12"],
      [/^Part de la valeur de remplacement/, "40"],
      ["Taux à court terme (%)", "4"],
      ["Durée à court terme", "1"],
      ["Taux de rémunération (%)", "2"],
    ];
    for (const [label, value] of good) {
      if (typeof label === "string") await field(page, label).input.fill(value);
      else await page.getByTestId("eco-card-long-terme").getByLabel(label).fill(value);
    }
    await page
      .getByTestId("eco-card-capitaux-propres")
      .getByLabel(/^Part de la valeur de remplacement/)
      .fill("50");
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    expect(await e2eDb()("caracteristique").where({ idCampagne: ids.tilleuls2025 }).first()).toMatchObject({
      longTermeTaux: 3.5,
      longTermeDuree: 12,
      longTermeIvan: 40,
      courtTermeTaux: 4,
      courtTermeDuree: 1,
      remunerationCapitauxPropreTaux: 2,
      remunerationCapitauxPropreIvan: 50,
    });
    await shot(page, "fr-caracteristiques-economiques-admin");
  });

  test("[B-SOIL-01] [B-SOIL-02] [B-SOIL-03] [B-SOIL-04] [B-CONST-08] a writer saves the soil values and replicates them to all campaigns; locked campaigns are left out", async ({
    page,
  }) => {
    const ids = await openAs(page, "redacteur");
    await navigate(page, `${BASE}/caracteristiques_pedologiques`);
    await expect(
      page.getByTestId("screen-caracteristiques_pedologiques").getByRole("heading", { name: "Caractéristiques pédologiques", level: 1 }),
    ).toBeVisible();
    await page.getByLabel("Type de sol (Arvalis)").selectOption({ index: 1 });
    await page.getByLabel("Type de sol (texture)").selectOption({ index: 2 });
    await page.getByLabel("Type de sous-sol").selectOption({ index: 1 });
    await page.getByLabel("Acidité du sol").selectOption({ index: 3 });
    await page.getByLabel("Classe de profondeur").selectOption({ index: 3 });
    await page.getByLabel("Profondeur du sol (cm)").fill("profond");
    await page.getByLabel("Profondeur du sol (cm)").blur();
    await expect(field(page, "Profondeur du sol (cm)").error).toHaveText("Valeur numérique attendue");
    await expect(page.getByTestId("save-sol")).toBeDisabled();
    await page.getByLabel("Profondeur du sol (cm)").fill("90");
    await page.getByLabel("Réserve utile (mm)").fill("150,5");

    await page.getByTestId("save-sol").click();
    const dialog = page.getByTestId("replication-dialog");
    await expect(dialog.getByRole("radio")).toHaveCount(3);
    // A confirmation dialog is 500 wide.
    expect((await dialog.boundingBox())!.width).toBe(500);
    await expect(dialog.getByRole("radio", { name: /^Sur l'exploitation seulement/ })).toBeChecked();
    await expect(dialog.getByRole("radio", { name: /^Sur l'exploitation et la campagne en cours/ })).toBeVisible();
    await dialog.getByRole("radio", { name: /^Sur l'exploitation et toutes ses campagnes/ }).check();
    await expect(dialog.getByTestId("replication-locked")).toContainText("2024");
    await shot(page, "fr-caracteristiques-pedologiques-replication");
    // The plots, plot groups and landscape features of the farm's campaigns, put back at the end.
    const campagnes = [ids.tilleuls2024, ids.tilleuls2025, ids.tilleulsSimulation];
    const before = Object.fromEntries(
      await Promise.all(
        SOIL_TABLES.map(
          async (t) =>
            [
              t,
              await e2eDb()(t)
                .whereIn("idCampagne", campagnes)
                .select("id", "idCampagne", ...SOIL_COLUMNS),
            ] as const,
        ),
      ),
    );
    const count = (t: string, idCampagnes: number[]) => before[t].filter((r) => idCampagnes.includes(r.idCampagne)).length;
    const open = [ids.tilleuls2025, ids.tilleulsSimulation];
    expect(count("parcelle", open), "the demo has plots to replicate onto").toBeGreaterThan(0);
    try {
      await dialog.getByTestId("replication-confirm").click();
      await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
      const outcome = page.getByTestId("replication-outcome");
      const plural = (n: number, one: string, other: string) => `${n} ${n <= 1 ? one : other}`;
      const detail = [
        plural(count("parcelle", open), "parcelle", "parcelles"),
        plural(count("lot_parcelle", open), "lot", "lots"),
        plural(count("amenagement", open), "aménagement", "aménagements"),
      ].join(", ");
      // Three sentences, each on its own line, separated by a space in the text.
      await expect(outcome).toHaveText(
        "Valeurs de sol enregistrées sur l'exploitation et recopiées sur 2 campagnes : 2025, 2025 Simulation réduction phyto. " +
          `Éléments mis à jour : ${detail}. ` +
          "Campagnes verrouillées non modifiées : 2024.",
      );
      await expect(outcome.locator("p")).toHaveCount(3);
      const farm = await e2eDb()("exploitation").where({ id: ids.tilleuls }).first(SOIL_COLUMNS);
      expect(farm).toMatchObject({ profondeurSolCm: 90, reserveUtileMm: 150.5 });
      for (const c of ["idTypeSolArvalis", "idAeeTypeSol", "idTypeSousSol", "idAciditeSol", "idProfondeurSol"]) expect(farm[c], c).not.toBeNull();
      // The open campaigns' rows carry the farm's values; the locked 2024 rows are as they were.
      for (const t of SOIL_TABLES) {
        const after = await e2eDb()(t)
          .whereIn("idCampagne", campagnes)
          .select("id", "idCampagne", ...SOIL_COLUMNS);
        for (const row of after) {
          if (open.includes(row.idCampagne)) expect(row, `${t} ${row.id}`).toMatchObject(farm);
          else expect(row, `${t} ${row.id}`).toEqual(before[t].find((r) => r.id === row.id));
        }
      }
      await shot(page, "fr-caracteristiques-pedologiques-saved");
    } finally {
      for (const t of SOIL_TABLES) for (const { id, idCampagne: _c, ...soil } of before[t]) await e2eDb()(t).where({ id }).update(soil);
    }
  });

  test("[B-RIGHTS-01] [B-RIGHTS-03] a reader sees the four screens read-only: no save button, every field disabled", async ({ page }) => {
    await openAs(page, "lecteur");
    const screens: [string, string][] = [
      ["coordonnees", "coordonnees-form"],
      ["description", "description-form"],
      ["caracteristiques_economiques", "caracteristiques-form"],
      ["caracteristiques_pedologiques", "sol-form"],
    ];
    for (const [screen, form] of screens) {
      await navigate(page, `${BASE}/${screen}`);
      await expectReadOnly(page, form);
      await expect(page.getByTestId("read-only-note")).toHaveText("Lecture seule : vos droits");
      await expect(page.getByTestId(`screen-${screen}`).getByRole("button", { name: "Enregistrer" })).toHaveCount(0);
      await shot(page, `fr-${screen}-lecteur`);
    }
    // The animators dialog is for readers too.
    await navigate(page, `${BASE}/description`);
    await page.getByTestId("open-animateurs").click();
    await expect(page.getByTestId("animateurs-dialog").locator("tbody tr")).toHaveCount(2);

    // Posting the forms anyway is refused (403) and changes nothing.
    const before = await farmSnapshot();
    const posts: [string, Record<string, string>][] = [
      ["coordonnees", { raisonSociale: "Intrus", idPays: "26" }],
      ["description", { strategie: "Intrusion", remarqueAnnuelle: "x" }],
      ["caracteristiques_economiques", { cotisationMsa: "1", updatedAt: "" }],
      ["caracteristiques_pedologiques", { idTypeSolArvalis: "1", replication: "2" }],
    ];
    for (const [screen, form] of posts) {
      const res = await page.request.post(`${BASE.slice(1)}/${screen}`, { form, maxRedirects: 0 });
      expect(res.status(), screen).toBe(403);
    }
    expect(await farmSnapshot()).toEqual(before);
  });

  test("[B-RIGHTS-02] [B-RIGHTS-03] on a locked campaign (published indicators) the writer's forms are read-only", async ({ page }) => {
    const ids = await demoIds();
    await openAs(page, "redacteur", ids.tilleuls2024);
    for (const [screen, form] of [
      ["coordonnees", "coordonnees-form"],
      ["caracteristiques_economiques", "caracteristiques-form"],
    ]) {
      await navigate(page, `${BASE}/${screen}`);
      await expectReadOnly(page, form);
      await expect(page.getByTestId(`screen-${screen}`).getByRole("button", { name: "Enregistrer" })).toHaveCount(0);
    }
  });
});

test.describe("farm description forms in English", () => {
  test.beforeEach(async ({ context }) => contextInEnglish(context));
  test.beforeAll(keepDemo);
  test.afterAll(async () => {
    await restoreDemo();
    await resetContext("admin");
  });

  test("[B-ECO-04] the four screens in English, as an administrator (screenshots)", async ({ page }) => {
    // A long journey (several sign-ins or screens): on a busy 2-core machine it needs more than the default 30 s.
    test.slow();
    const ids = await demoIds();
    await setContext("admin", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await navigate(page, "/login");
    await page.locator("input[name=username]").fill("admin");
    await page.locator("input[name=password]").fill("demo1234");
    await page.locator("form#login button[type=submit]").click();
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    for (const [screen, title] of [
      ["coordonnees", "Coordinates"],
      ["description", "Farm description"],
      ["caracteristiques_economiques", "Economic characteristics"],
      ["caracteristiques_pedologiques", "Soil characteristics"],
    ]) {
      await navigate(page, `${BASE}/${screen}`);
      await expect(page.getByTestId(`screen-${screen}`).getByRole("heading", { level: 1 })).toHaveText(title);
      await shot(page, `en-${screen}-admin`);
    }
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("replication-dialog")).toContainText("On the farm and all its campaigns");
    await shot(page, "en-caracteristiques_pedologiques-replication");
  });
});

test("[B-CONST-13] on a description screen the locale is kept in browser storage (the user's token no longer is, issue 10), and the selection survives a reload", async ({
  page,
}) => {
  await resetContext("redacteur");
  await openAs(page, "redacteur");
  await navigate(page, `${BASE}/coordonnees`);
  await expect(page.getByRole("heading", { name: "Coordonnées", level: 1 })).toBeVisible();
  await page.getByTestId("app-header").getByTestId("locale-select").selectOption("en");
  await page.waitForEvent("load", { timeout: 6000 });
  const stored = await page.evaluate(() => ({ locale: window.localStorage.getItem("locale"), token: window.localStorage.getItem("token") }));
  expect(stored.locale).toBe("en");
  // Issue 10, defect 6: the session cookie keeps the user; no token in browser storage.
  expect(stored.token).toBeNull();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Coordinates", level: 1 })).toBeVisible();
  // The network, folder, farm and campaign chosen are still those of the context bar (kept with the user, decision 0003).
  await expect(page.getByTestId("select-oad")).toHaveText("Réseau démo");
  await expect(page.getByTestId("select-dossier")).toHaveText("Groupe Grandes cultures Beauce");
  await expect(page.getByTestId("select-exploitations")).toContainText("EARL des Tilleuls");
  await expect(page.getByTestId("select-campagne")).toHaveText("2025");
  await page.evaluate(() => window.localStorage.setItem("locale", "fr"));
});
