import type { Db } from "../db/knex";

/**
 * Rate limit of the JSON API (decision 0098): calls counted per token and per client address in fixed one-minute
 * windows (table api_quota, shared by every server process). Past the limit a call is refused with 429 and
 * `Retry-After`, the seconds left in the window.
 */
export type QuotaRules = { perToken: number; perAddress: number; windowMs: number };

export const API_QUOTA: QuotaRules = { perToken: 600, perAddress: 1200, windowMs: 60_000 };

/** Counts one call under `cle`; the seconds to wait when it is over `limit`, else 0. */
export async function takeQuota(db: Db, cle: string, limit: number, windowMs: number, now = Date.now()): Promise<number> {
  const fenetre = Math.floor(now / windowMs) * windowMs;
  const [row] = await db("api_quota")
    .insert({ cle: cle.slice(0, 120), fenetre, compte: 1 })
    .onConflict(["cle", "fenetre"])
    .merge({ compte: db.raw("api_quota.compte + 1") })
    .returning("compte");
  const compte = Number(typeof row === "object" ? (row as { compte: number }).compte : row);
  // The windows that ended are removed now and then (one call in a hundred), never read again.
  if (Math.random() < 0.01) await db("api_quota").where("fenetre", "<", fenetre).delete();
  return compte > limit ? Math.max(1, Math.ceil((fenetre + windowMs - now) / 1000)) : 0;
}
