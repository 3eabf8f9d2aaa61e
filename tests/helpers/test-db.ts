import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createDb, type Db } from "../../server/db/knex";
import type { DemoIds } from "../../server/demo/seed-demo";

export const dialect = process.env.TEST_DATABASE_URL ? "postgres" : "sqlite";

/** Names of the PostgreSQL databases the service tests create: prefix, run's pid, random part(s). */
export const TEMPLATE_PREFIX = "sillon_test_";

/** The same PostgreSQL address with another database. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A fresh database for one test file, migrated, with the reference lists and the demo data set: a copy of the
 * template built once per run by tests/setup/service-global.ts (a copied SQLite file, or a PostgreSQL database
 * created from the template database).
 */
export function useTestDb(): { db: () => Db; demo: () => DemoIds } {
  let db: Db | undefined;
  let database: string | undefined;
  const url = process.env.TEST_DATABASE_URL;
  beforeAll(async () => {
    const template = inject("serviceTemplate");
    if (template.kind === "postgres") {
      database = `${template.database}_${randomBytes(4).toString("hex")}`;
      const admin = createDb(url);
      try {
        await admin.raw(`CREATE DATABASE "${database}" TEMPLATE "${template.database}"`);
      } finally {
        await admin.destroy();
      }
      db = createDb(databaseUrl(url!, database));
    } else {
      const file = path.join(inject("serviceTmpDir"), `${randomBytes(6).toString("hex")}.sqlite`);
      fs.copyFileSync(template.file, file);
      db = createDb(`file:${file}`);
    }
  });
  afterAll(async () => {
    await db?.destroy();
    if (database) {
      const admin = createDb(url);
      await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.destroy();
    }
  });
  const demo = inject("serviceDemoIds");
  return { db: () => db!, demo: () => demo };
}
