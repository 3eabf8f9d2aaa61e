import knexFactory from "knex";
import { describe, expect, test } from "vitest";
import { decodeInterventions } from "~/domain/contracts/interventions-codec";
import { selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import type { Db } from "../db/knex";
import { listInterventions } from "./repo";
import { packedInterventions, plotVersions } from "./rows-cache";
import { removeInterventions, saveIntervention, saveInterventionsGrid } from "./service";

const t = useTestDb();

/**
 * After a write the kept answer keeps the plots whose counter did not move (decision 0122, issue 30): the answer
 * equals the one read afresh, and only the written plots' rows are read again.
 */
describe(`interventions kept per plot after a write (${dialect})`, () => {
  const idCampagne = () => t.demo().campagnes.tilleuls2025;
  const plots = async (db: Db) => (await db("parcelle").where({ idCampagne: idCampagne() }).orderBy("id").pluck("id")).map(Number);

  test("[issue30-perf] after a create, an update, a delete, an input's change and a move, the kept answer equals the one read afresh and only the written plots are read again", async () => {
    const db = t.db();
    const other = knexFactory(db.client.config); // another server process on the same database
    try {
      const ids = await plots(db);
      expect(ids.length).toBeGreaterThan(1);
      const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
      const scope = () => scopeOf(db, redacteur);
      const action = await db("action").where({ idCampagne: idCampagne() }).orderBy("id").first("id", "idParcelle", "idOperationCulturale");
      const intrant = await db("intrant as i")
        .join("action as a", "a.id", "i.idAction")
        .where("a.idCampagne", idCampagne())
        .orderBy("i.id")
        .first("i.id", "a.idParcelle");
      const plotA = Number(action.idParcelle);
      const plotB = ids.find((id) => id !== plotA)!;
      const newRow = (idParcelle: number) => ({
        idParcelle,
        date: "2025-05-02",
        idOperationCulturale: Number(action.idOperationCulturale),
        frequence: 1,
        tauxSurface: 1,
        realisee: true,
        prevue: false,
      });
      let created = 0;
      const steps: [string, number[], () => Promise<unknown>][] = [
        ["a create through the service", [plotA], async () => (created = await saveIntervention(scope(), newRow(plotA) as never))],
        [
          "an update through the grid's save",
          [plotA],
          async () => {
            const row = (await listInterventions(db, idCampagne(), [plotA])).find((r) => r.id === Number(action.id))!;
            await saveInterventionsGrid(scope(), [
              {
                id: row.id,
                updatedAt: row.updatedAt,
                values: { ...row, frequence: "2", idCultureConcernee: row.idCultureConcernee ?? undefined, debit: row.debit ?? undefined },
              },
            ]);
          },
        ],
        ["an input's quantity, by another process", [Number(intrant.idParcelle)], () => other("intrant").where({ id: intrant.id }).update({ quantite: 7.25 })],
        ["an input deleted", [Number(intrant.idParcelle)], () => db("intrant").where({ id: intrant.id }).delete()],
        ["an intervention moved to another plot", [plotA, plotB], () => other("action").where({ id: created }).update({ idParcelle: plotB })],
        ["a delete through the service", [plotB], () => removeInterventions(scope(), [created])],
        [
          "a create on a plot without interventions yet, by another process",
          [plotB],
          () => other("action").insert({ ...newRow(plotB), idCampagne: idCampagne(), anneeRecolte: 2025 }),
        ],
      ];
      const all = async (h: Db) => decodeInterventions(await packedInterventions(h, idCampagne(), ids));
      await all(db); // kept
      for (const [what, written, write] of steps) {
        const before = await plotVersions(db, ids);
        await write();
        const after = await plotVersions(db, ids);
        expect(
          ids.filter((id) => before.get(id) !== after.get(id)),
          what,
        ).toEqual([...written].sort((x, y) => x - y));
        const read: unknown[][] = [];
        const listen = (q: { sql: string; bindings: unknown[] }) => {
          if (/from .action./i.test(q.sql) && /order by/i.test(q.sql) && !/intrant|recolte/i.test(q.sql)) read.push(q.bindings);
        };
        db.on("query", listen);
        const kept = await all(db);
        db.off("query", listen);
        expect(kept, what).toEqual(await listInterventions(db, idCampagne(), ids));
        // One read of the interventions, of the written plots alone.
        expect(read.length, what).toBe(1);
        expect(
          read[0]
            .slice(1)
            .map(Number)
            .sort((x, y) => x - y),
          what,
        ).toEqual([...written].sort((x, y) => x - y));
        // One plot chosen, and another process's kept answer: the same as read afresh.
        for (const id of [plotA, plotB])
          expect(decodeInterventions(await packedInterventions(db, idCampagne(), [id])), what).toEqual(await listInterventions(db, idCampagne(), [id]));
        expect(await all(other), what).toEqual(await listInterventions(other, idCampagne(), ids));
      }
    } finally {
      await other.destroy();
    }
  });
});
