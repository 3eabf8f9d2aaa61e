import { describe, expect, test } from "vitest";
import { limiterProgression } from "./progression";

describe("the throttle of a job's progress writes", () => {
  const horloge = () => {
    const h = { t: 0, maintenant: () => h.t };
    return h;
  };

  test("[issue30-progression] writes the first report, then at most one every 250 ms, and always the last", async () => {
    const h = horloge();
    const ecrits: [number, number][] = [];
    const p = limiterProgression(async (fait, total) => void ecrits.push([fait, total]), { maintenant: h.maintenant });
    // 1,000 plots, one every millisecond: a second of work.
    for (let k = 1; k <= 1000; k++) {
      h.t = k;
      await p.signaler(k, 1000);
    }
    expect(ecrits).toEqual([
      [1, 1000],
      [251, 1000],
      [501, 1000],
      [751, 1000],
      [1000, 1000],
    ]);
  });

  test("[issue30-progression] a report kept by the throttle is written by vider(), once", async () => {
    const h = horloge();
    const ecrits: number[] = [];
    const p = limiterProgression(async (fait) => void ecrits.push(fait), { maintenant: h.maintenant, intervalleMs: 100 });
    await p.signaler(1, 10);
    h.t = 10;
    await p.signaler(2, 10);
    await p.signaler(3, 10);
    expect(ecrits).toEqual([1]);
    await p.vider();
    await p.vider();
    expect(ecrits).toEqual([1, 3]);
  });

  test("[issue30-progression] slow reports (over the interval apart) are all written", async () => {
    const h = horloge();
    const ecrits: number[] = [];
    const p = limiterProgression(async (fait) => void ecrits.push(fait), { maintenant: h.maintenant });
    for (let k = 1; k <= 4; k++) {
      h.t = k * 300;
      await p.signaler(k, 10);
    }
    await p.vider();
    expect(ecrits).toEqual([1, 2, 3, 4]);
  });
});
