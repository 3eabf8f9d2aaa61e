import { isEmptyDatabase, seedDemo } from "./demo/seed-demo";
import type { Db } from "./db/knex";
import { migrateLatest } from "./db/migrate";
import { seedReference } from "./db/seed-reference";
import { withSetupLock } from "./db/setup-lock";

/**
 * Migrates, upserts the reference lists, and loads the demo data set into an empty database (one server at a time).
 * Here, above server/db, since the demo data set is written through the features' tables (server/demo).
 */
export async function prepareDatabase(target: Db, options: { demo: boolean }): Promise<{ migrations: string[]; demo: boolean }> {
  return withSetupLock(target, async () => {
    const migrations = await migrateLatest(target);
    await seedReference(target);
    const loadDemo = options.demo && (await isEmptyDatabase(target));
    if (loadDemo) await seedDemo(target);
    return { migrations, demo: loadDemo };
  });
}
