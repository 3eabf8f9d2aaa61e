import { describe, expect, test } from "vitest";
import { AmenagementSchema } from "./amenagement";

const errors = (input: Record<string, unknown>) => {
  const r = AmenagementSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("landscape feature form", () => {
  test("[B-AMEN-04] name and type are required", () => {
    expect(errors({})).toEqual({ libelle: "warning.required", idTypeAmenagement: "warning.required" });
    expect(errors({ libelle: "Haie nord", idTypeAmenagement: "1" })).toEqual({});
  });

  test("[B-AMEN-05] the surface must be numeric (French decimal comma accepted), not negative", () => {
    expect(errors({ libelle: "Haie", idTypeAmenagement: "1", surface: "long" })).toEqual({ surface: "warning.numeric" });
    expect(errors({ libelle: "Haie", idTypeAmenagement: "1", surface: "12abc" })).toEqual({ surface: "warning.numeric" });
    expect(errors({ libelle: "Haie", idTypeAmenagement: "1", surface: "-3" })).toEqual({ surface: "warning.minmax" });
    expect(AmenagementSchema.parse({ libelle: "Haie", idTypeAmenagement: "1", surface: "320,5" }).surface).toBe(320.5);
  });

  test("[B-AMEN-02] the adjacent plot, flags and soil fields are typed", () => {
    const r = AmenagementSchema.parse({ libelle: "Mare", idTypeAmenagement: "5", idParcelleAdjacente: "7", drainee: "on", idAciditeSol: "3" });
    expect(r).toMatchObject({ idTypeAmenagement: 5, idParcelleAdjacente: 7, drainee: true, irrigable: false, idAciditeSol: 3 });
  });
});
