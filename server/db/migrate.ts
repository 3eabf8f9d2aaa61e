import type { Knex } from "knex";
import type { Db } from "./knex";

type MigrationModule = { up: (k: Knex) => Promise<void>; down: (k: Knex) => Promise<void> };

// Bundled with the server build so that the production server migrates without a TypeScript loader.
const modules = import.meta.glob<MigrationModule>("../../migrations/*.ts", { eager: true });

const migrations = Object.entries(modules)
  .map(([file, mod]) => ({ name: file.split("/").pop()!.replace(/\.ts$/, ""), mod }))
  .sort((a, b) => a.name.localeCompare(b.name));

const migrationSource: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m.mod,
};

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
