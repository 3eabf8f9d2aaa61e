import { describe, expect, test } from "vitest";
import { contexte } from "./contexte";
import { indicateursBilanAzote, indicateursFertilisation, produitKgHa } from "./fertilisation";
import { intervention, intrant, recolte } from "./fixtures";
import type { IntrantFertilisant } from "./types";

/*
 * Hand-computed (research §7; spec 3 §9: kg/ha = dose × % / 100, × 1000 for t/ha):
 *  ammonitrate 33.5 % N, 300 kg/ha, whole plot           N mineral = 300 × 0.335       = 100.5 kg/ha
 *  manure 20 t/ha, N 0.6 %, P2O5 0.3 %, K2O 0.8 %, on half the plot (surface rate 0.5)
 *      N organic = 20 000 × 0.006 × 0.5 = 60; P2O5 = 30; K2O = 80 kg/ha
 *  wheat harvest 8 t/ha × 19 kg N/t (1.9 kg N/q)          N exported = 152 kg/ha
 *  balance = 100.5 + 60 − 152 = 8.5 kg N/ha; efficiency = 152 / 160.5 = 0.947
 */
const ferti = (f: Partial<IntrantFertilisant>): IntrantFertilisant =>
  intrant<IntrantFertilisant>({ type: "fertilisant", nature: "mineral", dose: null, unite: "kg/ha", composition: null, ...f });

const interventions = () => [
  intervention({ intrants: [ferti({ libelle: "Ammonitrate 33.5", dose: 300, composition: { n: 33.5 } })] }),
  intervention({
    tauxSurface: 0.5,
    intrants: [ferti({ libelle: "Fumier", nature: "organique", dose: 20, unite: "t/ha", composition: { n: 0.6, p2o5: 0.3, k2o: 0.8 } })],
  }),
  intervention({ date: "2024-07-20", recoltes: [recolte({ libelle: "Blé grain", rendement: 8, teneurAzote: 19 })] }),
];

describe("Fertilisation and N balance (research §7)", () => {
  test("mineral and organic N, P2O5, K2O applied, kg/ha", () => {
    const f = indicateursFertilisation(interventions(), contexte());
    expect(f["fertilisation.n.mineral"].valeur).toBeCloseTo(100.5, 6);
    expect(f["fertilisation.n.organique"].valeur).toBeCloseTo(60, 6);
    expect(f["fertilisation.n.total"].valeur).toBeCloseTo(160.5, 6);
    expect(f["fertilisation.p2o5.organique"].valeur).toBeCloseTo(30, 6);
    expect(f["fertilisation.k2o.total"].valeur).toBeCloseTo(80, 6);
    expect(f["fertilisation.n.total"].completude).toBe(100);
    expect(f["fertilisation.n.total"].explication.entrees.map((e) => e.libelle)).toEqual(["Ammonitrate 33.5", "Fumier"]);
  });

  test("N balance = inputs − exported; efficiency = exported / inputs", () => {
    const f = indicateursFertilisation(interventions(), contexte());
    const b = indicateursBilanAzote(interventions(), { id: 1, libelle: "P1", fixationAzote: null }, f, contexte());
    expect(b["bilanAzote.exporte"].valeur).toBeCloseTo(152, 6);
    expect(b["bilanAzote.apports"].valeur).toBeCloseTo(160.5, 6);
    expect(b["bilanAzote.solde"].valeur).toBeCloseTo(8.5, 6);
    expect(b["bilanAzote.efficience"].valeur).toBeCloseTo(152 / 160.5, 6);
  });

  test("a harvest without N content or a fertiliser without composition is listed as missing", () => {
    const liste = [
      intervention({ intrants: [ferti({ libelle: "Engrais inconnu", dose: 200 })] }),
      intervention({ recoltes: [recolte({ libelle: "Blé", rendement: 8 })] }),
    ];
    const f = indicateursFertilisation(liste, contexte());
    expect(f["fertilisation.n.mineral"].completude).toBe(0);
    expect(f["fertilisation.n.mineral"].manquants).toEqual([expect.objectContaining({ champ: "composition", libelle: "Engrais inconnu" })]);
    const b = indicateursBilanAzote(liste, null, f, contexte());
    expect(b["bilanAzote.exporte"].manquants).toEqual([expect.objectContaining({ objet: "recolte", champ: "teneurAzote" })]);
  });

  test("a liquid dose uses the density (kg/L); without one 1 kg/L is assumed and the density is listed as missing", () => {
    // 100 l/ha × 1.3 kg/L × 39 % = 50.7 kg N/ha
    expect(produitKgHa({ dose: 100, unite: "l/ha", densite: 1.3 })).toEqual({ kg: 130, densiteSupposee: false });
    const f = indicateursFertilisation([intervention({ intrants: [ferti({ dose: 100, unite: "l/ha", composition: { n: 39 } })] })], contexte());
    expect(f["fertilisation.n.mineral"].valeur).toBeCloseTo(39, 6);
    expect(f["fertilisation.n.mineral"].manquants[0].champ).toBe("densite");
  });
});
