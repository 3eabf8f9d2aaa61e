import { describe, expect, test } from "vitest";
import { contexte } from "./contexte";
import { intervention, intrant, operation } from "./fixtures";
import { indicateursTravail } from "./travail";

/*
 * Hand-computed (research §3.2: time = passes / work rate × people; §4.1 recorded fuel per pass):
 *  ploughing 05/10/2023, 1 ha/h, 1 person, 20 L/ha, whole plot        1 h/ha mechanised, 20 L/ha
 *  spraying 15/03/2024, 4 ha/h, 2 people, 1.5 L/ha, 80 % of the plot   0.8/4 × 2 = 0.4 h/ha, 1.2 L/ha
 *  hand weeding 10/05/2024, 0.05 ha/h, 10 % of the plot (manual)       0.1/0.05 = 2 h/ha manual, no fuel
 *  irrigation 20/06/2024, twice, 30 mm each, no work rate nor fuel      600 m3/ha; time and fuel missing
 * Totals: mechanised 1.4, manual 2, total 3.4 h/ha; passes 1 + 0.8 + 0.1 + 2 = 3.9; fuel 21.2 L/ha.
 */
const liste = () => [
  intervention({ date: "2023-10-05", operation: operation({ libelle: "Labour", debit: 1, consoCarburant: 20 }) }),
  intervention({ date: "2024-03-15", tauxSurface: 0.8, operation: operation({ libelle: "Pulvérisation", debit: 4, nbPersonnes: 2, consoCarburant: 1.5 }) }),
  intervention({ date: "2024-05-10", tauxSurface: 0.1, operation: operation({ libelle: "Désherbage manuel", mecanisee: false, debit: 0.05 }) }),
  intervention({
    date: "2024-06-20",
    frequence: 2,
    operation: operation({ libelle: "Irrigation" }),
    intrants: [intrant({ type: "eau", libelle: "Eau", dose: 30, unite: "mm" })],
  }),
];

describe("Work time, passes, fuel and water", () => {
  test("mechanised, manual and total time, by month; passes; fuel; water", () => {
    const t = indicateursTravail(liste(), contexte());
    expect(t["travail.temps.mecanise"].valeur).toBeCloseTo(1.4, 9);
    expect(t["travail.temps.manuel"].valeur).toBeCloseTo(2, 9);
    expect(t["travail.temps.total"].valeur).toBeCloseTo(3.4, 9);
    expect(t["travail.temps.mois.2023-10"].valeur).toBeCloseTo(1, 9);
    expect(t["travail.temps.mois.2024-03"].valeur).toBeCloseTo(0.4, 9);
    expect(t["travail.temps.mois.2024-05"].valeur).toBeCloseTo(2, 9);
    expect(t["travail.passages"].valeur).toBeCloseTo(3.9, 9);
    expect(t["travail.carburant"].valeur).toBeCloseTo(21.2, 9);
    expect(t["travail.eau"].valeur).toBeCloseTo(600, 9);
  });

  test("completeness: the irrigation without work rate or fuel use is listed, 3 of 4 times known", () => {
    const t = indicateursTravail(liste(), contexte());
    expect(t["travail.temps.total"].completude).toBe(75);
    expect(t["travail.temps.total"].manquants).toEqual([expect.objectContaining({ objet: "operation", champ: "debit", libelle: "Irrigation" })]);
    // Fuel: three mechanised interventions expected, one missing.
    expect(t["travail.carburant"].completude).toBe(66.7);
    expect(t["travail.carburant"].explication.entrees.map((e) => e.libelle)).toEqual(["Labour", "Pulvérisation"]);
  });

  test("the intervention's own work rate and fuel use win over the operation's", () => {
    const t = indicateursTravail([intervention({ debit: 2, consoCarburant: 10, operation: operation({ debit: 1, consoCarburant: 20 }) })], contexte());
    expect(t["travail.temps.total"].valeur).toBe(0.5);
    expect(t["travail.carburant"].valeur).toBe(10);
  });
});
