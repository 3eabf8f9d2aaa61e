import knexFactory from "knex";
import { describe, expect, test } from "vitest";
import { decodeChoices, decodeInterventions } from "~/domain/contracts/interventions-codec";
import { selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import type { Db } from "../db/knex";
import { listInterventions } from "./repo";
import { interventionsVersion, packedInterventions } from "./rows-cache";
import { getInterventions, getInterventionsPacked, removeInterventions, saveInterventionsGrid } from "./service";

const t = useTestDb();

/**
 * The interventions kept per campaign version (decision 0063): after any committed write, by any path, on any
 * database handle (another server process or container), the kept answer is never served again.
 */
describe(`interventions kept per campaign version (${dialect})`, () => {
  const idCampagne = () => t.demo().campagnes.tilleuls2025;
  const plots = async (db: Db) => (await db("parcelle").where({ idCampagne: idCampagne() }).orderBy("id").pluck("id")).map(Number);
  /** The kept answer of `db` is the rows as they are now. */
  const fresh = async (db: Db) => {
    const ids = await plots(db);
    expect(decodeInterventions(await packedInterventions(db, idCampagne(), ids))).toEqual(await listInterventions(db, idCampagne(), ids));
  };

  test("[issue11-perf] every write that changes the listed rows moves the version on, whatever wrote it; a rolled-back write does not", async () => {
    const db = t.db();
    const other = knexFactory(db.client.config); // another server process or container on the same database
    try {
      const ids = await plots(db);
      const first = await packedInterventions(db, idCampagne(), ids);
      expect(await packedInterventions(db, idCampagne(), ids)).toBe(first); // kept
      const version = async () => interventionsVersion(db, idCampagne());
      const steps: [string, () => Promise<unknown>][] = [];
      const action = await db("action")
        .where({ idCampagne: idCampagne() })
        .orderBy("id")
        .first("id", "updatedAt", "idParcelle", "date", "idOperationCulturale");
      const intrant = await db("intrant as i")
        .join("action as a", "a.id", "i.idAction")
        .where("a.idCampagne", idCampagne())
        .orderBy("i.id")
        .first("i.id", "i.idCategorie");
      const recolte = await db("recolte as r")
        .join("action as a", "a.id", "r.idAction")
        .where("a.idCampagne", idCampagne())
        .orderBy("r.id")
        .first("r.id", "r.idCulture", "r.dicIdTypeSortie");
      const rdd = await db("rdd").first("id");
      expect(action && intrant && recolte && rdd).toBeTruthy();
      const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
      steps.push([
        "the grid's save",
        async () => {
          const row = (await listInterventions(db, idCampagne(), ids)).find((r) => r.id === Number(action.id))!;
          await saveInterventionsGrid(scopeOf(db, redacteur), [
            {
              id: row.id,
              updatedAt: row.updatedAt,
              values: { ...row, frequence: "3", tauxSurface: "0,5", idCultureConcernee: row.idCultureConcernee ?? undefined, debit: row.debit ?? undefined },
            },
          ]);
        },
      ]);
      steps.push(["an input's quantity, written by another process", () => other("intrant").where({ id: intrant.id }).update({ quantite: 12.5 })]);
      steps.push([
        "an input category's type (a reference name)",
        async () => {
          const cat = await db("categorie_intrant").where({ id: intrant.idCategorie }).first("idTypeIntrant");
          const otherType = await db("type_intrant").whereNot({ id: cat.idTypeIntrant }).first("id");
          await db("categorie_intrant").where({ id: intrant.idCategorie }).update({ idTypeIntrant: otherType.id });
        },
      ]);
      steps.push(["a harvested crop's name", () => db("culture").where({ id: recolte.idCulture }).update({ libelle: "Blé renommé" })]);
      steps.push(["an output type's name", () => other("type_sortie").where({ id: recolte.dicIdTypeSortie }).update({ libelle: "Grain renommé" })]);
      steps.push([
        "a harvest's qualifier and its name",
        async () => {
          const [q] = await db("qualifiant_recolte").insert({ idDossier: t.demo().dossiers.beauce, qrdNom: "Qualité A" }).returning("id");
          const idQ = typeof q === "object" ? (q as { id: number }).id : q;
          await db("recolte").where({ id: recolte.id }).update({ idQualifiantRecolte: idQ });
          await fresh(db);
          await db("qualifiant_recolte").where({ id: idQ }).update({ qrdNom: "Qualité B" });
        },
      ]);
      steps.push(["a rule evaluation", () => db("rdd_evaluation").insert({ idRdd: rdd.id, idAction: action.id })]);
      steps.push(["an input deleted", () => other("intrant").where({ id: intrant.id }).delete()]);
      steps.push(["an intervention deleted (its harvests go with it)", () => removeInterventions(scopeOf(db, redacteur), [Number(action.id)])]);
      steps.push([
        "a plot deleted (its interventions go with it, by cascade)",
        async () => {
          const plot = await db("action").where({ idCampagne: idCampagne() }).whereNot({ idParcelle: action.idParcelle }).orderBy("id").first("idParcelle");
          await db("parcelle").where({ id: plot.idParcelle }).delete();
        },
      ]);
      steps.push([
        "an intervention added by another process",
        () =>
          other("action").insert({
            idCampagne: idCampagne(),
            idParcelle: action.idParcelle,
            date: "2025-06-01",
            idOperationCulturale: action.idOperationCulturale,
            frequence: 1,
            tauxSurface: 1,
            realisee: true,
            prevue: false,
            anneeRecolte: 2025,
          }),
      ]);
      for (const [what, write] of steps) {
        const before = await version();
        const kept = decodeInterventions(await packedInterventions(db, idCampagne(), ids));
        await write();
        expect(await version(), what).toBeGreaterThan(before);
        const now = decodeInterventions(await packedInterventions(db, idCampagne(), ids));
        expect(now, what).not.toEqual(kept);
        await fresh(db);
        await fresh(other);
      }
      // A write rolled back leaves the version and the kept answer as they were.
      const before = await version();
      const kept = await packedInterventions(db, idCampagne(), ids);
      await db
        .transaction(async (trx) => {
          await trx("action").where({ idCampagne: idCampagne() }).update({ frequence: 9 });
          expect(await interventionsVersion(trx, idCampagne())).toBeGreaterThan(before);
          // Read inside the transaction: its own writes, never kept.
          expect(decodeInterventions(await packedInterventions(trx, idCampagne(), ids)).every((r) => r.frequence === 9)).toBe(true);
          throw new Error("rolled back");
        })
        .catch((e) => expect(String(e)).toMatch(/rolled back/));
      expect(await version()).toBe(before);
      expect(await packedInterventions(db, idCampagne(), ids)).toBe(kept);
      // Another campaign's writes leave this one's version alone.
      await db("action").where({ idCampagne: t.demo().campagnes.moulin2025 }).update({ frequence: 2 });
      expect(await version()).toBe(before);
    } finally {
      await other.destroy();
    }
  });

  test("[issue11-perf] the screen's answer as sent equals the one read afresh, and the kept choices follow every change of plots, operations, machinery and labour, from any process (decision 0083)", async () => {
    const db = t.db();
    const other = knexFactory(db.client.config);
    try {
      const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
      const ids = await plots(db);
      const packed = async () => {
        const answer = await getInterventionsPacked(scopeOf(db, redacteur), { parcelleIds: ids });
        const { choix, rows, ...rest } = answer as typeof answer & { ok?: true };
        return { ...rest, ...decodeChoices(choix), rows: decodeInterventions(rows) };
      };
      const same = async (what: string) => {
        const fresh = await getInterventions(scopeOf(db, redacteur), { parcelleIds: ids });
        expect(await packed(), what).toEqual(fresh);
        return fresh;
      };
      const first = await same("as loaded");
      // Kept: asked again, neither the plots nor the rows are read.
      const sql: string[] = [];
      const listen = (q: { sql: string }) => sql.push(q.sql);
      db.on("query", listen);
      await getInterventionsPacked(scopeOf(db, redacteur), { parcelleIds: ids });
      db.off("query", listen);
      expect(sql.filter((q) => /from .parcelle.|from .action./i.test(q))).toEqual([]);
      const plot = first.parcelles[0];
      const op = await db("operation_culturale").where({ idCampagne: idCampagne() }).orderBy("id").first("id");
      const machine = await db("parc_materiel").where({ idCampagne: idCampagne() }).orderBy("id").first("id");
      const worker = await db("main_oeuvre").where({ idCampagne: idCampagne() }).orderBy("id").first("id");
      expect(op && machine && worker).toBeTruthy();
      const steps: [string, () => Promise<unknown>][] = [
        ["a plot renamed by another process", () => other("parcelle").where({ id: plot.id }).update({ libelle: "Parcelle renommée" })],
        ["a plot's irrigable box", () => db("parcelle").where({ id: plot.id }).update({ irrigable: !plot.irrigable })],
        ["an operation renamed", () => other("operation_culturale").where({ id: op.id }).update({ libelle: "Opération renommée" })],
        ["a machine renamed", () => db("parc_materiel").where({ id: machine.id }).update({ libelle: "Machine renommée" })],
        ["a worker renamed", () => other("main_oeuvre").where({ id: worker.id }).update({ libelle: "Main-d'œuvre renommée" })],
      ];
      for (const [what, write] of steps) {
        const before = await getInterventionsPacked(scopeOf(db, redacteur), { parcelleIds: ids });
        await write();
        const after = await getInterventionsPacked(scopeOf(db, redacteur), { parcelleIds: ids });
        expect(after.choix, what).not.toBe(before.choix);
        await same(what);
      }
      // A plot added is offered, and chosen when asked.
      const [added] = await other("parcelle").insert({ idCampagne: idCampagne(), libelle: "AAA Nouvelle parcelle", surface: 2 }).returning("id");
      const idAdded = Number(typeof added === "object" ? (added as { id: number }).id : added);
      const withNew = await getInterventionsPacked(scopeOf(db, redacteur), { parcelleIds: [idAdded] });
      expect(decodeChoices(withNew.choix).parcelles.map((p) => p.id)).toContain(idAdded);
      expect(withNew.selection).toEqual([idAdded]);
    } finally {
      await other.destroy();
    }
  });
});
