export const FILES_DIR: string;
export const BACKUPS_DIR: string;
export function sqliteFile(o: { databaseUrl?: string; dataDir: string }): string | null;
export function backupName(now: Date): string;
export function backupSqlite(o: { databaseFile: string; dataDir: string; keep?: number; now?: Date }): Promise<string>;
export function prune(root: string, keep: number): void;
export function restoreSqlite(o: { backup: string; databaseFile: string; dataDir: string }): void;
