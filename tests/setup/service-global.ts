import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createDb } from "../../server/db/knex";

/**
 * Service tests run on SQLite by default and on PostgreSQL when TEST_DATABASE_URL is set.
 * SQLite: nothing to prepare globally (each file migrates its own file, see tests/helpers/test-db.ts).
 * PostgreSQL: checks the server answers, so that a missing server fails loudly rather than silently.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-service-"));
  project.provide("serviceTmpDir", dir);
  if (url) {
    const db = createDb(url);
    await db.raw("select 1");
    await db.destroy();
  }
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    serviceTmpDir: string;
  }
}
