import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createDb, type Db } from "../../server/db/knex";
import { migrateLatest } from "../../server/db/migrate";
import { seedReference } from "../../server/db/seed-reference";
import { seedDemo, type DemoIds } from "../../server/demo/seed-demo";
import { databaseUrl, TEMPLATE_PREFIX } from "../helpers/test-db";

/** The template every test file copies (tests/helpers/test-db.ts): migrated, with the reference lists and the demo data. */
export type ServiceTemplate = { kind: "sqlite"; file: string } | { kind: "postgres"; database: string };

async function fill(db: Db): Promise<DemoIds> {
  try {
    await migrateLatest(db);
    await seedReference(db);
    return await seedDemo(db);
  } finally {
    await db.destroy();
  }
}

/**
 * Service tests run on SQLite by default and on PostgreSQL when TEST_DATABASE_URL is set. The database is
 * migrated and seeded once per run, into a template that each test file copies:
 * - SQLite: a template file in a temporary folder, copied file by file;
 * - PostgreSQL: a template database with a name of its own to this run (so that parallel runs do not collide),
 *   copied with CREATE DATABASE … TEMPLATE; the role of TEST_DATABASE_URL needs the CREATEDB right.
 * The demo ids are the same in every copy: they are handed to the test files through provide/inject.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-service-"));
  project.provide("serviceTmpDir", dir);
  if (!url) {
    const file = path.join(dir, "template.sqlite");
    project.provide("serviceDemoIds", await fill(createDb(`file:${file}`)));
    project.provide("serviceTemplate", { kind: "sqlite", file });
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }

  const admin = createDb(url);
  await dropLeftovers(admin);
  // The run's pid in the names lets a later run tell the databases of a run that died from those of a live one.
  const database = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin.raw(`CREATE DATABASE "${database}"`);
  project.provide("serviceDemoIds", await fill(createDb(databaseUrl(url, database))));
  project.provide("serviceTemplate", { kind: "postgres", database });
  return async () => {
    await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Drops the test databases left by runs of this machine that ended without their teardown. */
async function dropLeftovers(admin: Db) {
  const { rows } = await admin.raw<{ rows: { datname: string }[] }>("SELECT datname FROM pg_database WHERE datname LIKE ?", [`${TEMPLATE_PREFIX}%`]);
  for (const { datname } of rows) {
    const pid = Number(datname.slice(TEMPLATE_PREFIX.length).split("_")[0]);
    if (pid && isAlive(pid)) continue;
    await admin.raw(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    serviceTmpDir: string;
    serviceTemplate: ServiceTemplate;
    serviceDemoIds: DemoIds;
  }
}
