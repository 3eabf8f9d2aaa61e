import { describe, expect, test } from "vitest";
import type { OperationCulturaleInput } from "~/domain/operation-culturale";
import { GES_CARBURANT_KG_CO2E_PAR_L, ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L, KW_PAR_CH } from "~/domain/calc/operation";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import type { Db } from "../db/knex";
import { getConsoCarburantReference, getOperationsCulturales, removeOperationsCulturales, saveOperationCulturale } from "./service";

const t = useTestDb();

const contextFor = (username: string, campagne: "tilleuls2025" | "tilleuls2024") => selectTilleuls(t, username, campagne);

async function insert(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** A 150 ch tractor and a 5-furrow plough (reference machines 102 and 301), a combine, a pump and a labour item in a campaign. */
async function fleet(idCampagne: number) {
  const db = t.db();
  const tracteur = await insert(db, "parc_materiel", {
    idCampagne,
    libelle: "Tracteur 150 ch",
    noClasse: 1,
    noCategorie: 1,
    idCategorieMateriel: 1,
    idBasemeq: 102,
    typePropriete: 0,
    copropriete: 100,
    puissance: 150,
    prixAchat: 125000,
    utilisationAnnuelle: 900,
    coutEntretienReparation: 6.7,
    usure: 10000,
    obsolescence: 12,
    tauxRevente: 17,
  });
  const charrue = await insert(db, "parc_materiel", {
    idCampagne,
    libelle: "Charrue 5 corps",
    noClasse: 2,
    noCategorie: 1,
    idCategorieMateriel: 3,
    idBasemeq: 301,
    typePropriete: 0,
    copropriete: 100,
    debit: 1.2,
    prixAchat: 28000,
    utilisationAnnuelle: 150,
    coutEntretienReparation: 6,
    usure: 2500,
    obsolescence: 15,
    tauxRevente: 20,
  });
  const moissonneuse = await insert(db, "parc_materiel", {
    idCampagne,
    libelle: "Moissonneuse",
    noClasse: 6,
    noCategorie: 1,
    idCategorieMateriel: 12,
    idBasemeq: 1201,
    typePropriete: 2,
    puissance: 300,
    debit: 2,
    coutLocation: 150,
  });
  const pompe = await insert(db, "parc_materiel", {
    idCampagne,
    libelle: "Motopompe",
    noClasse: 9,
    noCategorie: 1,
    idCategorieMateriel: 17,
    idBasemeq: 1701,
    typePropriete: 0,
    puissance: 60,
    debit: 80,
  });
  const enrouleur = await insert(db, "parc_materiel", {
    idCampagne,
    libelle: "Enrouleur",
    noClasse: 9,
    noCategorie: 2,
    idCategorieMateriel: 18,
    idBasemeq: 1801,
    typePropriete: 0,
    debit: 45,
  });
  const mo = await insert(db, "main_oeuvre", { idCampagne, libelle: "Chef d'exploitation", uta: 1, idTypeUser: 953 });
  return { tracteur, charrue, moissonneuse, pompe, enrouleur, mo };
}

const base: OperationCulturaleInput = {
  idTypeAction: 1,
  libelle: "Labour",
  remarque: undefined,
  materielTractant: undefined,
  materielTractes: [],
  eta: false,
  mainOeuvre: [],
  debitReel: undefined,
  debitCalcule: undefined,
  consoCarburantReelle: undefined,
  consoCarburantCalculee: undefined,
  profondeurTravail: 25,
  debitIrrigation: undefined,
  volumeBouillie: undefined,
  proportionSurfaceTravaillee: undefined,
  repercutAction: false,
};

// Ploughing reference (seeds/reference/reference-conso-carburant.json, type 1): load 0.8, 0.28 L/kWh, reference depth 25 cm.
const conso = (puissance: number, debit: number, profondeur = 25) => ((puissance * KW_PAR_CH * 0.8 * 0.28) / debit) * (profondeur / 25);

const operationTables = ["operation_culturale", "operation_culturale_materiel", "operation_culturale_main_oeuvre"];

describe(`cultural operations (${dialect})`, () => {
  test("[B-OPS-01] [B-OPS-04] [B-OPS-06] [B-OPS-07] [B-OPS-16] [B-OPS-18] [B-OPS-22] [B-LIST-09] a writer creates a ploughing operation with tractor, plough and workforce in one save; the calculated work rate, fuel reference and costs come from the server", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { campagnes } = t.demo();
    const f = await fleet(campagnes.tilleuls2025);
    // The form's own reference values are ignored: the server recomputes them from the stored machines.
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), {
      ...base,
      materielTractant: f.tracteur,
      materielTractes: [f.charrue],
      mainOeuvre: [f.mo],
      debitCalcule: 99,
      consoCarburantCalculee: 1,
      remarque: "Labour d'automne",
    });
    const stored = await t.db()("operation_culturale").where({ id }).first();
    expect(stored).toMatchObject({
      idCampagne: campagnes.tilleuls2025,
      idTypeAction: 1,
      libelle: "Labour",
      idMaterielTractant: f.tracteur,
      remarque: "Labour d'automne",
    });
    expect(Number(stored.debitCalcule)).toBe(1.2);
    expect(Number(stored.consoCarburantCalculee)).toBe(Math.round(conso(150, 1.2) * 100) / 100);
    expect(Number(stored.consoCarburantCalculee)).toBe(20.59);
    expect(Number(stored.profondeurTravail)).toBe(25);
    expect(stored.volumeBouillie).toBeNull();
    expect(Number(stored.proportionSurfaceTravaillee)).toBe(1);
    expect(stored.debitReel).toBeNull();
    expect((await t.db()("operation_culturale_materiel").where({ idOperationCulturale: id })).map((r) => r.idParcMateriel)).toEqual([f.charrue]);
    expect((await t.db()("operation_culturale_main_oeuvre").where({ idOperationCulturale: id })).map((r) => r.idMainOeuvre)).toEqual([f.mo]);

    const screen = await getOperationsCulturales(scopeOf(t.db(), redacteur));
    expect(screen.canWrite).toBe(true);
    const [row] = screen.rows;
    expect(row).toMatchObject({
      id,
      materielTractant: f.tracteur,
      materielTractes: [f.charrue],
      mainOeuvre: [f.mo],
      eta: false,
      debitCalcule: 1.2,
      consoCarburantCalculee: 20.59,
    });
    expect(row.calcul.consoCarburant).toBe(20.59);
    expect(row.calcul.EGESCarburant).toBe(Math.round(20.59 * GES_CARBURANT_KG_CO2E_PAR_L * 10) / 10);
    expect(row.calcul.consoNRJPrimaireCarburant).toBe(Math.round(20.59 * ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L));
    expect(row.calcul.chargesCarburant).toBe(Math.round(20.59 * screen.prixFioul! * 100) / 100);
    expect(row.calcul.chargesEntretienLocation).toBe(Math.round(((6.7 + 6) / 1.2) * 100) / 100);
    expect(row.calcul.chargesMecaTotales).toBeGreaterThan(row.calcul.chargesEntretienLocation + row.calcul.chargesCarburant);
    // The form's lists: types with their flags, depths, machines with power for the tractor list, labour.
    expect(screen.typesAction.find((ty) => ty.id === 14)).toMatchObject({ debitIrrigation: true });
    expect(screen.profondeurs.map((p) => p.valeur)).toContain(25);
    expect(screen.machines.map((m) => m.id)).toEqual(expect.arrayContaining([f.tracteur, f.charrue]));
    // The campaign's labour items: the demo's and the one added here.
    const labour = (await t.db()("main_oeuvre").where({ idCampagne: campagnes.tilleuls2025 }).select("id")).map((m) => Number(m.id));
    expect(screen.mainOeuvres.map((m) => m.id).sort((a, b) => a - b)).toEqual(labour.sort((a, b) => a - b));
    expect(screen.mainOeuvres.map((m) => m.id)).toContain(f.mo);
  });

  test("[B-OPS-17] [B-OPS-18] [B-OPS-19] a self-propelled machine gives the work rate; an irrigation type has none and needs actual values", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const f = await fleet(t.demo().campagnes.tilleuls2025);
    const { id: recolte } = await saveOperationCulturale(scopeOf(t.db(), redacteur), {
      ...base,
      idTypeAction: 15,
      libelle: "Moisson",
      materielTractant: f.moissonneuse,
      profondeurTravail: 0,
    });
    const r = await t.db()("operation_culturale").where({ id: recolte }).first();
    expect(Number(r.debitCalcule)).toBe(2);
    expect(Number(r.consoCarburantCalculee)).toBe(15); // flat reference of type 15, no load factor
    expect(Number(r.profondeurTravail)).toBe(0); // type 15 has no depth: stored as 0

    const irrigation = {
      ...base,
      idTypeAction: 14,
      libelle: "Irrigation",
      materielTractant: f.pompe,
      materielTractes: [f.enrouleur],
      profondeurTravail: 0,
      debitIrrigation: 45,
    };
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), redacteur), irrigation), "warning.invalid-form", 400, {
      fieldErrors: { debitReel: ["warning.required"], consoCarburantReelle: ["warning.required"] },
    });
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), { ...irrigation, debitReel: 0.5, consoCarburantReelle: 12 });
    const i = await t.db()("operation_culturale").where({ id }).first();
    expect(i.debitCalcule).toBeNull();
    expect(i.consoCarburantCalculee).toBeNull();
    expect(Number(i.debitIrrigation)).toBe(45);
    expect(Number(i.debitReel)).toBe(0.5);
  });

  test("[B-OPS-14] [B-OPS-06] [B-OPS-13] an external workforce stores no workforce rows; flow applies only to irrigation types", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const f = await fleet(t.demo().campagnes.tilleuls2025);
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), {
      ...base,
      materielTractant: f.tracteur,
      materielTractes: [f.charrue],
      eta: true,
      mainOeuvre: [f.mo],
      debitIrrigation: 30,
    });
    const stored = await t.db()("operation_culturale").where({ id }).first();
    expect([true, 1]).toContain(stored.eta);
    expect(stored.debitIrrigation).toBeNull();
    expect(await t.db()("operation_culturale_main_oeuvre").where({ idOperationCulturale: id })).toEqual([]);
  });

  test("[B-OPS-30] [B-OPS-32] the server checks again that actual values are given where it computes no reference", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    await fleet(t.demo().campagnes.tilleuls2025);
    // No equipment: no calculated rate, no tractor power: no fuel reference, whatever the form claimed.
    await expectRefused(
      saveOperationCulturale(scopeOf(t.db(), redacteur), { ...base, debitCalcule: 1, consoCarburantCalculee: 20 }),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { debitReel: ["warning.required"], consoCarburantReelle: ["warning.required"] },
      },
    );
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), { ...base, debitReel: 1.5, consoCarburantReelle: 18 });
    expect(await t.db()("operation_culturale").where({ id }).first()).toMatchObject({ debitCalcule: null, consoCarburantCalculee: null });
    await expectRefused(
      saveOperationCulturale(scopeOf(t.db(), redacteur), { ...base, idTypeAction: 999, debitReel: 1, consoCarburantReelle: 1 }),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { idTypeAction: ["warning.invalid"] },
      },
    );
  });

  test("[B-OPS-16] only machines and labour of the selected campaign are accepted, and only a machine with power as tractor; nothing changes", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { campagnes } = t.demo();
    const own = await fleet(campagnes.tilleuls2025);
    const foreign = await fleet(campagnes.tilleuls2024);
    const before = await snapshot(t.db(), ...operationTables);
    const ok = { ...base, materielTractant: own.tracteur, materielTractes: [own.charrue], mainOeuvre: [own.mo] };
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), redacteur), { ...ok, materielTractant: foreign.tracteur }), "warning.invalid-form", 400, {
      fieldErrors: { materielTractant: ["warning.invalid"] },
    });
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), redacteur), { ...ok, materielTractant: own.charrue }), "warning.invalid-form", 400, {
      fieldErrors: { materielTractant: ["warning.invalid"] },
    });
    await expectRefused(
      saveOperationCulturale(scopeOf(t.db(), redacteur), { ...ok, materielTractes: [own.charrue, foreign.charrue] }),
      "warning.invalid-form",
      400,
      { fieldErrors: { materielTractes: ["warning.invalid"] } },
    );
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), redacteur), { ...ok, materielTractes: [own.tracteur] }), "warning.invalid-form", 400, {
      fieldErrors: { materielTractes: ["warning.invalid"] },
    });
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), redacteur), { ...ok, mainOeuvre: [foreign.mo] }), "warning.invalid-form", 400, {
      fieldErrors: { mainOeuvre: ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), ...operationTables)).toEqual(before);
  });

  test("[B-RIGHTS-01] [B-RIGHTS-02] [B-RIGHTS-03] [A-RIGHTS-07] [A-RIGHTS-08] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const f = await fleet(t.demo().campagnes.tilleuls2025);
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), { ...base, materielTractant: f.tracteur, materielTractes: [f.charrue] });
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), ...operationTables);
    await expectRefused(
      saveOperationCulturale(scopeOf(t.db(), lecteur), { ...base, materielTractant: f.tracteur, materielTractes: [f.charrue] }),
      "errors.forbidden",
      403,
    );
    await expectRefused(
      saveOperationCulturale(
        scopeOf(t.db(), lecteur),
        { ...base, libelle: "Piraté", materielTractant: f.tracteur, materielTractes: [f.charrue] },
        { id, updatedAt: new Date().toISOString() },
      ),
      "errors.forbidden",
      403,
    );
    await expectRefused(removeOperationsCulturales(scopeOf(t.db(), lecteur), [id]), "errors.forbidden", 403);
    const animateur = await contextFor("animateur", "tilleuls2024");
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), animateur), { ...base, debitReel: 1, consoCarburantReelle: 1 }), "errors.forbidden", 403);
    expect(await snapshot(t.db(), ...operationTables)).toEqual(before);
    const screen = await getOperationsCulturales(scopeOf(t.db(), lecteur));
    expect(screen.canWrite).toBe(false);
    expect(screen.rows.map((r) => r.id)).toContain(id);
  });

  test("[B-OPS-25] [B-OPS-26] [B-LIST-10] an update with a new work rate takes the propagation answer (repercutAction); a stale save is refused", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const f = await fleet(t.demo().campagnes.tilleuls2025);
    const input = { ...base, materielTractant: f.tracteur, materielTractes: [f.charrue], mainOeuvre: [f.mo] };
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), input);
    const [row] = (await getOperationsCulturales(scopeOf(t.db(), redacteur))).rows;
    const saved = await saveOperationCulturale(
      scopeOf(t.db(), redacteur),
      { ...input, debitReel: 1, mainOeuvre: [], repercutAction: true },
      { id, updatedAt: row.updatedAt },
    );
    // The interventions table does not exist yet: the answer is taken and returned, no intervention changes.
    expect(saved).toEqual({ id, repercutAction: true, actionsMisesAJour: 0 });
    const [updated] = (await getOperationsCulturales(scopeOf(t.db(), redacteur))).rows;
    expect(updated).toMatchObject({ id, debitReel: 1, debitCalcule: 1.2, mainOeuvre: [] });
    // The fuel reference follows the effective (actual) rate: same power and depth over 1 ha/h.
    expect(updated.consoCarburantCalculee).toBe(Math.round(conso(150, 1) * 100) / 100);
    await expectRefused(saveOperationCulturale(scopeOf(t.db(), redacteur), input, { id, updatedAt: "2000-01-01T00:00:00.000Z" }), "errors.stale", 409);
  });

  test("deleting removes only operations of the selected campaign with their links; an unknown id refuses the whole deletion", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const f = await fleet(t.demo().campagnes.tilleuls2025);
    const { id } = await saveOperationCulturale(scopeOf(t.db(), redacteur), {
      ...base,
      materielTractant: f.tracteur,
      materielTractes: [f.charrue],
      mainOeuvre: [f.mo],
    });
    await expectRefused(removeOperationsCulturales(scopeOf(t.db(), redacteur), [id, 999999]), "operation.errors.delete-service-error", 404);
    expect(await t.db()("operation_culturale").where({ id })).toHaveLength(1);
    await removeOperationsCulturales(scopeOf(t.db(), redacteur), [id]);
    expect(await t.db()("operation_culturale").where({ id })).toHaveLength(0);
    expect(await t.db()("operation_culturale_materiel").where({ idOperationCulturale: id })).toHaveLength(0);
  });

  test("[B-OPS-21] [B-OPS-22] the fuel-use reference (calculs/indicateurs/conso_carburant) needs type, power and depth, and follows depth and work rate", async () => {
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const ask = (e: { idTypeAction: number | null; puissance: number | null; profondeurTravail: number | null; debit: number | null }) =>
      getConsoCarburantReference(scopeOf(t.db(), lecteur), e);
    expect((await ask({ idTypeAction: 1, puissance: 150, profondeurTravail: 25, debit: 1.2 })).consoCarburant).toBeCloseTo(conso(150, 1.2), 6);
    expect((await ask({ idTypeAction: 1, puissance: 150, profondeurTravail: 30, debit: 1.2 })).consoCarburant).toBeCloseTo(conso(150, 1.2, 30), 6);
    // Without a work rate, the flat reference of the row (20 L/ha at 25 cm).
    expect((await ask({ idTypeAction: 1, puissance: 150, profondeurTravail: 25, debit: null })).consoCarburant).toBe(20);
    expect((await ask({ idTypeAction: 1, puissance: null, profondeurTravail: 25, debit: 1.2 })).consoCarburant).toBeNull();
    expect((await ask({ idTypeAction: 1, puissance: 150, profondeurTravail: null, debit: 1.2 })).consoCarburant).toBeNull();
    expect((await ask({ idTypeAction: null, puissance: 150, profondeurTravail: 25, debit: 1.2 })).consoCarburant).toBeNull();
    expect((await ask({ idTypeAction: 14, puissance: 60, profondeurTravail: 0, debit: 1 })).consoCarburant).toBeNull();
  });
});
