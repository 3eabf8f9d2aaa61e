import { describe, expect, test } from "vitest";
import { CATEGORIES_EGES, amendementDe, classerFertilisant, teneursNpk } from "./eges";
import categories from "../../seeds/reference/categorie-eges.json";

describe("[B-PLOT-04] greenhouse-gas category of a folder fertiliser", () => {
  test.each([
    ["Urée 46", { n: 46 }, "UREE"],
    ["Engrais azoté granulé", { n: 46 }, "UREE"],
    ["Solution azotée 390", { n: 39 }, "SOLUTION_AZOTEE"],
    ["SA 30", { n: 30 }, "SOLUTION_AZOTEE"],
    ["Azote liquide", { n: 30 }, "SOLUTION_AZOTEE"],
    ["Ammonitrate 33,5", { n: 33.5 }, "AMMONITRATE"],
    ["Azote granulé", { n: 27 }, "AMMONITRATE"],
    ["Sulfate d'ammoniaque", { n: 21, so3: 60 }, "AZOTE_AUTRE"],
    ["NPK 15-15-15", { n: 15, p2o5: 15, k2o: 15 }, "ENGRAIS_COMPOSE"],
    ["0-20-30", { p2o5: 20, k2o: 30 }, "ENGRAIS_COMPOSE"],
    ["Superphosphate triple", { p2o5: 45 }, "PHOSPHATE"],
    ["Chlorure de potassium", { k2o: 60 }, "POTASSIQUE"],
    ["Fumier de bovins", { n: 0.6, p2o5: 0.3, k2o: 0.8 }, "ORGANIQUE"],
    ["Produit de ferme", { n: 3.5, p2o5: 3, k2o: 2.5 }, "ORGANIQUE"],
    ["Lisier de porcs", { n: 40 }, "ORGANIQUE"],
    ["Chaux vive", { cao: 94 }, "AMENDEMENT_CALCIQUE"],
    ["Magnésie", { mgo: 30 }, "AMENDEMENT_CALCIQUE"],
  ] as const)("%s %o is %s", (libelle, composition, categorie) => {
    expect(classerFertilisant(libelle, composition).categorie).toBe(categorie);
  });

  test("a telling word of the name wins over the content; otherwise the content decides", () => {
    expect(classerFertilisant("Urée", { n: 33.5 })).toEqual({ categorie: "UREE", motif: "libelle" });
    expect(classerFertilisant("UREE granulée", {})).toEqual({ categorie: "UREE", motif: "libelle" });
    expect(classerFertilisant("Engrais X", { n: 33.5 })).toEqual({ categorie: "AMMONITRATE", motif: "composition" });
  });

  test("boundaries of the straight-nitrogen contents", () => {
    const of = (n: number) => classerFertilisant("Engrais", { n }).categorie;
    expect([of(25.9), of(26), of(27.9), of(28), of(32), of(32.1), of(36.9), of(37), of(40), of(40.1), of(44.9), of(45)]).toEqual([
      "AZOTE_AUTRE",
      "AMMONITRATE",
      "AMMONITRATE",
      "SOLUTION_AZOTEE",
      "SOLUTION_AZOTEE",
      "AMMONITRATE",
      "AMMONITRATE",
      "SOLUTION_AZOTEE",
      "SOLUTION_AZOTEE",
      "AZOTE_AUTRE",
      "AZOTE_AUTRE",
      "UREE",
    ]);
    // Just under the organic threshold for every major nutrient: organic; one at 10 %: mineral.
    expect(classerFertilisant("Engrais", { n: 9.9, p2o5: 9.9 }).categorie).toBe("ORGANIQUE");
    expect(classerFertilisant("Engrais", { n: 10, p2o5: 5 }).categorie).toBe("ENGRAIS_COMPOSE");
  });

  test("no category without a major nutrient or liming element", () => {
    expect(classerFertilisant("Engrais", {})).toEqual({ categorie: null, motif: "composition-vide" });
    expect(classerFertilisant("Engrais", { n: 0, p2o5: null, k2o: 0 })).toEqual({ categorie: null, motif: "composition-vide" });
    expect(classerFertilisant("Oligo-éléments", { b: 2, mn: 5 })).toEqual({ categorie: null, motif: "sans-majeur" });
    expect(classerFertilisant("Kieserite", { so3: 50 })).toEqual({ categorie: null, motif: "sans-majeur" });
  });

  test("every category has its row in the reference list, with a source and a confidence", () => {
    expect(categories.rows.map((r) => r.code).sort()).toEqual([...CATEGORIES_EGES].sort());
    for (const r of categories.rows) {
      expect(r.source.length).toBeGreaterThan(10);
      expect(["high", "medium", "low"]).toContain(r.confiance);
    }
  });

  test("the N-P2O5-K2O contents of a composition, 0 when absent or negative", () => {
    expect(teneursNpk({ n: 33.5 })).toEqual([33.5, 0, 0]);
    expect(teneursNpk({ n: 15, p2o5: 15, k2o: -1 })).toEqual([15, 15, 0]);
  });
});

describe("liming kind (decision 0106)", () => {
  test("[issue24-liming] a limestone is calcaire, a dolomite dolomie, quicklime none, a fertiliser none", () => {
    expect(amendementDe("AMENDEMENT_CALCIQUE", "Calcaire broyé (carbonate de calcium)", { cao: 50 })).toBe("calcaire");
    expect(amendementDe("AMENDEMENT_CALCIQUE", "Dolomie (calcaire magnésien)", { cao: 30, mgo: 20 })).toBe("dolomie");
    expect(amendementDe(null, "Amendement magnésien", { cao: 30, mgo: 18 })).toBe("dolomie");
    expect(amendementDe("AMENDEMENT_CALCIQUE", "Chaux vive", { cao: 85 })).toBeNull();
    expect(amendementDe(null, "Écumes de sucrerie", { cao: 30 })).toBe("calcaire");
    expect(amendementDe("AMMONITRATE", "Ammonitrate 33,5", { n: 33.5 })).toBeNull();
  });
});
