import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { e2eDb, expect, login, navigate, test, userId, type DemoUser } from "./fixtures";
import { apiAs } from "./helpers";

/** Decision rules and their evaluations (spec 3 §2.8, §2.9, §4.4; issue 13). */

const SHOTS = process.env.E2E_SHOTS_DIR ?? "tests/.artifacts/shots";
const RDD = "/home/description/protocole/rdd";
const INTERVENTIONS = "/home/description/au_champs/interventions";

async function tilleuls2025() {
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id");
  const campagne = await db("campagne").where({ idExploitation: farm.id, anneeRecolte: 2025, simulation: false }).first("id");
  const dossier = await db("dossier").where({ libelle: "Groupe Grandes cultures Beauce" }).first("id", "idOad");
  const mode = async (libelle: string) => Number((await db("mode_conduite").where({ idCampagne: campagne.id, libelle }).first("id")).id);
  return {
    farm: Number(farm.id),
    campagne: Number(campagne.id),
    dossier,
    ble: await mode("Blé tendre conventionnel"),
    orge: await mode("Orge de printemps brassicole"),
  };
}

async function open(page: Page, user: DemoUser, path: string) {
  const c = await tilleuls2025();
  const idUser = await userId(user);
  const db = e2eDb();
  await db("utilisateur_contexte").where({ idUser }).delete();
  await db("utilisateur_contexte").insert({
    idUser,
    idOad: c.dossier.idOad,
    idDossier: c.dossier.id,
    exploitations: JSON.stringify([c.farm]),
    idCampagne: c.campagne,
  });
  await page.context().clearCookies();
  await login(page, user);
  await page.waitForURL(/home\/description\/home/);
  await navigate(page, path);
  return c;
}

async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("[C-PROTO-01] [C-RDD-01] [C-RDD-02] [C-RDD-03] [C-RDD-04] [C-RDD-05] [C-RDD-06] [C-RDD-07] [C-RDD-09] [C-RDD-10] [C-RDD-11] [C-RDD-14] a writer filters the rules, creates a rule on two driving modes (macro rule exclusive, crops common to the modes) and duplicates it", async ({
  page,
}) => {
  await open(page, "redacteur", "/home/description/protocole");
  await expect(page).toHaveURL(/protocole\/description_systeme/);
  const c = await open(page, "redacteur", RDD);
  const table = page.getByTestId("table-rdd");
  const demo = await e2eDb()("rdd").where({ idCampagne: c.campagne }).count({ n: "*" }).first();
  expect(Number(demo!.n), "the demo fills the rules screen").toBeGreaterThanOrEqual(4);
  await expect(table.locator("tbody tr")).toHaveCount(Number(demo!.n));
  // Driving-mode filter: the rapeseed rule goes, the macro rule stays.
  await page.getByTestId("rdd-filter-mode").selectOption({ label: "Orge de printemps brassicole" });
  await expect(table).not.toContainText("Semer le colza");
  await expect(table).toContainText("Pas de fongicide sans observation");
  await page.getByTestId("rdd-filter-mode").selectOption({ label: "Tous les modes" });
  await expect(table).toContainText("Semer le colza");
  // To-modify filter.
  await page.getByTestId("rdd-filter-a-modifier").check();
  await expect(table.locator("tbody tr")).toHaveCount(
    await e2eDb()("rdd")
      .where({ idCampagne: c.campagne, aModifier: true })
      .count({ n: "*" })
      .first()
      .then((r) => Number(r!.n)),
  );
  await page.getByTestId("rdd-filter-a-modifier").uncheck();
  await axe(page);
  await page.screenshot({ path: `${SHOTS}/rdd-fr.png`, fullPage: true });

  await page.getByTestId("list-new").click();
  const form = page.getByTestId("rdd-form");
  const label = `Règle ${Date.now()}`;
  await form.getByLabel("Libellé", { exact: true }).fill(label);
  await form.getByLabel("Type de règle").selectOption({ label: "Fertilisation" });
  const modes = page.getByTestId("rdd-modes");
  await modes.getByLabel("Blé tendre conventionnel").check();
  await page.getByTestId("rdd-culture").selectOption({ label: "Blé tendre d'hiver" });
  // A second mode without wheat: the crop is cleared, only the common crops remain (none here).
  await modes.getByLabel("Orge de printemps brassicole").check();
  await expect(page.getByTestId("rdd-culture")).toHaveValue("");
  await expect(page.getByTestId("rdd-culture").locator("option")).toHaveCount(1);
  // The macro rule replaces every other choice, and a mode chosen after it replaces it.
  await modes.getByLabel("Macro-règle (tous les modes)").check();
  await expect(modes.getByLabel("Blé tendre conventionnel")).not.toBeChecked();
  await expect(modes.getByLabel("Orge de printemps brassicole")).not.toBeChecked();
  await modes.getByLabel("Blé tendre conventionnel").check();
  await expect(modes.getByLabel("Macro-règle (tous les modes)")).not.toBeChecked();
  await modes.getByLabel("Orge de printemps brassicole").check();
  await page.screenshot({ path: `${SHOTS}/rdd-form-fr.png`, fullPage: true });
  await page.getByTestId("list-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
  const first = table.locator("tbody tr").first();
  await expect(first).toContainText(label);
  await expect(first).toContainText("Blé tendre conventionnel, Orge de printemps brassicole");
  await expect(first).toHaveAttribute("aria-selected", "true");
  const saved = await e2eDb()("rdd").where({ idCampagne: c.campagne, libelle: label }).first("id");
  expect((await e2eDb()("rdd_mode_conduite").where({ idRdd: saved.id }).orderBy("idModeConduite")).map((l) => Number(l.idModeConduite)).sort()).toEqual(
    [c.ble, c.orge].sort(),
  );

  // Duplicate: enabled with exactly one ticked row.
  await expect(page.getByTestId("rdd-duplicate")).toBeDisabled();
  await page.getByTestId(`check-${saved.id}`).check();
  await expect(page.getByTestId("rdd-duplicate")).toBeEnabled();
  await table.locator("tbody tr").nth(1).locator("input[type=checkbox]").check();
  await expect(page.getByTestId("rdd-duplicate")).toBeDisabled();
  await table.locator("tbody tr").nth(1).locator("input[type=checkbox]").uncheck();
  await page.getByTestId("rdd-duplicate").click();
  await expect(table.locator("tbody tr").first()).toContainText(`${label} (copie)`);
});

test("[C-FORM-01] [C-FORM-02] [C-ERR-35] [C-EVAL-01] [C-EVAL-02] [C-EVAL-03] [C-EVAL-04] [C-EVAL-05] [C-EVAL-06] [C-EVAL-07] [C-EVAL-10] [C-EVAL-11] [C-EVAL-12] [C-CONST-15] [issue13-conditions] the intervention form's evaluation panels: a broken rule flagged on the plot; evaluate a rule on the intervention, load an existing one, bulk add to plots of the same mode", async ({
  page,
}) => {
  const c = await tilleuls2025();
  const db = e2eDb();
  const plot = await db("parcelle").where({ idCampagne: c.campagne, idModeConduite: c.ble }).orderBy("id").first("id");
  const action = await db("action").where({ idParcelle: plot.id }).orderBy(["date", "id"]).offset(1).first("id");
  await db("rdd_evaluation").where({ idAction: action.id }).delete();
  await open(page, "redacteur", `${INTERVENTIONS}?parcelleId=${plot.id}&id=${action.id}`);
  const panels = page.getByTestId("evaluation-panels");
  await expect(page.getByTestId("panel-eval-intervention")).toBeVisible();
  await expect(page.getByTestId("panel-eval-parcelle")).toBeVisible();
  await expect(page.getByTestId("eval-intervention-empty")).toBeVisible();
  await expect(page.getByTestId("eval-parcelle-row").first()).toBeVisible();
  await expect(page.getByTestId("rdd-non-evaluee").first()).toBeVisible();
  // Beyond the spec: the demo's forbidden-product rule is broken on this plot (FIDOX sprayed in November), with the fact
  // behind it; the nitrogen interval rule holds.
  await expect(page.getByTestId("verdict-enfreinte")).toContainText("Désherbage mixte des céréales");
  await expect(page.getByTestId("verdict-enfreinte")).toContainText("FIDOX 800 le 06/11/2024");
  await expect(page.getByTestId("verdict-respectee")).toContainText("Fractionner l'azote du blé");

  // A new rule evaluated on this intervention (gaps 0 yes, 1 no, 2 partially).
  const rule = await db("rdd")
    .where({ idCampagne: c.campagne, libelle: "Désherbage mixte des céréales : herse étrille puis rattrapage" })
    .first("id", "libelle");
  await page.getByTestId("evaluer-intervention").click();
  const dialog = page.getByTestId("evaluation-dialog");
  await expect(dialog).toBeVisible();
  expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(700);
  await expect(page.getByTestId("evaluation-save")).toBeDisabled();
  await expect(page.getByTestId("eval-rdds-error")).toBeVisible();
  await expect(page.getByTestId("eval-ecartSolution").locator("option")).toHaveText(["Choisir…", "0 – Oui", "1 – Non", "2 – Partiellement"]);
  await dialog.getByLabel(rule.libelle).check();
  // The computed verdict of the rule's condition is shown beside the adviser's answers.
  await expect(dialog.getByTestId("dialog-verdicts")).toContainText("FIDOX 800");
  await page.getByTestId("eval-ecartSolution").selectOption("2");
  await page.getByTestId("eval-ecartResultat").selectOption("1");
  await dialog.getByLabel("Explication de l'écart").fill("Herse passée une seule fois");
  await axe(page);
  await page.screenshot({ path: `${SHOTS}/evaluation-dialog-fr.png` });
  await page.getByTestId("evaluation-save").click();
  await expect(page.getByTestId("snackbar")).toHaveText("Enregistrement effectué");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("eval-intervention-row")).toContainText(rule.libelle);
  await expect(page.getByTestId("eval-intervention-row")).toContainText("Partiellement");
  await expect
    .poll(async () => await db("rdd_evaluation").where({ idAction: action.id, idRdd: rule.id }).first("ecartSolution", "ecartResultat", "idParcelle"))
    .toMatchObject({ ecartSolution: 2, ecartResultat: 1, idParcelle: null });

  // Ticking a rule that is already evaluated loads its evaluation (here the plot's), scope included.
  const plotEval = await db("rdd_evaluation as e")
    .join("rdd as r", "r.id", "e.idRdd")
    .where({ "e.idParcelle": plot.id })
    .orderBy("e.id")
    .first("r.libelle", "e.justification");
  await page.getByTestId("evaluer-intervention").click();
  await dialog.getByLabel(plotEval.libelle).check();
  await expect(page.getByTestId("eval-loaded")).toBeVisible();
  await expect(page.getByTestId("portee-parcelle")).toBeChecked();
  await expect(dialog.getByLabel("Justification")).toHaveValue(plotEval.justification ?? "");
  await dialog.getByRole("button", { name: "Annuler" }).click();

  // Bulk add of a plot evaluation: only the plots of the same mode are offered; at least one must be ticked.
  await page.getByTestId("panel-eval-parcelle").getByTestId("bulk-parcelle").first().click();
  const bulk = page.getByTestId("bulk-dialog");
  const sameMode = await db("parcelle").where({ idCampagne: c.campagne, idModeConduite: c.ble }).whereNot({ id: plot.id }).orderBy("libelle").select("libelle");
  await expect(bulk.getByTestId("bulk-targets").locator("label")).toHaveText(sameMode.map((p) => p.libelle));
  await expect(page.getByTestId("bulk-copy")).toBeDisabled();
  await bulk.getByTestId("bulk-targets").locator("input").first().check();
  await page.getByTestId("bulk-copy").click();
  await expect(bulk).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/evaluation-panels-fr.png`, fullPage: true });

  // A new intervention has no evaluation panels until it is saved.
  await page.getByTestId("list-new").click();
  await expect(page.getByTestId("evaluation-panels")).toHaveCount(0);
  void panels;
});

test("[C-RIGHTS-07] [C-RIGHTS-08] a reader: the to-modify filter is off, evaluation rows do not open the form, and posts are refused at HTTP level", async ({
  page,
}) => {
  const c = await tilleuls2025();
  const db = e2eDb();
  await open(page, "lecteur", RDD);
  await expect(page.getByTestId("rdd-filter-a-modifier")).toBeDisabled();
  await expect(page.getByTestId("list-new")).toBeDisabled();
  const plot = await db("parcelle").where({ idCampagne: c.campagne, idModeConduite: c.ble }).orderBy("id").first("id");
  const action = await db("action").where({ idParcelle: plot.id }).orderBy(["date", "id"]).first("id");
  await navigate(page, `${INTERVENTIONS}?parcelleId=${plot.id}&id=${action.id}`);
  await expect(page.getByTestId("eval-parcelle-row").first()).toBeVisible();
  await expect(
    page
      .getByTestId("eval-parcelle-row")
      .first()
      .getByRole("button", { name: /Fractionner|Pas de fongicide/ }),
  ).toHaveCount(0);
  await expect(page.getByTestId("evaluer-parcelle")).toBeDisabled();

  const before = { rdd: await db("rdd").orderBy("id"), evals: await db("rdd_evaluation").orderBy("id") };
  const api = await apiAs("lecteur");
  const rule = await db("rdd").where({ idCampagne: c.campagne }).first("id");
  const posts: { path: string; form: Record<string, string> }[] = [
    { path: `home${RDD.slice(5)}`, form: { intent: "save", libelle: "Intruse", dicIdTypeRdd: "1", modeConduite: String(c.ble) } },
    { path: `home${RDD.slice(5)}`, form: { intent: "duplicate", id: String(rule.id) } },
    {
      path: `home${INTERVENTIONS.slice(5)}/evaluations`,
      form: { intent: "save", portee: "parcelle", idAction: String(action.id), idParcelle: String(plot.id), rdds: String(rule.id) },
    },
  ];
  for (const p of posts) {
    const res = await api.post(p.path, { form: p.form, maxRedirects: 0 });
    expect(res.status(), p.form.intent).toBe(403);
  }
  expect({ rdd: await db("rdd").orderBy("id"), evals: await db("rdd_evaluation").orderBy("id") }).toEqual(before);
});

test("[C-PROTO-02] [C-PROTO-03] [C-PROTO-04] [C-PROTO-05] [C-PROTO-06] [C-PROTO-09] [C-OBJ-01] [C-OBJ-02] [C-OBJ-03] [C-OBJ-04] [C-OBJ-05] a writer creates a protocol in chapter 2246 with two objective indicators; the last chapter is hidden; the rotation screen is a heading", async ({
  page,
}) => {
  const c = await open(page, "redacteur", "/home/description/protocole/description_systeme");
  const db = e2eDb();
  const chapitres = await db("chapitre_protocole")
    .orderBy([{ column: "ordre" }, { column: "id" }])
    .select("id");
  for (const ch of chapitres.slice(0, -1)) await expect(page.getByTestId(`chapitre-${ch.id}`)).toBeVisible();
  await expect(page.getByTestId(`chapitre-${chapitres.at(-1)!.id}`)).toHaveCount(0);
  await expect(page.getByTestId("objectifs")).toHaveCount(1);
  await expect(page.getByTestId("chapitre-2246").getByTestId("objectifs")).toBeVisible();
  await expect(page.getByTestId("chapitre-2245").getByTestId("objectifs")).toHaveCount(0);
  await db("indicateur_objectif").where({ idCampagne: c.campagne }).delete();
  await page.reload();

  const chapter = page.getByTestId("chapitre-2246");
  await chapter.getByTestId("protocole-new-2246").click();
  const form = page.getByTestId("protocole-form-2246");
  await form.getByTestId("protocole-save-2246").click();
  await expect(form.getByText("Champ requis")).toBeVisible();
  const label = `Objectif ${Date.now()}`;
  await form.getByLabel("Libellé").fill(label);
  await form.getByLabel("Description").fill("Réduire l'IFT de 30 %");
  await form.getByTestId("protocole-save-2246").click();
  await expect(page.getByTestId("protocoles-2246-row").filter({ hasText: label })).toBeVisible();

  for (const [indicateur, value] of [
    ["IFT total", "2,8"],
    ["Azote minéral apporté (kg N/ha)", "140"],
  ] as const) {
    await chapter.getByTestId("objectif-new").click();
    const f = page.getByTestId("objectif-form");
    await f.getByLabel("Indicateur").focus();
    await f.getByLabel("Valeur").fill("beaucoup");
    await f.getByTestId("objectif-save").click();
    await expect(f.getByText("Champ requis")).toBeVisible();
    await expect(f).toBeVisible();
    await expect(f.getByText("Valeur numérique attendue")).toBeVisible();
    await f.getByLabel("Indicateur").selectOption({ label: indicateur });
    await f.getByLabel("Valeur").fill(value);
    await f.getByTestId("objectif-save").click();
    await expect(f).toBeHidden();
  }
  await expect(page.getByTestId("objectifs-table-row")).toHaveCount(2);
  await expect(page.getByTestId("objectifs-table")).toContainText("2,8");
  await expect
    .poll(async () => (await db("indicateur_objectif").where({ idCampagne: c.campagne }).orderBy("id")).map((o) => Number(o.value)))
    .toEqual([2.8, 140]);
  await axe(page);
  await page.screenshot({ path: `${SHOTS}/description-systeme-fr.png`, fullPage: true });

  await navigate(page, "/home/description/protocole/rotation_mode_conduite");
  await expect(page.getByTestId("screen-rotation-mode-conduite").getByRole("heading")).toHaveText("Rotation et modes de conduite");
});

test("[issue13-conditions] a writer gives a rule a nitrogen ceiling and sees it broken on a plot, with the plot panel's figure and the inputs behind it", async ({
  page,
}) => {
  const c = await tilleuls2025();
  const db = e2eDb();
  const label = `Azote plafonné ${Date.now()}`;
  try {
    await open(page, "redacteur", RDD);
    await page.getByTestId("list-new").click();
    const form = page.getByTestId("rdd-form");
    await form.getByLabel("Libellé", { exact: true }).fill(label);
    await form.getByLabel("Type de règle").selectOption({ label: "Fertilisation" });
    await page.getByTestId("rdd-modes").getByLabel("Blé tendre conventionnel").check();
    await form.getByLabel("Condition", { exact: true }).selectOption({ label: "Azote minéral total de la parcelle au plus" });
    await form.getByLabel("Azote minéral maximal (kg N/ha)").fill("10");
    await page.screenshot({ path: `${SHOTS}/rdd-condition-azote-fr.png`, fullPage: true });
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Création effectuée");
    const saved = await db("rdd").where({ idCampagne: c.campagne, libelle: label }).first("condition");
    expect(JSON.parse(saved.condition)).toEqual({ type: "azote_mineral_max", max: 10 });

    // On a wheat plot with mineral nitrogen: the rule is broken, with the figure of the plot's indicator panel.
    const plot = await db("parcelle").where({ idCampagne: c.campagne, idModeConduite: c.ble }).orderBy("id").first("id");
    const action = await db("action").where({ idParcelle: plot.id }).orderBy(["date", "id"]).first("id");
    await navigate(page, `${INTERVENTIONS}?parcelleId=${plot.id}&id=${action.id}`);
    const broken = page.getByTestId("verdict-enfreinte").filter({ hasText: label });
    await expect(broken).toBeVisible();
    await expect(broken).toContainText("azote minéral total au plus 10 kg N/ha");
    const panel = (await page.getByTestId("indicateur-fertilisation.n.mineral").getByTestId("valeur").innerText()).replace(/\s*kg N\/ha$/, "").trim();
    await expect(broken.getByTestId("verdict-mesure")).toContainText(`Valeur de la parcelle : ${panel} kg N/ha pour un maximum de 10`);
    await expect(broken.locator("li").first()).toContainText("kg N/ha");
    await axe(page);
    await broken.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/rdd-condition-enfreinte-fr.png`, fullPage: true });
  } finally {
    await db("rdd").where({ idCampagne: c.campagne, libelle: label }).delete();
  }
});
