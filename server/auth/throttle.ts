/**
 * Sign-in throttle (issue 10, defect 6; docs/decisions/0021-sign-in.md): failed sign-ins are counted per
 * username and per client address (a run of failures ends after a quiet window); past a number of failures
 * the name (or the address) is locked for a while that doubles with each further failure, up to a ceiling.
 * A locked attempt is refused without checking the password and is not recorded, so it does not lengthen
 * the lock and the real user gets in once the wait is over.
 *
 * The failures live in the database (table login_failure), not in memory: every server process and every
 * container behind a proxy sees the same counts (server/start.js runs one process per core).
 *
 * Counting and refusing are one step (issue 23, decision 0091): an attempt is recorded as a failure before its
 * password is checked (`begin`), then it reads the failures recorded before it. Of simultaneous attempts, each sees
 * every one that was recorded earlier, so no more than the free failures get their password checked; a good
 * password takes its record back (`succeeded`), a locked attempt too (`forget`).
 */
import type { Db } from "../db/knex";
import { returnedId } from "../db/insert-id";

export type ThrottleRule = { windowMs: number; freeFailures: number; firstLockMs: number; maxLockMs: number };

export const LOGIN_RULES: { username: ThrottleRule; ip: ThrottleRule } = {
  username: { windowMs: 15 * 60_000, freeFailures: 5, firstLockMs: 30_000, maxLockMs: 15 * 60_000 },
  // Wider: several people may sign in from one address (an office, a proxy without TRUST_PROXY).
  ip: { windowMs: 15 * 60_000, freeFailures: 50, firstLockMs: 60_000, maxLockMs: 15 * 60_000 },
};

/** Failures read back per key: enough to reach the longest lock (each failure past the free ones doubles it). */
export function failuresNeeded(rule: ThrottleRule): number {
  return rule.freeFailures + Math.ceil(Math.log2(Math.max(1, rule.maxLockMs / rule.firstLockMs))) + 1;
}

/**
 * Milliseconds left before a key with these failure times (milliseconds, any order) may try again: the
 * current run is the failures since the last quiet window; its length past the free failures sets the lock,
 * counted from its last failure.
 */
export function lockWait(failureTimes: number[], rule: ThrottleRule, now: number): number {
  const times = [...failureTimes].sort((a, b) => a - b);
  let run = 0;
  for (let i = 0; i < times.length; i++) run = i > 0 && times[i] - times[i - 1] > rule.windowMs ? 1 : run + 1;
  const over = run - rule.freeFailures;
  if (over < 0) return 0;
  const lockedUntil = times[times.length - 1] + Math.min(rule.maxLockMs, rule.firstLockMs * 2 ** over);
  return Math.max(0, lockedUntil - now);
}

const toMs = (at: unknown): number => (at instanceof Date ? at.getTime() : typeof at === "number" ? at : new Date(String(at)).getTime());

export class LoginThrottle {
  constructor(
    private rules = LOGIN_RULES,
    private now: () => number = Date.now,
  ) {}

  /** Milliseconds before this username may try again from this address (0: it may now), from the failures recorded (but `except`). */
  async wait(db: Db, username: string, ip: string, except?: number): Promise<number> {
    const t = this.now();
    const name = username.toLowerCase().slice(0, 180);
    const others = (q: ReturnType<Db>) => (except === undefined ? q : q.whereNot({ id: except }));
    const byName = await others(db("login_failure").where({ username: name, resolu: false }))
      .orderBy("at", "desc")
      .limit(failuresNeeded(this.rules.username))
      .pluck("at");
    const nameWait = lockWait(byName.map(toMs), this.rules.username, t);
    if (!ip) return nameWait;
    const byIp = await others(db("login_failure").where({ ip: ip.slice(0, 64) }))
      .orderBy("at", "desc")
      .limit(failuresNeeded(this.rules.ip))
      .pluck("at");
    return Math.max(nameWait, lockWait(byIp.map(toMs), this.rules.ip, t));
  }

  /**
   * Records an attempt as a failure, then reads the wait left by the failures recorded before it: `wait` > 0 refuses
   * it (then `forget` it), else its password may be checked; `id` is the record, kept if the password is wrong.
   */
  async begin(db: Db, username: string, ip: string): Promise<{ id: number; wait: number }> {
    const [r] = await db("login_failure")
      .insert({ username: username.toLowerCase().slice(0, 180), ip: ip.slice(0, 64), at: new Date(this.now()) })
      .returning("id");
    const id = returnedId(r);
    return { id, wait: await this.wait(db, username, ip, id) };
  }

  /** A locked attempt is not counted: it does not lengthen the lock. */
  async forget(db: Db, id: number): Promise<void> {
    await db("login_failure").where({ id }).delete();
  }

  /** A good sign-in takes its attempt back and frees the username (not the address: one's own account must not reset an attack). */
  async succeeded(db: Db, username: string, attempt?: number): Promise<void> {
    if (attempt !== undefined) await this.forget(db, attempt);
    await db("login_failure")
      .where({ username: username.toLowerCase().slice(0, 180), resolu: false })
      .update({ resolu: true });
  }
}

/** The throttle of the server processes (they share its counts through the database). */
export const loginThrottle = new LoginThrottle();
