import { describe, expect, test } from "vitest";
import { createDb } from "../db/knex";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { databaseAnswers } from "./health";

const t = useTestDb();

describe(`health check (${dialect})`, () => {
  test("[issue16] the database answers: yes", async () => {
    expect(await databaseAnswers(t.db())).toBe(true);
  });
  test("[issue16] a database that is gone: no, without throwing", async () => {
    const gone = createDb(dialect === "postgres" ? "postgres://postgres@127.0.0.1:1/none" : "file:/tmp" /* a folder, not a database file */);
    expect(await databaseAnswers(gone, 1500).catch(() => "threw")).toBe(false);
    await gone.destroy().catch(() => undefined);
  });
});
