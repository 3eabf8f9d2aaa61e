import { env } from "../env";
import { isEmptyDatabase, seedDemo } from "../demo/seed-demo";
import { createDb, type Db } from "./knex";
import { migrateLatest } from "./migrate";
import { seedReference } from "./seed-reference";
import { withSetupLock } from "./setup-lock";

let instance: Db | undefined;

/** The application's database, from DATABASE_URL (SQLite file by default). */
export function db(): Db {
  instance ??= createDb(env().DATABASE_URL, env().DATA_DIR);
  return instance;
}

/** Migrates, upserts the reference lists, and loads the demo data set into an empty database (one server at a time). */
export async function prepareDatabase(target: Db, options: { demo: boolean }): Promise<{ migrations: string[]; demo: boolean }> {
  return withSetupLock(target, async () => {
    const migrations = await migrateLatest(target);
    await seedReference(target);
    const loadDemo = options.demo && (await isEmptyDatabase(target));
    if (loadDemo) await seedDemo(target);
    return { migrations, demo: loadDemo };
  });
}
