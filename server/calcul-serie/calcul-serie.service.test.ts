import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { GROUPES_SERIE } from "~/domain/calc/serie";
import { unlockNeedsRepublication } from "~/domain/access/lock";
import { countRows, demoUser, expectRefused, selectTilleuls, withBrokenTable, withFailingWrite, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { unlockCampagne } from "../campagne/service";
import { saveMainOeuvre } from "../main-oeuvre/service";
import { controlerSerie, executerSerie, expliquerResultat, lancerSerie, lireSerie, listerSeries, modifierSerie } from "./service";

/** Calculation series (issue 14): check, forced run, publication by group, visa and the campaign lock, visibility. */
const t = useTestDb();
const LABOUR = MainOeuvreSchema.parse({ libelle: "Saisonnier", idTypeUser: "951", uta: "1" });

async function campagne(id: number) {
  return t.db()("campagne").where({ id }).first("serieValide", "indicateurPublie");
}
const truthy = (v: unknown) => v === true || v === 1 || v === "1";

async function lancer(username: string, idCampagne: number) {
  const user = await demoUser(t.db(), username);
  const { id, execution } = await lancerSerie(t.db(), user, idCampagne, { executer: (idSerie) => executerSerie(t.db(), idSerie) });
  await execution;
  return id;
}

describe(`calculation series (${dialect})`, () => {
  test("[C-CALC-09] [C-CHECK-23] the check of a demo campaign lists its offending items with message codes and placeholders; only a writer may run it [C-RIGHTS-13]", async () => {
    const idCampagne = t.demo().campagnes.moulin2025;
    const redacteur = await demoUser(t.db(), "redacteur");
    const c = await controlerSerie(t.db(), redacteur, idCampagne);
    expect(["OK", "Avertissement"]).toContain(c.codeRetour);
    for (const d of c.details) {
      expect(d.code).toMatch(/^indicateurs\.controle\./);
      expect(d.libelle).toBeTruthy();
    }
    // A plot without an area refuses the run: Erreur.
    const plot = await t.db()("parcelle").where({ idCampagne }).orderBy("id").first("id", "surface");
    await t.db()("parcelle").where({ id: plot.id }).update({ surface: null });
    const refus = await controlerSerie(t.db(), redacteur, idCampagne);
    expect(refus.codeRetour).toBe("Erreur");
    expect(refus.details).toContainEqual(expect.objectContaining({ code: "indicateurs.controle.surface", objet: "parcelle", id: plot.id, severite: "Erreur" }));
    const avant = await countRows(t.db(), "calcul_serie");
    await expectRefused(lancerSerie(t.db(), redacteur, idCampagne), "errors.services.calcul-service-error", 409);
    expect(await countRows(t.db(), "calcul_serie")).toBe(avant);
    await t.db()("parcelle").where({ id: plot.id }).update({ surface: plot.surface });

    const lecteur = await demoUser(t.db(), "lecteur");
    await expectRefused(controlerSerie(t.db(), lecteur, t.demo().campagnes.tilleuls2025), "errors.forbidden", 403);
  });

  test("[C-RIGHTS-13] [C-RIGHTS-14] a user without write on the farm cannot launch a calculation nor open a detail; nothing is created", async () => {
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const avant = await countRows(t.db(), "calcul_serie");
    for (const username of ["lecteur", "synthese"]) {
      await expectRefused(lancerSerie(t.db(), await demoUser(t.db(), username), idCampagne), "errors.forbidden", 403);
    }
    expect(await countRows(t.db(), "calcul_serie")).toBe(avant);
    const id = await lancer("redacteur", idCampagne);
    await expectRefused(lireSerie(t.db(), await demoUser(t.db(), "lecteur"), id), "errors.forbidden", 403);
  });

  test("[C-CALC-10] [C-CALC-11] [C-CALC-26] a run computes every plot, stores plot, crop, mode and farm rows with their explanation, and deletes the earlier unpublished series (published ones stay)", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.vallee2025;
    const premiere = await lancer("redacteur", idCampagne);
    const publiee = await lancer("redacteur", idCampagne);
    expect(await db("calcul_serie").where({ id: premiere }).first()).toBeUndefined();
    const redacteur = await demoUser(db, "redacteur");
    await modifierSerie(db, redacteur, publiee, { groupes: [{ id: 1, publie: true }] });
    const progres: number[] = [];
    const derniere = await (async () => {
      const { id, execution } = await lancerSerie(db, redacteur, idCampagne, {
        executer: (idSerie) => executerSerie(db, idSerie, (fait) => void progres.push(fait)),
      });
      await execution;
      return id;
    })();
    expect(await db("calcul_serie").where({ id: publiee }).first("id")).toBeDefined();
    const plots = await countRows(db, "parcelle", { idCampagne });
    expect(progres).toEqual([...Array.from({ length: plots }, (_, k) => k + 1), plots]);

    const serie = await db("calcul_serie").where({ id: derniere }).first();
    expect(serie).toMatchObject({ idCampagne, statut: "termine", nbParcellesATraiter: plots, nbParcellesTraiteesReussies: plots, idUtilisateur: redacteur.id });
    expect(serie.dtFin).toBeTruthy();
    expect(serie.createdAt).toBeTruthy();
    for (const niveau of ["parcelle", "culture", "modeConduite", "exploitation"])
      expect(await countRows(db, "calcul_resultat", { idCalculSerie: derniere, niveau })).toBeGreaterThan(0);
    expect(await countRows(db, "calcul_resultat", { idCalculSerie: derniere, niveau: "parcelle", code: "ift.cible.total" })).toBe(plots);

    const detail = await lireSerie(db, redacteur, derniere);
    expect(detail.groupes.map((g) => g.ginNom)).toEqual(GROUPES_SERIE.map((g) => g.ginNom));
    expect(detail.groupes.every((g) => !g.publie)).toBe(true);
    expect(detail.parcelles).toHaveLength(plots);
    expect(detail.parcelles.every((p) => p.idCulture !== null)).toBe(true);
    const ift = detail.resultats.find((r) => r.niveau === "parcelle" && r.code === "ift.cible.total")!;
    const e = await expliquerResultat(db, redacteur, derniere, ift);
    expect(e.explication.formule).toBeTruthy();
    expect(e.valeur).toBe(ift.valeur);
    expect(Array.isArray(e.manquants)).toBe(true);
  });

  test("[C-CALC-12] [C-CALC-13] [C-CALC-14] [C-CALC-15] ticking any group publishes the series and the campaign; unticking all unpublishes; the header sets all", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.moulin2024;
    const id = await lancer("redacteur", idCampagne);
    const redacteur = await demoUser(db, "redacteur");
    const etat = async () => (await listerSeries(db, redacteur, [idCampagne])).find((s) => s.id === id)!.etat;
    expect(await etat()).toBe("nonPublie");
    await modifierSerie(db, redacteur, id, { groupes: [{ id: 2, publie: true }] });
    expect(await etat()).toBe("publie");
    expect(truthy((await campagne(idCampagne)).indicateurPublie)).toBe(true);
    await modifierSerie(db, redacteur, id, { groupes: [{ id: 4, publie: true }] });
    expect((await lireSerie(db, redacteur, id)).groupes.filter((g) => g.publie).map((g) => g.id)).toEqual([2, 4]);
    await modifierSerie(db, redacteur, id, { groupes: [{ id: 2, publie: false }] });
    expect(await etat()).toBe("publie");
    await modifierSerie(db, redacteur, id, { groupes: [{ id: 4, publie: false }] });
    expect(await etat()).toBe("nonPublie");
    expect(truthy((await campagne(idCampagne)).indicateurPublie)).toBe(false);
    await modifierSerie(db, redacteur, id, { tous: true });
    expect((await lireSerie(db, redacteur, id)).groupes.every((g) => g.publie)).toBe(true);
    await modifierSerie(db, redacteur, id, { tous: false });
    expect((await lireSerie(db, redacteur, id)).groupes.every((g) => !g.publie)).toBe(true);
    expect(await etat()).toBe("nonPublie");
  });

  test("[C-CALC-16] [C-CALC-19] [C-CALC-20] [C-CALC-21] [C-CALC-22] [C-RIGHTS-10] only an animator validates a published series; validated, groups and remark are locked and every raw-data write of the campaign is refused through the write gate, even unlocked; un-validation frees it", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2025");
    const id = await lancer("redacteur", idCampagne);
    await expectRefused(modifierSerie(db, animateur, id, { visa: true }), "calcul-serie.erreurs.visa-sans-publication", 409);
    await modifierSerie(db, redacteur, id, { groupes: [{ id: 1, publie: true }] });
    await modifierSerie(db, redacteur, id, { remarque: "Première publication" });
    await expectRefused(modifierSerie(db, redacteur, id, { visa: true }), "errors.forbidden", 403);
    await modifierSerie(db, animateur, id, { visa: true });
    expect(await campagne(idCampagne)).toMatchObject({});
    expect(truthy((await campagne(idCampagne)).serieValide)).toBe(true);
    expect((await listerSeries(db, redacteur, [idCampagne])).find((s) => s.id === id)).toMatchObject({ etat: "valide", remarque: "Première publication" });
    await expectRefused(modifierSerie(db, animateur, id, { groupes: [{ id: 2, publie: true }] }), "calcul-serie.erreurs.serie-validee", 409);
    await expectRefused(modifierSerie(db, animateur, id, { tous: false }), "calcul-serie.erreurs.serie-validee", 409);
    await expectRefused(modifierSerie(db, animateur, id, { remarque: "autre" }), "calcul-serie.erreurs.serie-validee", 409);

    // The raw data: a validated campaign cannot be unlocked, and every write is refused.
    const avant = await countRows(db, "main_oeuvre", { idCampagne });
    await expectRefused(saveMainOeuvre(scopeOf(db, redacteur), LABOUR), "errors.forbidden", 403);
    await expectRefused(
      unlockCampagne(scopeOf(db, redacteur), { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls }, idCampagne),
      "campagne.not-unlockable",
      409,
    );
    expect(await countRows(db, "main_oeuvre", { idCampagne })).toBe(avant);

    // Un-validation: the campaign stays published (locked) until the user unlocks it; then writes pass again.
    await expectRefused(modifierSerie(db, redacteur, id, { visa: false }), "errors.forbidden", 403);
    await modifierSerie(db, animateur, id, { visa: false });
    expect(truthy((await campagne(idCampagne)).serieValide)).toBe(false);
    await unlockCampagne(scopeOf(db, redacteur), { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls }, idCampagne);
    await saveMainOeuvre(scopeOf(db, redacteur), LABOUR);
    expect(await countRows(db, "main_oeuvre", { idCampagne })).toBe(avant + 1);
    // Unpublishing everything frees the campaign for everyone.
    await modifierSerie(db, redacteur, id, { tous: false });
    expect(await campagne(idCampagne)).toMatchObject({});
    expect(truthy((await campagne(idCampagne)).indicateurPublie)).toBe(false);
    await saveMainOeuvre(scopeOf(db, animateur), LABOUR);
  });

  test("[C-RIGHTS-17] [C-RIGHTS-18] [C-RIGHTS-19] writers see every series; readers the published ones; users with neither export right only the published and validated ones", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.vallee2024;
    const redacteur = await demoUser(db, "redacteur");
    const animateur = await demoUser(db, "animateur");
    const nonPubliee = await lancer("redacteur", idCampagne);
    const publiee = await lancer("redacteur", idCampagne);
    await modifierSerie(db, redacteur, publiee, { groupes: [{ id: 3, publie: true }] });
    const validee = await lancer("redacteur", idCampagne);
    await modifierSerie(db, redacteur, validee, { tous: true });
    await modifierSerie(db, animateur, validee, { visa: true });
    // nonPubliee was deleted by the next launch (C-CALC-11): run another one after.
    const derniere = await lancer("redacteur", idCampagne);
    expect(nonPubliee).not.toBe(derniere);
    const ids = async (username: string) => (await listerSeries(db, await demoUser(db, username), [idCampagne])).map((s) => s.id).sort((a, b) => a - b);
    expect(await ids("redacteur")).toEqual([publiee, validee, derniere]);
    // Vallée is in the Bocage folder; grant its readers and synthesis users there for the two other cases.
    const bocage = t.demo().dossiers.bocage;
    const lecteur = await demoUser(db, "lecteur");
    const synthese = await demoUser(db, "synthese");
    for (const [u, flags] of [
      [lecteur, { udoLecture: true }],
      [synthese, { udoSynthese: true }],
    ] as const) {
      if (!(await db("utilisateur_dossier").where({ idUser: u.id, idDossier: bocage }).first("id")))
        await db("utilisateur_dossier").insert({ idUser: u.id, idDossier: bocage, ...flags });
    }
    const link = await db("dossier_exploitation").where({ idDossier: bocage, idExploitation: t.demo().exploitations.vallee }).first();
    expect(link).toBeDefined();
    expect(await ids("lecteur")).toEqual([publiee, validee]);
    expect(await ids("synthese")).toEqual([validee]);
    await modifierSerie(db, animateur, validee, { visa: false });
    await modifierSerie(db, redacteur, validee, { tous: false });
    await modifierSerie(db, redacteur, publiee, { tous: false });
  });

  test("[issue14-demo] the demo's EARL des Tilleuls 2024 has a published series computed by the service at seed time, with a row per plot and indicator", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2024;
    const series = await db("calcul_serie").where({ idCampagne }).select("id", "statut", "nbParcellesATraiter", "nbParcellesTraiteesReussies", "publication");
    expect(series).toHaveLength(1);
    const plots = await countRows(db, "parcelle", { idCampagne });
    expect(series[0]).toMatchObject({ statut: "termine", nbParcellesATraiter: plots, nbParcellesTraiteesReussies: plots });
    expect(truthy(series[0].publication)).toBe(true);
    expect(truthy((await campagne(idCampagne)).indicateurPublie)).toBe(true);
    expect(await countRows(db, "calcul_resultat", { idCalculSerie: series[0].id, niveau: "parcelle", code: "ift.cible.total" })).toBe(plots);
    expect(await countRows(db, "calcul_serie_groupe", { idCalculSerie: series[0].id, publie: true })).toBe(6);
  });

  test("[C-CALC-10] without an executor given, a launch hands the run to the job runner: a 'calcul-serie' job names the series", async () => {
    const db = t.db();
    const { id } = await lancerSerie(db, await demoUser(db, "redacteur"), t.demo().campagnes.moulin2025);
    const serie = await db("calcul_serie").where({ id }).first("idTache", "statut");
    expect(serie.idTache).toBeTruthy();
    expect(await db("tache").where({ id: serie.idTache }).first("type", "parametres")).toMatchObject({ type: "calcul-serie" });
  });
  test("[C-ERR-20] an unexpected failure of a check or launch, of reading a series' indicators or an explanation, or of a change of a series answers its calculation error key (500) and changes nothing", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const idCampagne = t.demo().campagnes.tilleuls2024;
    const { id: idSerie } = await db("calcul_serie").where({ idCampagne }).first("id");
    const resultat = await db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "parcelle", code: "ift.cible.total" }).first("idEntite");
    const avant = await countRows(db, "calcul_serie");
    // The check and the launch: errors.services.calcul-service-error.
    await withBrokenTable(db, "parcelle", (trx) => expectRefused(controlerSerie(trx, redacteur, idCampagne), "errors.services.calcul-service-error", 500));
    await withFailingWrite(db, "calcul_serie", "insert", (trx) =>
      expectRefused(lancerSerie(trx, redacteur, idCampagne), "errors.services.calcul-service-error", 500),
    );
    // Reading the indicators of a series and the explanation of a figure: errors.services.calcul-service-indicateurs-error.
    await withBrokenTable(db, "calcul_resultat", (trx) =>
      expectRefused(lireSerie(trx, redacteur, idSerie), "errors.services.calcul-service-indicateurs-error", 500),
    );
    await withBrokenTable(db, "calcul_resultat", (trx) =>
      expectRefused(
        expliquerResultat(trx, redacteur, idSerie, { niveau: "parcelle", idEntite: String(resultat.idEntite), code: "ift.cible.total" }),
        "errors.services.calcul-service-indicateurs-error",
        500,
      ),
    );
    // The PATCH of a series (publication by group): errors.services.calcul-update-service-error.
    await withFailingWrite(db, "calcul_serie_groupe", "update", (trx) =>
      expectRefused(modifierSerie(trx, redacteur, idSerie, { groupes: [{ id: 1, publie: false }] }), "errors.services.calcul-update-service-error", 500),
    );
    // Refusals keep their own keys; nothing was created nor unpublished.
    await expectRefused(lireSerie(db, await demoUser(db, "lecteur"), 999_999), "errors.not-found", 404);
    expect(await countRows(db, "calcul_serie")).toBe(avant);
    expect(await countRows(db, "calcul_serie_groupe", { idCalculSerie: idSerie, publie: true })).toBe(6);
    expect((await lireSerie(db, redacteur, idSerie)).resultats.length).toBeGreaterThan(0);
  });
  test("[C-CALC-23] [A-LOCK-08] unlocking a campaign whose results are published lets the user edit it while the published series keeps the figures of the data it was computed on; only a recalculation, published, brings the new figures to the published record (decision 0067)", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2024;
    const ctx = { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls };
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2024");
    const { id: publiee } = await db("calcul_serie").where({ idCampagne, publication: true }).first("id");
    const figures = async (idSerie: number) => (await lireSerie(db, redacteur, idSerie)).resultats;
    const avant = await figures(publiee);
    // Published: locked; the unlock asks for a recalculation and a republication (the dialog's warning).
    const flags = await campagne(idCampagne);
    expect(unlockNeedsRepublication({ indicateurPublie: truthy(flags.indicateurPublie) })).toBe(true);
    await expectRefused(saveMainOeuvre(scopeOf(db, redacteur), LABOUR), "errors.forbidden", 403);
    await unlockCampagne(scopeOf(db, redacteur), ctx, idCampagne);
    await saveMainOeuvre(scopeOf(db, redacteur), LABOUR);
    // The edit leaves the published record as it was: same series, still published, same figures.
    expect(truthy((await campagne(idCampagne)).indicateurPublie)).toBe(true);
    expect(await figures(publiee)).toEqual(avant);
    expect((await listerSeries(db, redacteur, [idCampagne])).find((s) => s.id === publiee)).toMatchObject({ etat: "publie" });
    // The recalculation: a new series, unpublished, beside the published one.
    const recalcul = await lancer("redacteur", idCampagne);
    expect((await listerSeries(db, redacteur, [idCampagne])).map((s) => [s.id, s.etat])).toEqual(
      expect.arrayContaining([
        [publiee, "publie"],
        [recalcul, "nonPublie"],
      ]),
    );
    // The republication: the new series published, the old one withdrawn; the campaign stays published.
    await modifierSerie(db, redacteur, recalcul, { tous: true });
    await modifierSerie(db, redacteur, publiee, { tous: false });
    expect((await listerSeries(db, await demoUser(db, "lecteur"), [idCampagne])).map((s) => s.id)).toEqual([recalcul]);
    expect(truthy((await campagne(idCampagne)).indicateurPublie)).toBe(true);
  });
});
