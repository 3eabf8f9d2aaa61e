import { describe, expect, test } from "vitest";
import { expectRefused, selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { getParcelles, saveParcelle } from "../parcelle/service";
import type { Db } from "./knex";
import { updateIfUnchanged, updateManyIfUnchanged, type Token } from "./stale";
import { toIso } from "./dialect";

const t = useTestDb();

async function insertPlot(db: Db, idCampagne: number, libelle: string): Promise<number> {
  const [r] = await db("parcelle").insert({ idCampagne, libelle }).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

describe(`stale check (${dialect}, issue 10 defect 4)`, () => {
  test("ten simultaneous saves of one plot loaded once: exactly one is written, the nine others are refused as stale", async () => {
    const u = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await insertPlot(t.db(), t.demo().campagnes.tilleuls2025, "Concurrente");
    // Twice: on the stamp the database gave at insert (microseconds on PostgreSQL, seconds as text on
    // SQLite), then on the stamp a save wrote.
    for (const round of [1, 2]) {
      const loaded = (await getParcelles(scopeOf(t.db(), u))).rows.find((r) => r.id === id)!;
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          saveParcelle(scopeOf(t.db(), u), { libelle: `Save ${round}-${i}`, surface: 1 }, { id, updatedAt: loaded.updatedAt }),
        ),
      );
      const written = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
      expect(written).toHaveLength(1);
      expect(refused).toHaveLength(9);
      for (const e of refused) expect(e).toMatchObject({ key: "errors.stale", status: 409 });
      const after = (await getParcelles(scopeOf(t.db(), u))).rows.find((r) => r.id === id)!;
      expect(after.libelle).toMatch(new RegExp(`^Save ${round}-\\d$`));
      expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(loaded.updatedAt));
    }
  });

  test("a save from a form loaded before another save is refused; one with the new token is written", async () => {
    const u = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await insertPlot(t.db(), t.demo().campagnes.tilleuls2025, "Deux onglets");
    const first = (await getParcelles(scopeOf(t.db(), u))).rows.find((r) => r.id === id)!.updatedAt;
    await saveParcelle(scopeOf(t.db(), u), { libelle: "Onglet A", surface: 1 }, { id, updatedAt: first });
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { libelle: "Onglet B", surface: 1 }, { id, updatedAt: first }), "errors.stale", 409);
    const second = (await getParcelles(scopeOf(t.db(), u))).rows.find((r) => r.id === id)!;
    expect(second.libelle).toBe("Onglet A");
    await saveParcelle(scopeOf(t.db(), u), { libelle: "Onglet B", surface: 1 }, { id, updatedAt: second.updatedAt });
    expect((await getParcelles(scopeOf(t.db(), u))).rows.find((r) => r.id === id)!.libelle).toBe("Onglet B");
  });

  test("an edit without its updatedAt token, or with one that is no date, is a refused form and writes nothing", async () => {
    const u = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await insertPlot(t.db(), t.demo().campagnes.tilleuls2025, "Sans jeton");
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { libelle: "Écrasée", surface: 1 }, { id } as Token), "warning.invalid-form", 400, {
      fieldErrors: { updatedAt: ["warning.required"] },
    });
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { libelle: "Écrasée", surface: 1 }, { id, updatedAt: "hier" }), "warning.invalid-form", 400, {
      fieldErrors: { updatedAt: ["warning.invalid"] },
    });
    expect((await t.db()("parcelle").where({ id }).first("libelle")).libelle).toBe("Sans jeton");
  });

  test("a row gone (or outside the scope) is not found, not stale", async () => {
    const id = await insertPlot(t.db(), t.demo().campagnes.tilleuls2025, "Hors champ");
    const stamp = new Date().toISOString();
    await expectRefused(updateIfUnchanged(t.db(), "parcelle", { id: 2 ** 31 - 1, updatedAt: stamp }, { libelle: "x" }), "errors.not-found", 404);
    await expectRefused(
      updateIfUnchanged(t.db(), "parcelle", { id, updatedAt: stamp }, { libelle: "x" }, { scope: { idCampagne: t.demo().campagnes.tilleuls2024 } }),
      "errors.not-found",
      404,
    );
  });

  test("many rows at once (a grid's save, one statement on PostgreSQL): the unchanged are written with later stamps, the changed, gone, out-of-scope and twice-named are returned", async () => {
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const ids: number[] = [];
    for (const name of ["Lot A", "Lot B", "Lot C", "Lot D"]) ids.push(await insertPlot(t.db(), idCampagne, name));
    const stampOf = async (id: number) => toIso((await t.db()("parcelle").where({ id }).first("updatedAt")).updatedAt);
    const tokens = await Promise.all(ids.map(async (id) => ({ id, updatedAt: await stampOf(id) })));
    // Someone else saves B first; D is deleted.
    await updateIfUnchanged(t.db(), "parcelle", tokens[1], { libelle: "Lot B ailleurs" });
    await t.db()("parcelle").where({ id: ids[3] }).delete();
    const refused = await t.db().transaction((trx) =>
      updateManyIfUnchanged(
        trx,
        "parcelle",
        [
          { token: tokens[0], values: { libelle: "A écrit", surface: 1.5 } },
          { token: tokens[1], values: { libelle: "B écrasé", surface: 2 } },
          { token: tokens[2], values: { libelle: "C écrit", surface: null } },
          { token: tokens[3], values: { libelle: "D disparu", surface: 3 } },
          { token: tokens[0], values: { libelle: "A deux fois", surface: 4 } },
          { token: { id: ids[2], updatedAt: tokens[2].updatedAt }, values: { libelle: "C ailleurs" } },
        ],
        { scope: { idCampagne } },
      ),
    );
    expect(refused).toEqual([
      { index: 1, id: ids[1], key: "errors.stale" },
      { index: 3, id: ids[3], key: "errors.not-found" },
      { index: 4, id: ids[0], key: "errors.stale" },
      { index: 5, id: ids[2], key: "errors.stale" },
    ]);
    const rows = await t.db()("parcelle").whereIn("id", ids).orderBy("id").select("id", "libelle", "surface", "updatedAt");
    expect(rows.map((r) => [r.libelle, r.surface == null ? null : Number(r.surface)])).toEqual([
      ["A écrit", 1.5],
      ["Lot B ailleurs", null],
      ["C écrit", null],
    ]);
    expect(Date.parse(toIso(rows[0].updatedAt))).toBeGreaterThan(Date.parse(tokens[0].updatedAt));
    expect(Date.parse(toIso(rows[2].updatedAt))).toBeGreaterThan(Date.parse(tokens[2].updatedAt));
    // Rows of another campaign are not found there.
    const outside = await t.db().transaction((trx) =>
      updateManyIfUnchanged(trx, "parcelle", [{ token: { id: ids[0], updatedAt: toIso(rows[0].updatedAt) }, values: { libelle: "x" } }], {
        scope: { idCampagne: t.demo().campagnes.tilleuls2024 },
      }),
    );
    expect(outside).toEqual([{ index: 0, id: ids[0], key: "errors.not-found" }]);
    await expectRefused(
      t.db().transaction((trx) => updateManyIfUnchanged(trx, "parcelle", [{ token: { id: ids[0], updatedAt: "hier" }, values: { libelle: "x" } }])),
      "warning.invalid-form",
      400,
    );
  });
});
