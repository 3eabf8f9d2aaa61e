import { describe, expect, test } from "vitest";
import { interventionsGridHeight } from "./interventions-grid";

describe("[issue29-intrants] the interventions grid's height", () => {
  test("its rows and three empty ones, at least 240 px, at most the screen less 160 px", () => {
    expect(interventionsGridHeight(1, 900)).toBe(240);
    expect(interventionsGridHeight(10, 900)).toBe(36 + 34 * 13);
    expect(interventionsGridHeight(200, 900)).toBe(740);
    expect(interventionsGridHeight(200, 300)).toBe(240);
  });
});
