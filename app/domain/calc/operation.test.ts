import { describe, expect, test } from "vitest";
import type { Materiel } from "./materiel";
import {
  type CoefficientsConsoCarburant,
  DEFAUTS_OPERATION,
  ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L,
  GES_CARBURANT_KG_CO2E_PAR_L,
  type OperationCalcul,
  type TypeAction,
  UNITES_OPERATION,
  calculatedWorkRate,
  canComputeFuelReference,
  effectiveFuelUse,
  effectiveWorkRate,
  fuelCost,
  fuelGhg,
  fuelPrimaryEnergy,
  fuelUseReference,
  operationCosts,
  round,
  roundFuel,
  roundOperationCosts,
} from "./operation";

/*
 * Sources of the expected numbers (research/indicators-and-reference-data.md):
 * - §3.1 coût de chantier (€/ha) = (coût/h tracteur + coût/h outil) / débit (ha/h) [H structure];
 * - §4.1 option 3, power method: L/h = P (kW) × load factor × specific consumption (L/kWh),
 *   specific consumption 0.25–0.30 L/kWh [M], load 0.7–0.8 heavy tillage [L]; L/ha = L/h / débit;
 * - §4.2 fuel reference table: ploughing ~25 cm 20 L/ha, déchaumage 8 L/ha [M]; §4.1 option 4:
 *   scaled ∝ depth for tillage;
 * - §6 E2: GNR primary energy 43 MJ/L [M-L]; §5 G1: 3.10 kg CO2e/L [H].
 * The machines are those of materiel.test.ts (tractor 16.8111 €/h, plough 13.40 €/h).
 */

const labour: TypeAction = { id: 10, libelle: "Labour", profondeurTravail: true };
const irrigation: TypeAction = { id: 20, libelle: "Irrigation", debitIrrigation: true };

const tracteur: Materiel = {
  id: 1,
  libelle: "Tracteur 110 ch",
  idCategorieMateriel: 1,
  typePropriete: 0,
  copropriete: 100,
  puissance: 110,
  debit: 5,
  prixAchat: 80_000,
  utilisationAnnuelle: 600,
  usure: 10_000,
  obsolescence: 12,
  tauxRevente: 30,
  coutEntretienReparation: 6,
};

const charrue: Materiel = {
  id: 2,
  libelle: "Charrue 4 corps",
  idCategorieMateriel: 3,
  typePropriete: 0,
  copropriete: 50,
  debit: 0.8,
  prixAchat: 20_000,
  utilisationAnnuelle: 150,
  usure: 2_000,
  obsolescence: 15,
  tauxRevente: 20,
  coutEntretienReparation: 8,
};

describe("work rate", () => {
  test("[B-OPS-18] the calculated work rate is the minimum non-null rate among the towed equipment", () => {
    // The tractor (category 1) is not self-propelled: its rate 5 ha/h does not count.
    expect(calculatedWorkRate(labour, tracteur, [{ typePropriete: 0, debit: null }, charrue, { typePropriete: 0, debit: 1.2 }])).toBe(0.8);
  });

  test("[B-OPS-18] a self-propelled tractor's rate counts too", () => {
    const moissonneuse: Materiel = { typePropriete: 0, idCategorieMateriel: 8, puissance: 300, debit: 2 };
    expect(calculatedWorkRate({ id: 30 }, moissonneuse, [{ typePropriete: 0, debit: 2.5 }])).toBe(2);
    expect(calculatedWorkRate({ id: 30 }, moissonneuse, [])).toBe(2);
    expect(calculatedWorkRate({ id: 30 }, tracteur, [])).toBeNull();
  });

  test("[B-OPS-18] zero rates are ignored and no rate gives null", () => {
    expect(
      calculatedWorkRate(labour, tracteur, [
        { typePropriete: 0, debit: 0 },
        { typePropriete: 0, debit: 1.5 },
      ]),
    ).toBe(1.5);
    expect(calculatedWorkRate(labour, null, [])).toBeNull();
  });

  test("[B-OPS-19] the calculated work rate is null for irrigation types", () => {
    expect(calculatedWorkRate(irrigation, null, [{ typePropriete: 0, debit: 0.5 }])).toBeNull();
  });

  test("[B-OPS-07] the costs use the actual work rate when set, else the calculated one", () => {
    expect(effectiveWorkRate({ debitReel: 1, debitCalcule: 0.8 })).toBe(1);
    expect(effectiveWorkRate({ debitReel: null, debitCalcule: 0.8 })).toBe(0.8);
    expect(effectiveWorkRate({})).toBeNull();
    expect(effectiveFuelUse({ consoCarburantReelle: 18, consoCarburantCalculee: 20.48 })).toBe(18);
    expect(effectiveFuelUse({ consoCarburantReelle: null, consoCarburantCalculee: 20.48 })).toBe(20.48);
  });
});

describe("fuel-use reference", () => {
  const coefficients: CoefficientsConsoCarburant[] = [
    // Ploughing: load 0.75 (§4.1 "0.7–0.8 heavy tillage"), 0.27 L/kWh (§4.1 "0.25–0.30"), 20 L/ha at 25 cm (§4.2).
    { idTypeAction: 10, tauxCharge: 0.75, consoSpecifique: 0.27, consoHectare: 20, profondeurReference: 25 },
    // Déchaumage: flat 8 L/ha (§4.2), no depth scaling.
    { idTypeAction: 11, consoHectare: 8 },
  ];

  test("[B-OPS-21] the reference needs type, tractor power and depth (depth 0 counts as set)", () => {
    expect(canComputeFuelReference({ idTypeAction: 10, puissance: 110, profondeurTravail: 0 })).toBe(true);
    expect(canComputeFuelReference({ idTypeAction: null, puissance: 110, profondeurTravail: 25 })).toBe(false);
    expect(canComputeFuelReference({ idTypeAction: 10, puissance: null, profondeurTravail: 25 })).toBe(false);
    expect(canComputeFuelReference({ idTypeAction: 10, puissance: 110, profondeurTravail: null })).toBe(false);
    expect(fuelUseReference(coefficients, { idTypeAction: 10, puissance: null, profondeurTravail: 25, debit: 0.8 })).toBeNull();
  });

  test("[B-OPS-21] power method: 110 ch × 0.7355 × 0.75 × 0.27 L/kWh / 0.8 ha/h = 20.48 L/ha", () => {
    // 110 × 0.7355 = 80.905 kW; × 0.75 = 60.67875 kW; × 0.27 = 16.3832625 L/h; / 0.8 = 20.479078125 L/ha
    // (matches the §4.2 ploughing reference of 20 L/ha).
    const conso = fuelUseReference(coefficients, { idTypeAction: 10, puissance: 110, profondeurTravail: 25, debit: 0.8 });
    expect(conso).toBeCloseTo(20.479078125, 9);
    // At the reference depth or with depth 0 (not given) no scaling.
    expect(fuelUseReference(coefficients, { idTypeAction: 10, puissance: 110, profondeurTravail: 0, debit: 0.8 })).toBeCloseTo(20.479078125, 9);
  });

  test("[B-OPS-21] depth scaling: 30 cm instead of 25 cm gives × 1.2", () => {
    // 20.479078125 × 30 / 25 = 24.57489375 L/ha.
    expect(fuelUseReference(coefficients, { idTypeAction: 10, puissance: 110, profondeurTravail: 30, debit: 0.8 })).toBeCloseTo(24.57489375, 9);
    // Without a work rate the flat rate is used: 20 L/ha × 30 / 25 = 24 L/ha.
    expect(fuelUseReference(coefficients, { idTypeAction: 10, puissance: 110, profondeurTravail: 30, debit: null })).toBeCloseTo(24, 10);
  });

  test("[B-OPS-21] flat reference of the type (déchaumage 8 L/ha); unknown type gives null", () => {
    expect(fuelUseReference(coefficients, { idTypeAction: 11, puissance: 90, profondeurTravail: 10, debit: 2 })).toBe(8);
    expect(fuelUseReference(coefficients, { idTypeAction: 99, puissance: 90, profondeurTravail: 10, debit: 2 })).toBeNull();
    // A power-method row without a flat rate and without a work rate gives nothing.
    expect(fuelUseReference([{ idTypeAction: 12, tauxCharge: 0.5 }], { idTypeAction: 12, puissance: 90, profondeurTravail: 0, debit: null })).toBeNull();
  });

  test("[B-OPS-23] the calculated fuel use is shown to 2 decimals", () => {
    expect(roundFuel(20.479078125)).toBe(20.48);
    expect(roundFuel(24.57489375)).toBe(24.57);
    expect(roundFuel(1.005)).toBe(1.01);
    expect(roundFuel(null)).toBeNull();
    expect(round(-0.001, 2)).toBe(0);
  });
});

describe("costs table", () => {
  const labourOp: OperationCalcul = {
    typeAction: labour,
    debitReel: null,
    debitCalcule: 0.8,
    consoCarburantReelle: null,
    consoCarburantCalculee: 20.48,
    proportionSurfaceTravaillee: 1,
    materielTractant: tracteur,
    materielTractes: [charrue],
  };
  const parametres = { prixFioul: 1.1, tauxFinancement: 3.5 };

  test("[B-OPS-07] ploughing: mechanisation, maintenance, fuel, primary energy and GHG per ha", () => {
    const couts = operationCosts(labourOp, parametres);
    // Fixed: (10.8111 €/h tractor + 5.40 €/h plough) / 0.8 ha/h = 20.2639 €/ha.
    expect(couts.chargesFixes).toBeCloseTo(20.263889, 6);
    // Maintenance: (6 + 8 €/h) / 0.8 ha/h = 17.50 €/ha.
    expect(couts.chargesEntretienLocation).toBeCloseTo(17.5, 10);
    // Fuel: 20.48 L/ha × 1.10 €/L (illustrative campaign price) = 22.528 €/ha.
    expect(couts.chargesCarburant).toBeCloseTo(22.528, 10);
    // Total: 20.2639 + 17.50 + 22.528 = 60.2919 €/ha.
    expect(couts.chargesMecaTotales).toBeCloseTo(60.291889, 6);
    // Energy: 20.48 L × 43 MJ/L = 880.64 MJ/ha; GHG: 20.48 L × 3.10 = 63.488 kg CO2e/ha.
    expect(couts.consoNRJPrimaireCarburant).toBeCloseTo(880.64, 10);
    expect(couts.EGESCarburant).toBeCloseTo(63.488, 10);
    expect(couts.manquants).toEqual([]);

    expect(roundOperationCosts(couts)).toEqual({
      debit: 0.8,
      consoCarburant: 20.48,
      chargesFixes: 20.26,
      chargesEntretienLocation: 17.5,
      chargesCarburant: 22.53,
      chargesMecaTotales: 60.29,
      consoNRJPrimaireCarburant: 881,
      EGESCarburant: 63.5,
      manquants: [],
    });
  });

  test("[B-OPS-07] the actual work rate and fuel use replace the calculated ones", () => {
    const couts = operationCosts({ ...labourOp, debitReel: 1, consoCarburantReelle: 18 }, parametres);
    // (10.8111 + 5.40) / 1 = 16.2111 €/ha; (6 + 8) / 1 = 14 €/ha; 18 L × 1.10 = 19.80 €/ha.
    expect(couts.chargesFixes).toBeCloseTo(16.211111, 6);
    expect(couts.chargesEntretienLocation).toBeCloseTo(14, 10);
    expect(couts.chargesCarburant).toBeCloseTo(19.8, 10);
    // 18 × 43 = 774 MJ/ha; 18 × 3.10 = 55.8 kg CO2e/ha.
    expect(couts.consoNRJPrimaireCarburant).toBeCloseTo(774, 10);
    expect(couts.EGESCarburant).toBeCloseTo(55.8, 10);
  });

  test("[B-OPS-07] the share of surface worked scales every figure", () => {
    const entier = operationCosts(labourOp, parametres);
    const moitie = operationCosts({ ...labourOp, proportionSurfaceTravaillee: 0.5 }, parametres);
    expect(moitie.chargesMecaTotales).toBeCloseTo(entier.chargesMecaTotales / 2, 10);
    expect(moitie.consoNRJPrimaireCarburant).toBeCloseTo(440.32, 10);
    expect(moitie.EGESCarburant).toBeCloseTo(31.744, 10);
  });

  test("[B-OPS-07] an ETA tractor bills the fuel: no fuel cost, but energy and GHG are counted", () => {
    const tracteurEta: Materiel = { typePropriete: 1, idCategorieMateriel: 1, puissance: 150, coutLocation: 60 };
    const couts = operationCosts({ ...labourOp, materielTractant: tracteurEta, materielTractes: [], debitCalcule: 1.2 }, parametres);
    // Rental 60 €/h / 1.2 ha/h = 50 €/ha; no fixed charges.
    expect(couts.chargesFixes).toBe(0);
    expect(couts.chargesEntretienLocation).toBeCloseTo(50, 10);
    expect(couts.chargesCarburant).toBe(0);
    expect(couts.chargesMecaTotales).toBeCloseTo(50, 10);
    expect(couts.EGESCarburant).toBeCloseTo(63.488, 10);
  });

  test("[B-OPS-07] missing inputs are listed and count as 0", () => {
    const couts = operationCosts({ ...labourOp, debitCalcule: null, consoCarburantCalculee: null }, { prixFioul: null, tauxFinancement: 3.5 });
    expect(couts.manquants).toEqual(["debit", "consoCarburant"]);
    expect(couts.chargesMecaTotales).toBe(0);
    const sansPrix = operationCosts(labourOp, { prixFioul: null, tauxFinancement: 3.5 });
    expect(sansPrix.manquants).toEqual(["prixFioul"]);
    expect(sansPrix.chargesCarburant).toBe(0);
    const sansAchat = operationCosts({ ...labourOp, materielTractes: [{ ...charrue, prixAchat: null }] }, parametres);
    expect(sansAchat.manquants).toEqual(["materiel:Charrue 4 corps:prixAchat"]);
  });

  test("[B-OPS-07] fuel cost, energy and GHG formulas", () => {
    expect(fuelCost(20, 1.1)).toBeCloseTo(22, 10);
    expect(fuelPrimaryEnergy(20)).toBe(20 * ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L);
    expect(fuelGhg(20)).toBeCloseTo(62, 10);
    expect(ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L).toBe(43);
    expect(GES_CARBURANT_KG_CO2E_PAR_L).toBe(3.1);
    // Factors can be overridden (e.g. E1 35.9 MJ/L direct energy): 20 × 35.9 = 718 MJ/ha.
    expect(fuelPrimaryEnergy(20, 1, 35.9)).toBeCloseTo(718, 10);
  });
});

describe("constants", () => {
  test("[B-OPS-11] a new operation starts with share 1, spray volume 1000 L/ha, depth 0", () => {
    expect(DEFAUTS_OPERATION).toEqual({ proportionSurfaceTravaillee: 1, volumeBouillie: 1000, profondeurTravail: 0 });
  });

  test("[B-CONST-07] units: ha/h, L/ha, m3/h, L/ha, €/ha or €/t, MJ/ha, kg CO2-eq/ha", () => {
    expect(UNITES_OPERATION).toEqual({
      debit: "ha/h",
      carburant: "L/ha",
      debitIrrigation: "m3/h",
      volumeBouillie: "L/ha",
      charges: "€/ha",
      chargesParTonne: "€/t",
      energie: "MJ/ha",
      ges: "kg CO2-eq/ha",
    });
  });
});
