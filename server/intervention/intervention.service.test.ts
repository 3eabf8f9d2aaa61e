import { describe, expect, test } from "vitest";
import { InterventionSchema, type InterventionInput } from "~/domain/intervention";
import { parse } from "../errors";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { getInterventions, removeInterventions, saveIntervention } from "./service";

const t = useTestDb();

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await t.db()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** Two plots of Tilleuls 2025 and an operation with a tractor and a worker. */
async function setUp() {
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plots = await t.db()("parcelle").where({ idCampagne }).orderBy("libelle").limit(2).select("id", "libelle");
  expect(plots.length).toBe(2);
  const tracteur = await insertId("parc_materiel", {
    idCampagne,
    libelle: "Tracteur 150 ch",
    noClasse: 1,
    noCategorie: 1,
    idCategorieMateriel: 1,
    idBasemeq: 1,
  });
  const chef = await insertId("main_oeuvre", { idCampagne, libelle: "Chef d'exploitation", uta: 1, idTypeUser: 953 });
  const semis = await insertId("operation_culturale", {
    idCampagne,
    idTypeAction: 1,
    libelle: "Semis combiné",
    idMaterielTractant: tracteur,
    debitReel: null,
    debitCalcule: 2.5,
  });
  await insertId("operation_culturale_main_oeuvre", { idOperationCulturale: semis, idMainOeuvre: chef });
  return { idCampagne, plots: plots.map((p) => Number(p.id)), semis };
}

const input = (idParcelle: number, idOperationCulturale: number, extra: Record<string, unknown> = {}): InterventionInput =>
  parse(InterventionSchema, { idParcelle, idOperationCulturale, date: "12/10/2024", frequence: "2", tauxSurface: "0,5", realisee: "on", ...extra });

describe(`interventions (${dialect})`, () => {
  test("[C-INT-04] [C-INT-05] [C-FORM-29] [C-FORM-30] [C-FORM-10] [C-FORM-11] [C-FORM-14] [C-FORM-21] [C-FORM-22] a writer creates and updates interventions of a plot; passes and work rate are computed", async () => {
    const { plots, semis } = await setUp();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveIntervention(scopeOf(t.db(), redacteur), input(plots[1], semis));
    const other = await saveIntervention(scopeOf(t.db(), redacteur), input(plots[0], semis, { date: "2024-10-01" }));

    // The first plot is shown by default; a plot asked for is shown instead.
    const first = await getInterventions(scopeOf(t.db(), redacteur));
    expect(first.selection).toEqual([first.parcelles[0].id]);
    const data = await getInterventions(scopeOf(t.db(), redacteur), { parcelleIds: [plots[1]] });
    expect(data.canWrite).toBe(true);
    const mine = data.rows.filter((r) => r.id === id);
    expect(data.rows.every((r) => r.idParcelle === plots[1])).toBe(true);
    expect(mine[0]).toMatchObject({
      date: "2024-10-12",
      frequence: 2,
      tauxSurface: 0.5,
      nombrePassage: 1,
      debit: 2.5,
      realisee: true,
      prevue: false,
      intrants: [],
      rdd: false,
    });
    const op = data.operations.find((o) => o.id === semis)!;
    expect(op.materiels.map((m) => m.libelle)).toEqual(["Tracteur 150 ch"]);
    expect(op.mainOeuvres.map((m) => m.libelle)).toEqual(["Chef d'exploitation"]);
    expect(data.cultures.some((c) => c.interculture)).toBe(true);

    await saveIntervention(scopeOf(t.db(), redacteur), input(plots[1], semis, { frequence: "3", tauxSurface: "0", debit: "4", prevue: "on" }), {
      id,
      updatedAt: mine[0].updatedAt,
    });
    const after = await getInterventions(scopeOf(t.db(), redacteur), { parcelleIds: plots });
    // By date: the intervention of 1 October comes before that of 12 October.
    const ours = after.rows.filter((r) => r.id === id || r.id === other);
    expect(ours.map((r) => r.id)).toEqual([other, id]);
    expect(ours[1]).toMatchObject({ frequence: 3, tauxSurface: 0, nombrePassage: 3, debit: 4, prevue: true });
    const stored = await t.db()("action").where({ id }).first("anneeRecolte", "dicIdTypeAction");
    expect(stored).toEqual({ anneeRecolte: 2025, dicIdTypeAction: 1 });
  });

  test("a stale save and links outside the campaign are refused, and nothing changes", async () => {
    const { plots, semis } = await setUp();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveIntervention(scopeOf(t.db(), redacteur), input(plots[0], semis));
    const before = await snapshot(t.db(), "action");
    await expectRefused(
      saveIntervention(scopeOf(t.db(), redacteur), input(plots[0], semis), { id, updatedAt: "2000-01-01T00:00:00.000Z" }),
      "errors.stale",
      409,
    );
    const foreignPlot = Number((await t.db()("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2024 }).first("id")).id);
    await expectRefused(saveIntervention(scopeOf(t.db(), redacteur), input(foreignPlot, semis)), "warning.invalid-form", 400, {
      fieldErrors: { idParcelle: ["warning.invalid"] },
    });
    await expectRefused(saveIntervention(scopeOf(t.db(), redacteur), input(plots[0], 999999)), "warning.invalid-form", 400, {
      fieldErrors: { idOperationCulturale: ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), "action")).toEqual(before);
  });

  test("[C-RIGHTS-16] a reader and a locked campaign are refused every write; deletion is all or nothing", async () => {
    const { plots, semis } = await setUp();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const a = await saveIntervention(scopeOf(t.db(), redacteur), input(plots[0], semis));
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "action");
    await expectRefused(saveIntervention(scopeOf(t.db(), lecteur), input(plots[0], semis)), "errors.forbidden", 403);
    await expectRefused(removeInterventions(scopeOf(t.db(), lecteur), [a]), "errors.forbidden", 403);
    expect((await getInterventions(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: true });
    await expectRefused(saveIntervention(scopeOf(t.db(), redacteur), input(plots[0], semis)), "errors.forbidden", 403);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: false });
    await expectRefused(removeInterventions(scopeOf(t.db(), redacteur), [a, 999999]), "errors.services.actions-delete-service-error", 404);
    expect(await snapshot(t.db(), "action")).toEqual(before);
    await removeInterventions(scopeOf(t.db(), redacteur), [a]);
    expect(await t.db()("action").where({ id: a }).first()).toBeUndefined();
  });
});
