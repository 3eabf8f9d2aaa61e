/**
 * Sign-in throttle (issue 10, defect 6; docs/decisions/0021-sign-in.md): failed sign-ins are counted per
 * username and per client address (a run of failures ends after a quiet window); past a number of failures the name (or the address)
 * is locked for a while that doubles with each further failure, up to a ceiling. A locked attempt is
 * refused without checking the password and does not lengthen the lock, so the real user gets in once
 * the wait is over. Kept in memory: right for the one server process Sillon runs as.
 */
export type ThrottleRule = { windowMs: number; freeFailures: number; firstLockMs: number; maxLockMs: number };

export const LOGIN_RULES: { username: ThrottleRule; ip: ThrottleRule } = {
  username: { windowMs: 15 * 60_000, freeFailures: 5, firstLockMs: 30_000, maxLockMs: 15 * 60_000 },
  // Wider: several people may sign in from one address (an office, a proxy without TRUST_PROXY).
  ip: { windowMs: 15 * 60_000, freeFailures: 50, firstLockMs: 60_000, maxLockMs: 15 * 60_000 },
};

type Entry = { failures: number[]; lockedUntil: number };

class Counter {
  private entries = new Map<string, Entry>();
  constructor(private rule: ThrottleRule) {}

  /** Milliseconds left before `key` may try again (0: free). */
  wait(key: string, now: number): number {
    const e = this.entries.get(key);
    return e && e.lockedUntil > now ? e.lockedUntil - now : 0;
  }

  fail(key: string, now: number): void {
    const e = this.entries.get(key) ?? { failures: [], lockedUntil: 0 };
    // A run of failures ends after a quiet window; while it lasts, each lock is longer than the last.
    if (e.failures.length && now - e.failures[e.failures.length - 1] > this.rule.windowMs) e.failures = [];
    e.failures.push(now);
    const over = e.failures.length - this.rule.freeFailures;
    if (over >= 0) e.lockedUntil = now + Math.min(this.rule.maxLockMs, this.rule.firstLockMs * 2 ** over);
    this.entries.set(key, e);
    if (this.entries.size > 10_000) this.prune(now);
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private prune(now: number): void {
    for (const [key, e] of this.entries) {
      if (e.lockedUntil <= now && (e.failures.at(-1) ?? 0) <= now - this.rule.windowMs) this.entries.delete(key);
    }
  }
}

export class LoginThrottle {
  private byName: Counter;
  private byIp: Counter;
  constructor(rules = LOGIN_RULES, private now: () => number = Date.now) {
    this.byName = new Counter(rules.username);
    this.byIp = new Counter(rules.ip);
  }

  /** Milliseconds before this username may try again from this address (0: it may now). */
  wait(username: string, ip: string): number {
    const t = this.now();
    return Math.max(this.byName.wait(username.toLowerCase(), t), ip ? this.byIp.wait(ip, t) : 0);
  }

  failed(username: string, ip: string): void {
    const t = this.now();
    this.byName.fail(username.toLowerCase(), t);
    if (ip) this.byIp.fail(ip, t);
  }

  /** A good sign-in frees the username (not the address: one's own account must not reset an attack). */
  succeeded(username: string): void {
    this.byName.clear(username.toLowerCase());
  }
}

/** The server's one throttle. */
export const loginThrottle = new LoginThrottle();
