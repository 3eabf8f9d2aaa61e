import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/knex";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A bearer token for the JSON API and external pages (spec 1 §7: the token kept under the key "token"). */
export async function issueApiToken(db: Db, idUser: number, opts: { idSession?: string; label?: string; days?: number } = {}): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + (opts.days ?? 30) * 24 * 3600 * 1000);
  await db("api_token").insert({ idUser, tokenHash: hash(token), label: opts.label ?? "session", idSession: opts.idSession ?? null, expiresAt });
  return token;
}

export async function userIdForApiToken(db: Db, token: string): Promise<number | null> {
  const row = await db("api_token")
    .where({ tokenHash: hash(token) })
    .first();
  if (!row || (row.expiresAt && new Date(row.expiresAt) < new Date())) return null;
  await db("api_token").where({ id: row.id }).update({ lastUsedAt: new Date() });
  return row.idUser as number;
}

export async function revokeApiToken(db: Db, token: string): Promise<void> {
  await db("api_token")
    .where({ tokenHash: hash(token) })
    .delete();
}
