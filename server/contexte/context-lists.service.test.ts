import knexFactory from "knex";
import { describe, expect, test } from "vitest";
import { selectTilleuls } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import type { Db } from "../db/knex";
import type { Utilisateur } from "../utilisateur/repo";
import { loadContextView } from "./service";

const t = useTestDb();

/** The view as read afresh: inside a transaction nothing kept is used (server/db/kept-per-version.ts). */
const fresh = (db: Db, user: Utilisateur) => db.transaction((trx) => loadContextView(trx, user));
const version = async (db: Db) => Number((await db("version_contexte").where({ id: 1 }).first("version")).version);

/**
 * The context lists kept per user and selection (decision 0084): after any committed write to networks, folders,
 * folder rights, farms, farm links or campaigns, by any path and any process, the view is read again — a right
 * taken away is gone at the next request.
 */
describe(`context lists kept per version (${dialect})`, () => {
  test("[issue10-perf] [A-CTX-08] [A-CTX-09] every write the lists read moves the version, and the next view is the one read afresh", async () => {
    const db = t.db();
    const other = knexFactory(db.client.config); // another server process or container on the same database
    try {
      const { dossiers, exploitations, campagnes } = t.demo();
      const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
      expect(await loadContextView(db, redacteur)).toEqual(await fresh(db, redacteur));
      // Kept: the lists are not read again.
      const sql: string[] = [];
      const listen = (q: { sql: string }) => sql.push(q.sql);
      db.on("query", listen);
      await loadContextView(db, redacteur);
      db.off("query", listen);
      expect(sql).toHaveLength(1);

      const right = await db("utilisateur_dossier").where({ idUser: redacteur.id, idDossier: dossiers.beauce }).first();
      const link = await db("dossier_exploitation").where({ idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }).first();
      const steps: [string, () => Promise<unknown>, (v: Awaited<ReturnType<typeof loadContextView>>) => void][] = [
        [
          "a network renamed by another process",
          () => other("oad").where({ id: t.demo().oads.reseauDemo }).update({ libelle: "Réseau renommé" }),
          (v) => expect(v.oads.map((o) => o.libelle)).toContain("Réseau renommé"),
        ],
        [
          "a folder renamed",
          () => db("dossier").where({ id: dossiers.beauce }).update({ libelle: "Beauce renommé" }),
          (v) => expect(v.dossiers.map((d) => d.libelle)).toContain("Beauce renommé"),
        ],
        [
          "the farm link's write right taken away by another process",
          () => other("dossier_exploitation").where({ id: link.id }).update({ dexEcriture: false }),
          (v) => expect(v.exploitations.find((e) => e.id === exploitations.tilleuls)?.right.dexEcriture).toBe(false),
        ],
        [
          "a farm renamed",
          () => db("exploitation").where({ id: exploitations.tilleuls }).update({ libelle: "Tilleuls renommé" }),
          (v) => expect(v.exploitations.map((e) => e.libelle)).toContain("Tilleuls renommé"),
        ],
        [
          "the campaign validated",
          () => other("campagne").where({ id: campagnes.tilleuls2025 }).update({ serieValide: true }),
          (v) => expect(v.campagne?.serieValide).toBe(true),
        ],
        [
          "the folder right taken away",
          () => db("utilisateur_dossier").where({ id: right.id }).delete(),
          (v) => {
            expect(v.dossiers.map((d) => d.id)).not.toContain(dossiers.beauce);
            expect(v.campagne).toBeNull();
          },
        ],
      ];
      for (const [what, write, check] of steps) {
        const before = await version(db);
        await loadContextView(db, redacteur); // kept under the version before the write
        await write();
        expect(await version(db), what).toBeGreaterThan(before);
        const now = await loadContextView(db, redacteur);
        check(now);
        expect(now, what).toEqual(await fresh(db, redacteur));
        expect(await loadContextView(other, redacteur), what).toEqual(now);
      }

      // A write rolled back leaves the version as it was.
      const before = await version(db);
      await db
        .transaction(async (trx) => {
          await trx("dossier").where({ id: dossiers.beauce }).update({ libelle: "Jamais" });
          throw new Error("rolled back");
        })
        .catch((e) => expect(String(e)).toMatch(/rolled back/));
      expect(await version(db)).toBe(before);
      expect((await loadContextView(db, redacteur)).dossiers.map((d) => d.libelle)).not.toContain("Jamais");
    } finally {
      await other.destroy();
    }
  });

  test("[issue10-perf] the kept lists cannot be changed by a caller", async () => {
    const redacteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const view = await loadContextView(t.db(), redacteur);
    expect(() => (view.campagnes as unknown as unknown[]).push({})).toThrow();
    expect(() => Object.assign(view.oads[0], { libelle: "x" })).toThrow();
  });
});
