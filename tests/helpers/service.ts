import { expect } from "vitest";
import { requestScope, type Scope } from "../../server/access/scope";
import { selectInContext } from "../../server/contexte/service";
import type { Db } from "../../server/db/knex";
import type { DemoIds } from "../../server/demo/seed-demo";
import { findUtilisateurByUsername, toPublic, type Utilisateur } from "../../server/utilisateur/repo";

/** A demo user (see server/demo/seed-demo.ts) as the services receive it. */
export async function demoUser(db: Db, username: string): Promise<Utilisateur> {
  const row = await findUtilisateurByUsername(db, username);
  if (!row) throw new Error(`no demo user ${username}`);
  return toPublic(row);
}

/**
 * The scope a service receives (decision 0092), as the adapter builds it for one request: each call of a test is a
 * request of its own (its context and rights read on the first ask). `shownCampaign`: the campaign the page showed.
 */
export function scopeOf(db: Db, user: Utilisateur, options: { shownCampaign?: number | null } = {}): Scope {
  return requestScope(db, user, options);
}

/** A user inserted directly (no password hashing: these users never sign in). */
export async function insertUser(db: Db, u: { username: string; nom: string; prenom: string; isVisible?: boolean; actif?: boolean }): Promise<number> {
  const [r] = await db("utilisateur")
    .insert({
      username: u.username,
      nom: u.nom,
      prenom: u.prenom,
      passwordHash: "-",
      acceptcgu: true,
      isVisible: u.isVisible ?? true,
      actif: u.actif ?? true,
      roles: "[]",
    })
    .returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const ORDER: Record<string, string> = { utilisateur_contexte: "idUser" };

/** Every row of the given tables, in a stable order: compare before and after a refused write. */
export async function snapshot(db: Db, ...tables: string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables)
    out[table] = await db(table)
      .select("*")
      .orderBy(ORDER[table] ?? "id");
  return out;
}

/** The call is refused with this ServiceError key and status (and, when given, these field errors or message params). */
export async function expectRefused(
  call: Promise<unknown>,
  key: string,
  status: number,
  extra: { fieldErrors?: Record<string, string[]>; params?: Record<string, string | number> } = {},
): Promise<void> {
  await expect(call).rejects.toMatchObject({ key, status, ...extra });
}

export async function countRows(db: Db, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const row = await db(table).where(where).count<{ n: number | string }[]>({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

/** The last audit row (the trail is append-only). */
export async function lastAudit(db: Db) {
  const row = await db("audit").orderBy("id", "desc").first();
  return row ? { ...row, details: typeof row.details === "string" ? JSON.parse(row.details) : row.details } : undefined;
}

/** Signs `username` into Réseau démo › Beauce › EARL des Tilleuls › `campagne`, the context the description services read. */
export async function selectTilleuls(t: { db: () => Db; demo: () => DemoIds }, username: string, campagne: keyof DemoIds["campagnes"]): Promise<Utilisateur> {
  const user = await demoUser(t.db(), username);
  const { oads, dossiers, exploitations, campagnes } = t.demo();
  await selectInContext(t.db(), user, { intent: "oad", id: oads.reseauDemo });
  await selectInContext(t.db(), user, { intent: "dossier", id: dossiers.beauce });
  await selectInContext(t.db(), user, { intent: "exploitations", ids: [exploitations.tilleuls] });
  await selectInContext(t.db(), user, { intent: "campagne", id: campagnes[campagne] });
  return user;
}

/** Runs `fn` in a transaction where `table` is missing (renamed), then rolls everything back: a service's unexpected failure. */
export async function withBrokenTable(db: Db, table: string, fn: (trx: Db) => Promise<void>): Promise<void> {
  const ROLLBACK = "rollback-on-purpose";
  await db
    .transaction(async (trx) => {
      await trx.schema.renameTable(table, `${table}_hors_service`);
      await fn(trx);
      throw new Error(ROLLBACK);
    })
    .catch((e: Error) => {
      if (e.message !== ROLLBACK) throw e;
    });
}

/**
 * Runs `fn` in a transaction where every `op` on `table` fails (a trigger refuses it), then rolls everything back:
 * a service's unexpected failure at one precise write, the reads around it still working.
 */
export async function withFailingWrite(db: Db, table: string, op: "insert" | "update" | "delete", fn: (trx: Db) => Promise<void>): Promise<void> {
  const ROLLBACK = "rollback-on-purpose";
  const postgres = db.client.config.client === "pg";
  await db
    .transaction(async (trx) => {
      if (postgres) {
        await trx.raw("CREATE FUNCTION test_refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused on purpose'; END $$");
        await trx.raw(`CREATE TRIGGER test_refuse_write BEFORE ${op.toUpperCase()} ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refuse_write()`);
      } else {
        await trx.raw(`CREATE TRIGGER test_refuse_write BEFORE ${op.toUpperCase()} ON ${table} BEGIN SELECT RAISE(ABORT, 'refused on purpose'); END`);
      }
      await fn(trx);
      throw new Error(ROLLBACK);
    })
    .catch((e: Error) => {
      if (e.message !== ROLLBACK) throw e;
    });
}
