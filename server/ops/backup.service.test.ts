import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { createDb } from "../db/knex";
import { migrateLatest } from "../db/migrate";
import { backupSqlite, FILES_DIR, prune, restoreSqlite, sqliteFile } from "./backup.js";

// The embedded database's backup (issue 16), on its own SQLite files whatever the test database; PostgreSQL is
// backed up with pg_dump.
describe("SQLite online backup", () => {
  test("[issue16] a backup taken while writes run holds a consistent snapshot; restored into a fresh DATA_DIR, every row committed before it and every file are there", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-backup-"));
    const databaseFile = sqliteFile({ dataDir })!;
    const db = createDb(`file:${databaseFile}`);
    await migrateLatest(db);
    fs.mkdirSync(path.join(dataDir, FILES_DIR, "serie-1"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, FILES_DIR, "serie-1", "a1b2.pdf"), "%PDF-1.4 test");
    const insert = (i: number) => db("post").insert({ title: `Note ${i}`, content: "x".repeat(2000), creationDate: new Date(), postCategory: "info" });
    for (let i = 0; i < 300; i++) await insert(i);

    // Writes keep coming while the backup runs.
    let writing = true;
    let written = 300;
    const writer = (async () => {
      while (writing) {
        await insert(written++);
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const before = Number((await db("post").count({ n: "*" }).first())!.n);
    const folder = await backupSqlite({ databaseFile, dataDir, keep: 3, now: new Date("2026-11-26T01:10:00Z") });
    writing = false;
    await writer;
    const after = Number((await db("post").count({ n: "*" }).first())!.n);
    await db.destroy();
    expect(path.basename(folder)).toBe("2026-11-26T01-10-00Z");

    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-restore-"));
    const restoredFile = sqliteFile({ dataDir: fresh })!;
    restoreSqlite({ backup: folder, databaseFile: restoredFile, dataDir: fresh });
    const restored = createDb(`file:${restoredFile}`);
    expect((await restored.raw("pragma integrity_check"))[0]).toEqual({ integrityCheck: "ok" });
    const n = Number((await restored("post").count({ n: "*" }).first())!.n);
    expect(n).toBeGreaterThanOrEqual(before);
    expect(n).toBeLessThanOrEqual(after);
    // The snapshot holds a prefix of the writes: rows 0 .. n-1, none missing.
    const titles = new Set((await restored("post").pluck("title")) as string[]);
    for (let i = 0; i < n; i++) expect(titles.has(`Note ${i}`), `Note ${i}`).toBe(true);
    expect(fs.readFileSync(path.join(fresh, FILES_DIR, "serie-1", "a1b2.pdf"), "utf8")).toBe("%PDF-1.4 test");
    await restored.destroy();
  });

  test("[issue16] only the newest backups are kept", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-prune-"));
    for (const name of ["2026-11-20T00-00-00Z", "2026-11-21T00-00-00Z", "2026-11-22T00-00-00Z", "2026-11-23T00-00-00Z"]) fs.mkdirSync(path.join(root, name));
    prune(root, 2);
    expect(fs.readdirSync(root).sort()).toEqual(["2026-11-22T00-00-00Z", "2026-11-23T00-00-00Z"]);
  });

  test("[issue16] a PostgreSQL database is not a file to copy", () => {
    expect(sqliteFile({ databaseUrl: "postgres://x@h/db", dataDir: "data" })).toBeNull();
    expect(sqliteFile({ databaseUrl: "file:/srv/s.sqlite", dataDir: "data" })).toBe("/srv/s.sqlite");
  });
});
