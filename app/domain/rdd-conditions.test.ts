import { describe, expect, test } from "vitest";
import { conditionOf, verifierCondition, type InterventionFaits } from "./rdd-conditions";

const passes: InterventionFaits[] = [
  { id: 1, date: "2025-03-01", realisee: true, produits: [{ cle: "539:10", libelle: "Glyphosate 360" }] },
  { id: 2, date: "2025-03-11", realisee: true, produits: [{ cle: "539:10", libelle: "Glyphosate 360" }, { cle: "540:3", libelle: "Ammonitrate 33,5" }] },
  { id: 3, date: "2025-04-20", realisee: true, produits: [{ cle: "539:10", libelle: "Glyphosate 360" }] },
  { id: 4, date: "2025-03-12", realisee: false, produits: [{ cle: "539:99", libelle: "Prosulfocarbe Défi" }] },
];

describe("machine-checkable rule conditions", () => {
  test("[issue13-conditions] no product from a list: broken with the offending inputs, holds otherwise; planned passes do not count", () => {
    expect(verifierCondition({ type: "produit_interdit", produits: ["glyphosate"] }, passes)).toEqual({
      respectee: false, faits: [{ date: "2025-03-01", libelle: "Glyphosate 360" }, { date: "2025-03-11", libelle: "Glyphosate 360" }, { date: "2025-04-20", libelle: "Glyphosate 360" }],
    });
    expect(verifierCondition({ type: "produit_interdit", produits: ["defi"] }, passes)).toEqual({ respectee: true, faits: [] });
  });

  test("[issue13-conditions] at least N days between two passes of the same product", () => {
    expect(verifierCondition({ type: "delai_min", jours: 14 }, passes)).toEqual({
      respectee: false, faits: [{ date: "2025-03-01", date2: "2025-03-11", libelle: "Glyphosate 360", jours: 10 }],
    });
    expect(verifierCondition({ type: "delai_min", jours: 10 }, passes)).toEqual({ respectee: true, faits: [] });
  });

  test("the form's fields give the condition", () => {
    expect(conditionOf({ conditionType: "produit_interdit", conditionProduits: "glyphosate; diquat\nmétaldéhyde" })).toEqual({ type: "produit_interdit", produits: ["glyphosate", "diquat", "métaldéhyde"] });
    expect(conditionOf({ conditionType: "delai_min", conditionJours: 21 })).toEqual({ type: "delai_min", jours: 21 });
    expect(conditionOf({ conditionType: "" })).toBeNull();
  });
});
