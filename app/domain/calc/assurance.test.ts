import { describe, expect, test } from "vitest";
import { estimerAssurance, indemniteCalculee, rendementCampagne, rendementNonIndemnisable, rendementReelMoyen } from "./assurance";

describe("crop insurance estimate", () => {
  test("a campaign's yield is the surface-weighted mean of its plots; a plot's cuts add up", () => {
    // 10 ha at 8 t/ha and 30 ha at 6 t/ha → (80 + 180) / 40 = 6.5 t/ha
    expect(
      rendementCampagne([
        { idParcelle: 1, rendement: 8, surface: 10 },
        { idParcelle: 2, rendement: 6, surface: 30 },
      ]),
    ).toBe(6.5);
    // Two cuts of hay on the same 5 ha plot: 4 + 3 = 7 t MS/ha
    expect(
      rendementCampagne([
        { idParcelle: 1, rendement: 4, surface: 5 },
        { idParcelle: 1, rendement: 3, surface: 5 },
      ]),
    ).toBe(7);
    // A plot without surface weighs nothing, unless none has one (plain mean)
    expect(
      rendementCampagne([
        { idParcelle: 1, rendement: 8, surface: 10 },
        { idParcelle: 2, rendement: 2, surface: null },
      ]),
    ).toBe(8);
    expect(
      rendementCampagne([
        { idParcelle: 1, rendement: 8, surface: null },
        { idParcelle: 2, rendement: 6, surface: null },
      ]),
    ).toBe(7);
    expect(rendementCampagne([])).toBeNull();
  });

  test("[B-INS-05] the real average yield is the olympic average of the 5 latest years from 5 years on, else the plain mean, else null", () => {
    expect(rendementReelMoyen([])).toBeNull();
    expect(rendementReelMoyen([{ anneeRecolte: 2024, rendement: 8.6 }])).toBe(8.6);
    expect(rendementReelMoyen([2020, 2021, 2022, 2023].map((a, i) => ({ anneeRecolte: a, rendement: 6 + i })))).toBe(7.5);
    // 2019 is older than the 5 latest; of 2020..2024 (7, 9, 5, 8, 10) the 5 and the 10 are dropped → (7 + 9 + 8) / 3 = 8
    const years = [
      [2019, 1],
      [2020, 7],
      [2021, 9],
      [2022, 5],
      [2023, 8],
      [2024, 10],
    ].map(([anneeRecolte, rendement]) => ({ anneeRecolte, rendement }));
    expect(rendementReelMoyen(years)).toBe(8);
  });

  test("the non-indemnified yield is the insured yield times the franchise; the indemnity is the loss beyond it at the insured price", () => {
    expect(rendementNonIndemnisable(9, 20)).toBeCloseTo(1.8);
    expect(rendementNonIndemnisable(9, null)).toBeNull();
    // 11 t/ha insured, 20 % franchise (2.2), observed 8.6 → (11 − 2.2 − 8.6) × 200 €/t = 40 €/ha
    expect(indemniteCalculee({ rendementAssure: 11, txFranchise: 20, mtPrixAssure: 200, rendementConstate: 8.6 })).toBeCloseTo(40);
    // No loss beyond the franchise → 0, never negative
    expect(indemniteCalculee({ rendementAssure: 9, txFranchise: 20, mtPrixAssure: 200, rendementConstate: 8.6 })).toBe(0);
    // An empty franchise counts as 0 %
    expect(indemniteCalculee({ rendementAssure: 9, txFranchise: null, mtPrixAssure: 100, rendementConstate: 8 })).toBeCloseTo(100);
    expect(indemniteCalculee({ rendementAssure: 9, txFranchise: 20, mtPrixAssure: null, rendementConstate: 8 })).toBeNull();
    expect(indemniteCalculee({ rendementAssure: 9, txFranchise: 20, mtPrixAssure: 200, rendementConstate: null })).toBeNull();
  });

  test("the estimate uses the current campaign's yield when recorded, else the real average", () => {
    const anterieures = new Map([
      [2024, [{ idParcelle: 1, rendement: 8.6, surface: 24.6 }]],
      [2023, [{ idParcelle: 2, rendement: 7.4, surface: 10 }]],
    ]);
    const sans = estimerAssurance({ anterieures, courante: [], rendementAssure: 11, txFranchise: 20, mtPrixAssure: 200 });
    expect(sans).toEqual({
      annees: [
        { anneeRecolte: 2024, rendement: 8.6 },
        { anneeRecolte: 2023, rendement: 7.4 },
      ],
      rendementReelMoyen: 8,
      rendementCampagne: null,
      rendementNonIndemnisable: 2.2,
      mtIndemniteCalculee: 160,
    });
    const avec = estimerAssurance({
      anterieures,
      courante: [{ idParcelle: 3, rendement: 5, surface: 12 }],
      rendementAssure: 11,
      txFranchise: 20,
      mtPrixAssure: 200,
    });
    expect(avec.rendementCampagne).toBe(5);
    expect(avec.mtIndemniteCalculee).toBe(760); // (11 − 2.2 − 5) × 200
    expect(estimerAssurance({ anterieures: new Map(), courante: [], rendementAssure: 11 })).toMatchObject({
      rendementReelMoyen: null,
      mtIndemniteCalculee: null,
    });
  });
});
