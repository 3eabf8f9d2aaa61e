import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createDb, type Db } from "../../server/db/knex";
import { migrateLatest } from "../../server/db/migrate";
import { seedReference } from "../../server/db/seed-reference";
import { seedDemo, type DemoIds } from "../../server/demo/seed-demo";

export const dialect = process.env.TEST_DATABASE_URL ? "postgres" : "sqlite";

/**
 * A fresh, migrated database for one test file, with the reference lists and the demo data set:
 * a new SQLite file, or a new schema of the PostgreSQL database of TEST_DATABASE_URL.
 */
export function useTestDb(): { db: () => Db; demo: () => DemoIds } {
  let db: Db | undefined;
  let demo: DemoIds | undefined;
  let schema: string | undefined;
  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      schema = `t_${randomBytes(6).toString("hex")}`;
      const admin = createDb(url);
      await admin.raw(`CREATE SCHEMA "${schema}"`);
      await admin.destroy();
      const sep = url.includes("?") ? "&" : "?";
      db = createDb(`${url}${sep}options=-c%20search_path%3D${schema}`);
    } else {
      db = createDb(`file:${path.join(inject("serviceTmpDir"), `${randomBytes(6).toString("hex")}.sqlite`)}`);
    }
    await migrateLatest(db);
    await seedReference(db);
    demo = await seedDemo(db);
  });
  afterAll(async () => {
    await db?.destroy();
    if (schema && process.env.TEST_DATABASE_URL) {
      const admin = createDb(process.env.TEST_DATABASE_URL);
      await admin.raw(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.destroy();
    }
  });
  return { db: () => db!, demo: () => demo! };
}
