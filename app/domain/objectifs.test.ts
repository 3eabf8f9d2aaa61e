import { describe, expect, test } from "vitest";
import { correspondanceObjectif, ecartObjectif, verdictObjectif } from "./objectifs";

describe("objective directions (decision 0087)", () => {
  test("[issue24-objectifs] an IFT objective is a ceiling, a margin objective a floor; both judged as shown, to 2 decimals", () => {
    expect(correspondanceObjectif("IFT_TOT")).toEqual({ code: "ift.cible.total", sens: "plafond" });
    expect(correspondanceObjectif("MSN")).toEqual({ code: "economie.reel.margeSemiNette", sens: "plancher" });
    expect(correspondanceObjectif("INCONNU")).toBeNull();
    expect(verdictObjectif(3.2, 3.1, "plafond")).toBe("atteint");
    expect(verdictObjectif(3.2, 3.204, "plafond")).toBe("atteint"); // shown 3,20
    expect(verdictObjectif(3.2, 3.21, "plafond")).toBe("manque");
    expect(verdictObjectif(650, 700, "plancher")).toBe("atteint");
    expect(verdictObjectif(650, 640, "plancher")).toBe("manque");
    expect(verdictObjectif(null, 3, "plafond")).toBe("sans-objectif");
    expect(verdictObjectif(3, null, "plafond")).toBe("sans-resultat");
    expect(verdictObjectif(3, 2, null)).toBe("sans-correspondance");
    // The gap is positive on the good side: 0.4 under an IFT ceiling of 3.2, 50 € under a margin floor of 650.
    expect(ecartObjectif(3.2, 2.8, "plafond")).toBeCloseTo(0.4, 9);
    expect(ecartObjectif(650, 600, "plancher")).toBe(-50);
  });
});
