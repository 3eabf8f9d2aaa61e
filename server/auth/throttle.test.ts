import { describe, expect, test } from "vitest";
import { failuresNeeded, LOGIN_RULES, lockWait } from "./throttle";

const name = LOGIN_RULES.username;
const address = LOGIN_RULES.ip;

describe("sign-in throttle: the lock computed from the failures (issue 10, defect 6)", () => {
  test("[issue10-6] a username is locked after five failures, and a legitimate user passes once the wait is over", () => {
    const t0 = 1_000_000;
    const four = [t0, t0 + 1, t0 + 2, t0 + 3];
    expect(lockWait(four, name, t0 + 3)).toBe(0);
    const five = [...four, t0 + 4];
    expect(lockWait(five, name, t0 + 4)).toBe(name.firstLockMs);
    expect(lockWait(five, name, t0 + 4 + name.firstLockMs - 1)).toBe(1);
    expect(lockWait(five, name, t0 + 4 + name.firstLockMs)).toBe(0);
  });

  test("[issue10-6] each further failure doubles the lock, up to fifteen minutes", () => {
    let now = 1_000_000;
    const times: number[] = [];
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      now += lockWait(times, name, now); // a locked attempt is not recorded: the user waits, then fails again
      times.push(now);
      waits.push(lockWait(times, name, now));
    }
    expect(waits.slice(0, 7)).toEqual([0, 0, 0, 0, 30_000, 60_000, 120_000]);
    expect(Math.max(...waits)).toBe(15 * 60_000);
  });

  test("[issue10-6] an address is locked from fifty failures; a run of failures ends after a quiet window", () => {
    const t0 = 5_000_000;
    const many = Array.from({ length: address.freeFailures }, (_, i) => t0 + i);
    expect(lockWait(many.slice(1), address, t0 + 50)).toBe(0);
    expect(lockWait(many, address, t0 + 49)).toBe(address.firstLockMs);
    const later = t0 + 49 + address.windowMs + 1;
    expect(lockWait([...many, later], address, later)).toBe(0);
  });

  test("enough failures are read back to reach the longest lock", () => {
    const times = Array.from({ length: failuresNeeded(name) }, (_, i) => i);
    expect(lockWait(times, name, times.at(-1)!)).toBe(name.maxLockMs);
  });
});
