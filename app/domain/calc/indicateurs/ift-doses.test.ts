import { describe, expect, test } from "vitest";
import { intervention, intrant, operation } from "./fixtures";
import { indicateursIft, segmentTraitement } from "./ift";
import { convertirDose, doseParHectare, segmentDeCode } from "./ift-doses";
import type { IntrantPhyto } from "./types";

const phyto = (p: Partial<IntrantPhyto> & Pick<IntrantPhyto, "famille">): IntrantPhyto =>
  intrant<IntrantPhyto>({ type: "phyto", dose: null, unite: null, biocontrole: false, cibles: [], dosesReference: [], ...p });

describe("IFT doses, units and segments (decision 0085)", () => {
  test("[issue24-ift] one conversion: per ha against per hL and back, g and mL, a mass against a volume, a missing spray volume", () => {
    // 1.5 L/ha at 200 L/ha against a per-hL reference: 100 × 1.5 / 200 = 0.75 L/hL.
    expect(convertirDose(1.5, "l/ha", "L/HL", 200)).toEqual({ valeur: 0.75 });
    // 0.2 L/hL at 150 L/ha against a per-ha reference: 0.2 × 150 / 100 = 0.3 L/ha (research §2.3 row 5).
    expect("valeur" in convertirDose(0.2, "l/hl", "L/HA", 150) && convertirDose(0.2, "l/hl", "L/HA", 150)).toEqual({ valeur: expect.closeTo(0.3, 10) });
    // 0.05 kg/hL against KG/HL: same base.
    expect(convertirDose(0.05, "kg/hl", "KG/HL", null)).toEqual({ valeur: 0.05 });
    // 500 g/ha against a reference in KG/HA: 0.5; 2 kg/ha against a reference in G/HA: 2000.
    expect(convertirDose(500, "g/ha", "KG/HA", null)).toEqual({ valeur: 0.5 });
    expect(convertirDose(2, "kg/ha", "G/HA", null)).toEqual({ valeur: 2000 });
    expect(convertirDose(1, "kg/ha", "L/HA", 100)).toEqual({ raison: "unite" });
    expect(convertirDose(1, "l/q", "L/HA", 100)).toEqual({ raison: "unite" });
    expect(convertirDose(1, "l/hl", "L/HA", null)).toEqual({ raison: "volumeBouillie" });
    // Per hectare for costs: 0.2 L/hL × 150 L/ha / 100 = 0.3 l/ha; without a volume, nothing.
    expect(doseParHectare(0.2, "l/hl", 150)).toEqual({ dose: expect.closeTo(0.3, 10), unite: "l/ha" });
    expect(doseParHectare(0.2, "l/hl", null)).toBeNull();
    expect(doseParHectare(2, "l/ha", null)).toEqual({ dose: 2, unite: "l/ha" });
  });

  test("[issue24-ift] the segment is the reference row's; biocontrol from the product or the row; without a row, the category's family", () => {
    expect(segmentDeCode("S4")).toBe("insecticides");
    expect(segmentDeCode("s5")).toBe("fongicides");
    expect(segmentDeCode(null)).toBeNull();
    // A fungicide product (category F) whose row for this crop and target says insecticide counts as insecticide.
    expect(segmentTraitement({ famille: "F", biocontrole: false }, { idCible: 1, dose: 1, unite: "L/HA", segment: "S4" })).toBe("insecticides");
    expect(segmentTraitement({ famille: "F", biocontrole: false }, { idCible: 1, dose: 1, unite: "L/HA", segment: null })).toBe("fongicides");
    expect(segmentTraitement({ famille: "F", biocontrole: false }, null)).toBe("fongicides");
    expect(segmentTraitement({ famille: "F", biocontrole: true }, { idCible: 1, dose: 1, unite: "L/HA", segment: "S4" })).toBe("biocontrole");
    expect(segmentTraitement({ famille: "I", biocontrole: false }, { idCible: 1, dose: 1, unite: "L/HA", biocontrole: true })).toBe("biocontrole");
  });

  test("[issue24-ift] a defaulted term gives less than 100 % and names what fixes it: no reference dose, no spray volume, an unknown unit", () => {
    const pulve = operation({ libelle: "Pulvérisation" });
    const sansDose = phyto({ famille: "H", dose: 1, unite: "l/ha" });
    const sansVolume = phyto({ famille: "F", dose: 0.2, unite: "l/hl", dosesReference: [{ idCible: null, dose: 1, unite: "L/HA" }] });
    const uniteInconnue = phyto({ famille: "F", dose: 1, unite: "kg/ha", dosesReference: [{ idCible: null, dose: 1, unite: "L/HA" }] });
    const complet = phyto({ famille: "F", dose: 0.5, unite: "l/ha", dosesReference: [{ idCible: null, dose: 1, unite: "L/HA" }] });
    const r = indicateursIft([intervention({ operation: pulve, intrants: [sansDose, sansVolume, uniteInconnue, complet] })]);
    const total = r["ift.cible.total"];
    // Four treatments expected, three defaulted (1 each): 1 + 1 + 1 + 0.5 = 3.5; completeness 100 × (4 − 3) / 4 = 25 %.
    expect(total.valeur).toBeCloseTo(3.5, 10);
    expect(total.completude).toBe(25);
    expect(total.manquants).toEqual([
      { objet: "intrant", id: sansDose.id, champ: "doseReference", libelle: sansDose.libelle },
      { objet: "operation", id: pulve.id, champ: "volumeBouillie", libelle: "Pulvérisation" },
      { objet: "intrant", id: uniteInconnue.id, champ: "unite", libelle: uniteInconnue.libelle },
    ]);
    // With the spray volume (150 L/ha) the per-hL term converts: 0.2 × 150 / 100 / 1 = 0.3.
    const avecVolume = indicateursIft([intervention({ operation: pulve, intrants: [{ ...sansVolume, volumeBouillie: 150 }] })])["ift.cible.fongicides"];
    expect(avecVolume.valeur).toBeCloseTo(0.3, 10);
    expect(avecVolume.completude).toBe(100);
  });

  test("[issue24-ift] a dose read from the nearest published list says which year in the explanation", () => {
    const voisin = phyto({ famille: "H", dose: 1, unite: "l/ha", anneeListeIft: 2026, dosesReference: [{ idCible: null, dose: 2, unite: "L/HA" }] });
    const r = indicateursIft([intervention({ intrants: [voisin] })])["ift.culture.herbicides"];
    expect(r.valeur).toBe(0.5);
    expect(r.completude).toBe(100);
    expect(r.explication.remarques).toContain("liste-ift-voisine:2026");
  });
});
