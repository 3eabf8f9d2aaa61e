import { describe, expect, test } from "vitest";
import { GROUPES_INDICATEURS } from "./calc/indicateurs/catalogue";
import { validate } from "./validation";
import { doublonsSeries, ExportResultatsSchema, NATURE_CALCUL, NATURE_DONNEES_BRUTES, nomClasseurResultats, valeursInitialesExport } from "./export-resultats";

const CHAMPS = [
  "libelle",
  "version",
  "prevu",
  "realise",
  "alertes",
  "rendements",
  "donneesBrutes",
  "tcd1",
  "tcd2",
  "parcelle",
  "lot",
  "modeConduite",
  "culture",
  "exploitation",
  "groupes",
  "nature",
  "calculsSeries",
];

describe("export-result form", () => {
  test("[C-REXP-01] the form has the fields of spec 3 §3.15 (and the anglais flag of §7)", () => {
    expect(Object.keys(ExportResultatsSchema.shape).sort()).toEqual([...CHAMPS, "anglais"].sort());
  });

  test("[C-REXP-03] [C-REXP-04] [C-REXP-05] every option ticked, nature 1, version 2, every group by default", () => {
    const v = valeursInitialesExport([4, 5]);
    for (const k of [
      "prevu",
      "realise",
      "alertes",
      "rendements",
      "donneesBrutes",
      "tcd1",
      "tcd2",
      "parcelle",
      "lot",
      "modeConduite",
      "culture",
      "exploitation",
    ] as const)
      expect(v[k]).toBe(true);
    expect(v.nature).toBe(1);
    expect(v.version).toBe(2);
    expect(v.groupes).toEqual([...GROUPES_INDICATEURS]);
    expect(v.calculsSeries).toEqual([4, 5]);
    // The defaults pass the schema.
    expect(validate(ExportResultatsSchema, v).success).toBe(true);
  });

  test("[C-REXP-04] [C-REXP-05] [C-REXP-06] form values: ticked boxes 'on', absent ones false; nature and version default to 1 and 2; nature 0 (raw data) is not a result export", () => {
    const r = validate(ExportResultatsSchema, { prevu: "on", exploitation: "on", groupes: "ift", calculsSeries: ["3", "4"] });
    expect(r.success && r.data).toMatchObject({
      prevu: true,
      realise: false,
      tcd1: false,
      exploitation: true,
      groupes: ["ift"],
      calculsSeries: [3, 4],
      nature: 1,
      version: 2,
      anglais: false,
    });
    expect(NATURE_DONNEES_BRUTES).toBe(0);
    expect(NATURE_CALCUL).toBe(1);
    expect(validate(ExportResultatsSchema, { ...valeursInitialesExport([1]), nature: 0 }).success).toBe(false);
    expect(validate(ExportResultatsSchema, { ...valeursInitialesExport([1]), version: "1" }).success).toBe(true);
    expect(validate(ExportResultatsSchema, { ...valeursInitialesExport([1]), version: "3" }).success).toBe(false);
  });

  test("[C-REXP-07] at least one indicator group is required", () => {
    const r = validate(ExportResultatsSchema, { ...valeursInitialesExport([1]), groupes: [] });
    expect(r.success).toBe(false);
    expect(!r.success && r.fieldErrors.groupes).toEqual(["exportResultats.groupe-requis"]);
    expect(validate(ExportResultatsSchema, { ...valeursInitialesExport([1]), groupes: ["inconnu"] }).success).toBe(false);
  });

  test("[C-REXP-01] at least one series, one level and planned or done", () => {
    const r = validate(ExportResultatsSchema, {
      ...valeursInitialesExport([]),
      prevu: false,
      realise: false,
      parcelle: false,
      lot: false,
      modeConduite: false,
      culture: false,
      exploitation: false,
    });
    expect(!r.success && r.fieldErrors).toMatchObject({
      calculsSeries: ["exportResultats.serie-requise"],
      realise: ["exportResultats.realisation-requise"],
      exploitation: ["exportResultats.niveau-requis"],
    });
  });
});

describe("duplicates and workbook name", () => {
  test("[C-REXP-08] [A-PUB-09] two ticked series of the same farm and campaign label are named; other farms or labels pass", () => {
    const s = (id: number, idExploitation: number, campagne: string) => ({ id, idExploitation, exploitation: `Ferme ${idExploitation}`, campagne });
    expect(doublonsSeries([s(1, 1, "2024"), s(2, 1, "2025"), s(3, 2, "2024")])).toEqual([]);
    expect(doublonsSeries([s(1, 1, "2024"), s(2, 2, "2024"), s(3, 1, "2024"), s(4, 1, "2024")])).toEqual(["Ferme 1 — 2024"]);
  });

  test("[C-REXP-19] the workbook is named with the product prefix, the words export des indicateurs and the date (Paris time)", () => {
    expect(nomClasseurResultats(new Date("2026-11-26T08:00:00Z"))).toBe("Sillon_export_des_indicateurs_2026-11-26.xlsx");
    // 23:30 UTC is already the next day in Paris.
    expect(nomClasseurResultats(new Date("2026-11-26T23:30:00Z"))).toBe("Sillon_export_des_indicateurs_2026-11-27.xlsx");
    expect(nomClasseurResultats(new Date("2026-11-26T08:00:00Z"), true)).toBe("Sillon_indicators_export_2026-11-26.xlsx");
  });
});
