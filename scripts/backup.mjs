#!/usr/bin/env node
// npm run backup [-- --restore <backup folder>]: an online backup of the embedded SQLite database and the uploaded
// files into DATA_DIR/backups/<date> (BACKUP_KEEP newest kept, default 7); with --restore, puts a backup back (stop
// the app first). Plain Node, so it runs in the production image too. For PostgreSQL it says to use pg_dump.
import { backupSqlite, restoreSqlite, sqliteFile } from "../server/ops/backup.js";

const dataDir = process.env.DATA_DIR || "data";
const databaseFile = sqliteFile({ databaseUrl: process.env.DATABASE_URL, dataDir });
if (!databaseFile) {
  console.error("DATABASE_URL is a PostgreSQL database: back it up with pg_dump (README, Backups).");
  process.exit(2);
}
const i = process.argv.indexOf("--restore");
try {
  if (i >= 0) {
    const backup = process.argv[i + 1];
    if (!backup) throw new Error("--restore needs the backup folder");
    restoreSqlite({ backup, databaseFile, dataDir });
    console.log(`Restored ${backup} into ${databaseFile}`);
  } else {
    const keep = Number(process.env.BACKUP_KEEP || 7);
    if (!Number.isInteger(keep) || keep < 1) throw new Error("BACKUP_KEEP must be a whole number from 1");
    console.log(`Backup written to ${await backupSqlite({ databaseFile, dataDir, keep })}`);
  }
} catch (e) {
  console.error(`Backup failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
