import { describe, expect, test } from "vitest";
import {
  ADMIN_FIELDS,
  CaracteristiquesAdminSchema,
  caracteristiquesSchema,
  CaracteristiquesSchema,
  CHARGES_DIVERSES_PAR_EXPLOITATION,
  CHARGES_DIVERSES_PAR_HA,
  chargesDiversesEffectives,
  COMMON_FIELDS,
  FERMAGE_MOYEN_DEFAUT,
  fermageMoyenEffectif,
} from "./caracteristiques-economiques";
import { validate } from "./validation";

const ADMIN_OK = {
  longTermeTaux: "3,5",
  longTermeDuree: "12",
  longTermeIvan: "40",
  courtTermeTaux: "4",
  courtTermeDuree: "1",
  remunerationCapitauxPropreTaux: "2",
  remunerationCapitauxPropreIvan: "50",
};
const fieldErrors = (input: Record<string, unknown>, admin = true) => {
  const r = validate(caracteristiquesSchema(admin), input);
  return r.success ? {} : r.fieldErrors;
};

describe("economic characteristics schema", () => {
  test("[B-ECO-01] the form carries the campaign's figures (the norms are calculated, campagne and anneeprix set by the server)", () => {
    expect([...COMMON_FIELDS].sort()).toEqual([
      "aidesDecouplees",
      "chargesDiverses",
      "chargesMainOeuvreFamiliale",
      "chargesMainOeuvreSalarialeOccasionnel",
      "chargesMainOeuvreSalarialePermanente",
      "cotisationMsa",
      "courtTermeSomme",
      "fermageMoyen",
      "prixFioul",
      "remarqueAnnuelle",
    ]);
    expect([...ADMIN_FIELDS].sort()).toEqual([
      "courtTermeDuree",
      "courtTermeTaux",
      "longTermeDuree",
      "longTermeIvan",
      "longTermeTaux",
      "remunerationCapitauxPropreIvan",
      "remunerationCapitauxPropreTaux",
    ]);
  });

  test("[B-ECO-06] every economic field is numeric", () => {
    const bad = Object.fromEntries([...COMMON_FIELDS.filter((f) => f !== "remarqueAnnuelle"), ...ADMIN_FIELDS].map((f) => [f, "douze"]));
    const errors = fieldErrors(bad);
    for (const f of Object.keys(bad)) expect(errors[f], f).toEqual(["warning.numeric"]);
    expect(fieldErrors({ ...ADMIN_OK, cotisationMsa: "1 234,50", prixFioul: "0.82" })).toEqual({});
    expect(validate(CaracteristiquesAdminSchema, { ...ADMIN_OK, cotisationMsa: "1 234,50" })).toMatchObject({
      success: true,
      data: { cotisationMsa: 1234.5, longTermeTaux: 3.5 },
    });
  });

  test("[B-ECO-07] [B-ECO-09] [B-ECO-10] [B-ECO-12] [B-ECO-13] [B-CONST-04] rates and replacement values are required and within 0–100", () => {
    for (const f of ["longTermeTaux", "longTermeIvan", "courtTermeTaux", "remunerationCapitauxPropreTaux", "remunerationCapitauxPropreIvan"]) {
      expect(fieldErrors({ ...ADMIN_OK, [f]: "" })[f], `${f} empty`).toEqual(["warning.required"]);
      expect(fieldErrors({ ...ADMIN_OK, [f]: "101" })[f], `${f} 101`).toEqual(["warning.minmax"]);
      expect(fieldErrors({ ...ADMIN_OK, [f]: "-0,5" })[f], `${f} -0.5`).toEqual(["warning.minmax"]);
      expect(fieldErrors({ ...ADMIN_OK, [f]: "0" })[f], `${f} 0`).toBeUndefined();
      expect(fieldErrors({ ...ADMIN_OK, [f]: "100" })[f], `${f} 100`).toBeUndefined();
      expect(fieldErrors({ ...ADMIN_OK, [f]: "2,75" })[f], `${f} 2.75`).toBeUndefined();
    }
  });

  test("[B-ECO-08] the long-term duration is required, 1–20 years", () => {
    expect(fieldErrors({ ...ADMIN_OK, longTermeDuree: "" })).toEqual({ longTermeDuree: ["warning.required"] });
    expect(fieldErrors({ ...ADMIN_OK, longTermeDuree: "0" })).toEqual({ longTermeDuree: ["warning.minmax"] });
    expect(fieldErrors({ ...ADMIN_OK, longTermeDuree: "21" })).toEqual({ longTermeDuree: ["warning.minmax"] });
    expect(fieldErrors({ ...ADMIN_OK, longTermeDuree: "1" })).toEqual({});
    expect(fieldErrors({ ...ADMIN_OK, longTermeDuree: "20" })).toEqual({});
  });

  test("[B-ECO-11] the short-term duration is required and numeric", () => {
    expect(fieldErrors({ ...ADMIN_OK, courtTermeDuree: "" })).toEqual({ courtTermeDuree: ["warning.required"] });
    expect(fieldErrors({ ...ADMIN_OK, courtTermeDuree: "un an" })).toEqual({ courtTermeDuree: ["warning.numeric"] });
    expect(fieldErrors({ ...ADMIN_OK, courtTermeDuree: "0,5" })).toEqual({});
  });

  test("[B-ECO-04] [B-ECO-05] for non-administrators the admin-only fields are neither required nor kept", () => {
    expect(caracteristiquesSchema(false)).toBe(CaracteristiquesSchema);
    expect(fieldErrors({}, false)).toEqual({});
    const r = validate(caracteristiquesSchema(false), { cotisationMsa: "10", longTermeTaux: "500", longTermeDuree: "99" });
    expect(r).toEqual({ success: true, data: { cotisationMsa: 10 } });
    // The same empty form is refused for an administrator: the admin-only fields are required.
    expect(Object.keys(fieldErrors({}, true)).sort()).toEqual([...ADMIN_FIELDS].sort());
  });

  test("[B-CONST-05] when empty, diverse costs are 4,600 € per farm plus 45 € per ha", () => {
    expect(CHARGES_DIVERSES_PAR_EXPLOITATION).toBe(4600);
    expect(CHARGES_DIVERSES_PAR_HA).toBe(45);
    expect(chargesDiversesEffectives(null, 100)).toBe(9100);
    expect(chargesDiversesEffectives(undefined, 0)).toBe(4600);
    expect(chargesDiversesEffectives(12_000, 100)).toBe(12_000);
    expect(chargesDiversesEffectives(0, 100)).toBe(0);
    expect(chargesDiversesEffectives(null, null)).toBeNull();
  });

  test("[B-CONST-06] when empty, the land rent is 100 € per ha", () => {
    expect(FERMAGE_MOYEN_DEFAUT).toBe(100);
    expect(fermageMoyenEffectif(null)).toBe(100);
    expect(fermageMoyenEffectif(undefined)).toBe(100);
    expect(fermageMoyenEffectif(180)).toBe(180);
    expect(fermageMoyenEffectif(0)).toBe(0);
  });
});
