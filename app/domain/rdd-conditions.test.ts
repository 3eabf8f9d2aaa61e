import { describe, expect, test } from "vitest";
import { conditionOf, verifierCondition, type InterventionFaits } from "./rdd-conditions";

const passes: InterventionFaits[] = [
  { id: 1, date: "2025-03-01", realisee: true, produits: [{ cle: "539:10", libelle: "Glyphosate 360" }] },
  {
    id: 2,
    date: "2025-03-11",
    realisee: true,
    produits: [
      { cle: "539:10", libelle: "Glyphosate 360" },
      { cle: "540:3", libelle: "Ammonitrate 33,5" },
    ],
  },
  { id: 3, date: "2025-04-20", realisee: true, produits: [{ cle: "539:10", libelle: "Glyphosate 360" }] },
  { id: 4, date: "2025-03-12", realisee: false, produits: [{ cle: "539:99", libelle: "Prosulfocarbe Défi" }] },
];

describe("machine-checkable rule conditions", () => {
  test("[issue13-conditions] no product from a list: broken with the offending inputs, holds otherwise; planned passes do not count", () => {
    expect(verifierCondition({ type: "produit_interdit", produits: ["glyphosate"] }, passes)).toEqual({
      respectee: false,
      faits: [
        { date: "2025-03-01", libelle: "Glyphosate 360" },
        { date: "2025-03-11", libelle: "Glyphosate 360" },
        { date: "2025-04-20", libelle: "Glyphosate 360" },
      ],
    });
    expect(verifierCondition({ type: "produit_interdit", produits: ["defi"] }, passes)).toEqual({ respectee: true, faits: [] });
  });

  test("[issue13-conditions] at least N days between two passes of the same product", () => {
    expect(verifierCondition({ type: "delai_min", jours: 14 }, passes)).toEqual({
      respectee: false,
      faits: [{ date: "2025-03-01", date2: "2025-03-11", libelle: "Glyphosate 360", jours: 10 }],
    });
    expect(verifierCondition({ type: "delai_min", jours: 10 }, passes)).toEqual({ respectee: true, faits: [] });
  });

  test("[issue13-conditions] N and IFT at most X: the plot's figure rounded as the panel shows it, the contributions as facts", () => {
    const ind = (code: string, valeur: number | null, unite: string) => ({
      [code]: {
        code,
        valeur,
        unite,
        completude: 80,
        attendus: 5,
        manquants: [{ objet: "intrant" as const, id: 9, champ: "dose" }],
        explication: {
          formule: "7.4",
          entrees: [
            { objet: "intrant" as const, id: 2, libelle: "Ammonitrate 33,5", date: "2025-03-11", contribution: 50.25 },
            { objet: "intrant" as const, id: 5, libelle: "Solution azotée 39", date: "2025-02-20", contribution: 99.754 },
          ],
        },
      },
    });
    // 150.004 is shown 150: at most 150 holds; at most 149.99 is broken.
    const n = ind("fertilisation.n.mineral", 150.004, "kg N/ha");
    expect(verifierCondition({ type: "azote_mineral_max", max: 150 }, passes, { indicateurs: n })).toEqual({
      respectee: true,
      faits: [
        { date: "2025-02-20", libelle: "Solution azotée 39", valeur: 99.754, unite: "kg N/ha" },
        { date: "2025-03-11", libelle: "Ammonitrate 33,5", valeur: 50.25, unite: "kg N/ha" },
      ],
      mesure: { code: "fertilisation.n.mineral", valeur: 150, unite: "kg N/ha", max: 150, completude: 80, manquants: 1 },
    });
    expect(verifierCondition({ type: "azote_mineral_max", max: 149.99 }, passes, { indicateurs: n }).respectee).toBe(false);
    const ift = ind("ift.cible.total", 2.5, "doses de référence/ha");
    expect(verifierCondition({ type: "ift_max", max: 2 }, passes, { indicateurs: ift })).toMatchObject({ respectee: false, mesure: { valeur: 2.5, max: 2 } });
    expect(verifierCondition({ type: "ift_max", max: 2 }, passes, { indicateurs: ind("ift.cible.total", null, "doses de référence/ha") })).toMatchObject({
      respectee: true,
      mesure: { valeur: null },
    });
  });

  test("[issue13-conditions] planned interventions done by a date", () => {
    const plan: InterventionFaits[] = [
      { id: 1, date: "2024-08-20", realisee: true, prevue: true, operation: "Semis colza", produits: [] },
      { id: 2, date: "2024-08-28", realisee: true, prevue: true, operation: "Semis colza", produits: [] },
      { id: 3, date: "2024-08-22", realisee: false, prevue: true, operation: "Désherbage", produits: [] },
      { id: 4, date: "2024-08-10", realisee: true, prevue: false, operation: "Semis colza", produits: [] },
    ];
    expect(verifierCondition({ type: "realisee_avant", date: "2024-08-25", operation: "semis" }, plan, { aujourdhui: "2024-09-01" })).toEqual({
      respectee: false,
      faits: [{ date: "2024-08-28", libelle: "Semis colza", statut: "en_retard" }],
    });
    expect(verifierCondition({ type: "realisee_avant", date: "2024-08-30" }, plan, { aujourdhui: "2024-08-26" })).toEqual({
      respectee: true,
      faits: [{ date: "2024-08-22", libelle: "Désherbage", statut: "en_attente" }],
    });
    expect(verifierCondition({ type: "realisee_avant", date: "2024-08-30" }, plan, { aujourdhui: "2024-08-31" })).toEqual({
      respectee: false,
      faits: [{ date: "2024-08-22", libelle: "Désherbage", statut: "non_realisee" }],
    });
  });

  test("the form's fields give the condition", () => {
    expect(conditionOf({ conditionType: "produit_interdit", conditionProduits: "glyphosate; diquat\nmétaldéhyde" })).toEqual({
      type: "produit_interdit",
      produits: ["glyphosate", "diquat", "métaldéhyde"],
    });
    expect(conditionOf({ conditionType: "delai_min", conditionJours: 21 })).toEqual({ type: "delai_min", jours: 21 });
    expect(conditionOf({ conditionType: "" })).toBeNull();
    expect(conditionOf({ conditionType: "ift_max", conditionMax: 2.3 })).toEqual({ type: "ift_max", max: 2.3 });
    expect(conditionOf({ conditionType: "realisee_avant", conditionDate: "2025-06-01", conditionOperation: "" })).toEqual({
      type: "realisee_avant",
      date: "2025-06-01",
    });
  });
});
