import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/knex";
import { findUtilisateurById, toPublic, type Utilisateur } from "../utilisateur/repo";
import { returnedId } from "../db/insert-id";

/**
 * Bearer tokens of the JSON API (spec 1 §7; decision 0098). A token is 32 random bytes (base64url, 43 characters);
 * only its SHA-256 is stored, so a copy of the database gives no token. Every token expires.
 * - "session": tied to a browser session (the actualisation page), deleted when the session ends;
 * - "connexion": answered by POST login_check, for scripts; expires after LOGIN_TOKEN_HOURS, revoked by POST logout;
 * - "personnel": a personal access token made by the user (name, read-only or read-write, expiry), revoked by him.
 * Disabling a user deletes his tokens (server/admin/repo.ts endUserSessions), and a token of a disabled user is refused.
 */
export type TokenNature = "session" | "connexion" | "personnel";
export type TokenAccess = "lecture" | "ecriture";

/** How long the token of POST login_check lives. */
export const LOGIN_TOKEN_HOURS = 12;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new token (its clear value is answered once, never stored). */
export async function issueApiToken(
  db: Db,
  idUser: number,
  opts: { idSession?: string; label?: string; days?: number; nature?: TokenNature; acces?: TokenAccess } = {},
): Promise<string> {
  return (await issueApiTokenRow(db, idUser, opts)).token;
}

/** As issueApiToken, with the stored row's id and expiry. */
export async function issueApiTokenRow(
  db: Db,
  idUser: number,
  opts: { idSession?: string; label?: string; days?: number; nature?: TokenNature; acces?: TokenAccess },
): Promise<{ token: string; id: number; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + (opts.days ?? 30) * 24 * 3600 * 1000);
  const [r] = await db("api_token")
    .insert({
      idUser,
      tokenHash: hashToken(token),
      label: opts.label ?? "session",
      idSession: opts.idSession ?? null,
      expiresAt,
      nature: opts.nature ?? (opts.idSession ? "session" : "connexion"),
      acces: opts.acces ?? "ecriture",
    })
    .returning("id");
  return { token, id: returnedId(r), expiresAt };
}

export type Bearer = { user: Utilisateur; idToken: number; acces: TokenAccess; nature: TokenNature };

/** Last use is written at most once a minute per token (a read call then costs no write). */
const LAST_USED_STEP_MS = 60_000;

/** The user and rights of a bearer token: null when unknown, expired, or its user is disabled. */
export async function authenticateApiToken(db: Db, token: string): Promise<Bearer | null> {
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) return null;
  const row = await db("api_token")
    .where({ tokenHash: hashToken(token) })
    .first();
  if (!row || !row.expiresAt || new Date(row.expiresAt) <= new Date()) return null;
  const user = await findUtilisateurById(db, Number(row.idUser));
  if (!user || !user.actif) return null;
  const last = row.lastUsedAt ? new Date(row.lastUsedAt).getTime() : 0;
  if (Date.now() - last > LAST_USED_STEP_MS) await db("api_token").where({ id: row.id }).update({ lastUsedAt: new Date() });
  return { user: toPublic(user), idToken: Number(row.id), acces: row.acces === "lecture" ? "lecture" : "ecriture", nature: row.nature as TokenNature };
}

export async function userIdForApiToken(db: Db, token: string): Promise<number | null> {
  return (await authenticateApiToken(db, token))?.user.id ?? null;
}

export async function revokeApiToken(db: Db, token: string): Promise<void> {
  await db("api_token")
    .where({ tokenHash: hashToken(token) })
    .delete();
}
