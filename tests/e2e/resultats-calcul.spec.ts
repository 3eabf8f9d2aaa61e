import { mkdirSync } from "node:fs";
import { e2eDb, expect, inEnglish, navigate, test, userId } from "./fixtures";
import { demoIds, insertId, noSeriousAxeViolationInMain, setContext, signIn } from "./helpers";

/**
 * The calculation screen and a series' detail (issue 14): a writer runs the calculation of GAEC du Moulin 2025 through
 * the check dialog and watches its progress, publishes two groups and looks at the charts and an explanation; an
 * animator validates: the campaign's interventions become read-only; un-validation and unpublication free them. The
 * series made here are deleted at the end and the campaign's flags put back.
 */
const SHOTS = "/tmp/shots-resultats-calcul";
mkdirSync(SHOTS, { recursive: true });
const CALCUL = "/home/resultats/calcul";

async function moulin2025() {
  const ids = await demoIds();
  const c = await e2eDb()("campagne").where({ idExploitation: ids.moulin, anneeRecolte: 2025, simulation: false }).first("id");
  return { ids, idCampagne: c.id as number };
}

test("[C-CALC-01] [C-CALC-02] [C-CALC-03] [C-CALC-04] [C-CALC-05] [C-CALC-06] [C-CALC-07] [C-CALC-08] [C-CALC-09] [C-CALC-10] [C-CALC-12] [C-CALC-13] [C-CALC-15] [C-CALC-16] [C-CALC-17] [C-CALC-18] [C-CALC-19] [C-CALC-20] [C-CALC-21] [C-CALC-22] [C-CALC-24] [C-CALC-25] [C-CHECK-23] [C-CHECK-24] [A-CALC-01] [A-CALC-02] [A-CALC-03] [C-RIGHTS-10] a writer runs and publishes a calculation, an animator validates it and the interventions become read-only, un-validation frees them", async ({
  page,
}) => {
  // A whole round of a calculation (run, publish, visa, un-visa, restart) on both users: longer than one screen.
  test.setTimeout(90_000);
  const { ids, idCampagne } = await moulin2025();
  const db = e2eDb();
  const contexte = { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.moulin], idCampagne };
  await setContext("redacteur", contexte);
  await setContext("animateur", contexte);
  const avant = (await db("calcul_serie").where({ idCampagne }).select("id")).map((r) => r.id as number);
  // C-CALC-05: a result export of Ferme de la Vallée 2025, a campaign of the other folder (Bocage), not ticked here.
  const vallee2025 = (await db("campagne").where({ idExploitation: ids.vallee, anneeRecolte: 2025, simulation: false }).first("id")).id as number;
  const idSession = await insertId("session_export", {
    nature: 1,
    libelle: "E2E export Vallée",
    statut: 2,
    idUtilisateur: await userId("redacteur"),
    dtFinSession: new Date(),
  });
  await insertId("session_export_campagne", { idSessionExport: idSession, idCampagne: vallee2025 });
  try {
    await signIn(page, "redacteur");
    // C-CALC-01, 02: resultats goes to calcul, without the context bar.
    await navigate(page, "/home/resultats");
    await expect(page).toHaveURL(/\/home\/resultats\/calcul/);
    await expect(page.getByTestId("context-bar")).toHaveCount(0);
    const ecran = page.getByTestId("screen-calcul");
    const campagne = ecran.getByTestId(`selection-campagne-${idCampagne}`);
    await expect(campagne).toBeChecked();
    // C-CALC-08: no campaign, no launch.
    await campagne.uncheck();
    await expect(page.getByTestId("lancer-calcul")).toBeDisabled();
    await campagne.check();
    await expect(page.getByTestId("lancer-calcul")).toBeEnabled();
    await expect(page.getByRole("table", { name: "Calculs effectués" })).toBeVisible();
    // C-CALC-05: the export sessions panel (the export screens' own) lists the sessions of every folder's campaigns.
    const sessions = page.getByTestId("sessions-export");
    await expect(sessions.getByRole("heading", { name: "Exports de résultats" })).toBeVisible();
    await expect(sessions.getByRole("table", { name: "Exports de résultats" }).getByTestId(`session-${idSession}`)).toContainText("Une erreur est survenue");
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/calcul-fr.png`, fullPage: true });

    // The check comes first: the seeds without an emission coefficient are warnings, with their labels; confirmed, the run starts.
    await page.getByTestId("lancer-calcul").click();
    const controle = page.getByTestId("controle-dialog");
    await expect(controle).toBeVisible();
    const messages = controle.getByTestId("controle-message");
    await expect(messages.first()).toContainText("n'a pas de coefficient d'émission");
    expect((await messages.allTextContents()).join(" ")).not.toMatch(/\{\{|undefined/);
    await expect(controle.getByRole("link", { name: "Corriger" }).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/controle-fr.png`, fullPage: true });
    await page.getByTestId("controle-confirmer").click();
    const calcul = page.getByTestId("serie-calcul-dialog");
    await expect(calcul.getByRole("progressbar")).toBeVisible();
    await expect(calcul.getByTestId("calcul-termine")).toBeVisible();
    await expect(calcul.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "4");
    await calcul.getByRole("link", { name: /Ouvrir le calcul de GAEC du Moulin 2025/ }).click();

    // The detail: not published; publish two groups.
    const detail = page.getByTestId("screen-calcul-serie");
    await expect(detail.getByTestId("etat-serie")).toHaveText("Non publié");
    await expect(detail.getByTestId("visa")).toBeDisabled();
    await detail.getByTestId("groupe-1").check();
    await expect(detail.getByTestId("etat-serie")).toHaveText("Publié");
    await detail.getByTestId("groupe-4").check();
    await expect(detail.getByTestId("groupe-4")).toBeChecked();
    await expect(detail.getByTestId("groupe-1")).toBeChecked();
    // A writer who is not an animator cannot validate (C-RIGHTS-10).
    await expect(detail.getByTestId("visa")).toBeDisabled();
    await expect(detail.getByText("Seul un animateur du dossier peut valider.")).toBeVisible();

    // Charts per plot, the IFT split, the table; a bar opens its explanation.
    const graphiques = page.getByTestId("graphiques-serie");
    await expect(graphiques.getByTestId("graphique-ift.cible.total").getByTestId("barre")).toHaveCount(4);
    await expect(graphiques.getByTestId("graphique-ift-segments")).toBeVisible();
    await expect(graphiques.getByTestId("tableau-graphiques").locator("tbody tr")).toHaveCount(4);
    await page.screenshot({ path: `${SHOTS}/serie-detail-fr.png`, fullPage: true });
    await graphiques.getByTestId("graphique-travail.temps.total").getByTestId("barre").first().click();
    const explication = page.getByTestId("explication-dialog");
    await expect(explication).toContainText("Formule : temps de travail (h/ha) = passages × part de surface ÷ débit de chantier");
    await expect(explication.getByTestId("explication-entrees")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/explication-fr.png`, fullPage: true });
    await explication.getByRole("button", { name: "Fermer" }).click();
    await graphiques.getByRole("radio", { name: "Par culture" }).check();
    await expect(graphiques.getByTestId("tableau-graphiques").locator("tbody tr").first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/serie-cultures-fr.png`, fullPage: true });
    await noSeriousAxeViolationInMain(page);
    const urlDetail = page.url().replace(/^.*\/sillon/, "");

    // The animator validates, after a warning.
    await page.context().clearCookies();
    await signIn(page, "animateur");
    await navigate(page, urlDetail);
    await expect(detail.getByTestId("etat-serie")).toHaveText("Publié");
    await detail.getByTestId("visa").click();
    const confirmation = page.getByTestId("confirmation-serie");
    await expect(confirmation).toContainText("ne sont plus modifiables");
    await confirmation.getByTestId("confirmation-ok").click();
    await expect(detail.getByTestId("etat-serie")).toHaveText("Publié et validé");
    await expect(detail.getByTestId("serie-verrouillee")).toBeVisible();
    await expect(detail.getByTestId("groupe-2")).toBeDisabled();
    await expect(detail.getByTestId("groupe-tous")).toBeDisabled();
    await expect(detail.getByTestId("remarque")).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/serie-validee-fr.png`, fullPage: true });

    // The campaign's raw data are read-only.
    await navigate(page, "/home/description/au_champs/interventions");
    await expect(page.getByTestId("list-new")).toBeDisabled();
    await expect(page.getByTestId("read-only-note").first()).toBeVisible();

    // Un-validation (confirmed): still published, so still locked until unpublished.
    await navigate(page, urlDetail);
    await detail.getByTestId("retirer-visa").click();
    await expect(confirmation).toContainText("redeviendront modifiables");
    await confirmation.getByTestId("confirmation-ok").click();
    await expect(detail.getByTestId("etat-serie")).toHaveText("Publié");

    // Restart asks a confirmation, then opens the series-calculation dialog (its check first).
    await detail.getByTestId("relancer").click();
    await expect(confirmation).toContainText("relancés");
    await confirmation.getByTestId("confirmation-ok").click();
    await expect(page.getByTestId("controle-dialog")).toBeVisible();
    await page.getByTestId("controle-dialog").getByRole("button", { name: "Annuler" }).click();

    // The header checkbox: all groups, then none: unpublished, the interventions are editable again.
    await detail.getByTestId("groupe-tous").click();
    await expect(detail.getByTestId("groupe-6")).toBeChecked();
    await detail.getByTestId("groupe-tous").click();
    await expect(detail.getByTestId("groupe-1")).not.toBeChecked();
    await expect(detail.getByTestId("etat-serie")).toHaveText("Non publié");
    await navigate(page, "/home/description/au_champs/interventions");
    await expect(page.getByTestId("list-new")).toBeEnabled();
  } finally {
    await db("calcul_serie")
      .where({ idCampagne })
      .whereNotIn("id", avant.length ? avant : [0])
      .delete();
    await db("campagne").where({ id: idCampagne }).update({ serieValide: false, indicateurPublie: false });
    await db("session_export").where({ id: idSession }).delete();
  }
});

test("[C-RIGHTS-23] a reader is offered no campaign to calculate; the demo's published series of EARL des Tilleuls 2024 is listed to a writer", async ({
  page,
}) => {
  const ids = await demoIds();
  await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "lecteur");
  await navigate(page, CALCUL);
  await expect(page.getByTestId("selection-campagnes-vide")).toBeVisible();
  await expect(page.getByTestId("lancer-calcul")).toBeDisabled();

  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
  await page.context().clearCookies();
  await signIn(page, "redacteur");
  await navigate(page, CALCUL);
  const liste = page.getByRole("table", { name: "Calculs effectués" });
  await expect(liste.getByRole("row").filter({ hasText: "EARL des Tilleuls" }).filter({ hasText: "Publié" }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/calculs-liste-fr.png`, fullPage: true });
});

test("[C-CHECK-25] a campaign whose check answers OK is calculated at once, without the pre-check dialog", async ({ page }) => {
  const ids = await demoIds();
  const db = e2eDb();
  // A farm of its own (the demo campaigns all give warnings): one plot with its area and its crop, nothing else to check.
  const idExploitation = await insertId("exploitation", { libelle: "E2E Ferme sans reproche" });
  try {
    await insertId("dossier_exploitation", {
      idDossier: ids.beauce,
      idExploitation,
      dexEcriture: true,
      dexLecture: true,
      dexSynthese: true,
      dexAnimation: true,
      dexNominatif: true,
    });
    const idCampagne = await insertId("campagne", { idExploitation, anneeRecolte: 2025, apiLibelle: "2025" });
    const idParcelle = await insertId("parcelle", { idCampagne, libelle: "E2E Parcelle complète", surface: 3 });
    const culture = await db("culture").orderBy("id").first("id");
    await db("affectation_culture_cible").insert({ idParcelle, idCulture: culture.id });
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [idExploitation], idCampagne });
    await signIn(page, "redacteur");
    await navigate(page, CALCUL);
    await expect(page.getByTestId(`selection-campagne-${idCampagne}`)).toBeChecked();
    const lancements: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && /intent=lancer/.test(r.postData() ?? "")) lancements.push(r.postData() ?? "");
    });
    const lancement = page.waitForResponse((r) => r.request().method() === "POST" && /intent=lancer/.test(r.request().postData() ?? ""));
    await page.getByTestId("lancer-calcul").click();
    // One launch request, answered at once with its job: the check is the job's first step (C-CALC-09, issue 30),
    // the run follows in the same job by itself.
    expect((await lancement).ok()).toBe(true);
    const dialogue = page.getByTestId("serie-calcul-dialog");
    await expect(dialogue.getByTestId("calcul-termine")).toBeVisible();
    // Nobody confirmed anything: no pre-check dialog was shown, no second launch asked for.
    await expect(page.getByTestId("controle-dialog")).toHaveCount(0);
    expect(lancements).toHaveLength(1);
    expect(lancements[0]).not.toMatch(/confirme/);
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/controle-ok.png`, fullPage: true });
    await dialogue.getByTestId("serie-calcul-fermer").click();
    expect(await db("calcul_serie").where({ idCampagne }).first("statut")).toMatchObject({ statut: "termine" });
  } finally {
    await db("exploitation").where({ id: idExploitation }).delete();
  }
});

test("[issue14-perimee] a published series whose campaign's data changed after its calculation is shown out of date on the calculation screen and the published indicators, in French and English", async ({
  page,
}) => {
  const ids = await demoIds();
  const db = e2eDb();
  // A farm of its own: its plot's area changes here, no other journey's data moves.
  const idExploitation = await insertId("exploitation", { libelle: "E2E Ferme à recalculer" });
  try {
    await insertId("dossier_exploitation", {
      idDossier: ids.beauce,
      idExploitation,
      dexEcriture: true,
      dexLecture: true,
      dexSynthese: true,
      dexAnimation: true,
      dexNominatif: true,
    });
    const idCampagne = await insertId("campagne", { idExploitation, anneeRecolte: 2025, apiLibelle: "2025" });
    const idParcelle = await insertId("parcelle", { idCampagne, libelle: "E2E Parcelle", surface: 3 });
    // A published series of that campaign (its counters are stamped by the database at its creation).
    const idSerie = await insertId("calcul_serie", {
      idCampagne,
      statut: "termine",
      publication: true,
      visaAnimateur: false,
      remarque: "E2E",
      dtFin: new Date(),
      nbParcellesATraiter: 1,
      nbParcellesTraitees: 1,
      nbParcellesTraiteesReussies: 1,
    });
    for (let g = 1; g <= 6; g++) await insertId("calcul_serie_groupe", { idCalculSerie: idSerie, idGroupe: g, publie: true });
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [idExploitation], idCampagne });
    await signIn(page, "redacteur");
    await navigate(page, `${CALCUL}?campagne=${idCampagne}`);
    const ligne = page.getByRole("table", { name: "Calculs effectués" }).getByRole("row").filter({ hasText: "E2E Ferme à recalculer" });
    await expect(ligne).toContainText("Publié");
    await expect(ligne.getByTestId("serie-perimee")).toHaveCount(0);

    // The plot's area changes after the calculation: the series is out of date.
    await db("parcelle").where({ id: idParcelle }).update({ surface: 4 });
    await navigate(page, `${CALCUL}?campagne=${idCampagne}`);
    await expect(ligne.getByTestId("serie-perimee")).toHaveText(/^Données modifiées depuis le calcul/);
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/calcul-perimee-fr.png`, fullPage: true });
    await navigate(page, `/home/resultats/indicateurs?campagne=${idCampagne}`);
    const publiee = page.getByTestId(`serie-publiee-${idSerie}`);
    await expect(publiee.getByTestId("serie-perimee")).toHaveText(/^Données modifiées depuis le calcul/);
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/indicateurs-perimee-fr.png`, fullPage: true });
    await inEnglish(page, `/home/resultats/indicateurs?campagne=${idCampagne}`);
    await expect(publiee.getByTestId("serie-perimee")).toHaveText(/^Data changed since the calculation/);
    await navigate(page, `${CALCUL}?campagne=${idCampagne}`);
    await expect(page.getByTestId("serie-perimee")).toHaveText(/^Data changed since the calculation/);
  } finally {
    await db("exploitation").where({ id: idExploitation }).delete();
  }
});
