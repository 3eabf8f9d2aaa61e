import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { databaseUrl, dialect, TEMPLATE_PREFIX } from "../../tests/helpers/test-db";
import { prepareDatabase } from "../prepare-database";
import { createDb, type Db } from "./knex";

/**
 * Issue 16 (scale-out): two servers starting at the same moment on one new PostgreSQL database both come up;
 * the migrations and the demo data are applied once. On SQLite a database file belongs to one server: the same
 * set-up run twice in a row does nothing the second time.
 */
describe(`database set-up by two servers at once (${dialect})`, () => {
  test("[issue16] both come up, the migrations run once and the demo data is loaded once", { timeout: 180_000 }, async () => {
    const url = process.env.TEST_DATABASE_URL;
    let database: string | undefined;
    let dir: string | undefined;
    const open: Db[] = [];
    const connect = () => {
      const db = createDb(url ? databaseUrl(url, database!) : `file:${path.join(dir!, "shared.sqlite")}`);
      open.push(db);
      return db;
    };
    const admin = url ? createDb(url) : undefined;
    try {
      if (admin) {
        database = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(4).toString("hex")}_setup`;
        await admin.raw(`CREATE DATABASE "${database}"`);
      } else {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-setup-"));
      }
      const [a, b] = [connect(), connect()];
      const results = url
        ? await Promise.all([prepareDatabase(a, { demo: true }), prepareDatabase(b, { demo: true })])
        : [await prepareDatabase(a, { demo: true }), await prepareDatabase(b, { demo: true })];
      const applied = results.map((r) => r.migrations.length).sort((x, y) => x - y);
      expect(applied[0]).toBe(0);
      expect(applied[1]).toBeGreaterThanOrEqual(9);
      expect(results.filter((r) => r.demo)).toHaveLength(1);
      const rows = await a("knex_migrations").count<{ n: number | string }[]>({ n: "*" });
      expect(Number(rows[0].n)).toBe(applied[1]);
      const users = await a("utilisateur").where({ username: "redacteur" }).count<{ n: number | string }[]>({ n: "*" });
      expect(Number(users[0].n)).toBe(1);
    } finally {
      for (const db of open) await db.destroy();
      if (admin && database) await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin?.destroy();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
