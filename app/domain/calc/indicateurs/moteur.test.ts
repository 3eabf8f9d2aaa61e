import { describe, expect, test } from "vitest";
import { intervention, intrant, operation, parcelle, recolte } from "./fixtures";
import { calculerCampagne, calculerIntervention, calculerParcelle, lignesResultat } from "./moteur";
import type { InstantaneCampagne, IntrantPhyto } from "./types";

/*
 * Research §2.3, farm: plot P1 (10 ha, IFT_H 0.40) and P2 (30 ha, IFT_H 1.20)
 *   → IFT_H farm = (0.40 × 10 + 1.20 × 30) / 40 = 1.00.
 * P1 and P2 are wheat (crop 1) in conventional (mode 1); P3 is maize (crop 2) in organic (mode 2), no herbicide,
 * 60 ha: farm = (4 + 36 + 0) / 100 = 0.40; wheat = 1.00; maize = 0; mode 1 = 1.00; mode 2 = 0.
 * P4 has no area: left out of the means and listed as missing.
 * Gross product: P1 8 t × 200 = 1 600 €/ha; P2 7 t × 200 = 1 400; P3 no price for maize (missing).
 *   Wheat = (1 600 × 10 + 1 400 × 30) / 40 = 1 450 €/ha.
 */
const herbicide = (dose: number): IntrantPhyto => ({
  type: "phyto",
  id: Math.round(dose * 1000),
  libelle: `Herbicide ${dose}`,
  famille: "H",
  biocontrole: false,
  cibles: [1],
  dosesReference: [{ idCible: 1, dose: 3, unite: "L/HA" }],
  dose,
  unite: "l/ha",
});
const p1 = parcelle({ id: 1, libelle: "P1", surface: 10 });
const p2 = parcelle({ id: 2, libelle: "P2", surface: 30 });
const p3 = parcelle({ id: 3, libelle: "P3", surface: 60, idCulture: 2, idModeConduite: 2 });
const p4 = parcelle({ id: 4, libelle: "P4", surface: null, idCulture: 2, idModeConduite: 2 });
const snapshot = (): InstantaneCampagne => ({
  idCampagne: 1,
  anneeRecolte: 2024,
  exploitation: { id: 1, libelle: "EARL des Tilleuls" },
  parcelles: [p1, p2, p3, p4],
  interventions: [
    intervention({
      idParcelle: 1,
      tauxSurface: 0.8,
      intrants: [herbicide(1.5)],
      operation: operation({ debit: 4, consoCarburant: 1.5, chargesMecanisation: 15 }),
    }),
    intervention({ idParcelle: 1, recoltes: [recolte({ rendement: 8, clePrix: "ble" })] }),
    intervention({ idParcelle: 2, intrants: [herbicide(3.6)] }),
    intervention({ idParcelle: 2, recoltes: [recolte({ rendement: 7, clePrix: "ble" })] }),
    intervention({ idParcelle: 3, recoltes: [recolte({ idCulture: 2, rendement: 10, clePrix: "mais" })] }),
    intervention({ idParcelle: 4, intrants: [intrant({ type: "eau", dose: 20, unite: "mm" })] }),
  ],
  prix: { reel: { appro: {}, vente: { ble: { valeur: 200, unite: "€/t" } } } },
  tauxHoraireMainOeuvre: 20,
});

describe("Engine entry points: plot → crop → management mode → farm", () => {
  test("IFT area-weighted upward, the research's farm example", () => {
    const r = calculerCampagne(snapshot());
    const h = (x: Record<string, { valeur: number | null }>) => x["ift.cible.herbicides"].valeur;
    expect(h(r.parcelles[0].indicateurs)).toBeCloseTo(0.4, 9);
    expect(h(r.parcelles[1].indicateurs)).toBeCloseTo(1.2, 9);
    expect(h(r.cultures["1"])).toBeCloseTo(1, 9);
    expect(h(r.cultures["2"])).toBe(0);
    expect(h(r.modesConduite["1"])).toBeCloseTo(1, 9);
    expect(h(r.exploitation)).toBeCloseTo(0.4, 9);
    // The farm figure's explanation lists the plots with value and area; P4 (no area) is missing.
    const ferme = r.exploitation["ift.cible.herbicides"];
    expect(ferme.explication.formule).toBe("7.2");
    expect(ferme.explication.entrees.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(ferme.manquants).toContainEqual(expect.objectContaining({ objet: "parcelle", id: 4, champ: "surface" }));
    expect(ferme.completude).toBeLessThan(100);
  });

  test("a plot with a missing price: its gross product lists the price, the crop mean keeps the priced plots", () => {
    const r = calculerCampagne(snapshot());
    expect(r.cultures["1"]["economie.reel.produitBrut"].valeur).toBeCloseTo(1450, 9);
    const mais = r.parcelles[2].indicateurs["economie.reel.produitBrut"];
    expect(mais.valeur).toBe(0);
    expect(mais.completude).toBe(50);
    expect(mais.manquants).toEqual([expect.objectContaining({ objet: "prix", id: "mais", champ: "prixVente" })]);
    // Production cost per t is recomputed from the aggregated costs and yields (a ratio, not a mean of ratios).
    const ble = r.cultures["1"];
    expect(ble["economie.reel.coutProduction"].valeur).toBeCloseTo(ble["economie.reel.coutsNets"].valeur! / ble["economie.reel.rendementPrincipal"].valeur!, 9);
  });

  test("calculerParcelle gives the plot and each intervention; calculerIntervention one intervention", () => {
    const s = snapshot();
    const p = calculerParcelle(s, 1);
    const [traitement] = s.interventions;
    expect(p.interventions[traitement.id]["ift.cible.herbicides"].valeur).toBeCloseTo(0.4, 9);
    expect(p.indicateurs["travail.carburant"].valeur).toBeCloseTo(1.2, 9);
    expect(calculerIntervention(s, traitement)["economie.reel.chargesMecanisation"].valeur).toBeCloseTo(12, 9);
    expect(() => calculerParcelle(s, 999)).toThrow();
  });

  test("a month with work on one plot only is averaged over all plots: 0.8/4 h/ha on P1's 10 ha of 100 ha = 0.02 h/ha", () => {
    const r = calculerCampagne(snapshot());
    expect(r.exploitation["travail.temps.mois.2024-03"].valeur).toBeCloseTo(0.02, 9);
  });

  test("lignesResultat flattens the levels into rows (plot, crop, mode, farm)", () => {
    const lignes = lignesResultat(calculerCampagne(snapshot()), 1);
    const h = lignes.filter((l) => l.code === "ift.cible.herbicides");
    expect(h.map((l) => [l.niveau, l.id])).toEqual([
      ["parcelle", 1],
      ["parcelle", 2],
      ["parcelle", 3],
      ["parcelle", 4],
      ["culture", "1"],
      ["culture", "2"],
      ["modeConduite", "1"],
      ["modeConduite", "2"],
      ["exploitation", 1],
    ]);
    expect(h.at(-1)).toMatchObject({ valeur: expect.closeTo(0.4, 9), unite: "doses de référence/ha", nbManquants: 1 });
  });
});
