// Online backups of the embedded SQLite database (issue 16): `npm run backup` (scripts/backup.mjs) while the app runs.
// SQLite's backup API (through better-sqlite3) copies a consistent snapshot even while other connections write; the
// uploaded files (DATA_DIR/fichiers) are copied beside it. Each backup is a folder DATA_DIR/backups/<date>; the last
// `keep` are kept. PostgreSQL is backed up with pg_dump (README, "Backups").
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** The folder of uploaded files under DATA_DIR (attachments of observation series). */
export const FILES_DIR = "fichiers";
export const BACKUPS_DIR = "backups";

/** The SQLite file the app uses: DATABASE_URL=file:<path>, else DATA_DIR/sillon.sqlite; null for PostgreSQL. */
export function sqliteFile({ databaseUrl, dataDir }) {
  if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) return null;
  return databaseUrl?.startsWith("file:") ? databaseUrl.slice("file:".length) : path.join(dataDir, "sillon.sqlite");
}

/** A backup folder's name: the UTC date and time, sortable ("2026-11-26T01-07-33Z"). */
export const backupName = (now) =>
  now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");

/**
 * Copies the database (a consistent snapshot) and the uploaded files into DATA_DIR/backups/<date>, then removes the
 * oldest backups beyond `keep`. Returns the new folder.
 */
export async function backupSqlite({ databaseFile, dataDir, keep = 7, now = new Date() }) {
  if (!fs.existsSync(databaseFile)) throw new Error(`no database at ${databaseFile}`);
  const root = path.join(dataDir, BACKUPS_DIR);
  const target = path.join(root, backupName(now));
  const partial = `${target}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const source = new Database(databaseFile, { fileMustExist: true });
  try {
    // All remaining pages in one step after the first: another process's writes cannot restart it again and again.
    await source.backup(path.join(partial, "sillon.sqlite"), { progress: () => 1_000_000 });
  } finally {
    source.close();
  }
  const files = path.join(dataDir, FILES_DIR);
  if (fs.existsSync(files)) fs.cpSync(files, path.join(partial, FILES_DIR), { recursive: true });
  // A backup appears complete or not at all.
  fs.renameSync(partial, target);
  prune(root, keep);
  return target;
}

/** Keeps the `keep` newest backup folders. */
export function prune(root, keep) {
  const all = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.endsWith(".partial"))
    .map((d) => d.name)
    .sort();
  for (const old of all.slice(0, Math.max(0, all.length - keep))) fs.rmSync(path.join(root, old), { recursive: true, force: true });
}

/** Puts a backup folder back as the database and files of `dataDir` (the app must be stopped). */
export function restoreSqlite({ backup, databaseFile, dataDir }) {
  const db = path.join(backup, "sillon.sqlite");
  if (!fs.existsSync(db)) throw new Error(`${backup} holds no sillon.sqlite`);
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${databaseFile}${suffix}`, { force: true });
  fs.copyFileSync(db, databaseFile);
  const files = path.join(backup, FILES_DIR);
  if (fs.existsSync(files)) {
    fs.rmSync(path.join(dataDir, FILES_DIR), { recursive: true, force: true });
    fs.cpSync(files, path.join(dataDir, FILES_DIR), { recursive: true });
  }
}
