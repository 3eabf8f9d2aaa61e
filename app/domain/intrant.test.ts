import { describe, expect, test } from "vitest";
import {
  AutreSchema,
  ciblesOf,
  compositionKgHa,
  CONVERSION_ERRORS,
  conversionSemence,
  doseEnUniteReference,
  EauSchema,
  FertilisantSchema,
  ORIGINES_INTRANT,
  PhytoSchema,
  SemenceSchema,
  SUM_PERCENTAGE_ERROR,
  TYPE_INTRANT,
  uniteFertilisantParDefaut,
} from "./intrant";
import { TYPE_PROPRIETE } from "./calc/materiel";
import { TYPES_PROPRIETE } from "./parc-materiel";
import { validate } from "./validation";

const errors = (r: ReturnType<typeof validate>) => (r.success ? {} : r.fieldErrors);

describe("seed dialog (spec 3 §5 Seed)", () => {
  const seed = { idCulture: "1", idIntrant: "12", origine: "776", quantite: "180", dicLlUnite: "kg/ha" };
  test("[C-SEED-11] [C-SEED-12] [C-SEED-13] species, variety and dose are required, the dose numeric", () => {
    expect(errors(validate(SemenceSchema, {}))).toMatchObject({
      idCulture: ["warning.required"],
      idIntrant: ["warning.required"],
      quantite: ["warning.required"],
    });
    expect(errors(validate(SemenceSchema, { ...seed, quantite: "beaucoup" }))).toMatchObject({ quantite: ["warning.numeric"] });
  });
  test("[C-SEED-14] [C-SEED-15] shares are numeric; farm-saved plus certified must total 100", () => {
    expect(errors(validate(SemenceSchema, { ...seed, semenceFerme: "x" }))).toMatchObject({ semenceFerme: ["warning.numeric"] });
    expect(errors(validate(SemenceSchema, { ...seed, semenceFerme: "40", semenceCertifiee: "50" }))).toMatchObject({
      semenceCertifiee: [SUM_PERCENTAGE_ERROR],
    });
    expect(validate(SemenceSchema, { ...seed, semenceFerme: "40", semenceCertifiee: "60", semenceOgm: "0" }).success).toBe(true);
  });
  test("[C-SEED-16] [C-SEED-17] a treatment product needs its dose and unit", () => {
    expect(errors(validate(SemenceSchema, { ...seed, idTraitement: "5", origineTraitement: "776" }))).toMatchObject({
      quantiteTraitement: ["warning.required"],
      uniteTraitement: ["warning.required"],
    });
    expect(validate(SemenceSchema, { ...seed, idTraitement: "5", origineTraitement: "776", quantiteTraitement: "0,2", uniteTraitement: "l/ha" }).success).toBe(
      true,
    );
  });
  test("[C-SEED-06] seed units are l/q, kg/q, l/ha, kg/ha", () => {
    for (const u of ["l/q", "kg/q", "l/ha", "kg/ha"]) expect(validate(SemenceSchema, { ...seed, dicLlUnite: u }).success).toBe(true);
    expect(errors(validate(SemenceSchema, { ...seed, dicLlUnite: "t/ha" }))).toMatchObject({ dicLlUnite: ["warning.invalid"] });
  });
});

describe("phyto dialog (spec 3 §5 Phyto)", () => {
  const phyto = { idIntrant: "9", origine: "776", quantite: "1,5", dicLlUnite: "l/ha" };
  test("[C-PHYTO-10] [C-PHYTO-11] [C-PHYTO-12] [C-PHYTO-13] product, dose and unit required; doses numeric", () => {
    expect(errors(validate(PhytoSchema, {}))).toMatchObject({
      idIntrant: ["warning.required"],
      quantite: ["warning.required"],
      dicLlUnite: ["warning.required"],
    });
    expect(errors(validate(PhytoSchema, { ...phyto, doseReference: "abc" }))).toMatchObject({ doseReference: ["warning.numeric"] });
  });
  test("[C-PHYTO-03] [C-PHYTO-04] [C-PHYTO-05] [C-PHYTO-06] units l/ha or kg/ha; up to four distinct targets, the first the main one", () => {
    expect(errors(validate(PhytoSchema, { ...phyto, dicLlUnite: "t/ha" }))).toMatchObject({ dicLlUnite: ["warning.invalid"] });
    expect(errors(validate(PhytoSchema, { ...phyto, cible1: "3", cible2: "3" }))).toMatchObject({ cible2: ["warning.invalid"] });
    const r = validate(PhytoSchema, { ...phyto, cible1: "3", cible3: "8", cible4: "2" });
    expect(r.success && ciblesOf(r.data)).toEqual([3, 8, 2]);
  });
  test("[C-CONST-01] [C-CONST-02] [C-CONST-03] the dose in the reference unit", () => {
    expect(doseEnUniteReference(2, "l/ha", "L/HL", 200)).toBe(1);
    expect(doseEnUniteReference(0.5, "kg/ha", "KG/HL", 100)).toBe(0.5);
    expect(doseEnUniteReference(2, "l/ha", "L/HA", 200)).toBe(2);
    expect(doseEnUniteReference(2, "kg/ha", "L/HL", 200)).toBe(2);
    expect(doseEnUniteReference(2, "l/ha", "L/HL", null)).toBeNull();
    // Per-hectolitre applied doses (decision 0085): 0.2 L/hL at 150 L/ha is 0.2 × 150 / 100 = 0.3 L/ha.
    expect(doseEnUniteReference(0.2, "l/hl", "L/HA", 150)).toBeCloseTo(0.3, 10);
    expect(doseEnUniteReference(0.2, "l/hl", "L/HL", null)).toBe(0.2);
  });
});

describe("fertiliser, water and other inputs", () => {
  test("[C-FERT-13] [C-FERT-14] [C-FERT-15] [C-FERT-16] [C-FERT-17] type, product, dose and unit required; compositions numeric", () => {
    expect(errors(validate(FertilisantSchema, {}))).toMatchObject({
      idCategorie: ["warning.required"],
      idIntrant: ["warning.required"],
      quantite: ["warning.required"],
      dicLlUnite: ["warning.required"],
    });
    expect(
      errors(validate(FertilisantSchema, { idCategorie: "655", idIntrant: "1", origine: "776", quantite: "200", dicLlUnite: "kg/ha", n: "trente" })),
    ).toMatchObject({ n: ["warning.numeric"] });
  });
  test("[C-FERT-07] [C-FERT-11] [C-FERT-12] units l/ha, kg/ha, t/ha; type 657 starts in t/ha, the others in kg/ha", () => {
    expect(validate(FertilisantSchema, { idCategorie: "657", idIntrant: "1", origine: "776", quantite: "30", dicLlUnite: "t/ha" }).success).toBe(true);
    expect(uniteFertilisantParDefaut(657)).toBe("t/ha");
    expect(uniteFertilisantParDefaut(655)).toBe("kg/ha");
  });
  test("[C-CONST-04] [C-CONST-05] composition in kg/ha of the element", () => {
    expect(compositionKgHa(200, 33.5, "kg/ha")).toBe(67);
    expect(compositionKgHa(30, 0.55, "t/ha")).toBe(165);
    expect(compositionKgHa(1, 33.333, "kg/ha")).toBe(0.33);
  });
  test("[C-WATER-03] [C-WATER-04] [C-WATER-05] water: type and quantity required, numeric, in mm", () => {
    expect(errors(validate(EauSchema, {}))).toMatchObject({ idCategorie: ["warning.required"], quantite: ["warning.required"] });
    expect(errors(validate(EauSchema, { idCategorie: "5421", quantite: "x", dicLlUnite: "mm" }))).toMatchObject({ quantite: ["warning.numeric"] });
    expect(errors(validate(EauSchema, { idCategorie: "5421", quantite: "30", dicLlUnite: "l/ha" }))).toMatchObject({ dicLlUnite: ["warning.invalid"] });
  });
  test("[C-OTHER-03] [C-OTHER-04] [C-OTHER-05] other input: name and quantity required, numeric, unit 'autre'", () => {
    expect(errors(validate(AutreSchema, { idCategorie: "5431", dicLlUnite: "autre" }))).toMatchObject({
      libelle: ["warning.required"],
      quantite: ["warning.required"],
    });
    expect(validate(AutreSchema, { idCategorie: "5431", libelle: "Ficelle", quantite: "2", dicLlUnite: "autre" }).success).toBe(true);
  });
});

describe("seed conversion (spec 3 §9)", () => {
  test("[C-CONST-06] [C-CONST-07] [C-CONST-08] [C-SEED-20] Grains/m2, Grains/ha and Dose/ha to 3 decimals", () => {
    expect(conversionSemence("grains-m2", { densite: 250, pmg: 45 })).toEqual({ ok: true, value: 112.5 });
    expect(conversionSemence("grains-ha", { densite: 250, pmg: 45 })).toEqual({ ok: true, value: 0.011 });
    expect(conversionSemence("dose-ha", { densite: 250, pmg: 45, doseGrains: 10000 })).toEqual({ ok: true, value: 112.5 });
  });
  test("[C-SEED-21] [C-SEED-22] the messages of a missing density, TGW or grain dose", () => {
    expect(conversionSemence("grains-m2", { densite: 250 })).toEqual({ ok: false, error: CONVERSION_ERRORS.densitePmg });
    expect(conversionSemence("dose-ha", { densite: 250, pmg: 45 })).toEqual({ ok: false, error: CONVERSION_ERRORS.dose });
  });
});

describe("fixed ids of input types, origins and ownership (spec 1 §9)", () => {
  test("[A-CONST-13] [A-CONST-14] the input type referentials are 537 to 543: 538 seed, 539 phyto, 540 fertiliser, 542 water, 543 other", () => {
    expect(TYPE_INTRANT).toEqual({ SEMENCE: 538, PHYTO: 539, FERTILISANT: 540, EAU: 542, AUTRE: 543 });
    expect(Object.values(TYPE_INTRANT).every((id) => id >= 537 && id <= 543)).toBe(true);
  });

  test("[A-CONST-15] an input's origin is 773, 776 or 777; any other is refused by every input form", () => {
    expect([...ORIGINES_INTRANT].sort()).toEqual([773, 776, 777]);
    const phyto = { idIntrant: "9", quantite: "1,5", dicLlUnite: "l/ha" };
    for (const origine of ["773", "776", "777"]) expect(validate(PhytoSchema, { ...phyto, origine }).success).toBe(true);
    for (const origine of ["774", "775", "778"]) expect(errors(validate(PhytoSchema, { ...phyto, origine }))).toMatchObject({ origine: ["warning.invalid"] });
  });

  test("[A-CONST-16] ownership codes are 0 owned, 1 contractor (ETA), 2 cooperative (CUMA), the only ones the equipment form offers", () => {
    expect(TYPE_PROPRIETE).toEqual({ PROPRE: 0, ETA: 1, CUMA: 2 });
    expect([...TYPES_PROPRIETE]).toEqual([0, 1, 2]);
  });
});
