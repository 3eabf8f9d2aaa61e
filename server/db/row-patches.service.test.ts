import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { countRows, expectRefused, snapshot } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { toIso } from "./dialect";
import type { Db } from "./knex";
import { invalidField } from "../errors";
import { applyRowPatches } from "./row-patches";

const t = useTestDb();

const N = 500;
const campagne = () => t.demo().campagnes.tilleuls2025;
const other = () => t.demo().campagnes.tilleuls2024;

/** The bulk save of the labour grid: the real main_oeuvre table, scoped to a campaign. */
const save = (db: Db, patches: unknown, idCampagne = campagne()) =>
  applyRowPatches(db, {
    table: "main_oeuvre",
    schema: MainOeuvreSchema,
    patches,
    scope: { idCampagne },
    describe: (r) => String(r.libelle),
    describeColumns: ["libelle"],
  });

/** N new rows, as the grid posts them after a paste: temporary negative ids, French decimals. */
const newRows = (prefix: string, n = N) =>
  Array.from({ length: n }, (_, i) => ({
    id: -(i + 1),
    updatedAt: null,
    values: { libelle: `${prefix} ${i + 1}`, idTypeUser: 951, uta: `${1 + (i % 3)},5`, montant: String(i) },
  }));

async function loaded(db: Db, prefix: string) {
  const rows = await db("main_oeuvre")
    .where({ idCampagne: campagne() })
    .andWhereLike("libelle", `${prefix} %`)
    .orderBy("id")
    .select("id", "libelle", "uta", "updatedAt");
  return rows.map((r) => ({ ...r, id: Number(r.id), uta: Number(r.uta), updatedAt: toIso(r.updatedAt) }));
}

describe(`grid bulk save (${dialect})`, () => {
  test("[issue11-grid] 500 new rows are inserted in the campaign, each answered with its id, its temporary id and its updatedAt", async () => {
    const { saved, conflicts } = await save(t.db(), newRows("Insert"));
    expect(saved).toHaveLength(N);
    expect(conflicts).toEqual([]);
    expect(saved.every((s) => s.inserted && s.id > 0 && !Number.isNaN(Date.parse(s.updatedAt)))).toBe(true);
    expect(saved.map((s) => s.sentId)).toEqual(Array.from({ length: N }, (_, i) => -(i + 1)));
    expect(await countRows(t.db(), "main_oeuvre", { idCampagne: campagne() })).toBeGreaterThanOrEqual(N);
    const first = await t.db()("main_oeuvre").where({ id: saved[1].id }).first();
    expect(first).toMatchObject({ libelle: "Insert 2", remarque: null });
    expect(Number(first.uta)).toBe(2.5);
  });

  test("[issue11-grid] 500 changed rows are all written in one save, and the answer's tokens allow the next save", async () => {
    await save(t.db(), newRows("Update"));
    const rows = await loaded(t.db(), "Update");
    expect(rows).toHaveLength(N);
    const patches = rows.map((r, i) => ({
      id: r.id,
      updatedAt: r.updatedAt,
      values: { libelle: `Update ${i + 1}`, idTypeUser: 953, uta: "0,75", remarque: "modifié" },
    }));
    const started = Date.now();
    const { saved } = await save(t.db(), patches);
    const elapsed = Date.now() - started;
    expect(saved).toHaveLength(N);
    expect(saved.every((s) => !s.inserted)).toBe(true);
    const after = await t
      .db()("main_oeuvre")
      .whereIn(
        "id",
        rows.map((r) => r.id),
      )
      .select("uta", "idTypeUser", "remarque", "montant");
    expect(after.every((r) => Number(r.uta) === 0.75 && Number(r.idTypeUser) === 953 && r.remarque === "modifié" && r.montant === null)).toBe(true);
    // The tokens answered are the rows' new ones: a second save with them passes, one with the old ones is stale.
    const again = rows
      .slice(0, 3)
      .map((r, i) => ({ id: r.id, updatedAt: saved[i].updatedAt, values: { libelle: `Update ${i + 1}`, idTypeUser: 951, uta: 1 } }));
    expect((await save(t.db(), again)).conflicts).toEqual([]);
    console.info(`bulk save of ${N} rows (${dialect}): ${elapsed} ms`);
  });

  test("[issue29-conflicts] two stale rows among 500: the 498 others and the new rows are written, the stale ones come back with the other user's values", async () => {
    await save(t.db(), newRows("Stale"));
    const rows = await loaded(t.db(), "Stale");
    // Someone else saves rows 137 and 402 after this grid loaded them.
    for (const i of [136, 401])
      await save(t.db(), [{ id: rows[i].id, updatedAt: rows[i].updatedAt, values: { libelle: `Autre ${i + 1}`, idTypeUser: 952, uta: 2 } }]);
    const theirs = await loaded(t.db(), "Autre");
    const patches = rows.map((r, i) => ({ id: r.id, updatedAt: r.updatedAt, values: { libelle: `Mine ${i + 1}`, idTypeUser: 953, uta: 3 } }));
    const { saved, conflicts } = await save(t.db(), [...patches, ...newRows("Never", 2)]);
    expect(saved).toHaveLength(N);
    expect(saved.filter((s) => s.inserted)).toHaveLength(2);
    expect(conflicts).toEqual([
      {
        index: 136,
        id: rows[136].id,
        key: "errors.stale",
        label: "Autre 137",
        updatedAt: theirs[0].updatedAt,
        values: { libelle: "Autre 137", idTypeUser: 952, uta: 2 },
      },
      {
        index: 401,
        id: rows[401].id,
        key: "errors.stale",
        label: "Autre 402",
        updatedAt: theirs[1].updatedAt,
        values: { libelle: "Autre 402", idTypeUser: 952, uta: 2 },
      },
    ]);
    // The stale rows keep the other user's values; every other row is the grid's.
    const after = await loaded(t.db(), "Mine");
    expect(after).toHaveLength(N - 2);
    expect(await loaded(t.db(), "Autre")).toEqual(theirs);
    expect(await loaded(t.db(), "Never")).toHaveLength(2);
    // Kept over the new token, the grid's value of a stale row is then written.
    const kept = await save(t.db(), [{ id: rows[136].id, updatedAt: conflicts[0].updatedAt!, values: { libelle: "Mine 137", idTypeUser: 953, uta: 3 } }]);
    expect(kept.conflicts).toEqual([]);
    expect(await loaded(t.db(), "Mine")).toHaveLength(N - 1);
  });

  test("[issue11-grid] one invalid row among 500: nothing is written, the errors name the row and the field", async () => {
    await save(t.db(), newRows("Invalid"));
    const rows = await loaded(t.db(), "Invalid");
    const before = await snapshot(t.db(), "main_oeuvre");
    const patches = rows.map((r, i) => ({
      id: r.id,
      updatedAt: r.updatedAt,
      values: { libelle: `Changed ${i + 1}`, idTypeUser: 953, uta: i === 250 ? "-1" : "2,5" },
    }));
    await expectRefused(save(t.db(), patches), "warning.invalid-form", 400, { fieldErrors: { "patches.250.values.uta": ["warning.positive"] } });
    await expectRefused(
      save(t.db(), [...patches.slice(0, 10), { id: -1, updatedAt: null, values: { idTypeUser: 951, uta: 1 } }]),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { "patches.10.values.libelle": ["warning.required"] },
      },
    );
    expect(await snapshot(t.db(), "main_oeuvre")).toEqual(before);
  });

  test("an existing row without its token, a row named twice, or a row of another campaign are refused; nothing is written", async () => {
    await save(t.db(), newRows("Envelope", 3));
    const rows = await loaded(t.db(), "Envelope");
    const before = await snapshot(t.db(), "main_oeuvre");
    const values = { libelle: "x", idTypeUser: 951, uta: 1 };
    await expectRefused(save(t.db(), [{ id: rows[0].id, values }]), "warning.invalid-form", 400, {
      fieldErrors: { "patches.0.updatedAt": ["warning.required"] },
    });
    await expectRefused(
      save(t.db(), [
        { id: rows[0].id, updatedAt: rows[0].updatedAt, values },
        { id: rows[0].id, updatedAt: rows[0].updatedAt, values },
      ]),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { "patches.1.id": ["warning.invalid"] },
      },
    );
    // The rows belong to 2025: saved as rows of 2024 they are not found there (answered as rows removed, not written).
    const elsewhere = await save(
      t.db(),
      rows.map((r) => ({ id: r.id, updatedAt: r.updatedAt, values })),
      other(),
    );
    expect(elsewhere.saved).toEqual([]);
    expect(elsewhere.conflicts.map((c) => [c.index, c.key, c.values])).toEqual([
      [0, "errors.not-found", null],
      [1, "errors.not-found", null],
      [2, "errors.not-found", null],
    ]);
    await expectRefused(
      save(
        t.db(),
        Array.from({ length: 5001 }, () => ({ id: null, values })),
      ),
      "warning.invalid-form",
      400,
      { fieldErrors: { patches: ["warning.too-many"] } },
    );
    expect(await snapshot(t.db(), "main_oeuvre")).toEqual(before);
  });

  test("a rule the schema cannot judge (`check`) refuses its rows before anything is written", async () => {
    const before = await snapshot(t.db(), "main_oeuvre");
    const refused = applyRowPatches(t.db(), {
      table: "main_oeuvre",
      schema: MainOeuvreSchema,
      patches: newRows("Checked", 3),
      scope: { idCampagne: campagne() },
      check: async (_trx, rows) =>
        Object.fromEntries(rows.filter((r) => r.values.libelle.endsWith("2")).map((r) => [r.index, { idTypeUser: "warning.invalid" }])),
    });
    await expectRefused(refused, "warning.invalid-form", 400, { fieldErrors: { "patches.1.values.idTypeUser": ["warning.invalid"] } });
    expect(await snapshot(t.db(), "main_oeuvre")).toEqual(before);
  });

  test("[issue11-grid] columns that look rows up refuse the rows they cannot write, every one named, before anything is written", async () => {
    const before = await snapshot(t.db(), "main_oeuvre");
    const refused = applyRowPatches(t.db(), {
      table: "main_oeuvre",
      schema: MainOeuvreSchema,
      patches: newRows("Linked", 4),
      scope: { idCampagne: campagne() },
      columns: async (v, trx) => {
        const type = await trx("type_main_oeuvre").where({ id: v.idTypeUser }).first("id");
        if (!type || v.libelle.endsWith("2") || v.libelle.endsWith("4")) throw invalidField("idTypeUser");
        return { libelle: v.libelle, idTypeUser: v.idTypeUser, uta: v.uta };
      },
    });
    await expectRefused(refused, "warning.invalid-form", 400, {
      fieldErrors: { "patches.1.values.idTypeUser": ["warning.invalid"], "patches.3.values.idTypeUser": ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), "main_oeuvre")).toEqual(before);
  });
});
