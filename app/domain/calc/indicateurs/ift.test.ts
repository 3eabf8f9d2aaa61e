import { describe, expect, test } from "vitest";
import { contexte } from "./contexte";
import { doseReferenceCulture, iftTraitement, indicateursIft, rapportDose } from "./ift";
import type { IntrantPhyto, InterventionCampagne } from "./types";

/*
 * The worked example of research §2.3 (blé tendre, plot 10 ha, campaign 2024), built as interventions:
 *  #1 treated seed, whole plot                         IFT 1 × 10/10                = 1.00  TS
 *  #2 herbicide A 1.5 L/ha, ref 3.0 L/ha at target, 8 ha  1.5/3 × 8/10             = 0.40  H
 *  #3 tank mix: fongicide B 0.5/1.0 and C 0.4/0.8         0.50 + 0.50               = 1.00  F
 *  #4 insecticide D 0.05 L/ha, no target, min of target doses 0.075   0.05/0.075    = 0.67  I
 *  #5 régulateur E 0.2 L/hL at 150 L/ha, ref 0.6 L/ha     0.2 × 150 / 0.6 × 0.01   = 0.50  A
 *  #6 biocontrôle F 1 kg/ha, ref 2 kg/ha                  1/2                       = 0.50  biocontrôle
 *  #7 product without reference dose on 5 ha, "autres"   1 × 5/10                  = 0.50  A
 * Plot: H 0.40; F 1.00; I 0.67; A 1.00; TS 1.00; biocontrôle 0.50; chimique hors TS 3.07;
 * chimique (with TS) 4.07; total (six segments) 4.57.
 */

let id = 0;
const phyto = (p: Partial<IntrantPhyto> & Pick<IntrantPhyto, "famille">): IntrantPhyto => ({
  type: "phyto",
  id: ++id,
  libelle: `Produit ${id}`,
  dose: null,
  unite: null,
  biocontrole: false,
  cibles: [],
  dosesReference: [],
  ...p,
});
const intervention = (tauxSurface: number, intrants: IntrantPhyto[], date = "2024-03-15"): InterventionCampagne => ({
  id: ++id,
  idParcelle: 1,
  date,
  realisee: true,
  prevue: false,
  frequence: 1,
  tauxSurface,
  operation: null,
  intrants,
  recoltes: [],
});

export const exempleIft = (): InterventionCampagne[] => [
  intervention(1, [phyto({ famille: "TS", libelle: "Semences traitées" })], "2023-10-10"),
  intervention(0.8, [
    phyto({
      famille: "H",
      dose: 1.5,
      unite: "l/ha",
      cibles: [1],
      dosesReference: [
        { idCible: 1, dose: 3, unite: "L/HA" },
        { idCible: 2, dose: 2, unite: "L/HA" },
      ],
    }),
  ]),
  intervention(1, [
    phyto({ famille: "F", dose: 0.5, unite: "l/ha", cibles: [10], dosesReference: [{ idCible: 10, dose: 1, unite: "L/HA" }] }),
    phyto({ famille: "F", dose: 0.4, unite: "l/ha", cibles: [10], dosesReference: [{ idCible: 10, dose: 0.8, unite: "L/HA" }] }),
  ]),
  intervention(1, [
    phyto({
      famille: "I",
      dose: 0.05,
      unite: "l/ha",
      dosesReference: [
        { idCible: 51, dose: 0.1, unite: "L/HA" },
        { idCible: 52, dose: 0.075, unite: "L/HA" },
      ],
    }),
  ]),
  intervention(1, [
    phyto({ famille: "A", dose: 0.2, unite: "l/hl", volumeBouillie: 150, cibles: [60], dosesReference: [{ idCible: 60, dose: 0.6, unite: "L/HA" }] }),
  ]),
  intervention(1, [
    phyto({
      famille: "F",
      biocontrole: true,
      dose: 1,
      unite: "kg/ha",
      cibles: [11],
      dosesReference: [{ idCible: 11, dose: 2, unite: "KG/HA", biocontrole: true }],
    }),
  ]),
  intervention(0.5, [phyto({ famille: "A", libelle: "Adjuvant", dose: 1, unite: "l/ha" })]),
];

const r2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);

describe("IFT, official method (research §2)", () => {
  test("the worked example of research §2.3 to 2 decimals, per segment and in total", () => {
    const ift = indicateursIft(exempleIft(), contexte());
    const v = (code: string) => r2(ift[`ift.cible.${code}`].valeur);
    expect(v("herbicides")).toBe(0.4);
    expect(v("fongicides")).toBe(1);
    expect(v("insecticides")).toBe(0.67);
    expect(v("autres")).toBe(1);
    expect(v("semences")).toBe(1);
    expect(v("biocontrole")).toBe(0.5);
    expect(v("chimiqueHorsTS")).toBe(3.07);
    expect(v("chimique")).toBe(4.07);
    expect(v("total")).toBe(4.57);
    // Hors herbicides = F + I + A = 1.00 + 0.67 + 1.00 (TS left out by default, decision 0045).
    expect(v("horsHerbicides")).toBe(2.67);
  });

  test("the treatment without reference dose lowers completeness and is listed as missing; AV2 noted for the dose at the crop", () => {
    const ift = indicateursIft(exempleIft(), contexte());
    const autres = ift["ift.cible.autres"];
    // Two "autres" treatments expected, one without a reference dose: 50 %.
    expect(autres.completude).toBe(50);
    expect(autres.manquants).toEqual([expect.objectContaining({ objet: "intrant", champ: "doseReference", libelle: "Adjuvant" })]);
    expect(ift["ift.cible.insecticides"].explication.remarques).toContain("AV2");
    // Total: 8 treatments (the tank mix counts two), one missing → 87.5 %.
    expect(ift["ift.cible.total"].completude).toBe(87.5);
    expect(ift["ift.cible.total"].explication.formule).toBe("7.3");
    expect(ift["ift.cible.total"].explication.entrees).toHaveLength(8);
    // Each entry names its input and the intervention it came from.
    const [, herbicide] = exempleIft();
    const h = indicateursIft([herbicide], contexte())["ift.cible.herbicides"].explication.entrees[0];
    expect(h).toMatchObject({ objet: "intrant", id: herbicide.intrants[0].id, idIntervention: herbicide.id, date: "2024-03-15", contribution: 0.4 });
  });

  test("at the crop the herbicide takes the smallest dose of the product for the crop (2 L/ha): 1.5/2 × 0.8 = 0.60", () => {
    const ift = indicateursIft(exempleIft(), contexte());
    expect(r2(ift["ift.culture.herbicides"].valeur)).toBe(0.6);
    expect(r2(ift["ift.culture.fongicides"].valeur)).toBe(1);
  });

  test("unit conversions and fall-backs of the official calc (AV3, AV4, AV12)", () => {
    // 1.5 L/ha at 200 L/ha of spray against 0.5 L/hL: 1.5 / 200 × 100 / 0.5 = 1.5
    expect(rapportDose(1.5, "l/ha", { idCible: 1, dose: 0.5, unite: "L/HL" }, 200)).toEqual({ rapport: 1.5 });
    expect(rapportDose(1.5, "l/ha", { idCible: 1, dose: 0.5, unite: "L/HL" }, null)).toEqual({ avertissement: "AV4", manque: "volumeBouillie" });
    expect(rapportDose(500, "g/ha", { idCible: 1, dose: 1, unite: "KG/HA" }, null)).toEqual({ rapport: 0.5 });
    expect(rapportDose(1, "kg/ha", { idCible: 1, dose: 1, unite: "L/HA" }, null)).toEqual({ avertissement: "AV4", manque: "unite" });
    expect(rapportDose(null, "l/ha", { idCible: 1, dose: 1, unite: "L/HA" }, null)).toEqual({ avertissement: "AV3" });
    expect(rapportDose(1, "l/ha", { idCible: 1, dose: null, unite: "U0" }, null)).toEqual({ avertissement: "AV12" });
    expect(
      doseReferenceCulture({
        dosesReference: [
          { idCible: null, dose: 4, unite: "L/HA" },
          { idCible: 3, dose: 1, unite: "L/HA" },
        ],
      })?.dose,
    ).toBe(4);
  });

  test("a category with no IFT family (rodenticide…) is not counted; a product without dose falls back to 1 × proportion", () => {
    expect(iftTraitement(phyto({ famille: null }), 1)).toBeNull();
    expect(iftTraitement(phyto({ famille: "H", dosesReference: [{ idCible: null, dose: 2, unite: "L/HA" }] }), 0.5)).toMatchObject({
      ift: 0.5,
      avertissement: "AV3",
    });
  });

  test("split passes: frequency 2 counts twice; planned-only interventions are left out of the actual IFT", () => {
    const h = () => phyto({ famille: "H", dose: 1, unite: "l/ha", dosesReference: [{ idCible: null, dose: 2, unite: "L/HA" }] });
    const deux = { ...intervention(1, [h()]), frequence: 2 };
    const prevue = { ...intervention(1, [h()]), realisee: false, prevue: true };
    const ift = indicateursIft([deux, prevue], contexte());
    expect(ift["ift.cible.herbicides"].valeur).toBe(1);
    expect(indicateursIft([deux, prevue], contexte(null, { realisation: "prevue" }))["ift.cible.herbicides"].valeur).toBe(0.5);
  });
});
