import { createHash } from "node:crypto";
import type { Db } from "../db/knex";

/**
 * The answers kept for `Idempotency-Key` (decision 0113): per user and key, one day. Read and written in the call's
 * own transaction, so an answer is kept exactly when what it answers was stored.
 */

/** How long an answer is kept: a retry comes within minutes; a day covers a client that retries the next morning. */
export const IDEMPOTENCE_MS = 24 * 3600_000;

/** A key as clients send them (a UUID, a random string): 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export type KeptAnswer = { requete: string; statut: number; reponse: string };

/** The fingerprint of a request: what makes a retry "the same request". */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest("hex");
}

export async function keptAnswer(db: Db, idUser: number, cle: string): Promise<KeptAnswer | null> {
  const r = await db("api_idempotence").where({ idUser, cle }).where("expire", ">", Date.now()).first("requete", "statut", "reponse");
  return r ? { requete: String(r.requete), statut: Number(r.statut), reponse: String(r.reponse) } : null;
}

/** Keeps an answer; the user's expired ones (and an expired one of the same key) are removed first. */
export async function keepAnswer(db: Db, idUser: number, cle: string, answer: KeptAnswer): Promise<void> {
  await db("api_idempotence").where({ idUser }).where("expire", "<=", Date.now()).delete();
  await db("api_idempotence").insert({ idUser, cle, ...answer, expire: Date.now() + IDEMPOTENCE_MS });
}
