import { describe, expect, test } from "vitest";
import {
  CATEGORIES_AVEC_PUISSANCE,
  LIMITES_MATERIEL,
  type Materiel,
  TAUX_FINANCEMENT_DEFAUT,
  TYPES_POMPE,
  TYPE_PROPRIETE,
  annualDepreciation,
  annualFinancing,
  annualUseFromPassages,
  annualUseMax,
  coOwnershipForOwnership,
  defaultsFromReference,
  depreciationDuration,
  depreciationDurationFromLives,
  financingRate,
  isSelfPropelled,
  isTractionCategory,
  isTractor,
  machineCosts,
  newMachineDefaults,
  ownershipShare,
  ownershipSuffix,
  priceYearRange,
  repairOrRentalCost,
  resaleValue,
  retainedAnnualUse,
  showsPowerField,
  suffixedLibelle,
} from "./materiel";

/*
 * Worked examples. Method: research/indicators-and-reference-data.md §3.1 (C. Savary, Chambres
 * d'agriculture 2021; BCMA barème): VR = PA × resale rate, amortissement = (PA − VR) / n,
 * intérêts = (PA + VR) / 2 × i, CF/unité = CF / utilisation annuelle, coût chantier / débit.
 * The machines' figures are illustrative (a 110 ch tractor and a 4-body plough); the financing
 * rate 3.5 % is the research's "i ≈ 3–4 %" [L].
 */

/** 110 ch tractor, own, bought new 80,000 €, 30 % resale, 10,000 h wear, 12 years obsolescence, 600 h/year, 6 €/h repairs. */
const tracteur: Materiel = {
  id: 1,
  libelle: "Tracteur 110 ch",
  idCategorieMateriel: 1,
  typePropriete: 0,
  copropriete: 100,
  puissance: 110,
  debit: null,
  prixAchat: 80_000,
  ageAchat: 0,
  utilisationAnnuelle: 600,
  usure: 10_000,
  obsolescence: 12,
  dureeAmortissement: null,
  tauxRevente: 30,
  coutEntretienReparation: 6,
  coutLocation: null,
};

/** 4-body plough, 50 % co-owned, 20,000 €, 20 % resale, 2,000 h wear, 15 years, 150 h/year, 8 €/h repairs, 0.8 ha/h. */
const charrue: Materiel = {
  id: 2,
  libelle: "Charrue 4 corps",
  idCategorieMateriel: 3,
  typePropriete: 0,
  copropriete: 50,
  puissance: null,
  debit: 0.8,
  prixAchat: 20_000,
  ageAchat: 0,
  utilisationAnnuelle: 150,
  usure: 2_000,
  obsolescence: 15,
  dureeAmortissement: null,
  tauxRevente: 20,
  coutEntretienReparation: 8,
  coutLocation: null,
};

describe("kinds of machine", () => {
  test("[B-OPS-16] equipment with power above 0 counts as a tractor", () => {
    expect(isTractor({ puissance: 110 })).toBe(true);
    expect(isTractor({ puissance: 0 })).toBe(false);
    expect(isTractor({ puissance: null })).toBe(false);
    expect(isTractor({})).toBe(false);
  });

  test("[B-OPS-17] self-propelled means power above 0 and a category other than 1", () => {
    expect(isSelfPropelled({ puissance: 300, idCategorieMateriel: 8 })).toBe(true);
    expect(isSelfPropelled({ puissance: 110, idCategorieMateriel: 1 })).toBe(false);
    expect(isSelfPropelled({ puissance: 0, idCategorieMateriel: 8 })).toBe(false);
    expect(isSelfPropelled({ puissance: null, idCategorieMateriel: 8 })).toBe(false);
  });

  test("[B-MACH-19] the power field is shown only for categories 1, 2, 8, 12, 13, 17", () => {
    expect(CATEGORIES_AVEC_PUISSANCE).toEqual([1, 2, 8, 12, 13, 17]);
    for (const id of [1, 2, 8, 12, 13, 17]) expect(showsPowerField(id)).toBe(true);
    for (const id of [3, 4, 5, 7, 9, 11, 14, 16, 18]) expect(showsPowerField(id)).toBe(false);
    expect(showsPowerField(null)).toBe(false);
  });
});

describe("constants and bounds", () => {
  test("[B-MACH-04] ownership codes are 0 own, 1 ETA, 2 CUMA", () => {
    expect(TYPE_PROPRIETE).toEqual({ PROPRE: 0, ETA: 1, CUMA: 2 });
  });

  test("[B-MACH-07] pump types are g (diesel) and e (electric)", () => {
    expect(TYPES_POMPE).toEqual({ GAZOLE: "g", ELECTRIQUE: "e" });
  });

  test("[B-MACH-24] [B-MACH-25] age 0-20 and purchase price 0-2,000,000 €", () => {
    expect(LIMITES_MATERIEL.ageAchat).toEqual({ min: 0, max: 20 });
    expect(LIMITES_MATERIEL.prixAchat).toEqual({ min: 0, max: 2_000_000 });
  });

  test("[B-MACH-27] [B-MACH-28] annual use is bounded 10,000 for traction (category 1), 50,000 otherwise", () => {
    expect(isTractionCategory(1)).toBe(true);
    expect(annualUseMax(1)).toBe(10_000);
    expect(annualUseMax(3)).toBe(50_000);
    expect(annualUseMax(null)).toBe(50_000);
    expect(LIMITES_MATERIEL.utilisationAnnuelleTraction.min).toBe(0);
    expect(LIMITES_MATERIEL.utilisationAnnuelleAutre.min).toBe(0);
  });

  test("[B-CONST-01] [B-CONST-02] [B-CONST-03] resale rate 0-100 %, obsolescence 0-20 years, wear 0-500,000 hours", () => {
    expect(LIMITES_MATERIEL.tauxRevente).toEqual({ min: 0, max: 100 });
    expect(LIMITES_MATERIEL.obsolescence).toEqual({ min: 0, max: 20 });
    expect(LIMITES_MATERIEL.usure).toEqual({ min: 0, max: 500_000 });
  });
});

describe("machine form rules", () => {
  test("[B-MACH-11] a new machine starts as own, co-ownership 100, age 0", () => {
    expect(newMachineDefaults()).toEqual({ typePropriete: 0, copropriete: 100, ageAchat: 0 });
  });

  test("[B-MACH-14] an ownership other than own sets co-ownership to null", () => {
    expect(coOwnershipForOwnership(TYPE_PROPRIETE.ETA)).toBeNull();
    expect(coOwnershipForOwnership(TYPE_PROPRIETE.CUMA)).toBeNull();
  });

  test("[B-MACH-15] own ownership sets co-ownership to 100", () => {
    expect(coOwnershipForOwnership(TYPE_PROPRIETE.PROPRE)).toBe(100);
  });

  test("[B-MACH-05] [B-MACH-06] the label gets _E/I (CUMA), _E/E (ETA), _I/E (own with external workforce), none when both internal", () => {
    expect(ownershipSuffix(TYPE_PROPRIETE.PROPRE)).toBe("");
    expect(ownershipSuffix(TYPE_PROPRIETE.CUMA)).toBe("_E/I");
    expect(ownershipSuffix(TYPE_PROPRIETE.ETA)).toBe("_E/E");
    expect(ownershipSuffix(TYPE_PROPRIETE.PROPRE, true)).toBe("_I/E");
    expect(ownershipSuffix(TYPE_PROPRIETE.CUMA, true)).toBe("_E/E");
    expect(suffixedLibelle("Semoir 4 m", TYPE_PROPRIETE.CUMA)).toBe("Semoir 4 m_E/I");
    expect(suffixedLibelle("Moissonneuse", TYPE_PROPRIETE.ETA)).toBe("Moissonneuse_E/E");
    expect(suffixedLibelle("Tracteur 110 ch", TYPE_PROPRIETE.PROPRE)).toBe("Tracteur 110 ch");
  });

  test("[B-MACH-18] the new-price label shows the years anneeprix-1 to anneeprix", () => {
    expect(priceYearRange(2024)).toBe("2023-2024");
    expect(priceYearRange(null)).toBeNull();
    expect(priceYearRange(2024.5)).toBeNull();
  });

  const reference = { prixMoyen: 82_000, poids: 5_200, puissance: 110, debit: null, reparation: 6.2, anneeprix: 2024 };

  test("[B-MACH-16] a characteristic fills power, flow, weight, repair cost and new price", () => {
    expect(defaultsFromReference(reference, false)).toEqual({
      puissance: 110,
      debit: null,
      poids: 5_200,
      coutEntretienReparation: 6.2,
      prixNeuf: 82_000,
    });
  });

  test("[B-MACH-17] on creation only, it also fills the purchase price", () => {
    expect(defaultsFromReference(reference, true).prixAchat).toBe(82_000);
    expect("prixAchat" in defaultsFromReference(reference, false)).toBe(false);
  });
});

describe("calculated figures of a machine", () => {
  test("[B-MACH-03] usage: annual use from interventions is Σ surface × passes / work rate", () => {
    // 12 ha × 2 passes / 0.8 ha/h = 30 h; 10 ha × 1 pass / 2.5 ha/h = 4 h; the pass without a rate is skipped → 34 h.
    expect(
      annualUseFromPassages([
        { surface: 12, nombrePassage: 2, debit: 0.8 },
        { surface: 10, debit: 2.5 },
        { surface: 5, debit: null },
      ]),
    ).toBeCloseTo(34, 10);
    expect(annualUseFromPassages([])).toBeNull();
  });

  test("[B-MACH-03] usage: the entered annual use wins, then the actual, then the planned calculated use", () => {
    expect(retainedAnnualUse({ utilisationAnnuelle: 600, utilisationAnnuelleCalculeeR: 420, utilisationAnnuelleCalculeeP: 380 })).toBe(600);
    expect(retainedAnnualUse({ utilisationAnnuelle: 0, utilisationAnnuelleCalculeeR: 420, utilisationAnnuelleCalculeeP: 380 })).toBe(420);
    expect(retainedAnnualUse({ utilisationAnnuelle: null, utilisationAnnuelleCalculeeR: null, utilisationAnnuelleCalculeeP: 380 })).toBe(380);
    expect(retainedAnnualUse({})).toBeNull();
  });

  test("[B-MACH-03] depreciation duration = min(obsolescence, wear / annual use)", () => {
    // Tractor: min(12 years, 10,000 h / 600 h = 16.67 years) = 12 years.
    expect(depreciationDuration(tracteur)).toBe(12);
    // Plough: min(15 years, 2,000 h / 150 h = 13.33 years) = 13.33 years.
    expect(depreciationDuration(charrue)).toBeCloseTo(40 / 3, 10);
    // Only one life known: that one.
    expect(depreciationDurationFromLives({ usure: null, obsolescence: 12 }, null)).toBe(12);
    expect(depreciationDurationFromLives({ usure: 10_000, obsolescence: 0 }, 500)).toBe(20);
    expect(depreciationDurationFromLives({ usure: null, obsolescence: null }, 500)).toBeNull();
  });

  test("[B-MACH-03] depreciation duration of a used machine counts the remaining obsolescence life, at least 1 year", () => {
    // Bought at 5 years: 12 − 5 = 7 years < 16.67 years of wear.
    expect(depreciationDurationFromLives({ usure: 10_000, obsolescence: 12, ageAchat: 5 }, 600)).toBe(7);
    // Bought at 15 years with a 12-year obsolescence life: 1 year minimum.
    expect(depreciationDurationFromLives({ usure: null, obsolescence: 12, ageAchat: 15 }, 600)).toBe(1);
  });

  test("[B-MACH-03] an entered depreciation duration wins over the lives", () => {
    expect(depreciationDuration({ ...tracteur, dureeAmortissement: 10 })).toBe(10);
  });

  test("[B-MACH-03] depreciation = (purchase price − resale value) / duration × co-ownership", () => {
    // Tractor: VR = 80,000 × 30 % = 24,000 €; (80,000 − 24,000) / 12 = 4,666.67 €/year.
    expect(resaleValue(tracteur)).toBe(24_000);
    expect(annualDepreciation(tracteur)).toBeCloseTo(4_666.6667, 4);
    // Plough: VR = 4,000 €; (20,000 − 4,000) / 13.33 = 1,200 €/year, × 50 % = 600 €/year.
    expect(annualDepreciation(charrue)).toBeCloseTo(600, 10);
    // Empty resale rate counts as 0 %: 80,000 / 12 = 6,666.67 €/year.
    expect(annualDepreciation({ ...tracteur, tauxRevente: null })).toBeCloseTo(6_666.6667, 4);
  });

  test("[B-MACH-03] financing = (purchase price + resale value) / 2 × rate × co-ownership", () => {
    // Tractor: (80,000 + 24,000) / 2 × 3.5 % = 52,000 × 0.035 = 1,820 €/year.
    expect(annualFinancing(tracteur, 3.5)).toBeCloseTo(1_820, 10);
    // Plough: (20,000 + 4,000) / 2 × 3.5 % = 420 €/year, × 50 % = 210 €/year.
    expect(annualFinancing(charrue, 3.5)).toBeCloseTo(210, 10);
  });

  test("[B-MACH-03] financing rate: the campaign's long-term rate, else 3.5 %", () => {
    expect(financingRate({ longTermeTaux: 4.2 })).toBe(4.2);
    expect(financingRate({ longTermeTaux: null })).toBe(TAUX_FINANCEMENT_DEFAUT);
    expect(financingRate(null)).toBe(3.5);
  });

  test("[B-MACH-03] rental or repair: repair cost for own machines, rental cost for ETA and CUMA", () => {
    expect(repairOrRentalCost(tracteur)).toBe(6);
    expect(repairOrRentalCost({ typePropriete: 1, coutEntretienReparation: 6, coutLocation: 45 })).toBe(45);
    expect(repairOrRentalCost({ typePropriete: 2, coutEntretienReparation: 6, coutLocation: 12 })).toBe(12);
  });

  test("[B-MACH-03] mechanisation charges per unit of work and per ha of an own tractor and an own co-owned plough", () => {
    const t = machineCosts(tracteur, 3.5);
    // Fixed: 4,666.67 + 1,820 = 6,486.67 €/year; / 600 h = 10.81 €/h; + 6 €/h repairs = 16.81 €/h.
    expect(t.utilisationRetenue).toBe(600);
    expect(t.dureeAmortissement).toBe(12);
    expect(t.valeurRevente).toBe(24_000);
    expect(t.chargesFixesAnnuelles).toBeCloseTo(6_486.6667, 4);
    expect(t.chargesFixesHoraires).toBeCloseTo(10.8111, 4);
    expect(t.entretienLocation).toBe(6);
    expect(t.coutHoraire).toBeCloseTo(16.8111, 4);
    // A tractor has no work rate of its own: no per-ha figure.
    expect(t.chargesMecaHa).toBeNull();
    expect(t.manquants).toEqual([]);

    const c = machineCosts(charrue, 3.5);
    // Fixed: 600 + 210 = 810 €/year; / 150 h = 5.40 €/h; + 8 €/h = 13.40 €/h; / 0.8 ha/h = 16.75 €/ha.
    expect(c.chargesFixesAnnuelles).toBeCloseTo(810, 10);
    expect(c.chargesFixesHoraires).toBeCloseTo(5.4, 10);
    expect(c.coutHoraire).toBeCloseTo(13.4, 10);
    expect(c.chargesMecaHa).toBeCloseTo(16.75, 10);
  });

  test("[B-MACH-03] [B-MACH-04] ETA and CUMA machines: no depreciation nor financing, charges = rental cost", () => {
    // ETA combine billed 45 €/h at 1.5 ha/h → 30 €/ha.
    const eta = machineCosts({ typePropriete: 1, copropriete: null, prixAchat: 300_000, coutLocation: 45, debit: 1.5 }, 3.5);
    expect(ownershipShare({ typePropriete: 1, copropriete: null })).toBe(0);
    expect(eta.amortissement).toBe(0);
    expect(eta.financement).toBe(0);
    expect(eta.chargesFixesHoraires).toBe(0);
    expect(eta.coutHoraire).toBe(45);
    expect(eta.chargesMecaHa).toBeCloseTo(30, 10);
    expect(eta.dureeAmortissement).toBeNull();
    // CUMA seed drill at 12 €/h and 0.8 ha/h → 15 €/ha, annual use not needed.
    const cuma = machineCosts({ typePropriete: 2, copropriete: null, coutLocation: 12, debit: 0.8 }, 3.5);
    expect(cuma.chargesMecaHa).toBeCloseTo(15, 10);
    expect(cuma.manquants).toEqual([]);
  });

  test("[B-MACH-03] co-ownership: an own machine with empty co-ownership counts as 100 %", () => {
    expect(ownershipShare({ typePropriete: 0, copropriete: null })).toBe(1);
    expect(ownershipShare({ typePropriete: 0, copropriete: 50 })).toBe(0.5);
  });

  test("[B-MACH-03] missing inputs leave the figures empty and are listed", () => {
    const sansPrix = machineCosts({ ...charrue, prixAchat: null }, 3.5);
    expect(sansPrix.amortissement).toBeNull();
    expect(sansPrix.coutHoraire).toBeNull();
    expect(sansPrix.chargesMecaHa).toBeNull();
    expect(sansPrix.manquants).toContain("prixAchat");

    const sansUsage = machineCosts({ ...charrue, utilisationAnnuelle: null }, 3.5);
    // Duration falls back to obsolescence (15 years), but nothing to divide the fixed charges by.
    expect(sansUsage.dureeAmortissement).toBe(15);
    expect(sansUsage.chargesFixesHoraires).toBeNull();
    expect(sansUsage.manquants).toEqual(["utilisationAnnuelle"]);

    const etaSansLocation = machineCosts({ typePropriete: 1, coutLocation: null, debit: 1 }, 3.5);
    expect(etaSansLocation.manquants).toEqual(["coutLocation"]);
  });
});
