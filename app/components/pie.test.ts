import { describe, expect, test } from "vitest";
import { percentages, pieSlices, pointAt } from "./pie";

describe("pie geometry", () => {
  test("[A-CTX-31] slices follow the values clockwise from 12 o'clock and close the circle", () => {
    const slices = pieSlices([1, 1, 2], 100, 100, 50);
    expect(slices.map((s) => s.fraction)).toEqual([0.25, 0.25, 0.5]);
    expect(slices[0].startAngle).toBe(0);
    expect(slices[2].endAngle).toBeCloseTo(2 * Math.PI, 10);
    // The first quarter goes from the top (100, 50) to the right (150, 100), small arc, clockwise.
    expect(slices[0].path).toBe("M 100 100 L 100 50 A 50 50 0 0 1 150 100 Z");
    // A half is not a large arc; more than a half is.
    expect(slices[2].path).toContain("A 50 50 0 0 1");
    expect(pieSlices([3, 1], 0, 0, 10)[0].path).toContain("A 10 10 0 1 1");
  });

  test("a single value is a full disc; zero, negative and empty values get no slice", () => {
    const [disc] = pieSlices([0, 7, 0], 10, 10, 10);
    expect(disc).toMatchObject({ index: 1, fraction: 1 });
    expect(disc.path).toBe("M 10 0 A 10 10 0 1 1 10 20 A 10 10 0 1 1 10 0 Z");
    expect(pieSlices([], 0, 0, 1)).toEqual([]);
    expect(pieSlices([0, -2], 0, 0, 1)).toEqual([]);
    expect(pieSlices([2, -1, 2], 0, 0, 1).map((s) => s.index)).toEqual([0, 2]);
  });

  test("points on the circle", () => {
    expect(pointAt(0, 0, 10, Math.PI / 2)).toEqual([10, 0]);
    expect(pointAt(0, 0, 10, Math.PI)).toEqual([0, 10]);
  });

  test("percentages add up to 100 with one decimal", () => {
    expect(percentages([1, 1, 1])).toEqual([33.4, 33.3, 33.3]);
    expect(percentages([15.6234, 3.3333, 2.25]).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    expect(percentages([0, 0])).toEqual([0, 0]);
  });
});
