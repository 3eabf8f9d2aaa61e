import { describe, expect, test } from "vitest";
import { PrixApproSchema, PrixVenteSchema, roundPrix, statistiques, uniteMajuscule, unitePrix } from "./prix";

describe("prices", () => {
  test("[C-PAPPRO-08] [C-PVENTE-05] prices are rounded to 4 decimals, the proposed phyto price to 2", () => {
    expect(roundPrix(12.345678)).toBe(12.3457);
    expect(roundPrix(1.00005)).toBe(1.0001);
    expect(roundPrix(199.99999)).toBe(200);
    expect(roundPrix(23.455, 2)).toBe(23.46);
  });

  test("[C-PAPPRO-09] [C-PAPPRO-10] the unit is upper-cased; the price is € per its part before the slash", () => {
    expect(uniteMajuscule(" kg/ha ")).toBe("KG/HA");
    expect(uniteMajuscule("")).toBeNull();
    expect(unitePrix("l/ha")).toBe("€/L");
    expect(unitePrix("t/ha")).toBe("€/T");
    expect(unitePrix("mm")).toBe("€/MM");
    expect(unitePrix(null)).toBe("€");
  });

  test("[C-PAPPRO-24] [C-PVENTE-12] [C-PVENTE-13] purchase price required and numeric; sale price numeric only at save", () => {
    expect(PrixApproSchema.safeParse({ prixAchat: "1,5" }).data).toEqual({ prixAchat: 1.5 });
    expect(PrixApproSchema.safeParse({}).error?.issues[0].message).toBe("warning.required");
    expect(PrixApproSchema.safeParse({ prixAchat: "abc" }).error?.issues[0].message).toBe("warning.numeric");
    expect(PrixApproSchema.safeParse({ prixAchat: -1 }).success).toBe(false);
    expect(PrixVenteSchema.safeParse({}).success).toBe(true);
    expect(PrixVenteSchema.safeParse({ prixVente: "abc" }).error?.issues[0].message).toBe("warning.numeric");
  });

  test("[C-PAPPRO-11] [C-PAPPRO-12] count, min, max, mean, median and coefficient of variation (sample standard deviation)", () => {
    expect(statistiques([])).toEqual({ count: 0, min: null, max: null, mean: null, median: null, cv: null });
    expect(statistiques([5])).toEqual({ count: 1, min: 5, max: 5, mean: 5, median: 5, cv: null });
    expect(statistiques([20, 10, 14, 12])).toEqual({ count: 4, min: 10, max: 20, mean: 14, median: 13, cv: 30.86 });
    expect(statistiques([1, 2, 3])).toEqual({ count: 3, min: 1, max: 3, mean: 2, median: 2, cv: 50 });
  });
});
