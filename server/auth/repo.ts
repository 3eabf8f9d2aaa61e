import type { Db } from "../db/knex";

/** Cookie sessions (table session) and the API tokens tied to them (api_token), as the session storage writes them. */

export type SessionRow = { idUser: number | null; data: string; expiresAt: Date | null };

export async function insertSession(db: Db, id: string, row: SessionRow): Promise<void> {
  await db("session").insert({ id, ...row });
}

/** A session's row, whole (undefined when unknown). */
export function findSession(db: Db, id: string): Promise<Record<string, unknown> | undefined> {
  return db("session").where({ id }).first();
}

export async function updateSession(db: Db, id: string, row: SessionRow): Promise<void> {
  await db("session")
    .where({ id })
    .update({ ...row, updatedAt: db.fn.now() });
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db("session").where({ id }).delete();
}

/** The API tokens opened by this cookie session. */
export async function deleteApiTokensOfSession(db: Db, idSession: string): Promise<void> {
  await db("api_token").where({ idSession }).delete();
}

/** Every session of the user but `keepSessionId`, and their API tokens (the tokens of no session too). */
export async function deleteOtherSessionsOfUser(db: Db, idUser: number, keepSessionId: string | undefined): Promise<void> {
  await db("api_token")
    .where({ idUser })
    .andWhere((q) => (keepSessionId ? q.whereNot({ idSession: keepSessionId }).orWhereNull("idSession") : q))
    .delete();
  await db("session")
    .where({ idUser })
    .andWhere((q) => (keepSessionId ? q.whereNot({ id: keepSessionId }) : q))
    .delete();
}

/** The user's API tokens but `keepTokenId`, and every cookie session of his. */
export async function deleteSessionsBesideToken(db: Db, idUser: number, keepTokenId: number): Promise<void> {
  await db("api_token").where({ idUser }).whereNot({ id: keepTokenId }).delete();
  await db("session").where({ idUser }).delete();
}
