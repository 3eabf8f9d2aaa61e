import { describe, expect, test } from "vitest";
import { debitDiffere, debitParDefaut, InterventionSchema, marqueur, nombrePassages, NOUVELLE_INTERVENTION } from "./intervention";
import { validate } from "./validation";

const base = { idParcelle: "3", date: "14/03/2026", idOperationCulturale: "7", frequence: "1", tauxSurface: "0,5" };

describe("the intervention schema (spec 3 §5)", () => {
  test("[C-FORM-42] [C-FORM-43] [C-FORM-44] [C-FORM-45] date, operation, surface rate and frequency are required", () => {
    const r = validate(InterventionSchema, {});
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.fieldErrors.date).toEqual(["warning.required"]);
    expect(r.fieldErrors.idOperationCulturale).toEqual(["warning.required"]);
    expect(r.fieldErrors.frequence).toEqual(["warning.required"]);
    expect(r.fieldErrors.tauxSurface).toEqual(["warning.required"]);
  });
  test("[C-FORM-42] a date that does not exist is refused; dd/mm/yyyy becomes yyyy-mm-dd", () => {
    const bad = validate(InterventionSchema, { ...base, date: "31/02/2026" });
    expect(bad.success ? null : bad.fieldErrors.date).toEqual(["warning.date"]);
    const good = validate(InterventionSchema, base);
    expect(good.success && good.data.date).toBe("2026-03-14");
  });
  test("[C-FORM-44] [C-FORM-45] [C-FORM-46] surface rate, frequency and work rate are numeric; French decimals accepted", () => {
    const r = validate(InterventionSchema, { ...base, frequence: "deux", tauxSurface: "x", debit: "1e3" });
    expect(r.success ? null : r.fieldErrors).toMatchObject({ frequence: ["warning.numeric"], tauxSurface: ["warning.numeric"], debit: ["warning.numeric"] });
    const ok = validate(InterventionSchema, { ...base, debit: "2,75" });
    expect(ok.success && ok.data).toMatchObject({ tauxSurface: 0.5, debit: 2.75, realisee: false, prevue: false });
  });
});

describe("number of passes (spec 3 §3.1)", () => {
  test("[C-FORM-14] frequency × surface rate when both are set and non-zero", () => {
    expect(nombrePassages(2, 0.5)).toBe(1);
    expect(nombrePassages(3, 0.3)).toBe(0.9);
  });
  test("[C-FORM-15] otherwise whichever one is set", () => {
    expect(nombrePassages(2, 0)).toBe(2);
    expect(nombrePassages(null, 0.4)).toBe(0.4);
  });
  test("[C-FORM-16] empty when neither is", () => {
    expect(nombrePassages(0, null)).toBeNull();
    expect(nombrePassages(undefined, undefined)).toBeNull();
  });
});

describe("marker, defaults and work rate", () => {
  test("[C-INT-07] the planned/done marker is P, R or P/R", () => {
    expect(marqueur(false, true)).toBe("P");
    expect(marqueur(true, false)).toBe("R");
    expect(marqueur(true, true)).toBe("P/R");
  });
  test("[C-FORM-25] [C-FORM-26] [C-FORM-27] a new intervention: frequency 1, surface rate 1, done", () => {
    expect(NOUVELLE_INTERVENTION).toMatchObject({ frequence: 1, tauxSurface: 1, realisee: true });
  });
  test("[C-FORM-10] [C-FORM-11] the work rate defaults to the operation's actual rate, else its calculated one", () => {
    expect(debitParDefaut({ debitReel: 4, debitCalcule: 3.2 })).toBe(4);
    expect(debitParDefaut({ debitReel: null, debitCalcule: 3.2 })).toBe(3.2);
    expect(debitParDefaut(null)).toBeNull();
  });
  test("[C-FORM-09] the warning shows only after an operation change when the rates differ", () => {
    expect(debitDiffere(true, 3, 4)).toBe(true);
    expect(debitDiffere(true, 4, 4)).toBe(false);
    expect(debitDiffere(false, 3, 4)).toBe(false);
  });
});
