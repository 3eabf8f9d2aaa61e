import { beforeAll, describe, expect, test } from "vitest";
import { NewCampagneSchema, type NewCampagneInput } from "~/domain/partage";
import { campaignContent, createTestCampaignTables, fillCampaign, registerTestCampaignTables, testActionEntry } from "../../tests/helpers/campaign-tables";
import { countRows, demoUser, expectRefused, lastAudit, snapshot, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { abilitiesFor } from "../access/abilities";
import { loadContextView, selectInContext } from "../contexte/service";
import { createCampagne as insertCampagne, createExploitation as insertExploitation, linkFarm } from "../demo/factories";
import { registerCampaignTable, registeredCampaignTables } from "./duplication";
import { createCampagne, deleteCampagne, setScenarios, unlockCampagne } from "./service";

const t = useTestDb();
const user = (name: string) => demoUser(t.db(), name);
const TABLES = ["campagne", "test_parcelle", "test_action", "audit", "utilisateur_contexte"];

/** A new campaign as the dialog sends it, through the dialog's schema (options only with a source). */
const input = (raw: Record<string, unknown>): NewCampagneInput =>
  NewCampagneSchema.parse({ inter: false, majDtInter: false, obs: false, eltObserve: false, valeur: false, prix: false, ...raw });

/** A new farm of Beauce (animation link, so animateur and redacteur write it) with campaigns of the given years. */
async function newFarm(libelle: string, campagnes: { anneeRecolte: number; simulation?: boolean; serieValide?: boolean; indicateurPublie?: boolean }[] = []) {
  const db = t.db();
  const idExploitation = await insertExploitation(db, { libelle });
  await linkFarm(db, t.demo().dossiers.beauce, idExploitation, "animation");
  const ids: number[] = [];
  for (const c of campagnes) ids.push(await insertCampagne(db, { idExploitation, ...c }));
  return { ctx: { idDossier: t.demo().dossiers.beauce, idExploitation }, ids };
}

const campagne = (id: number) => t.db()("campagne").where({ id }).first();

beforeAll(async () => {
  await createTestCampaignTables(t.db());
  registerTestCampaignTables();
});

describe(`new campaign (${dialect})`, () => {
  test("[A-CAMP-05] [A-CAMP-06] [C-SCEN-01] the simulation flag is computed: true when the harvest year exists, false otherwise", async () => {
    const animateur = await user("animateur");
    const { ctx } = await newFarm("Ferme simulation", [{ anneeRecolte: 2024 }]);
    const sim = await createCampagne(scopeOf(t.db(), animateur), ctx, input({ anneeRecolte: 2024, apiLibelle: "Variante" }));
    const base = await createCampagne(scopeOf(t.db(), animateur), ctx, input({ anneeRecolte: 2025 }));
    expect(Boolean((await campagne(sim)).simulation)).toBe(true);
    expect(Boolean((await campagne(base)).simulation)).toBe(false);
    // A second 2025 campaign is a simulation too: a year keeps exactly one base campaign.
    const sim2025 = await createCampagne(scopeOf(t.db(), animateur), ctx, input({ anneeRecolte: 2025 }));
    expect(Boolean((await campagne(sim2025)).simulation)).toBe(true);
  });

  test("[A-CAMP-15] [A-CAMP-03] [A-CAMP-12] [A-CAMP-14] the created campaign holds the dialog's values; an audit row is written", async () => {
    const db = t.db();
    const redacteur = await user("redacteur");
    const {
      ctx,
      ids: [c2024],
    } = await newFarm("Ferme champs", [{ anneeRecolte: 2024 }]);
    const id = await createCampagne(
      scopeOf(db, redacteur),
      ctx,
      input({ anneeRecolte: "2025", apiLibelle: "Campagne 2025", campagneSource: String(c2024), inter: "on", majDtInter: "on", prix: "on" }),
    );
    expect(await campagne(id)).toMatchObject({
      idExploitation: ctx.idExploitation,
      anneeRecolte: 2025,
      prefixeCampagne: "2025",
      apiLibelle: "Campagne 2025",
      idCampagneSource: c2024,
      idCampagneHistoParcelle: c2024,
    });
    const row = await campagne(id);
    expect(
      [row.simulation, row.inter, row.majDtInter, row.obs, row.eltObserve, row.valeur, row.prix, row.serieValide, row.indicateurPublie].map(Boolean),
    ).toEqual([false, true, true, false, false, false, true, false, false]);
    const audit = await lastAudit(db);
    expect(audit).toMatchObject({ action: "campagne.create", entite: "campagne", idEntite: id, idExploitation: ctx.idExploitation, idUser: redacteur.id });
    expect(audit.details).toMatchObject({ anneeRecolte: 2025, simulation: false, source: c2024 });
  });

  test("[A-CAMP-10] a source of the previous year becomes the history reference automatically", async () => {
    const animateur = await user("animateur");
    const {
      ctx,
      ids: [c2023, c2024],
    } = await newFarm("Ferme historique", [{ anneeRecolte: 2023 }, { anneeRecolte: 2024 }]);
    // Even when another reference is sent, the previous-year source wins.
    const id = await createCampagne(scopeOf(t.db(), animateur), ctx, input({ anneeRecolte: 2025, campagneSource: c2024, campagneHistoParcelle: c2023 }));
    expect(await campagne(id)).toMatchObject({ idCampagneSource: c2024, idCampagneHistoParcelle: c2024 });
  });

  test("[A-CAMP-08] [A-CAMP-09] with another source the history reference must be of the year before with the same simulation flag; otherwise refused, nothing created", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const {
      ctx,
      ids: [c2023, c2024, c2024sim],
    } = await newFarm("Ferme référence", [{ anneeRecolte: 2023 }, { anneeRecolte: 2024 }, { anneeRecolte: 2024, simulation: true }]);
    const {
      ids: [elsewhere],
    } = await newFarm("Autre ferme", [{ anneeRecolte: 2024 }]);
    const before = await snapshot(db, ...TABLES);
    const refused = (raw: Record<string, unknown>) =>
      expectRefused(
        createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: c2023, ...raw })),
        "campagne.invalid-history-reference",
        400,
        { fieldErrors: { campagneHistoParcelle: ["warning.invalid"] } },
      );
    await refused({ campagneHistoParcelle: c2024sim }); // 2025 is a new year: not a simulation
    await refused({ campagneHistoParcelle: c2023 }); // not the year before
    await refused({ campagneHistoParcelle: elsewhere }); // another farm's campaign
    // A source of another farm is refused too.
    await expectRefused(
      createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: elsewhere })),
      "errors.services.campagnes-service-error",
      400,
    );
    expect(await snapshot(db, ...TABLES)).toEqual(before);

    const base = await createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: c2023, campagneHistoParcelle: c2024 }));
    expect(await campagne(base)).toMatchObject({ idCampagneSource: c2023, idCampagneHistoParcelle: c2024 });
    // Now 2025 exists: the next one is a simulation, whose reference must be a 2024 simulation.
    await expectRefused(
      createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: c2023, campagneHistoParcelle: c2024 })),
      "campagne.invalid-history-reference",
      400,
    );
    const sim = await createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: c2023, campagneHistoParcelle: c2024sim }));
    expect(await campagne(sim)).toMatchObject({ idCampagneHistoParcelle: c2024sim });
    expect(Boolean((await campagne(sim)).simulation)).toBe(true);
    // No reference picked: none.
    const free = await createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: c2023 }));
    expect((await campagne(free)).idCampagneHistoParcelle).toBeNull();
  });

  test("[A-CAMP-11] without a source the duplication options are ignored: nothing copied, flags stored false", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const {
      ctx,
      ids: [c2024],
    } = await newFarm("Ferme sans source", [{ anneeRecolte: 2024 }]);
    await fillCampaign(db, c2024, [{ libelle: "Parcelle", actions: ["2024-05-01"] }]);
    const options = { inter: true, majDtInter: true, obs: true, eltObserve: true, valeur: true, prix: true };
    // Through the dialog's schema...
    expect(input({ anneeRecolte: 2025, ...options })).toMatchObject({
      inter: false,
      majDtInter: false,
      obs: false,
      eltObserve: false,
      valeur: false,
      prix: false,
    });
    // ...and when a caller sends them anyway.
    const id = await createCampagne(scopeOf(db, animateur), ctx, { anneeRecolte: 2025, ...options });
    const row = await campagne(id);
    expect([row.inter, row.majDtInter, row.obs, row.eltObserve, row.valeur, row.prix].map(Boolean)).toEqual([false, false, false, false, false, false]);
    expect(row.idCampagneSource).toBeNull();
    expect(await campaignContent(db, id)).toEqual([]);
  });

  test("[A-FARM-21] [A-RIGHTS-05] only users who write the farm (from a folder they write in) create campaigns; nothing is created otherwise", async () => {
    const db = t.db();
    const { dossiers, exploitations } = t.demo();
    const before = await snapshot(db, ...TABLES);
    const cases: [string, { idDossier: number; idExploitation: number }][] = [
      ["lecteur", { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }], // reads the folder; the link gives animation
      ["synthese", { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }],
      ["redacteur", { idDossier: dossiers.bocage, idExploitation: exploitations.moulin }], // the link gives reading only
      ["nouveau", { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }],
      ["admin", { idDossier: dossiers.bocage, idExploitation: exploitations.vallee }],
    ];
    for (const [who, ctx] of cases) {
      await expectRefused(createCampagne(scopeOf(db, await user(who)), ctx, input({ anneeRecolte: 2030 })), "errors.forbidden", 403);
    }
    expect(await snapshot(db, ...TABLES)).toEqual(before);
  });
});

describe(`campaign duplication mechanism (${dialect})`, () => {
  test("the test tables are registered, parents before children", () => {
    const names = registeredCampaignTables().map((e) => e.table);
    expect(names.indexOf("test_parcelle")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("test_parcelle")).toBeLessThan(names.indexOf("test_action"));
  });

  /** A 2024 campaign with two parcels and three actions (one on 29 February). */
  async function filledFarm(libelle: string) {
    const db = t.db();
    const farm = await newFarm(libelle, [{ anneeRecolte: 2024 }]);
    const source = farm.ids[0];
    const filled = await fillCampaign(db, source, [
      { libelle: "Grand champ", actions: ["2024-02-29", "2024-10-15"] },
      { libelle: "Pâture", actions: ["2024-06-01"] },
    ]);
    return { ...farm, source, filled, content: await campaignContent(db, source) };
  }

  test("[A-CAMP-12] [A-CAMP-15] a campaign from a source copies the registered tables, remaps children to the copied parents and moves dates by a year with majDtInter", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const { ctx, source, content } = await filledFarm("Ferme copiée");
    const id = await createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: source, inter: true, majDtInter: true }));

    const copy = await campaignContent(db, id);
    expect(copy.map((p) => [p.libelle, p.actions])).toEqual([
      ["Grand champ", ["2025-02-28", "2025-10-15"]],
      ["Pâture", ["2025-06-01"]],
    ]);
    // New rows, whose children point to the copied parcels, never to the source's.
    const sourceParcels = new Set(content.map((p) => p.id));
    const copiedParcels = new Set(copy.map((p) => p.id));
    const actions = await db("test_action").where({ idCampagne: id });
    expect(actions).toHaveLength(3);
    for (const a of actions) {
      expect(copiedParcels.has(a.idTestParcelle)).toBe(true);
      expect(sourceParcels.has(a.idTestParcelle)).toBe(false);
    }
    // The source is untouched.
    expect(await campaignContent(db, source)).toEqual(content);
    expect((await lastAudit(db)).details.copied).toEqual(expect.objectContaining({ test_parcelle: 2, test_action: 3 }));
  });

  test("[A-CAMP-12] without majDtInter the dates are kept; without inter no action is copied (the parcels are)", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const { ctx, source, content } = await filledFarm("Ferme options");
    const kept = await createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: source, inter: true }));
    expect((await campaignContent(db, kept)).map((p) => [p.libelle, p.actions])).toEqual(content.map((p) => [p.libelle, p.actions]));
    expect(content[0].actions).toEqual(["2024-02-29", "2024-10-15"]);

    // majDtInter alone (without inter) copies no action either.
    const none = await createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: source, majDtInter: true }));
    expect((await campaignContent(db, none)).map((p) => [p.libelle, p.actions])).toEqual([
      ["Grand champ", []],
      ["Pâture", []],
    ]);
    expect(await countRows(db, "test_action", { idCampagne: none })).toBe(0);
    expect(Boolean((await campagne(none)).majDtInter)).toBe(false);
  });

  test("a failure in the middle of the copy rolls everything back: no campaign row, no copied row", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const { ctx, source } = await filledFarm("Ferme en échec");
    const before = await snapshot(db, ...TABLES);
    let seen = 0;
    registerCampaignTable({
      ...testActionEntry,
      transform: (row, c) => {
        seen += 1;
        if (seen === 2) throw new Error("copie interrompue");
        return testActionEntry.transform(row, c);
      },
    });
    try {
      await expect(
        createCampagne(scopeOf(db, animateur), ctx, input({ anneeRecolte: 2025, campagneSource: source, inter: true, majDtInter: true })),
      ).rejects.toThrow("copie interrompue");
    } finally {
      registerCampaignTable(testActionEntry);
    }
    expect(seen).toBe(2);
    expect(await snapshot(db, ...TABLES)).toEqual(before);
    expect(await countRows(db, "campagne", { idExploitation: ctx.idExploitation })).toBe(1);
  });
});

describe(`campaign deletion and scenarios (${dialect})`, () => {
  test("[A-CAMP-17] [A-CAMP-18] [C-SCEN-03] [C-SCEN-04] the base campaign of a year with simulations is not deletable (the error carries the year); a simulation is", async () => {
    const db = t.db();
    const redacteur = await user("redacteur");
    const {
      ctx,
      ids: [c2024, base, sim],
    } = await newFarm("Ferme scénarios", [{ anneeRecolte: 2024 }, { anneeRecolte: 2025 }, { anneeRecolte: 2025, simulation: true }]);
    const before = await snapshot(db, ...TABLES);
    await expectRefused(deleteCampagne(scopeOf(db, redacteur), ctx, base), "campagne.base-not-deletable", 409, { params: { annee: 2025 } });
    expect(await snapshot(db, ...TABLES)).toEqual(before);

    await deleteCampagne(scopeOf(db, redacteur), ctx, sim);
    expect(await campagne(sim)).toBeUndefined();
    expect(await lastAudit(db)).toMatchObject({
      action: "campagne.delete",
      idEntite: sim,
      idExploitation: ctx.idExploitation,
      details: { anneeRecolte: 2025, simulation: true },
    });
    // Without simulations left, the base goes too; a year without simulation never blocked.
    await deleteCampagne(scopeOf(db, redacteur), ctx, base);
    await deleteCampagne(scopeOf(db, redacteur), ctx, c2024);
    expect(await countRows(db, "campagne", { idExploitation: ctx.idExploitation })).toBe(0);
  });

  test("[A-FARM-21] [A-RIGHTS-05] deleting a campaign needs farm write from a written folder, and the campaign must be the farm's", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const before = await snapshot(db, ...TABLES);
    await expectRefused(
      deleteCampagne(
        scopeOf(db, await user("lecteur")),
        { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls },
        campagnes.tilleuls2025Simulation,
      ),
      "errors.forbidden",
      403,
    );
    await expectRefused(
      deleteCampagne(scopeOf(db, await user("redacteur")), { idDossier: dossiers.bocage, idExploitation: exploitations.moulin }, campagnes.moulin2025),
      "errors.forbidden",
      403,
    );
    await expectRefused(
      deleteCampagne(scopeOf(db, await user("animateur")), { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }, campagnes.vallee2025),
      "errors.services.campagnes-service-error",
      404,
    );
    expect(await snapshot(db, ...TABLES)).toEqual(before);
  });

  test("[C-RIGHTS-15] editing campaigns (new, delete, scenarios, unlock) needs isDoEcritureExEcriture: one folder writer is refused on a farm its folder only reads and allowed on one it writes", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const redacteur = await user("redacteur");
    const readOnly = { idDossier: dossiers.bocage, idExploitation: exploitations.moulin };
    expect((await abilitiesFor(db, redacteur, readOnly)).isDoEcritureExEcriture).toBe(false);
    const before = await snapshot(db, ...TABLES);
    await expectRefused(createCampagne(scopeOf(db, redacteur), readOnly, input({ anneeRecolte: 2031 })), "errors.forbidden", 403);
    await expectRefused(deleteCampagne(scopeOf(db, redacteur), readOnly, campagnes.moulin2025), "errors.forbidden", 403);
    await expectRefused(setScenarios(scopeOf(db, redacteur), readOnly, [{ id: campagnes.moulin2025, simulation: false }]), "errors.forbidden", 403);
    await expectRefused(unlockCampagne(scopeOf(db, redacteur), readOnly, campagnes.moulin2025), "errors.forbidden", 403);
    expect(await snapshot(db, ...TABLES)).toEqual(before);

    const {
      ctx,
      ids: [base, simulation],
    } = await newFarm("Ferme des droits de campagne", [{ anneeRecolte: 2025 }, { anneeRecolte: 2025, simulation: true }]);
    expect((await abilitiesFor(db, redacteur, ctx)).isDoEcritureExEcriture).toBe(true);
    const created = await createCampagne(scopeOf(db, redacteur), ctx, input({ anneeRecolte: 2031 }));
    expect(await campagne(created)).toMatchObject({ idExploitation: ctx.idExploitation, anneeRecolte: 2031 });
    await setScenarios(scopeOf(db, redacteur), ctx, [
      { id: base!, simulation: true },
      { id: simulation!, simulation: false },
    ]);
    expect(Boolean((await campagne(base!)).simulation)).toBe(true);
    await deleteCampagne(scopeOf(db, redacteur), ctx, base!);
    expect(await campagne(base!)).toBeUndefined();
  });

  test("[C-SCEN-01] [C-SCEN-02] scenarios need exactly one base campaign among all campaigns of the year; otherwise refused, nothing changes", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const {
      ctx,
      ids: [c2024, base, s1, s2],
    } = await newFarm("Ferme variantes", [
      { anneeRecolte: 2024 },
      { anneeRecolte: 2025 },
      { anneeRecolte: 2025, simulation: true },
      { anneeRecolte: 2025, simulation: true },
    ]);
    const before = await snapshot(db, ...TABLES);
    const set = (list: [number, boolean][]) =>
      setScenarios(
        scopeOf(db, animateur),
        ctx,
        list.map(([id, simulation]) => ({ id, simulation })),
      );
    await expectRefused(
      set([
        [base, true],
        [s1, true],
        [s2, true],
      ]),
      "campagne.scenario-one-base",
      400,
    );
    await expectRefused(
      set([
        [base, false],
        [s1, false],
        [s2, true],
      ]),
      "campagne.scenario-one-base",
      400,
    );
    await expectRefused(
      set([
        [base, true],
        [s1, false],
      ]),
      "campagne.scenario-one-base",
      400,
    ); // s2 left out
    await expectRefused(
      set([
        [c2024, true],
        [base, false],
        [s1, true],
        [s2, true],
      ]),
      "errors.services.campagnes-service-error",
      400,
    ); // two years
    await expectRefused(
      setScenarios(scopeOf(db, await user("lecteur")), { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls }, [
        { id: t.demo().campagnes.tilleuls2025, simulation: true },
        { id: t.demo().campagnes.tilleuls2025Simulation, simulation: false },
      ]),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(db, ...TABLES)).toEqual(before);

    await set([
      [base, true],
      [s1, false],
      [s2, true],
    ]);
    const rows = await db("campagne").where({ idExploitation: ctx.idExploitation, anneeRecolte: 2025 }).orderBy("id");
    expect(rows.map((r) => [r.id, Boolean(r.simulation)])).toEqual([
      [base, true],
      [s1, false],
      [s2, true],
    ]);
    expect(await lastAudit(db)).toMatchObject({ action: "campagne.scenario", details: { anneeRecolte: 2025, base: s1 } });
    // The new base is the one that cannot be deleted now.
    await expectRefused(deleteCampagne(scopeOf(db, animateur), ctx, s1), "campagne.base-not-deletable", 409, { params: { annee: 2025 } });
    await deleteCampagne(scopeOf(db, animateur), ctx, base);
  });
});

describe(`campaign lock and unlock (${dialect})`, () => {
  async function selectCampaign(name: string, idExploitation: number, idCampagne: number) {
    const u = await user(name);
    await selectInContext(t.db(), u, { intent: "oad", id: t.demo().oads.reseauDemo });
    await selectInContext(t.db(), u, { intent: "dossier", id: t.demo().dossiers.beauce });
    await selectInContext(t.db(), u, { intent: "exploitations", ids: [idExploitation] });
    await selectInContext(t.db(), u, { intent: "campagne", id: idCampagne });
    return u;
  }

  test("[A-LOCK-02] [A-LOCK-04] [A-LOCK-05] [A-LOCK-09] [A-LOCK-10] a published campaign is unlocked for the user who asks; selecting it again locks it", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const where = { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls, idCampagne: campagnes.tilleuls2024 };
    const animateur = await selectCampaign("animateur", exploitations.tilleuls, campagnes.tilleuls2024);
    const redacteur = await selectCampaign("redacteur", exploitations.tilleuls, campagnes.tilleuls2024);
    let view = await loadContextView(db, animateur);
    expect(view.lock).toEqual({ locked: true, unlockable: true });
    expect(view.abilities.canWriteDescriptif).toBe(false);

    await unlockCampagne(scopeOf(db, animateur), where, campagnes.tilleuls2024);
    view = await loadContextView(db, animateur);
    expect(view.lock).toEqual({ locked: false, unlockable: false });
    expect(view.abilities.canWriteDescriptif).toBe(true);
    expect((await abilitiesFor(db, animateur, where)).canWriteDescriptif).toBe(true);
    expect(await lastAudit(db)).toMatchObject({ action: "campagne.unlock", idEntite: campagnes.tilleuls2024, idUser: animateur.id });
    // The unlock is the user's own: the campaign stays locked for others.
    expect((await loadContextView(db, redacteur)).lock).toEqual({ locked: true, unlockable: true });
    expect((await abilitiesFor(db, redacteur, where)).canWriteDescriptif).toBe(false);

    await selectInContext(db, animateur, { intent: "campagne", id: campagnes.tilleuls2024 });
    expect((await loadContextView(db, animateur)).lock).toEqual({ locked: true, unlockable: true });
    expect((await abilitiesFor(db, animateur, where)).canWriteDescriptif).toBe(false);
  });

  test("[A-LOCK-01] [A-LOCK-05] [A-LOCK-10] a campaign whose series is validated is locked and not unlockable: unlock refused with campagne.not-unlockable", async () => {
    const db = t.db();
    const {
      ctx,
      ids: [validated],
    } = await newFarm("Ferme validée", [{ anneeRecolte: 2024, serieValide: true, indicateurPublie: true }]);
    const animateur = await selectCampaign("animateur", ctx.idExploitation, validated);
    expect((await loadContextView(db, animateur)).lock).toEqual({ locked: true, unlockable: false });
    const before = await snapshot(db, ...TABLES);
    await expectRefused(unlockCampagne(scopeOf(db, animateur), ctx, validated), "campagne.not-unlockable", 409);
    expect(await snapshot(db, ...TABLES)).toEqual(before);
    expect((await loadContextView(db, animateur)).lock).toEqual({ locked: true, unlockable: false });
  });

  test("[A-FARM-22] [A-RIGHTS-05] unlocking needs farm write from a written folder; nothing changes otherwise", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const lecteur = await selectCampaign("lecteur", exploitations.tilleuls, campagnes.tilleuls2024);
    const before = await snapshot(db, ...TABLES);
    await expectRefused(
      unlockCampagne(scopeOf(db, lecteur), { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }, campagnes.tilleuls2024),
      "errors.forbidden",
      403,
    );
    await expectRefused(
      unlockCampagne(scopeOf(db, await user("redacteur")), { idDossier: dossiers.bocage, idExploitation: exploitations.moulin }, campagnes.moulin2025),
      "errors.forbidden",
      403,
    );
    // A campaign of another farm is not found.
    await expectRefused(
      unlockCampagne(scopeOf(db, await user("animateur")), { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }, campagnes.moulin2024),
      "errors.services.campagnes-service-error",
      404,
    );
    expect(await snapshot(db, ...TABLES)).toEqual(before);
    expect((await loadContextView(db, lecteur)).lock).toEqual({ locked: true, unlockable: true });
  });
});
