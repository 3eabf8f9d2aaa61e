import { describe, expect, test } from "vitest";
import { contexte } from "./contexte";
import { indicateursEconomie } from "./economie";
import { indicateursEnergieGes } from "./energie-ges";
import { indicateursBilanAzote, indicateursFertilisation } from "./fertilisation";
import { intervention, intrant, operation, parcelle, recolte } from "./fixtures";
import { indicateursTravail } from "./travail";
import type { InstantaneCampagne, IntrantFertilisant, InterventionCampagne } from "./types";

/*
 * Issue 24, decision 0086: a figure one of whose terms fell back to a default (an unknown N form, a land rent or
 * diverse costs not entered, a manual operation without its people) is below 100 % complete and lists the datum
 * that fixes it; the same figure with the datum given is 100 %.
 */

const ferti = (f: Partial<IntrantFertilisant>) =>
  intrant<IntrantFertilisant>({
    type: "fertilisant",
    nature: "mineral",
    dose: 300,
    unite: "kg/ha",
    composition: { n: 46 },
    ...f,
  });
const energie = (liste: InterventionCampagne[]) => {
  const ctx = contexte(null);
  return indicateursEnergieGes(liste, indicateursTravail(liste, ctx), ctx);
};

describe("defaulted terms lower completeness (issue 24)", () => {
  test("[issue24-energy] [issue24-ghg] an N fertiliser of unknown form is costed as ammonitrate and is not 100 % complete; urea is, with its own factors", () => {
    const inconnu = energie([intervention({ intrants: [ferti({ formeAzote: null })] })]);
    for (const code of ["energie.indirecte.engrais", "ges.indirect.engrais", "ges.direct.co2Uree"]) {
      expect(inconnu[code].completude, code).toBeLessThan(100);
      expect(
        inconnu[code].manquants.map((m) => m.champ),
        code,
      ).toContain("formeAzote");
    }
    // 300 kg × 46 % = 138 kg N, as ammonitrate: 138 × 45 = 6,210 MJ; 138 × 3.97 = 547.86 kg CO2e; no CO2 of urea.
    expect(inconnu["energie.indirecte.engrais"].valeur).toBeCloseTo(6210, 6);
    expect(inconnu["ges.indirect.engrais"].valeur).toBeCloseTo(547.86, 6);
    expect(inconnu["energie.indirecte.engrais"].explication.remarques).toContain("forme-azote-ammonitrate");

    const uree = energie([
      intervention({
        intrants: [ferti({ formeAzote: "uree", sourceFormeAzote: "catalogue:UREE" })],
      }),
    ]);
    // Urea: 138 × 55 = 7,590 MJ; CO2 138 × 1.593 = 219.834; manufacturing 138 × (4.54 − 1.593) = 406.686.
    expect(uree["energie.indirecte.engrais"]).toMatchObject({
      completude: 100,
    });
    expect(uree["energie.indirecte.engrais"].valeur).toBeCloseTo(7590, 6);
    expect(uree["ges.direct.co2Uree"].valeur).toBeCloseTo(219.834, 6);
    expect(uree["ges.indirect.engrais"].valeur).toBeCloseTo(406.686, 6);
    expect(uree["ges.indirect.engrais"].explication.entrees.find((e) => e.objet === "intrant")?.source).toBe("catalogue:UREE");
  });

  test("[issue24-energy] machinery embodied energy counts machine hours, not people; a machine without a mass is missing", () => {
    // 2 people, work rate 2 ha/h, one pass: 0.5 machine h/ha. Tractor 5,000 kg / 10,000 h, drill 2,000 kg / 2,000 h:
    // (0.5 + 1) kg/h × 0.5 h/ha × 85 MJ/kg = 63.75 MJ/ha (the people's 1 h/ha would give 127.5).
    const op = operation({
      debit: 2,
      nbPersonnes: 2,
      materiels: [
        { id: 1, libelle: "Tracteur", poids: 5000, usure: 10000 },
        { id: 2, libelle: "Semoir", poids: 2000, usure: 2000 },
      ],
    });
    const r = energie([intervention({ operation: op })]);
    expect(r["energie.indirecte.materiel"].valeur).toBeCloseTo(63.75, 9);
    expect(r["energie.indirecte.materiel"].completude).toBe(100);
    const sansPoids = energie([
      intervention({
        operation: {
          ...op,
          materiels: [{ id: 1, libelle: "Tracteur", poids: null, usure: 10000 }],
        },
      }),
    ]);
    expect(sansPoids["energie.indirecte.materiel"].completude).toBeLessThan(100);
  });

  test("[issue24-energy] irrigation is counted once: a diesel-pumped water counts its fuel, not pumping electricity", () => {
    const eau = () => intrant({ type: "eau", dose: 30, unite: "mm" });
    // Diesel motor-pump: 20 L/ha × 43 = 860 MJ/ha of fuel, no electricity.
    const diesel = energie([
      intervention({
        operation: operation({ consoCarburant: 20, irrigation: true }),
        intrants: [eau()],
      }),
    ]);
    expect(diesel["energie.directe.carburant"].valeur).toBeCloseTo(860, 9);
    expect(diesel["energie.directe.irrigation"].valeur).toBe(0);
    expect(diesel["energie.directe.irrigation"].explication.remarques).toContain("irrigation-gazole");
    // Electric pump: 300 m3 × 0.35 kWh/m3 × 8.28 MJ/kWh = 869.4 MJ/ha.
    const electrique = energie([
      intervention({
        operation: operation({ mecanisee: false, irrigation: true }),
        intrants: [eau()],
      }),
    ]);
    expect(electrique["energie.directe.irrigation"].valeur).toBeCloseTo(869.4, 9);
    expect(electrique["energie.directe.carburant"].valeur).toBe(0);
  });

  test("[issue24-nitrogen] N exported needs each harvest's N content: without it the balance is not complete; with it, applied − exported", () => {
    const liste = (teneurAzote: number | null) => [
      intervention({
        intrants: [
          ferti({
            formeAzote: "ammonitrate",
            composition: { n: 33.5 },
            dose: 500,
          }),
        ],
      }),
      intervention({
        recoltes: [recolte({ rendement: 8, unite: "t/ha", teneurAzote })],
      }),
    ];
    const bilan = (teneur: number | null) => {
      const l = liste(teneur);
      return indicateursBilanAzote(l, null, indicateursFertilisation(l));
    };
    const sans = bilan(null);
    expect(sans["bilanAzote.exporte"].completude).toBeLessThan(100);
    expect(sans["bilanAzote.solde"].completude).toBeLessThan(100);
    expect(sans["bilanAzote.exporte"].manquants.map((m) => m.champ)).toEqual(["teneurAzote"]);
    // 500 × 33.5 % = 167.5 kg N applied; 8 t × 19 kg N/t = 152 exported; balance 15.5.
    const avec = bilan(19);
    expect(avec["bilanAzote.solde"]).toMatchObject({ completude: 100 });
    expect(avec["bilanAzote.solde"].valeur).toBeCloseTo(15.5, 9);
    // A forage in t MS/ha with its N content per t MS: 6 t MS × 21 kg N/t MS = 126.
    const foin = [
      intervention({
        recoltes: [recolte({ rendement: 6, unite: "t MS/ha", teneurAzote: 21 })],
      }),
    ];
    expect(indicateursBilanAzote(foin, null, indicateursFertilisation(foin))["bilanAzote.exporte"].valeur).toBeCloseTo(126, 9);
  });

  test("[issue24-economics] structure costs from defaults are not complete; recorded ones are, and give the recorded figures", () => {
    const p = parcelle({ surface: 50 });
    const instantane = (exploitation: InstantaneCampagne["exploitation"]): InstantaneCampagne => ({
      idCampagne: 1,
      anneeRecolte: 2025,
      exploitation,
      parcelles: [p],
      interventions: [],
      prix: { reel: { appro: {}, vente: {} } },
    });
    const structure = (e: InstantaneCampagne["exploitation"]) => indicateursEconomie([], p, "reel", contexte(instantane(e)))["economie.reel.chargesStructure"];
    const defaut = structure({ id: 7 });
    // Defaults: 100 + 45 + 4,600 / 50 = 237 €/ha, two terms guessed.
    expect(defaut.valeur).toBeCloseTo(237, 9);
    expect(defaut.completude).toBe(0);
    expect(defaut.manquants.map((m) => m.champ)).toEqual(["fermageMoyen", "chargesDiverses"]);
    // Recorded: rent 180 €/ha, diverse costs 9,000 € for the farm: 180 + 9,000 / 50 = 360 €/ha.
    const saisi = structure({
      id: 7,
      fermageHa: 180,
      chargesDiversesExploitation: 9000,
      chargesDiversesHa: 0,
    });
    expect(saisi.valeur).toBeCloseTo(360, 9);
    expect(saisi.completude).toBe(100);
  });

  test("[issue24-work] a manual operation without its people counts one person and says so", () => {
    const manuelle = (nbPersonnes: number | null) =>
      indicateursTravail([
        intervention({
          operation: operation({ mecanisee: false, debit: 0.5, nbPersonnes }),
        }),
      ]);
    const suppose = manuelle(null);
    // 1 pass / 0.5 ha/h × 1 person = 2 h/ha, the person guessed.
    expect(suppose["travail.temps.manuel"].valeur).toBeCloseTo(2, 9);
    expect(suppose["travail.temps.manuel"].completude).toBeLessThan(100);
    expect(suppose["travail.temps.manuel"].manquants.map((m) => m.champ)).toEqual(["mainOeuvre"]);
    const trois = manuelle(3);
    expect(trois["travail.temps.manuel"]).toMatchObject({ completude: 100 });
    expect(trois["travail.temps.manuel"].valeur).toBeCloseTo(6, 9);
  });
});
