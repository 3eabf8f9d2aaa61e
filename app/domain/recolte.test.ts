import { describe, expect, test } from "vitest";
import {
  nomSerieRecolte,
  OBSERVATIONS_RECOLTE,
  QualifiantRecolteSchema,
  RecolteSchema,
  recolteStockee,
  TYPE_SERIE_RECOLTE,
  TYPE_SORTIE_PATURAGE,
  UNITE_PATURAGE,
  UNITE_RECOLTE_DEFAUT,
  CATEGORIE_CULTURE_RECOLTE_DEFAUT,
} from "./recolte";
import { validate } from "./validation";

const errors = (input: unknown) => {
  const r = validate(RecolteSchema, input);
  return r.success ? {} : Object.fromEntries(Object.entries(r.fieldErrors).map(([k, v]) => [k, v[0]]));
};

describe("harvest schema and rules (spec 3 §4.1, §5, §9)", () => {
  test("[C-HARV-23] [C-HARV-24] crop and output type are required", () => {
    expect(errors({})).toMatchObject({ idCulture: "warning.required", dicIdTypeSortie: "warning.required" });
    expect(errors({ idCulture: "1", dicIdTypeSortie: "661" })).toEqual({});
  });

  test("[C-HARV-25] [C-HARV-26] [C-HARV-27] [C-HARV-28] [C-HARV-29] yield, observations, duration, count and animal number are numeric", () => {
    const base = { idCulture: "1", dicIdTypeSortie: "661" };
    expect(errors({ ...base, rendement: "huit" })).toEqual({ rendement: "warning.numeric" });
    for (const o of OBSERVATIONS_RECOLTE) expect(errors({ ...base, [o.champ]: "x" })).toEqual({ [o.champ]: "warning.numeric" });
    expect(errors({ ...base, dureePaturage: "trois" })).toEqual({ dureePaturage: "warning.numeric" });
    expect(errors({ ...base, animaux: [{ dicIdModalite: "7", nombre: "beaucoup" }] })).toEqual({ "animaux[0].nombre": "warning.numeric" });
    expect(errors({ ...base, animaux: [{ dicIdModalite: "ovin", nombre: "3" }] })).toEqual({ "animaux[0].dicIdModalite": "warning.numeric" });
    expect(RecolteSchema.parse({ ...base, rendement: "7,25", obsHumidite: "14,5", animaux: [{ dicIdModalite: "7", nombre: "220" }] })).toMatchObject({
      rendement: 7.25,
      obsHumidite: 14.5,
      animaux: [{ dicIdModalite: 7, nombre: 220 }],
    });
  });

  test("[C-HARV-08] [C-HARV-09] [C-HARV-10] a grazing (671) drops its qualifier, counts days and sets its observations to 0", () => {
    const v = RecolteSchema.parse({
      idCulture: "28",
      dicIdTypeSortie: String(TYPE_SORTIE_PATURAGE),
      rendement: "9",
      dureePaturage: "21",
      idQualifiantRecolte: "4",
      obsRendement: "5",
      animaux: [{ dicIdModalite: "7", nombre: "220" }],
    });
    const s = recolteStockee(v, "jours");
    expect(s).toMatchObject({ rendement: 21, idQualifiantRecolte: null, dicLlUnite: UNITE_PATURAGE, animaux: [{ dicIdModalite: 7, nombre: 220 }] });
    expect(s.observations).toEqual(OBSERVATIONS_RECOLTE.map((o) => ({ element: o.element, unite: o.unite, valeur: 0 })));
  });

  test("[C-HARV-11] [C-HARV-12] [C-HARV-14] a harvest's unit is its output type's, t/ha by default; main crops first; series type 1128", () => {
    const v = RecolteSchema.parse({
      idCulture: "1",
      dicIdTypeSortie: "661",
      rendement: "8",
      idQualifiantRecolte: "4",
      obsProteines: "11,5",
      animaux: [{ dicIdModalite: "7", nombre: "3" }],
    });
    expect(recolteStockee(v)).toMatchObject({
      dicLlUnite: UNITE_RECOLTE_DEFAUT,
      rendement: 8,
      idQualifiantRecolte: 4,
      animaux: [],
      observations: [{ element: 1193, unite: "%", valeur: 11.5 }],
    });
    expect(recolteStockee(v, "t MS/ha").dicLlUnite).toBe("t MS/ha");
    expect(UNITE_RECOLTE_DEFAUT).toBe("t/ha");
    expect(CATEGORIE_CULTURE_RECOLTE_DEFAUT).toBe(9017);
    expect(TYPE_SERIE_RECOLTE).toBe(1128);
  });

  test("[C-HARV-17] [C-HARV-18] [C-HARV-19] [C-HARV-20] [C-HARV-21] [C-HARV-22] the actual observations use their observed elements and units", () => {
    expect(OBSERVATIONS_RECOLTE.map((o) => [o.element, o.unite])).toEqual([
      [1680, "t/ha"],
      [1192, "%"],
      [1190, "kg/hL"],
      [1191, "g"],
      [1193, "%"],
      [1685, "%"],
    ]);
  });

  test("[C-HARV-15] [C-HARV-16] the series is named from crop and output type, the qualifier in brackets", () => {
    expect(nomSerieRecolte("Blé tendre d'hiver", "Grain")).toBe("Blé tendre d'hiver - Grain");
    expect(nomSerieRecolte("Blé tendre d'hiver", "Grain", "Livré à la coopérative")).toBe("Blé tendre d'hiver - Grain (Livré à la coopérative)");
  });

  test("[C-QUAL-02] a qualifier needs non-empty typed text", () => {
    expect(validate(QualifiantRecolteSchema, { qrdNom: "   " })).toMatchObject({ success: false, fieldErrors: { qrdNom: ["warning.required"] } });
    expect(QualifiantRecolteSchema.parse({ qrdNom: " Lot 2 " })).toEqual({ qrdNom: "Lot 2" });
  });
});
