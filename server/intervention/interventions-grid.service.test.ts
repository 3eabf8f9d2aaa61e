import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { getInterventions, saveInterventionsGrid } from "./service";

const t = useTestDb();

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await t.db()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const N = 500;

/** A plot of Tilleuls 2025 with 500 interventions of one operation, loaded as the grid loads them. */
async function setUp(libelle: string) {
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plot = Number((await t.db()("parcelle").where({ idCampagne }).orderBy("libelle").first("id")).id);
  const op = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle, debitReel: 2 });
  const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
  const patches = Array.from({ length: N }, (_, i) => ({
    id: -(i + 1),
    values: { idParcelle: plot, date: "2025-04-01", idOperationCulturale: op, frequence: 1, tauxSurface: 1, realisee: true, prevue: false },
  }));
  await saveInterventionsGrid(scopeOf(t.db(), redacteur), patches);
  const rows = (await getInterventions(scopeOf(t.db(), redacteur), { parcelleIds: [plot] })).rows.filter((r) => r.idOperationCulturale === op);
  expect(rows).toHaveLength(N);
  const edit = (r: (typeof rows)[number], extra: Record<string, unknown> = {}) => ({
    id: r.id,
    updatedAt: r.updatedAt,
    values: { idParcelle: r.idParcelle, date: r.date, idOperationCulturale: op, frequence: "2", tauxSurface: "0,5", realisee: true, prevue: true, ...extra },
  });
  return { idCampagne, plot, op, redacteur, rows, edit };
}

describe(`interventions grid save (${dialect})`, () => {
  test("[issue11-grid] 500 changed interventions are written in one save, passes and harvest year computed as the form's save does", async () => {
    const s = await setUp("Grille 500");
    const { saved, conflicts } = await saveInterventionsGrid(
      scopeOf(t.db(), s.redacteur),
      s.rows.map((r) => s.edit(r)),
    );
    expect(saved).toHaveLength(N);
    expect(conflicts).toEqual([]);
    const after = await t
      .db()("action")
      .whereIn(
        "id",
        s.rows.map((r) => r.id),
      )
      .select("frequence", "tauxSurface", "nombrePassage", "prevue", "anneeRecolte", "debit");
    expect(
      after.every(
        (a) =>
          Number(a.frequence) === 2 &&
          Number(a.tauxSurface) === 0.5 &&
          Number(a.nombrePassage) === 1 &&
          !!a.prevue &&
          Number(a.anneeRecolte) === 2025 &&
          Number(a.debit) === 2,
      ),
    ).toBe(true);
  });

  test("[issue29-conflicts] one stale row and two fresh rows: the fresh ones are saved, the stale one comes back with the other user's values", async () => {
    const s = await setUp("Grille conflit");
    const [a, b, c] = s.rows;
    // Someone else saves row b (frequency 3, planned) after this grid loaded it.
    const other = await saveInterventionsGrid(scopeOf(t.db(), s.redacteur), [s.edit(b, { frequence: 3, tauxSurface: 1, prevue: false })]);
    const result = await saveInterventionsGrid(scopeOf(t.db(), s.redacteur), [
      s.edit(a, { frequence: 4 }),
      s.edit(b, { frequence: 5 }),
      s.edit(c, { frequence: 6 }),
    ]);
    expect(result.saved.map((r) => r.id)).toEqual([a.id, c.id]);
    expect(result.conflicts).toEqual([
      {
        index: 1,
        id: b.id,
        key: "errors.stale",
        updatedAt: other.saved[0].updatedAt,
        values: { idParcelle: s.plot, date: "2025-04-01", idOperationCulturale: s.op, debit: 2, frequence: 3, tauxSurface: 1, realisee: true, prevue: false },
      },
    ]);
    const frequence = async (id: number) => Number((await t.db()("action").where({ id }).first("frequence")).frequence);
    expect([await frequence(a.id), await frequence(b.id), await frequence(c.id)]).toEqual([4, 3, 6]);
  });

  test("[issue11-grid] a row with an operation of another campaign among 500 leaves all 500 unchanged", async () => {
    const s = await setUp("Grille atomique");
    const before = await snapshot(t.db(), "action");
    const fresh = (await getInterventions(scopeOf(t.db(), s.redacteur), { parcelleIds: [s.plot] })).rows.filter((r) => r.idOperationCulturale === s.op);
    const foreign = await insertId("operation_culturale", { idCampagne: t.demo().campagnes.tilleuls2024, idTypeAction: 1, libelle: "Autre campagne" });
    await expectRefused(
      saveInterventionsGrid(
        scopeOf(t.db(), s.redacteur),
        fresh.map((r, i) => s.edit(r, i === 7 ? { idOperationCulturale: foreign } : {})),
      ),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { "patches.7.values.idOperationCulturale": ["warning.invalid"] },
      },
    );
    expect(await snapshot(t.db(), "action")).toEqual(before);
  });

  test("[A-RIGHTS-07] [A-RIGHTS-08] a reader's bulk save and any bulk save on a locked campaign are refused, and nothing changes", async () => {
    const s = await setUp("Grille droits");
    const before = await snapshot(t.db(), "action");
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(
      saveInterventionsGrid(
        scopeOf(t.db(), lecteur),
        s.rows.map((r) => s.edit(r)),
      ),
      "errors.forbidden",
      403,
    );
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2024");
    await expectRefused(saveInterventionsGrid(scopeOf(t.db(), animateur), [s.edit(s.rows[0])]), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "action")).toEqual(before);
  });
});
