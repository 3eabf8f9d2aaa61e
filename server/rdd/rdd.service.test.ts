import { describe, expect, test } from "vitest";
import { culturesCommunes, cultureValide, EvaluationSchema, MACRO_REGLE, nextModes, RddSchema } from "~/domain/rdd";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { createCampagne } from "../campagne/service";
import { round } from "~/domain/calc/indicateurs/resultat";
import { getIndicateursParcelle } from "../calcul/service";
import { copyEvaluation, duplicateRdd, getEvaluations, getRdds, removeEvaluation, removeRdds, saveEvaluation, saveRdd, verdictsOfPlot } from "./service";

const t = useTestDb();
const ctx = (username: string, campagne: "tilleuls2025" | "tilleuls2024" = "tilleuls2025") => selectTilleuls(t, username, campagne);

async function modesOf(idCampagne: number) {
  const rows = await t.db()("mode_conduite").where({ idCampagne }).orderBy("id").select("id", "libelle");
  const by = (l: string) => Number(rows.find((r) => r.libelle === l)!.id);
  return { ble: by("Blé tendre conventionnel"), colza: by("Colza"), orge: by("Orge de printemps brassicole"), betterave: by("Betterave sucrière") };
}
const rule = (modeConduite: number[], extra: Record<string, unknown> = {}) =>
  RddSchema.parse({ libelle: "Règle d'essai", dicIdTypeRdd: "4", modeConduite: modeConduite.map(String), objectif: "Objectif", ...extra });

describe(`decision rules (${dialect})`, () => {
  test("[C-RDD-06] [C-RDD-08] [C-RDD-15] [C-RDD-16] a writer creates a rule on two modes: it comes first, holds its fields, and the mode filter finds it; a saved rule replaces its row", async () => {
    const redacteur = await ctx("redacteur");
    const { campagnes } = t.demo();
    const m = await modesOf(campagnes.tilleuls2025);
    const before = (await getRdds(scopeOf(t.db(), redacteur))).rows.map((r) => r.id);
    expect(before.length).toBeGreaterThan(0);
    const id = await saveRdd(scopeOf(t.db(), redacteur), rule([m.ble, m.orge], { aModifier: "on" }));
    let { rows } = await getRdds(scopeOf(t.db(), redacteur));
    expect(rows.map((r) => r.id)).toEqual([id, ...before]);
    expect(rows[0]).toMatchObject({
      libelle: "Règle d'essai",
      dicIdTypeRdd: 4,
      modeConduite: [m.ble, m.orge],
      idCulture: null,
      aModifier: true,
      objectif: "Objectif",
      idCampagne: campagnes.tilleuls2025,
    });
    // modeConduite filter: the rules naming the mode, and the macro rules (every mode).
    const colza = (await getRdds(scopeOf(t.db(), redacteur), { modeConduite: m.colza })).rows;
    expect(colza.map((r) => r.id)).not.toContain(id);
    expect(colza.every((r) => r.macroRegle || r.modeConduite.includes(m.colza))).toBe(true);
    expect(colza.some((r) => r.macroRegle)).toBe(true);
    expect((await getRdds(scopeOf(t.db(), redacteur), { modeConduite: m.orge })).rows.map((r) => r.id)).toContain(id);
    await saveRdd(scopeOf(t.db(), redacteur), rule([MACRO_REGLE], { libelle: "Règle générale" }), { id, updatedAt: rows[0].updatedAt });
    ({ rows } = await getRdds(scopeOf(t.db(), redacteur)));
    expect(rows[0]).toMatchObject({ id, libelle: "Règle générale", macroRegle: true, modeConduite: [MACRO_REGLE] });
    expect(await t.db()("rdd_mode_conduite").where({ idRdd: id })).toEqual([]);
    await expectRefused(saveRdd(scopeOf(t.db(), redacteur), rule([m.ble]), { id, updatedAt: "2000-01-01T00:00:00.000Z" }), "errors.stale", 409);
  });

  test("[C-RDD-09] [C-RDD-10] [C-RDD-11] [C-RDD-12] [C-RDD-13] [C-RDD-14] the form's rules: macro rule exclusive, crops common to the chosen modes, required fields", async () => {
    expect(nextModes([3, 4], [3, 4, MACRO_REGLE])).toEqual([MACRO_REGLE]);
    expect(nextModes([MACRO_REGLE], [MACRO_REGLE, 5])).toEqual([5]);
    expect(nextModes([3], [3, 4])).toEqual([3, 4]);
    const parMode = { 1: [10, 11, 12], 2: [11, 12, 13], 3: [14] };
    expect(culturesCommunes([1], parMode)).toEqual([10, 11, 12]);
    expect(culturesCommunes([1, 2], parMode)).toEqual([11, 12]);
    expect(culturesCommunes([1, 2, 3], parMode)).toEqual([]);
    expect(culturesCommunes([MACRO_REGLE], parMode)).toEqual([10, 11, 12, 13, 14]);
    expect(cultureValide(10, [1, 2], parMode)).toBeUndefined();
    expect(cultureValide(11, [1, 2], parMode)).toBe(11);
    const errors = (input: Record<string, unknown>) => {
      const r = RddSchema.safeParse(input);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(errors({})).toMatchObject({ libelle: "warning.required", dicIdTypeRdd: "warning.required", modeConduite: "warning.required" });
    expect(errors({ libelle: "x", dicIdTypeRdd: "1", modeConduite: ["0", "5"] })).toEqual({ modeConduite: "warning.invalid" });
    expect(errors({ libelle: "x", dicIdTypeRdd: "1", modeConduite: "5" })).toEqual({});
    // The server refuses a crop that is not common to the chosen modes (wheat is not grown in the rapeseed mode).
    const redacteur = await ctx("redacteur");
    const m = await modesOf(t.demo().campagnes.tilleuls2025);
    const ble = Number((await t.db()("culture").where({ libelle: "Blé tendre d'hiver" }).first("id")).id);
    await expectRefused(saveRdd(scopeOf(t.db(), redacteur), rule([m.ble, m.colza], { idCulture: String(ble) })), "warning.invalid-form", 400, {
      fieldErrors: { idCulture: ["warning.invalid"] },
    });
    const id = await saveRdd(scopeOf(t.db(), redacteur), rule([m.ble], { idCulture: String(ble) }));
    expect((await getRdds(scopeOf(t.db(), redacteur))).rows[0]).toMatchObject({ id, idCulture: ble });
    // A mode of another campaign is refused.
    const other = await modesOf(t.demo().campagnes.tilleuls2024);
    await expectRefused(saveRdd(scopeOf(t.db(), redacteur), rule([other.ble])), "warning.invalid-form", 400);
  });

  test("[C-RDD-05] duplicate copies one rule with its modes, on top; delete removes rules and their evaluations", async () => {
    const redacteur = await ctx("redacteur");
    const { rows } = await getRdds(scopeOf(t.db(), redacteur));
    const source = rows.find((r) => r.modeConduite.length === 2)!;
    const copy = await duplicateRdd(scopeOf(t.db(), redacteur), source.id);
    const after = (await getRdds(scopeOf(t.db(), redacteur))).rows;
    expect(after[0]).toMatchObject({ id: copy, libelle: `${source.libelle} (copie)`, modeConduite: source.modeConduite, dicIdTypeRdd: source.dicIdTypeRdd });
    await removeRdds(scopeOf(t.db(), redacteur), [copy]);
    expect((await getRdds(scopeOf(t.db(), redacteur))).rows.map((r) => r.id)).not.toContain(copy);
    await expectRefused(removeRdds(scopeOf(t.db(), redacteur), [copy]), "errors.not-found", 404);
  });

  test("[C-RIGHTS-08] a reader and a locked campaign are refused every write of rules and evaluations, and nothing changes", async () => {
    const lecteur = await ctx("lecteur");
    const { rows, canWrite } = await getRdds(scopeOf(t.db(), lecteur));
    expect(canWrite).toBe(false);
    const m = await modesOf(t.demo().campagnes.tilleuls2025);
    const before = await snapshot(t.db(), "rdd", "rdd_mode_conduite", "rdd_evaluation");
    await expectRefused(saveRdd(scopeOf(t.db(), lecteur), rule([m.ble])), "errors.forbidden", 403);
    await expectRefused(duplicateRdd(scopeOf(t.db(), lecteur), rows[0].id), "errors.forbidden", 403);
    await expectRefused(removeRdds(scopeOf(t.db(), lecteur), [rows[0].id]), "errors.forbidden", 403);
    const plot = await t.db()("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2025, idModeConduite: m.ble }).orderBy("id").first("id");
    await expectRefused(
      saveEvaluation(scopeOf(t.db(), lecteur), { idParcelle: plot.id }, EvaluationSchema.parse({ rdds: [String(rows[0].id)] })),
      "errors.forbidden",
      403,
    );
    // tilleuls2024 is locked (its indicators are published): even the animator may not write it.
    const animateur = await ctx("animateur", "tilleuls2024");
    const m24 = await modesOf(t.demo().campagnes.tilleuls2024);
    await expectRefused(saveRdd(scopeOf(t.db(), animateur), rule([m24.ble])), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "rdd", "rdd_mode_conduite", "rdd_evaluation")).toEqual(before);
  });
});

describe(`rule evaluations (${dialect})`, () => {
  async function wheatAction() {
    const { campagnes } = t.demo();
    const m = await modesOf(campagnes.tilleuls2025);
    const plots = await t.db()("parcelle").where({ idCampagne: campagnes.tilleuls2025, idModeConduite: m.ble }).orderBy("id").select("id");
    const action = await t.db()("action").where({ idParcelle: plots[0].id }).orderBy(["date", "id"]).first("id");
    return { m, plot: Number(plots[0].id), plots: plots.map((p) => Number(p.id)), action: Number(action.id) };
  }

  test("[C-EVAL-01] [C-EVAL-02] [C-EVAL-03] [C-EVAL-13] [C-EVAL-14] the panels read the evaluations by action and by parcelle, and the rules not yet evaluated on the plot", async () => {
    const redacteur = await ctx("redacteur");
    const { plot, action } = await wheatAction();
    const e = await getEvaluations(scopeOf(t.db(), redacteur), action);
    expect(e.idParcelle).toBe(plot);
    expect(e.actionEvaluations.length).toBeGreaterThan(0);
    expect(e.actionEvaluations.every((x) => x.idAction === action && x.idParcelle === null)).toBe(true);
    expect(e.plotEvaluations.every((x) => x.idParcelle === plot && x.idAction === null)).toBe(true);
    expect(Object.keys(e.plotEvaluations[0]).sort()).toEqual(
      expect.arrayContaining(["id", "idRdd", "idAction", "idParcelle", "ecartSolution", "explicationEcart", "ecartResultat", "justification", "aModifier"]),
    );
    const onPlot = new Set(e.plotEvaluations.map((x) => x.idRdd));
    expect(e.notEvaluated.length).toBeGreaterThan(0);
    expect(e.notEvaluated.every((r) => !onPlot.has(r.id))).toBe(true);
    expect(e.rules.map((r) => r.id).sort()).toEqual([...new Set([...onPlot, ...e.notEvaluated.map((r) => r.id)])].sort());
  });

  test("[C-EVAL-07] [C-EVAL-08] [C-EVAL-09] [C-EVAL-10] [C-EVAL-11] evaluating rules on the plot, once per rule; an evaluation moves between the intervention and the plot", async () => {
    const redacteur = await ctx("redacteur");
    const { plot, action } = await wheatAction();
    const before = await getEvaluations(scopeOf(t.db(), redacteur), action);
    const [a, b] = before.notEvaluated;
    expect(EvaluationSchema.safeParse({ rdds: [] }).success).toBe(false);
    expect(EvaluationSchema.safeParse({ rdds: ["1"], ecartSolution: "3" }).success).toBe(false);
    for (const v of ["0", "1", "2"]) expect(EvaluationSchema.parse({ rdds: ["1"], ecartSolution: v, ecartResultat: v }).ecartSolution).toBe(Number(v));
    const ids = await saveEvaluation(
      scopeOf(t.db(), redacteur),
      { idParcelle: plot },
      EvaluationSchema.parse({ rdds: [String(a.id), String(b.id)], ecartSolution: "2", explicationEcart: "En partie", ecartResultat: "0" }),
    );
    expect(ids).toHaveLength(2);
    let after = await getEvaluations(scopeOf(t.db(), redacteur), action);
    expect(after.notEvaluated.map((r) => r.id)).not.toContain(a.id);
    // The same rule again on the plot updates its evaluation (each rule once per plot).
    await saveEvaluation(scopeOf(t.db(), redacteur), { idParcelle: plot }, EvaluationSchema.parse({ rdds: [String(a.id)], ecartSolution: "1" }));
    after = await getEvaluations(scopeOf(t.db(), redacteur), action);
    expect(after.plotEvaluations.filter((x) => x.idRdd === a.id)).toHaveLength(1);
    expect(after.plotEvaluations.find((x) => x.idRdd === a.id)).toMatchObject({ ecartSolution: 1, explicationEcart: null });
    // Opened from the plot table and saved for the intervention: it moves (one scope only).
    const row = after.plotEvaluations.find((x) => x.idRdd === b.id)!;
    await saveEvaluation(scopeOf(t.db(), redacteur), { idAction: action }, EvaluationSchema.parse({ rdds: [String(b.id)], ecartSolution: "0" }), {
      id: row.id,
      updatedAt: row.updatedAt,
    });
    after = await getEvaluations(scopeOf(t.db(), redacteur), action);
    expect(after.plotEvaluations.map((x) => x.id)).not.toContain(row.id);
    expect(after.actionEvaluations.find((x) => x.id === row.id)).toMatchObject({ idAction: action, idParcelle: null, ecartSolution: 0 });
    await removeEvaluation(scopeOf(t.db(), redacteur), row.id);
    expect((await getEvaluations(scopeOf(t.db(), redacteur), action)).actionEvaluations.map((x) => x.id)).not.toContain(row.id);
    // A rule that does not apply to the plot's mode is refused.
    const bleMode = (await wheatAction()).m.ble;
    const colzaRule = (await getRdds(scopeOf(t.db(), redacteur))).rows.find((r) => !r.macroRegle && !r.modeConduite.includes(bleMode))!;
    await expectRefused(
      saveEvaluation(scopeOf(t.db(), redacteur), { idParcelle: plot }, EvaluationSchema.parse({ rdds: [String(colzaRule.id)] })),
      "warning.invalid-form",
      400,
    );
  });

  test("[C-EVAL-05] [C-EVAL-06] [C-EVAL-12] bulk add copies an evaluation to interventions, and to plots of the same management mode only", async () => {
    const redacteur = await ctx("redacteur");
    const { action, m } = await wheatAction();
    const e = await getEvaluations(scopeOf(t.db(), redacteur), action);
    const source = e.plotEvaluations[0];
    expect(e.plots.length).toBeGreaterThan(0);
    expect(e.interventions.length).toBeGreaterThan(0);
    const n = await copyEvaluation(
      scopeOf(t.db(), redacteur),
      source.id,
      "parcelle",
      e.plots.map((p) => p.id),
    );
    expect(n).toBe(e.plots.length);
    for (const p of e.plots)
      expect(await t.db()("rdd_evaluation").where({ idRdd: source.idRdd, idParcelle: p.id }).first("ecartSolution")).toMatchObject({
        ecartSolution: source.ecartSolution,
      });
    await copyEvaluation(scopeOf(t.db(), redacteur), source.id, "action", [e.interventions[0].id]);
    expect(await t.db()("rdd_evaluation").where({ idRdd: source.idRdd, idAction: e.interventions[0].id }).first("id")).toBeTruthy();
    const colzaPlot = await t.db()("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2025, idModeConduite: m.colza }).first("id");
    await expectRefused(copyEvaluation(scopeOf(t.db(), redacteur), source.id, "parcelle", [colzaPlot.id]), "warning.invalid-form", 400);
  });

  test("a new campaign copies the rules with their modes remapped, the protocols, objectives and plot evaluations; intervention evaluations only with the interventions", async () => {
    const animateur = await ctx("animateur");
    const { campagnes, dossiers, exploitations } = t.demo();
    const make = (inter: boolean, annee: number) =>
      createCampagne(
        scopeOf(t.db(), animateur),
        { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls },
        {
          anneeRecolte: annee,
          apiLibelle: undefined,
          campagneSource: campagnes.tilleuls2025,
          campagneHistoParcelle: undefined,
          inter,
          majDtInter: false,
          obs: false,
          eltObserve: false,
          valeur: false,
          prix: false,
        },
      );
    const id = await make(false, 2026);
    const count = async (table: string, idCampagne: number) => Number((await t.db()(table).where({ idCampagne }).count({ n: "*" }).first())!.n);
    for (const table of ["rdd", "protocole_exploitation", "indicateur_objectif"])
      expect(await count(table, id)).toBe(await count(table, campagnes.tilleuls2025));
    const links = await t
      .db()("rdd_mode_conduite as l")
      .join("rdd as r", "r.id", "l.idRdd")
      .join("mode_conduite as m", "m.id", "l.idModeConduite")
      .where("r.idCampagne", id)
      .select("m.idCampagne");
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => Number(l.idCampagne) === id)).toBe(true);
    const evals = async (idCampagne: number) =>
      t.db()("rdd_evaluation as e").join("rdd as r", "r.id", "e.idRdd").where("r.idCampagne", idCampagne).select("e.idAction", "e.idParcelle");
    expect((await evals(id)).every((e) => e.idAction === null)).toBe(true);
    expect((await evals(id)).length).toBe((await evals(campagnes.tilleuls2025)).filter((e) => e.idAction === null).length);
    const withInter = await make(true, 2027);
    expect((await evals(withInter)).length).toBe((await evals(campagnes.tilleuls2025)).length);
  });
});

describe(`rule conditions checked on the recorded data (${dialect})`, () => {
  test("[issue13-conditions] each condition form is evaluated on a plot where it holds and one where it is broken, with its facts", async () => {
    const redacteur = await ctx("redacteur");
    const { campagnes } = t.demo();
    const db = t.db();
    const m = await modesOf(campagnes.tilleuls2025);
    const plots = (await db("parcelle").where({ idCampagne: campagnes.tilleuls2025, idModeConduite: m.ble }).orderBy("id").select("id")).map((p) =>
      Number(p.id),
    );
    expect(plots.length).toBeGreaterThanOrEqual(2);
    const [a, b] = plots;
    const actionOf = async (idParcelle: number) => Number((await db("action").where({ idParcelle }).orderBy(["date", "id"]).first("id")).id);
    // Fixture: on plot a, two done passes of one product 10 days apart; on plot b, 40 days apart; a forbidden product only on plot a.
    const ins = async (idParcelle: number, date: string, libelle: string) => {
      const [r] = await db("action").insert({ idCampagne: campagnes.tilleuls2025, idParcelle, date, anneeRecolte: 2025, realisee: true }).returning("id");
      const idAction = typeof r === "object" ? (r as { id: number }).id : (r as number);
      const cat = await db("categorie_intrant").where({ idTypeIntrant: 539 }).first("id");
      await db("intrant").insert({ idAction, idCategorie: cat.id, libelleIntrant: libelle, quantite: 1, dicLlUnite: "l/ha" });
    };
    await ins(a, "2025-06-01", "Produit Essai X");
    await ins(a, "2025-06-11", "Produit Essai X");
    await ins(b, "2025-06-01", "Produit Essai X");
    await ins(b, "2025-07-11", "Produit Essai X");
    await ins(a, "2025-06-20", "Interdit Z 500");
    const delai = await saveRdd(scopeOf(db, redacteur), rule([m.ble], { libelle: "Délai", conditionType: "delai_min", conditionJours: "30" }));
    const interdit = await saveRdd(
      scopeOf(db, redacteur),
      rule([m.ble], { libelle: "Interdit", conditionType: "produit_interdit", conditionProduits: "interdit z" }),
    );
    const verdicts = async (plot: number) =>
      Object.fromEntries(
        (await getEvaluations(scopeOf(db, redacteur), await actionOf(plot))).verdicts
          .filter((v) => [delai, interdit].includes(v.idRdd))
          .map((v) => [v.libelle, v]),
      );
    const onA = await verdicts(a);
    // (The demo's own passes may also be too close together: only the fixture's product is looked at here.)
    const essai = (v: { faits: { libelle: string }[] }) => v.faits.filter((f) => f.libelle === "Produit Essai X");
    expect(onA["Délai"].respectee).toBe(false);
    expect(essai(onA["Délai"])).toEqual([{ date: "2025-06-01", date2: "2025-06-11", libelle: "Produit Essai X", jours: 10 }]);
    expect(onA["Interdit"]).toMatchObject({ respectee: false, faits: [{ date: "2025-06-20", libelle: "Interdit Z 500" }] });
    const onB = await verdicts(b);
    expect(essai(onB["Délai"])).toEqual([]);
    expect(onB["Interdit"]).toMatchObject({ respectee: true, faits: [] });
    // The form requires what the chosen condition needs.
    expect(RddSchema.safeParse({ libelle: "x", dicIdTypeRdd: "1", modeConduite: "1", conditionType: "delai_min" }).error?.issues[0]).toMatchObject({
      path: ["conditionJours"],
      message: "warning.required",
    });
    expect(RddSchema.safeParse({ libelle: "x", dicIdTypeRdd: "1", modeConduite: "1", conditionType: "produit_interdit" }).error?.issues[0]).toMatchObject({
      path: ["conditionProduits"],
      message: "warning.required",
    });
  });
});

describe(`rule conditions on the indicators and on planned interventions (${dialect})`, () => {
  const idOf = (r: unknown) => (typeof r === "object" ? (r as { id: number }).id : (r as number));

  async function fixture() {
    const redacteur = await ctx("redacteur");
    const { campagnes } = t.demo();
    const db = t.db();
    const m = await modesOf(campagnes.tilleuls2025);
    const [a, b] = (await db("parcelle").where({ idCampagne: campagnes.tilleuls2025, idModeConduite: m.ble }).orderBy("id").select("id")).map((p) =>
      Number(p.id),
    );
    const action = async (idParcelle: number, values: Record<string, unknown>) =>
      idOf(
        (
          await db("action")
            .insert({ idCampagne: campagnes.tilleuls2025, idParcelle, anneeRecolte: 2025, realisee: true, frequence: 1, tauxSurface: 1, ...values })
            .returning("id")
        )[0],
      );
    const firstAction = async (idParcelle: number) => Number((await db("action").where({ idParcelle }).orderBy(["date", "id"]).first("id")).id);
    return { redacteur, db, m, a, b, action, firstAction, campagne: campagnes.tilleuls2025 };
  }
  const panel = async (f: Awaited<ReturnType<typeof fixture>>, idParcelle: number, code: string) =>
    (await getIndicateursParcelle(scopeOf(f.db, f.redacteur), idParcelle)).indicateurs.find((i) => i.code === code)!.valeur;

  test("[issue13-conditions] total mineral N at most X kg/ha: broken on the plot above X, holds on the one below; the verdict's figure is the plot panel's", async () => {
    const f = await fixture();
    // Fixture: 300 kg/ha of a 33.5 % N mineral fertiliser (100.5 kg N/ha) on plot a, nothing added on plot b.
    const idAction = await f.action(f.a, { date: "2025-04-02" });
    const idIntrant = idOf(
      (
        await f
          .db("intrant")
          .insert({ idAction, idCategorie: 655, libelleIntrant: "Ammonitrate essai RDD", quantite: 300, dicLlUnite: "kg/ha" })
          .returning("id")
      )[0],
    );
    await f.db("caracteristique_intrant").insert({ idIntrant, n: 33.5 });
    const [na, nb] = [await panel(f, f.a, "fertilisation.n.mineral"), await panel(f, f.b, "fertilisation.n.mineral")];
    expect(na! - (nb ?? 0)).toBeGreaterThan(0);
    const max = round(((na ?? 0) + (nb ?? 0)) / 2, 2);
    // Plot b must be below the threshold for the fixture to hold there.
    expect(nb ?? 0).toBeLessThanOrEqual(max);
    const id = await saveRdd(
      scopeOf(f.db, f.redacteur),
      rule([f.m.ble], { libelle: "Azote max", conditionType: "azote_mineral_max", conditionMax: String(max) }),
    );
    const verdictOn = async (plot: number) =>
      (await getEvaluations(scopeOf(f.db, f.redacteur), await f.firstAction(plot))).verdicts.find((v) => v.idRdd === id)!;
    const onA = await verdictOn(f.a);
    expect(onA).toMatchObject({ respectee: false, mesure: { code: "fertilisation.n.mineral", valeur: round(na!, 2), unite: "kg N/ha", max } });
    expect(onA.faits).toContainEqual({ date: "2025-04-02", libelle: "Ammonitrate essai RDD", valeur: 100.5, unite: "kg N/ha" });
    const onB = await verdictOn(f.b);
    expect(onB).toMatchObject({ respectee: true, mesure: { valeur: nb == null ? null : round(nb, 2), max } });
    expect(onB.faits.some((x) => x.libelle === "Ammonitrate essai RDD")).toBe(false);
  });

  test("[issue13-conditions] IFT at most X: broken on the plot above X, holds on the one below; the verdict's figure is the plot panel's", async () => {
    const f = await fixture();
    const [ia, ib] = [await panel(f, f.a, "ift.cible.total"), await panel(f, f.b, "ift.cible.total")];
    const [hi, lo] = (ia ?? 0) >= (ib ?? 0) ? [f.a, f.b] : [f.b, f.a];
    // Fixture: one more herbicide pass on the plot with the higher IFT (no reference dose: one full dose, the official default).
    const idAction = await f.action(hi, { date: "2025-04-03" });
    await f.db("intrant").insert({ idAction, idCategorie: 5391, libelleIntrant: "Herbicide essai RDD", quantite: 2, dicLlUnite: "l/ha" });
    const [vHi, vLo] = [await panel(f, hi, "ift.cible.total"), await panel(f, lo, "ift.cible.total")];
    expect(vHi!).toBeGreaterThan(vLo ?? 0);
    const max = round(((vHi ?? 0) + (vLo ?? 0)) / 2, 2);
    const id = await saveRdd(scopeOf(f.db, f.redacteur), rule([f.m.ble], { libelle: "IFT max", conditionType: "ift_max", conditionMax: String(max) }));
    const verdictOn = async (plot: number) =>
      (await getEvaluations(scopeOf(f.db, f.redacteur), await f.firstAction(plot))).verdicts.find((v) => v.idRdd === id)!;
    const onHi = await verdictOn(hi);
    expect(onHi).toMatchObject({ respectee: false, mesure: { code: "ift.cible.total", valeur: round(vHi!, 2), max } });
    expect(onHi.faits.find((x) => x.libelle.startsWith("Herbicide essai RDD"))).toMatchObject({ date: "2025-04-03", valeur: 1 });
    expect(await verdictOn(lo)).toMatchObject({ respectee: true, mesure: { valeur: vLo == null ? null : round(vLo, 2), max } });
  });

  test("[issue13-conditions] planned interventions done by a date: broken when one is done late or not done after the date, pending before it, holds when done in time", async () => {
    const f = await fixture();
    const op = await f.db("operation_culturale").where({ idCampagne: f.campagne }).first("idTypeAction");
    const idOp = idOf(
      (await f.db("operation_culturale").insert({ idCampagne: f.campagne, idTypeAction: op.idTypeAction, libelle: "Semis essai RDD" }).returning("id"))[0],
    );
    // Plot a: planned on 1 May, not done; plot b: planned and done on 15 May.
    await f.action(f.a, { date: "2025-05-01", idOperationCulturale: idOp, prevue: true, realisee: false });
    await f.action(f.b, { date: "2025-05-15", idOperationCulturale: idOp, prevue: true, realisee: true });
    const id = await saveRdd(
      scopeOf(f.db, f.redacteur),
      rule([f.m.ble], { libelle: "Semis à temps", conditionType: "realisee_avant", conditionDate: "01/06/2025", conditionOperation: "semis essai" }),
    );
    const rules = (await getRdds(scopeOf(f.db, f.redacteur))).rows.filter((r) => r.id === id);
    expect(rules[0].condition).toEqual({ type: "realisee_avant", date: "2025-06-01", operation: "semis essai" });
    const onA = (await verdictsOfPlot(f.db, f.campagne, f.a, rules, "2025-07-01"))[0];
    expect(onA).toMatchObject({ respectee: false, faits: [{ date: "2025-05-01", libelle: "Semis essai RDD", statut: "non_realisee" }] });
    // Before the deadline, the planned pass not yet done is pending: nothing is broken yet.
    expect((await verdictsOfPlot(f.db, f.campagne, f.a, rules, "2025-05-20"))[0]).toMatchObject({ respectee: true, faits: [{ statut: "en_attente" }] });
    expect((await verdictsOfPlot(f.db, f.campagne, f.b, rules, "2025-07-01"))[0]).toMatchObject({ respectee: true, faits: [] });
    // Done after the deadline: broken.
    await f.db("action").where({ idParcelle: f.b, idOperationCulturale: idOp }).update({ date: "2025-06-10" });
    expect((await verdictsOfPlot(f.db, f.campagne, f.b, rules, "2025-07-01"))[0]).toMatchObject({
      respectee: false,
      faits: [{ date: "2025-06-10", statut: "en_retard" }],
    });
    // Through the screen's service (today's date, past the deadline): broken on plot a.
    expect((await getEvaluations(scopeOf(f.db, f.redacteur), await f.firstAction(f.a))).verdicts.find((v) => v.idRdd === id)).toMatchObject({
      respectee: false,
    });
  });

  test("[issue13-conditions] a rule naming a crop is checked only on plots of that crop; the form requires each condition's own field", async () => {
    const f = await fixture();
    const crop = (await f.db("culture").whereNot("id", -1).orderBy("id", "desc").first("id")).id;
    const rules = [{ id: 1, libelle: "Autre culture", idCulture: Number(crop), condition: { type: "produit_interdit" as const, produits: ["x"] } }];
    expect(await verdictsOfPlot(f.db, f.campagne, f.a, rules)).toEqual([]);
    expect(await verdictsOfPlot(f.db, f.campagne, f.a, [{ ...rules[0], idCulture: null }])).toHaveLength(1);
    const issue = (extra: Record<string, unknown>) => RddSchema.safeParse({ libelle: "x", dicIdTypeRdd: "1", modeConduite: "1", ...extra }).error?.issues[0];
    expect(issue({ conditionType: "azote_mineral_max" })).toMatchObject({ path: ["conditionMax"], message: "warning.required" });
    expect(issue({ conditionType: "ift_max" })).toMatchObject({ path: ["conditionMax"], message: "warning.required" });
    expect(issue({ conditionType: "realisee_avant" })).toMatchObject({ path: ["conditionDate"], message: "warning.required" });
    expect(issue({ conditionType: "realisee_avant", conditionDate: "31/02/2025" })).toMatchObject({ path: ["conditionDate"], message: "warning.date" });
    expect(issue({ conditionType: "ift_max", conditionMax: "-1" })).toMatchObject({ path: ["conditionMax"] });
    // A duplicated rule keeps its condition.
    const id = await saveRdd(scopeOf(f.db, f.redacteur), rule([f.m.ble], { conditionType: "ift_max", conditionMax: "2,5" }));
    const copy = await duplicateRdd(scopeOf(f.db, f.redacteur), id);
    expect((await getRdds(scopeOf(f.db, f.redacteur))).rows.find((r) => r.id === copy)!.condition).toEqual({ type: "ift_max", max: 2.5 });
  });
});
