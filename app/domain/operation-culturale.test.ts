import { describe, expect, test } from "vitest";
import { UNITES_OPERATION } from "./calc/operation";
import {
  OperationCulturaleSchema,
  appliesToType,
  irrigationFlowFromTowed,
  newOperationDefaults,
  requiredActualErrors,
  resetsOnTypeChange,
  towedChoices,
  tractorChoices,
  workforceAfterSwitch,
} from "./operation-culturale";

/** The field errors of a form input, one message per field. */
const errors = (input: Record<string, unknown>) => {
  const r = OperationCulturaleSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

/** A valid form: type and name, and calculated values for the work rate and the fuel use. */
const ok = { idTypeAction: "1", libelle: "Labour", debitCalcule: "1.2", consoCarburantCalculee: "20.59" };

describe("the cultural operation form (spec 2 §5)", () => {
  test("[B-OPS-27] type and name are required", () => {
    expect(errors({ debitCalcule: "1", consoCarburantCalculee: "1" })).toEqual({ idTypeAction: "warning.required", libelle: "warning.required" });
    expect(errors({ ...ok, libelle: "   " })).toEqual({ libelle: "warning.required" });
    expect(errors(ok)).toEqual({});
  });

  test("[B-OPS-28] [B-OPS-29] [B-OPS-30] the actual work rate is numeric, not zero, and required only without a calculated rate", () => {
    expect(errors({ ...ok, debitReel: "vite" })).toEqual({ debitReel: "warning.numeric" });
    expect(errors({ ...ok, debitReel: "0" })).toEqual({ debitReel: "warning.not-zero" });
    expect(errors({ ...ok, debitReel: "0,8" })).toEqual({});
    expect(errors({ ...ok, debitCalcule: "" })).toEqual({ debitReel: "warning.required" });
    expect(errors({ ...ok, debitCalcule: "", debitReel: "1,5" })).toEqual({});
    // A non-numeric value says so, not "required".
    expect(errors({ ...ok, debitCalcule: "", debitReel: "x" })).toEqual({ debitReel: "warning.numeric" });
  });

  test("[B-OPS-31] [B-OPS-32] the actual fuel use is numeric and required only without a calculated value", () => {
    expect(errors({ ...ok, consoCarburantReelle: "beaucoup" })).toEqual({ consoCarburantReelle: "warning.numeric" });
    expect(errors({ ...ok, consoCarburantCalculee: "" })).toEqual({ consoCarburantReelle: "warning.required" });
    expect(errors({ ...ok, consoCarburantCalculee: "", consoCarburantReelle: "0" })).toEqual({});
    expect(errors({ ...ok, consoCarburantReelle: "18,5" })).toEqual({});
  });

  test("[B-OPS-33] [B-OPS-34] [B-OPS-35] [B-OPS-36] irrigation flow numeric and not zero; spray volume and share of surface numeric", () => {
    expect(errors({ ...ok, debitIrrigation: "fort" })).toEqual({ debitIrrigation: "warning.numeric" });
    expect(errors({ ...ok, debitIrrigation: "0" })).toEqual({ debitIrrigation: "warning.not-zero" });
    expect(errors({ ...ok, debitIrrigation: "45,5" })).toEqual({});
    expect(errors({ ...ok, volumeBouillie: "mille" })).toEqual({ volumeBouillie: "warning.numeric" });
    expect(errors({ ...ok, proportionSurfaceTravaillee: "moitié" })).toEqual({ proportionSurfaceTravaillee: "warning.numeric" });
    expect(errors({ ...ok, volumeBouillie: "150", proportionSurfaceTravaillee: "50" })).toEqual({});
    // Typed in percent, kept as a share.
    expect(OperationCulturaleSchema.parse({ ...ok, proportionSurfaceTravaillee: "33,33" }).proportionSurfaceTravaillee).toBe(0.3333);
    expect(OperationCulturaleSchema.parse({ ...ok, proportionSurfaceTravaillee: "100" }).proportionSurfaceTravaillee).toBe(1);
  });

  test("bounds the spec leaves open (D-OC-1): no negative figures, a share of surface from 0 to 100 %", () => {
    expect(errors({ ...ok, debitReel: "-1" })).toEqual({ debitReel: "warning.minmax" });
    expect(errors({ ...ok, consoCarburantReelle: "-3" })).toEqual({ consoCarburantReelle: "warning.minmax" });
    expect(errors({ ...ok, proportionSurfaceTravaillee: "150" })).toEqual({ proportionSurfaceTravaillee: "warning.minmax" });
    expect(errors({ ...ok, libelle: "x".repeat(256) })).toEqual({ libelle: "warning.max-characters" });
  });

  test("[B-OPS-06] [B-OPS-26] the switch and the propagation answer are booleans; the multiple choices lists of ids", () => {
    const r = OperationCulturaleSchema.parse({ ...ok, eta: "on", repercutAction: "true", materielTractes: ["3", "4"], mainOeuvre: "7" });
    expect(r).toMatchObject({ eta: true, repercutAction: true, materielTractes: [3, 4], mainOeuvre: [7], idTypeAction: 1, debitCalcule: 1.2 });
    expect(OperationCulturaleSchema.parse(ok)).toMatchObject({ eta: false, repercutAction: false, materielTractes: [], mainOeuvre: [] });
    expect(errors({ ...ok, materielTractes: ["abc"] })).toEqual({ materielTractes: "warning.numeric" });
  });

  test("requiredActualErrors is the rule the server applies again after recomputing the reference values", () => {
    expect(requiredActualErrors({ debitCalcule: 1.2, consoCarburantCalculee: 20 })).toEqual({});
    expect(requiredActualErrors({})).toEqual({ debitReel: ["warning.required"], consoCarburantReelle: ["warning.required"] });
    expect(requiredActualErrors({ debitReel: 1, consoCarburantReelle: 0 })).toEqual({});
  });
});

describe("the cultural operation form rules (spec 2 §4, §9)", () => {
  test("[B-OPS-11] a new operation starts with share 1, spray volume 1000 L/ha and depth 0, own workforce", () => {
    expect(newOperationDefaults()).toEqual({ proportionSurfaceTravaillee: 1, volumeBouillie: 1000, profondeurTravail: 0, eta: false });
  });

  test("[B-OPS-13] changing the type resets depth to 0, irrigation flow to null and spray volume to 1000", () => {
    expect(resetsOnTypeChange()).toEqual({ profondeurTravail: 0, debitIrrigation: null, volumeBouillie: 1000 });
  });

  test("[B-OPS-14] switching the workforce flag clears the workforce list", () => {
    expect(workforceAfterSwitch()).toEqual([]);
  });

  test("[B-OPS-15] on an irrigation type, the first chosen towed item's flow becomes the irrigation flow", () => {
    const irrigation = { id: 14, debitIrrigation: true };
    const enrouleur = { id: 5, debit: 45, idCategorieMateriel: 18 };
    const pivot = { id: 6, debit: 120, idCategorieMateriel: 18 };
    expect(irrigationFlowFromTowed(irrigation, [enrouleur, pivot])).toBe(45);
    expect(irrigationFlowFromTowed(irrigation, [{ id: 7, debit: null }])).toBeNull();
    expect(irrigationFlowFromTowed(irrigation, [])).toBeUndefined();
    expect(irrigationFlowFromTowed({ id: 1, profondeurTravail: true }, [enrouleur])).toBeUndefined();
  });

  test("[B-OPS-16] the tractor list offers machines with power above 0; the towed list the others but traction machines (D-OC-3)", () => {
    const tracteur = { id: 1, puissance: 150, idCategorieMateriel: 1 };
    const automoteur = { id: 2, puissance: 300, idCategorieMateriel: 12 };
    const charrue = { id: 3, puissance: null, idCategorieMateriel: 3 };
    const sansPuissance = { id: 4, puissance: 0, idCategorieMateriel: 1 };
    const machines = [tracteur, automoteur, charrue, sansPuissance];
    expect(tractorChoices(machines).map((m) => m.id)).toEqual([1, 2]);
    expect(towedChoices(machines, 2).map((m) => m.id)).toEqual([3]);
    expect(towedChoices(machines, 1).map((m) => m.id)).toEqual([2, 3]);
  });

  test("D-OC-2: the type's flags decide which of depth, irrigation flow and spray volume apply", () => {
    expect(appliesToType({ id: 1, profondeurTravail: true })).toEqual({ profondeurTravail: true, debitIrrigation: false, volumeBouillie: false });
    expect(appliesToType({ id: 14, debitIrrigation: true })).toEqual({ profondeurTravail: false, debitIrrigation: true, volumeBouillie: false });
    expect(appliesToType({ id: 11, volumeBouillie: true })).toEqual({ profondeurTravail: false, debitIrrigation: false, volumeBouillie: true });
    expect(appliesToType(null)).toEqual({ profondeurTravail: false, debitIrrigation: false, volumeBouillie: false });
  });

  test("[B-CONST-07] the units shown with the operation figures", () => {
    expect(UNITES_OPERATION).toMatchObject({
      debit: "ha/h",
      carburant: "L/ha",
      debitIrrigation: "m3/h",
      volumeBouillie: "L/ha",
      charges: "€/ha",
      energie: "MJ/ha",
      ges: "kg CO2-eq/ha",
    });
  });
});
