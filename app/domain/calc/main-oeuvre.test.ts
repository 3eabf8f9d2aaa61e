import { describe, expect, test } from "vitest";
import {
  type MainOeuvre,
  TYPE_MAIN_OEUVRE,
  labourNorm,
  labourTotals,
  normsFromReferenceValues,
  numericUta,
  referenceNorm,
  tauxHoraireMainOeuvre,
} from "./main-oeuvre";

/*
 * The rule is spec 2 §4: norm = uta × reference norm; salaried norm (reference value index 3) for
 * 951 and 952, family norm (index 2) for 953. Neither the spec nor the research gives the norm
 * values: 30,000 and 24,000 € per UTH below are illustrative numbers (the reference table will
 * carry the real ones).
 */
const valeursReference = [0.5, 1607, 24_000, 30_000];
const normes = normsFromReferenceValues(valeursReference);

describe("labour norms", () => {
  test("[B-LAB-03] labour types are 951 and 952 (salaried) and 953 (family)", () => {
    expect(TYPE_MAIN_OEUVRE).toEqual({ SALARIE_1: 951, SALARIE_2: 952, FAMILIAL: 953 });
  });

  test("[B-LAB-05] [B-LAB-06] the salaried norm is reference value index 3, the family norm index 2", () => {
    expect(normes).toEqual({ salariale: 30_000, familiale: 24_000 });
    expect(normsFromReferenceValues([1, 2])).toEqual({ salariale: null, familiale: null });
  });

  test("[B-LAB-05] types 951 and 952 use the salaried norm", () => {
    expect(referenceNorm(951, normes)).toBe(30_000);
    expect(referenceNorm(952, normes)).toBe(30_000);
  });

  test("[B-LAB-06] type 953 uses the family norm", () => {
    expect(referenceNorm(953, normes)).toBe(24_000);
    expect(referenceNorm(999, normes)).toBeNull();
  });

  test("[B-LAB-04] when uta is numeric the norm is uta × the reference norm", () => {
    // 0.5 UTH × 30,000 € = 15,000 €; 1.5 UTH × 24,000 € = 36,000 €.
    expect(labourNorm({ uta: 0.5, idTypeUser: 951 }, normes)).toBe(15_000);
    expect(labourNorm({ uta: "1,5", idTypeUser: 953 }, normes)).toBe(36_000);
    expect(labourNorm({ uta: "0.5", idTypeUser: 952 }, normes)).toBe(15_000);
  });

  test("[B-LAB-04] when uta is not numeric there is no norm", () => {
    expect(numericUta("abc")).toBeNull();
    expect(labourNorm({ uta: "abc", idTypeUser: 951 }, normes)).toBeNull();
    expect(labourNorm({ uta: "", idTypeUser: 951 }, normes)).toBeNull();
    expect(labourNorm({ uta: null, idTypeUser: 953 }, normes)).toBeNull();
  });
});

describe("totals panel", () => {
  test("[B-LAB-01] totals of UTH, amount and norm, overall, salaried, family and per type", () => {
    const items: MainOeuvre[] = [
      { libelle: "Salarié permanent", uta: 1, idTypeUser: 951, montant: 28_000 }, // norm 1 × 30,000 = 30,000
      { libelle: "Saisonnier", uta: "0,5", idTypeUser: 952, montant: 9_000 }, // norm 0.5 × 30,000 = 15,000
      { libelle: "Exploitant", uta: 1.5, idTypeUser: 953, montant: null }, // norm 1.5 × 24,000 = 36,000
      { libelle: "Aide familiale", uta: "", idTypeUser: 953, montant: 1_000 }, // no norm
    ];
    const totaux = labourTotals(items, normes);
    expect(totaux.total).toEqual({ uta: 3, montant: 38_000, norme: 81_000 });
    expect(totaux.salarie).toEqual({ uta: 1.5, montant: 37_000, norme: 45_000 });
    expect(totaux.familial).toEqual({ uta: 1.5, montant: 1_000, norme: 36_000 });
    expect(totaux.parType[951]).toEqual({ uta: 1, montant: 28_000, norme: 30_000 });
    expect(totaux.parType[952]).toEqual({ uta: 0.5, montant: 9_000, norme: 15_000 });
    expect(totaux.parType[953]).toEqual({ uta: 1.5, montant: 1_000, norme: 36_000 });
  });

  test("[B-LAB-01] an empty list gives zero totals", () => {
    expect(labourTotals([], normes).total).toEqual({ uta: 0, montant: 0, norme: 0 });
  });
});

describe("hourly labour rate for the labour costs (decision 0106)", () => {
  test("[issue24-labour] the recorded amounts over their work units at 1,607 h each", () => {
    // (38,000 + 5,200) € / ((1 + 0.2) UTH × 1,607 h) = 43,200 / 1,928.4 = 22.4020 €/h; the item without an amount is left out.
    const taux = tauxHoraireMainOeuvre([
      { uta: 1, montant: 38_000 },
      { uta: "0,2", montant: 5_200 },
      { uta: 1, montant: null },
    ]);
    expect(taux).toBeCloseTo(43_200 / 1_928.4, 9);
  });

  test("[issue24-labour] no amount recorded gives no rate (listed missing, never a norm)", () => {
    expect(tauxHoraireMainOeuvre([])).toBeNull();
    expect(
      tauxHoraireMainOeuvre([
        { uta: 1, montant: null },
        { uta: "x", montant: 3000 },
        { uta: 0, montant: 100 },
      ]),
    ).toBeNull();
  });
});
