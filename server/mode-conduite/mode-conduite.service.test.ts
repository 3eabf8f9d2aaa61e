import { describe, expect, test } from "vitest";
import { ModeConduiteSchema, type ModeConduiteInput } from "~/domain/mode-conduite";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { countRows, demoUser, expectRefused, snapshot, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import {
  duplicateModesConduite,
  estimateAssurance,
  getDuplicationOptions,
  getModesConduite,
  getQualifiants,
  getTypesSortie,
  removeAssurance,
  removeModesConduite,
  saveModeConduite,
} from "./service";

const t = useTestDb();

async function contextFor(username: string, campagne: "tilleuls2025" | "tilleuls2024" | "moulin2025") {
  const user = await demoUser(t.db(), username);
  const { oads, dossiers, exploitations, campagnes } = t.demo();
  await selectInContext(t.db(), user, { intent: "oad", id: oads.reseauDemo });
  await selectInContext(t.db(), user, { intent: "dossier", id: dossiers.beauce });
  await selectInContext(t.db(), user, { intent: "exploitations", ids: [campagne.startsWith("moulin") ? exploitations.moulin : exploitations.tilleuls] });
  await selectInContext(t.db(), user, { intent: "campagne", id: campagnes[campagne] });
  return user;
}

const ref = async (table: string, where: Record<string, unknown>) => Number((await t.db()(table).where(where).first("id")).id);
const refs = async () => ({
  ble: await ref("culture", { libelle: "Blé tendre d'hiver" }),
  moutarde: await ref("culture", { libelle: "Moutarde blanche" }),
  sorgho: await ref("culture", { libelle: "Sorgho fourrager dérobé" }),
  interculture: await ref("culture", { libelle: "Interculture" }),
  principale: await ref("categorie_culture", { code: "principale" }),
  intermediaire: await ref("categorie_culture", { code: "intermediaire" }),
  derobee: await ref("categorie_culture", { code: "derobee" }),
  grain: await ref("type_sortie", { libelle: "Grain" }),
  paille: await ref("type_sortie", { libelle: "Paille" }),
});

async function mode(libelle: string, extra: Partial<ModeConduiteInput> = {}): Promise<ModeConduiteInput> {
  const r = await refs();
  const meunier = await ref("qualifiant_culture", { idCulture: r.ble, libelle: "Panifiable (meunier)" });
  return {
    libelle,
    aideCouplee: 30,
    dicIdCatCompetilis: undefined,
    remarque: undefined,
    cultures: [
      { idCulture: r.ble, idCatCulture: r.principale, idQualifiant: meunier },
      { idCulture: r.moutarde, idCatCulture: r.intermediaire },
    ],
    assurance: {},
    ...extra,
  };
}

/** Harvests of the test's own plots (the demo plots of another helper may or may not exist). */
async function harvest(idCampagne: number, annee: number, idCulture: number, idTypeSortie: number, plots: [number, number][]) {
  const db = t.db();
  for (const [surface, rendement] of plots) {
    const [p] = await db("parcelle")
      .insert({ idCampagne, libelle: `Essai ${annee} ${surface}`, surface })
      .returning("id");
    const idParcelle = typeof p === "object" ? (p as { id: number }).id : (p as number);
    const [a] = await db("action")
      .insert({ idCampagne, idParcelle, date: `${annee}-07-20`, anneeRecolte: annee, realisee: true })
      .returning("id");
    const idAction = typeof a === "object" ? (a as { id: number }).id : (a as number);
    await db("recolte").insert({ idAction, idCulture, dicIdTypeSortie: idTypeSortie, rendement });
  }
}

describe(`crop management modes (${dialect})`, () => {
  test("the demo campaigns have their modes, and EARL des Tilleuls 2024 harvests give a non-null 2025 estimate", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    for (const name of ["tilleuls2024", "tilleuls2025", "moulin2024", "moulin2025"]) {
      const libelles = (await db("mode_conduite").where({ idCampagne: campagnes[name] }).select("libelle")).map((m) => m.libelle);
      expect(libelles).toEqual(expect.arrayContaining(["Blé tendre conventionnel", "Colza"]));
    }
    const ble = await db("mode_conduite").where({ idCampagne: campagnes.tilleuls2025, libelle: "Blé tendre conventionnel" }).first("id");
    expect(await countRows(db, "mode_conduite_culture", { idModeConduite: ble.id })).toBe(2);
    expect(await countRows(db, "mode_conduite_assurance", { idModeConduite: ble.id })).toBe(1);
    // Plots come from another seed; where they exist, each 2024 plot with a main crop has one harvest.
    const plots = await db("parcelle").where({ idCampagne: campagnes.tilleuls2024 }).whereNotNull("idModeConduite").count<{ n: number }[]>({ n: "*" }).first();
    expect(Number(plots?.n)).toBeGreaterThan(0);
    const harvests = await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", campagnes.tilleuls2024).select("a.idParcelle");
    expect(new Set(harvests.map((h) => h.idParcelle)).size).toBe(Number(plots?.n));
    expect(harvests.length).toBe(Number(plots?.n));
    const r = await refs();
    const user = await contextFor("redacteur", "tilleuls2025");
    // The demo's 2025 harvests (seed-prix.ts) are the current yield; without them the indemnity is the 2024 average's.
    await db("recolte")
      .whereIn("idAction", db("action").where({ idCampagne: campagnes.tilleuls2025 }).select("id"))
      .delete();
    const e = await estimateAssurance(scopeOf(db, user), {
      idModeConduite: Number(ble.id),
      idCulture: r.ble,
      idTypeSortie: r.grain,
      rendementAssure: 9,
      txFranchise: 20,
      mtPrixAssure: 200,
    });
    expect(e.annees).toEqual([{ anneeRecolte: 2024, rendement: 6.9 }]);
    expect(e.rendementReelMoyen).toBe(6.9);
    expect(e.mtIndemniteCalculee).toBeCloseTo(60); // (9 − 1.8 − 6.9) × 200
  });

  test("the reference lists hold the usual crops with categories, qualifiers and output types; 9017 is the main category", async () => {
    const db = t.db();
    expect(await countRows(db, "culture")).toBeGreaterThanOrEqual(40);
    expect((await db("categorie_culture").where({ id: 9017 }).first()).code).toBe("principale");
    const interculture = await db("culture").where({ libelle: "Interculture" }).first();
    expect([true, 1]).toContain(interculture.interculture);
    expect((await db("type_sortie").where({ id: 671 }).first()).unite).toBe("jours");
    const ble = await db("culture").where({ libelle: "Blé tendre d'hiver" }).first();
    expect(Number(ble.culPmg)).toBe(45);
    expect(ble.source).toMatch(/ARVALIS/);
  });

  test("[B-CROP-04] [B-INS-03] qualifiers and output types are those of the crop; a crop without output type gives an empty list", async () => {
    const user = await contextFor("lecteur", "tilleuls2025");
    const r = await refs();
    expect((await getQualifiants(scopeOf(t.db(), user), r.ble)).map((q) => q.libelle)).toEqual([
      "Panifiable (meunier)",
      "Améliorant (BAF)",
      "Biscuitier",
      "Fourrager",
    ]);
    expect(await getQualifiants(scopeOf(t.db(), user), r.moutarde)).toEqual([]);
    expect((await getTypesSortie(scopeOf(t.db(), user), r.ble)).map((s) => s.id)).toEqual([r.grain, r.paille]);
    expect(await getTypesSortie(scopeOf(t.db(), user), r.interculture)).toEqual([]);
  });

  test("[B-CROP-09] [B-CROP-10] [B-CROP-05] [B-LIST-09] a writer creates a mode with its rows; the screen lists it first with its rows and counts", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const id = await saveModeConduite(
      scopeOf(t.db(), redacteur),
      await mode("Blé après colza", {
        cultures: [...(await mode("x")).cultures, { idCulture: r.sorgho, idCatCulture: r.derobee }, { idCulture: r.moutarde }],
      }),
    );
    const { rows } = await getModesConduite(scopeOf(t.db(), redacteur));
    expect(rows[0]).toMatchObject({
      id,
      libelle: "Blé après colza",
      aideCouplee: 30,
      nbCulturesPrincipales: 1,
      nbCulturesIntermediaires: 2,
      nbCulturesDerobees: 1,
      modeConduiteAssurance: null,
    });
    expect(rows[0].modeConduiteCultureList.map((c) => [c.libelleCulture, c.idCatCulture])).toEqual([
      ["Blé tendre d'hiver", r.principale],
      ["Moutarde blanche", r.intermediaire],
      ["Sorgho fourrager dérobé", r.derobee],
      ["Moutarde blanche", null],
    ]);
  });

  test("[B-CROP-08] [B-CROP-09] at save, new rows are created, changed rows updated and removed rows deleted, in one go", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const id = await saveModeConduite(scopeOf(t.db(), redacteur), await mode("Rotation"));
    let view = (await getModesConduite(scopeOf(t.db(), redacteur))).rows.find((m) => m.id === id)!;
    const [ble, moutarde] = view.modeConduiteCultureList;
    await saveModeConduite(
      scopeOf(t.db(), redacteur),
      await mode("Rotation", {
        cultures: [
          { id: ble.id, idCulture: r.ble, idCatCulture: r.principale },
          { idCulture: r.sorgho, idCatCulture: r.derobee },
        ],
      }),
      { id, updatedAt: view.updatedAt },
    );
    view = (await getModesConduite(scopeOf(t.db(), redacteur))).rows.find((m) => m.id === id)!;
    expect(view.modeConduiteCultureList.map((c) => [c.id === ble.id, c.libelleCulture, c.idQualifiant])).toEqual([
      [true, "Blé tendre d'hiver", null],
      [false, "Sorgho fourrager dérobé", null],
    ]);
    expect(await countRows(t.db(), "mode_conduite_culture", { id: moutarde.id })).toBe(0);
  });

  test("[B-ERR-09] [B-ERR-10] a row of another mode, an unknown mode or a stale form is refused with its error key, and nothing changes", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const a = await saveModeConduite(scopeOf(t.db(), redacteur), await mode("A"));
    const b = await saveModeConduite(scopeOf(t.db(), redacteur), await mode("B"));
    const { rows } = await getModesConduite(scopeOf(t.db(), redacteur));
    const rowOfB = rows.find((m) => m.id === b)!.modeConduiteCultureList[0];
    const viewA = rows.find((m) => m.id === a)!;
    const before = await snapshot(t.db(), "mode_conduite", "mode_conduite_culture", "mode_conduite_assurance");
    await expectRefused(
      saveModeConduite(scopeOf(t.db(), redacteur), await mode("A", { cultures: [{ id: rowOfB.id, idCulture: r.ble }] }), { id: a, updatedAt: viewA.updatedAt }),
      "errors.services.mode-conduite-culture-update-service-error",
      404,
    );
    await expectRefused(
      saveModeConduite(scopeOf(t.db(), redacteur), await mode("Z"), { id: 999999, updatedAt: viewA.updatedAt }),
      "errors.services.mode-de-conduite-service-error",
      404,
    );
    await expectRefused(saveModeConduite(scopeOf(t.db(), redacteur), await mode("A"), { id: a, updatedAt: "2000-01-01T00:00:00.000Z" }), "errors.stale", 409);
    await expectRefused(removeModesConduite(scopeOf(t.db(), redacteur), [a, 999999]), "errors.services.mode-de-conduite-service-error", 404);
    expect(await snapshot(t.db(), "mode_conduite", "mode_conduite_culture", "mode_conduite_assurance")).toEqual(before);
  });

  test("a qualifier of another crop or an output type the crop has not is refused beside the field", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const brassicole = await ref("qualifiant_culture", { libelle: "Brassicole" });
    await expectRefused(
      saveModeConduite(scopeOf(t.db(), redacteur), await mode("Q", { cultures: [{ idCulture: r.ble, idQualifiant: brassicole }] })),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { "cultures[0].idQualifiant": ["warning.invalid"] },
      },
    );
    const pature = 671;
    await expectRefused(
      saveModeConduite(scopeOf(t.db(), redacteur), await mode("Q", { assurance: { idCulture: r.ble, idTypeSortie: pature } })),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { "assurance.idTypeSortie": ["warning.invalid"] },
      },
    );
  });

  test("[B-INS-05] [B-INS-08] the insurance is saved with the mode and its estimate from earlier campaigns' harvests; it is deleted on its own", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const db = t.db();
    const { campagnes, exploitations } = t.demo();
    // Earlier years of the farm: 2024 (demo campaign) and 2019–2023 (campaigns created here).
    const years: Record<number, number> = { 2024: campagnes.tilleuls2024 };
    for (const annee of [2019, 2020, 2021, 2022, 2023]) {
      const [c] = await db("campagne").insert({ idExploitation: exploitations.tilleuls, anneeRecolte: annee }).returning("id");
      years[annee] = typeof c === "object" ? (c as { id: number }).id : (c as number);
    }
    // The demo 2024 harvests (when the plot helper's demo plots exist) are replaced by the test's own.
    await db("action").where({ idCampagne: campagnes.tilleuls2024 }).delete();
    await db("recolte")
      .whereIn("idAction", db("action").where({ idCampagne: campagnes.tilleuls2025 }).select("id"))
      .delete(); // the demo's current yield
    await harvest(years[2024], 2024, r.ble, r.grain, [
      [10, 8],
      [30, 6],
    ]); // 6.5 t/ha
    await harvest(years[2023], 2023, r.ble, r.grain, [[20, 9]]);
    await harvest(years[2022], 2022, r.ble, r.grain, [[20, 5]]);
    await harvest(years[2021], 2021, r.ble, r.grain, [[20, 7.5]]);
    await harvest(years[2020], 2020, r.ble, r.grain, [[20, 10]]);
    await harvest(years[2019], 2019, r.ble, r.grain, [[20, 1]]); // older than the 5 latest
    await harvest(years[2024], 2024, r.ble, r.paille, [[10, 5]]); // another output type
    // A simulation of an earlier year does not count.
    const [s] = await db("campagne").insert({ idExploitation: exploitations.tilleuls, anneeRecolte: 2023, simulation: true }).returning("id");
    await harvest(typeof s === "object" ? (s as { id: number }).id : (s as number), 2023, r.ble, r.grain, [[20, 0.5]]);

    const assurance = { idCulture: r.ble, idTypeSortie: r.grain, rendementAssure: 9, txFranchise: 20, mtPrixAssure: 200, mtCotisationAssurance: 25 };
    const id = await saveModeConduite(scopeOf(db, redacteur), await mode("Assuré", { assurance }));
    // Olympic average of 2020..2024 (10, 7.5, 5, 9, 6.5): drop 10 and 5 → (7.5 + 9 + 6.5) / 3 = 7.667
    const saved = (await getModesConduite(scopeOf(db, redacteur))).rows.find((m) => m.id === id)!.modeConduiteAssurance!;
    expect(saved).toMatchObject({ ...assurance, rendementReelMoyen: 7.667, rendementNonIndemnisable: 1.8 });
    // (9 − 1.8 − 7.667) × 200 < 0 → 0
    expect(saved.mtIndemniteCalculee).toBe(0);
    const e = await estimateAssurance(scopeOf(db, redacteur), {
      idModeConduite: id,
      idCulture: r.ble,
      idTypeSortie: r.grain,
      rendementAssure: 11,
      txFranchise: 20,
      mtPrixAssure: 200,
    });
    expect(e.annees.map((a) => a.anneeRecolte)).toEqual([2024, 2023, 2022, 2021, 2020, 2019]);
    expect(e.rendementReelMoyen).toBe(7.667);
    expect(e.mtIndemniteCalculee).toBeCloseTo((11 - 2.2 - 23 / 3) * 200, 1);
    // A reader may estimate too (reading only).
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    expect((await estimateAssurance(scopeOf(db, lecteur), { idModeConduite: id, idCulture: r.ble, idTypeSortie: r.grain })).rendementReelMoyen).toBe(7.667);

    const view = (await getModesConduite(scopeOf(db, redacteur))).rows.find((m) => m.id === id)!;
    await removeAssurance(scopeOf(db, redacteur), id);
    expect(await countRows(db, "mode_conduite_assurance", { idModeConduite: id })).toBe(0);
    // The mode changed: a form loaded before the deletion is stale.
    await expectRefused(saveModeConduite(scopeOf(db, redacteur), await mode("Assuré", { assurance }), { id, updatedAt: view.updatedAt }), "errors.stale", 409);
    await expectRefused(removeAssurance(scopeOf(db, redacteur), id), "errors.services.mode-conduite-assurance-service-error", 404);
  });

  test("[B-INS-06] the estimate needs a mode of the selected campaign", async () => {
    const r = await refs();
    const id = await saveModeConduite(scopeOf(t.db(), await contextFor("redacteur", "tilleuls2025")), await mode("Ailleurs"));
    const moulin = await contextFor("redacteur", "moulin2025");
    await expectRefused(
      estimateAssurance(scopeOf(t.db(), moulin), { idModeConduite: id, idCulture: r.ble, idTypeSortie: r.grain }),
      "errors.services.mode-conduite-assurance-service-error",
      404,
    );
  });

  test("[A-RIGHTS-07] [A-RIGHTS-08] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const tables = ["mode_conduite", "mode_conduite_culture", "mode_conduite_assurance"];
    const before = await snapshot(t.db(), ...tables);
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    await expectRefused(saveModeConduite(scopeOf(t.db(), lecteur), await mode("Interdit")), "errors.forbidden", 403);
    const anyMode = Number((await t.db()("mode_conduite").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).first("id"))?.id ?? 0);
    await expectRefused(removeModesConduite(scopeOf(t.db(), lecteur), [anyMode]), "errors.forbidden", 403);
    await expectRefused(removeAssurance(scopeOf(t.db(), lecteur), anyMode), "errors.forbidden", 403);
    const animateur = await contextFor("animateur", "tilleuls2024");
    await expectRefused(saveModeConduite(scopeOf(t.db(), animateur), await mode("Verrouillée")), "errors.forbidden", 403);
    expect(await snapshot(t.db(), ...tables)).toEqual(before);
    expect((await getModesConduite(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
  });

  test("[B-CROP-14] [B-RIGHTS-12] ticked modes are duplicated with their rows and insurance to the chosen campaigns of a farm with write access", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const db = t.db();
    const { campagnes, dossiers, exploitations } = t.demo();
    const id = await saveModeConduite(
      scopeOf(db, redacteur),
      await mode("À copier", { assurance: { idCulture: r.ble, idTypeSortie: r.grain, rendementAssure: 8, txFranchise: 25, mtPrixAssure: 180 } }),
    );
    const options = await getDuplicationOptions(scopeOf(db, redacteur), { idExploitation: exploitations.moulin });
    expect(options.exploitations.map((e) => e.id)).toEqual(expect.arrayContaining([exploitations.tilleuls, exploitations.moulin]));
    expect(options.campagnes.map((c) => c.id)).toEqual(expect.arrayContaining([campagnes.moulin2024, campagnes.moulin2025]));
    const { copies } = await duplicateModesConduite(scopeOf(db, redacteur), {
      ids: [id],
      idDossier: dossiers.beauce,
      idExploitation: exploitations.moulin,
      campagnes: [campagnes.moulin2025],
    });
    expect(copies).toBe(1);
    const copy = await db("mode_conduite").where({ idCampagne: campagnes.moulin2025, libelle: "À copier" }).first();
    expect(Number(copy.aideCouplee)).toBe(30);
    const rows = await db("mode_conduite_culture").where({ idModeConduite: copy.id }).orderBy("ordre");
    expect(rows.map((x) => [Number(x.idCulture), Number(x.idCatCulture)])).toEqual([
      [r.ble, r.principale],
      [r.moutarde, r.intermediaire],
    ]);
    const a = await db("mode_conduite_assurance").where({ idModeConduite: copy.id }).first();
    expect([Number(a.idCulture), Number(a.idTypeSortie), Number(a.rendementAssure), Number(a.rendementNonIndemnisable)]).toEqual([r.ble, r.grain, 8, 2]);
    // The source stays as it was.
    expect(await countRows(db, "mode_conduite_culture", { idModeConduite: id })).toBe(2);
  });

  test("[B-CROP-15] [B-RIGHTS-12] duplication to a farm read only, to a locked campaign or to the current one is refused and copies nothing", async () => {
    const db = t.db();
    const { campagnes, dossiers, exploitations } = t.demo();
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveModeConduite(scopeOf(db, redacteur), await mode("Refusé"));
    const before = await snapshot(db, "mode_conduite");
    await expectRefused(
      duplicateModesConduite(scopeOf(db, redacteur), {
        ids: [id],
        idDossier: dossiers.beauce,
        idExploitation: exploitations.tilleuls,
        campagnes: [campagnes.tilleuls2025],
      }),
      "errors.services.mode-de-conduite-service-error",
      400,
      { fieldErrors: { campagnes: ["warning.invalid"] } },
    );
    await expectRefused(
      duplicateModesConduite(scopeOf(db, redacteur), {
        ids: [id],
        idDossier: dossiers.beauce,
        idExploitation: exploitations.tilleuls,
        campagnes: [campagnes.tilleuls2024],
      }),
      "cultures.errors.campagne-verrouillee",
      403,
    );
    await expectRefused(
      duplicateModesConduite(scopeOf(db, redacteur), {
        ids: [id],
        idDossier: dossiers.bocage,
        idExploitation: exploitations.vallee,
        campagnes: [campagnes.vallee2025],
      }),
      "errors.forbidden",
      403,
    );
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    await expectRefused(
      duplicateModesConduite(scopeOf(db, lecteur), {
        ids: [id],
        idDossier: dossiers.beauce,
        idExploitation: exploitations.moulin,
        campagnes: [campagnes.moulin2025],
      }),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(db, "mode_conduite")).toEqual(before);
  });

  test("deleting modes removes their rows and insurance and only the selected campaign's", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const r = await refs();
    const id = await saveModeConduite(
      scopeOf(t.db(), redacteur),
      await mode("À supprimer", { assurance: { idCulture: r.ble, idTypeSortie: r.grain, rendementAssure: 8 } }),
    );
    await removeModesConduite(scopeOf(t.db(), redacteur), [id]);
    expect(await countRows(t.db(), "mode_conduite_culture", { idModeConduite: id })).toBe(0);
    expect(await countRows(t.db(), "mode_conduite_assurance", { idModeConduite: id })).toBe(0);
  });

  test("[B-CROP-11] [B-CROP-13] the server parses with the form's schema", () => {
    const r = ModeConduiteSchema.safeParse({ libelle: "", cultures: [{}] });
    expect(r.success).toBe(false);
  });
});
