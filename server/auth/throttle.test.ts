import { describe, expect, test } from "vitest";
import { LOGIN_RULES, LoginThrottle } from "./throttle";

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("sign-in throttle (issue 10, defect 6)", () => {
  test("[issue10-6] a username is locked after five failures, and a legitimate user passes once the wait is over", () => {
    const c = clock();
    const throttle = new LoginThrottle(LOGIN_RULES, c.now);
    for (let i = 0; i < 4; i++) throttle.failed("Lecteur", "10.0.0.1");
    expect(throttle.wait("lecteur", "10.0.0.2")).toBe(0);
    throttle.failed("lecteur", "10.0.0.1");
    // Locked whatever the case of the name and whatever the address.
    expect(throttle.wait("LECTEUR", "10.0.0.9")).toBe(LOGIN_RULES.username.firstLockMs);
    expect(throttle.wait("redacteur", "10.0.0.9")).toBe(0);
    c.advance(LOGIN_RULES.username.firstLockMs - 1);
    expect(throttle.wait("lecteur", "10.0.0.9")).toBe(1);
    c.advance(1);
    expect(throttle.wait("lecteur", "10.0.0.9")).toBe(0);
    throttle.succeeded("lecteur");
    expect(throttle.wait("lecteur", "10.0.0.9")).toBe(0);
  });

  test("[issue10-6] each further failure doubles the lock, up to fifteen minutes", () => {
    const c = clock();
    const throttle = new LoginThrottle(LOGIN_RULES, c.now);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      c.advance(throttle.wait("x", ""));
      throttle.failed("x", "");
      waits.push(throttle.wait("x", ""));
    }
    expect(waits.slice(0, 7)).toEqual([0, 0, 0, 0, 30_000, 60_000, 120_000]);
    expect(Math.max(...waits)).toBe(15 * 60_000);
  });

  test("[issue10-6] one address failing with many names is locked too; failures older than the window are forgotten", () => {
    const c = clock();
    const throttle = new LoginThrottle(LOGIN_RULES, c.now);
    for (let i = 0; i < LOGIN_RULES.ip.freeFailures - 1; i++) throttle.failed(`nom-${i}`, "10.0.0.1");
    expect(throttle.wait("autre", "10.0.0.1")).toBe(0);
    throttle.failed("dernier", "10.0.0.1");
    expect(throttle.wait("autre", "10.0.0.1")).toBe(LOGIN_RULES.ip.firstLockMs);
    expect(throttle.wait("autre", "10.0.0.2")).toBe(0);
    c.advance(LOGIN_RULES.ip.windowMs + 1);
    throttle.failed("encore", "10.0.0.1");
    expect(throttle.wait("autre2", "10.0.0.1")).toBe(0);
  });
});
