import { describe, expect, test } from "vitest";
import { contexte } from "./contexte";
import { indicateursEconomie, quantiteEnUnitePrix, unitePrix } from "./economie";
import { intervention, intrant, operation, parcelle, recolte } from "./fixtures";
import type { InstantaneCampagne, IntrantPhyto } from "./types";

/*
 * Hand-computed wheat plot (research §3), farm of 100 ha, labour 20 €/h:
 *  PB: grain 8 t/ha × 200 €/t = 1 600; straw (co-product) 3 t/ha × 50 €/t = 150     PB = 1 750
 *  CO: seed 150 kg/ha × 0.60 €/kg = 90; ammonitrate 300 kg/ha × 0.45 €/kg = 135; herbicide 1.5 L/ha × 20 €/L = 30;
 *      fungicide without price (missing)                                           CO = 255
 *  MB = 1 750 − 255 = 1 495
 *  CM: sowing 80 €/ha, spraying 15 €/ha, harvest by a contractor 120 €/ha          CM = 215
 *  MSN = 1 495 − 215 = 1 280
 *  CMO: sowing 1 h/ha + spraying 0.25 h/ha (4 ha/h) = 1.25 h × 20 €/h = 25 (contractor's labour not counted)
 *  MD = 1 280 − 25 = 1 255
 *  structure = land rent 100 + 45 €/ha + 4 600 € / 100 ha = 191 €/ha
 *  production cost = (255 + 215 + 25 + 191 − 150) / 8 = 536 / 8 = 67 €/t
 */
const p1 = parcelle({ id: 1, libelle: "P1", surface: 100, idCulture: 1 });
const phyto = (libelle: string, clePrix: string | null): IntrantPhyto =>
  intrant<IntrantPhyto>({ type: "phyto", libelle, famille: "H", biocontrole: false, cibles: [], dosesReference: [], dose: 1.5, unite: "l/ha", clePrix });
const liste = () => [
  intervention({
    date: "2023-10-15",
    operation: operation({ libelle: "Semis", debit: 1, chargesMecanisation: 80 }),
    intrants: [intrant({ type: "semence", libelle: "Blé", dose: 150, unite: "kg/ha", clePrix: "sem" })],
  }),
  intervention({
    operation: operation({ libelle: "Pulvérisation", debit: 4, chargesMecanisation: 15 }),
    intrants: [
      intrant({ type: "fertilisant", nature: "mineral", libelle: "Ammonitrate", dose: 300, unite: "kg/ha", composition: { n: 33.5 }, clePrix: "an" }),
      phyto("Herbicide", "herb"),
      phyto("Fongicide", null),
    ],
  }),
  intervention({
    date: "2024-07-20",
    operation: operation({ libelle: "Moisson", eta: true, debit: 2, chargesMecanisation: 120 }),
    recoltes: [
      recolte({ libelle: "Grain", idCulture: 1, rendement: 8, clePrix: "grain" }),
      recolte({ libelle: "Paille", idCulture: 99, rendement: 3, clePrix: "paille" }),
    ],
  }),
];
const instantane: Pick<InstantaneCampagne, "parcelles" | "prix" | "tauxHoraireMainOeuvre" | "exploitation"> = {
  parcelles: [p1],
  exploitation: { id: 1 },
  tauxHoraireMainOeuvre: 20,
  prix: {
    reel: {
      appro: { sem: { valeur: 0.6, unite: "KG/HA" }, an: { valeur: 0.45, unite: "€/kg" }, herb: { valeur: 20, unite: "€/L", source: "prix_appro 2024" } },
      vente: { grain: { valeur: 200, unite: "€/t" }, paille: { valeur: 50, unite: "€/t" } },
    },
    reference: { appro: {}, vente: { grain: { valeur: 180, unite: "€/t" } } },
  },
};

describe("Economic indicators (research §3)", () => {
  test("gross product, operating costs by family, margins, mechanisation and labour costs, production cost", () => {
    const e = indicateursEconomie(liste(), p1, "reel", contexte(instantane));
    const v = (c: string) => e[`economie.reel.${c}`].valeur;
    expect(v("produitBrut")).toBeCloseTo(1750, 9);
    expect(v("coProduits")).toBeCloseTo(150, 9);
    expect(v("chargesOperationnelles.semences")).toBeCloseTo(90, 9);
    expect(v("chargesOperationnelles.engraisMineraux")).toBeCloseTo(135, 9);
    expect(v("chargesOperationnelles.phytos")).toBeCloseTo(30, 9);
    expect(v("chargesOperationnelles")).toBeCloseTo(255, 9);
    expect(v("margeBrute")).toBeCloseTo(1495, 9);
    expect(v("chargesMecanisation")).toBeCloseTo(215, 9);
    expect(v("margeSemiNette")).toBeCloseTo(1280, 9);
    expect(v("chargesMainOeuvre")).toBeCloseTo(25, 9);
    expect(v("margeDirecte")).toBeCloseTo(1255, 9);
    expect(v("chargesStructure")).toBeCloseTo(191, 9);
    expect(v("coutProduction")).toBeCloseTo(67, 9);
  });

  test("completeness on a plot with a missing price: the fungicide's price is listed, phytos 50 %", () => {
    const e = indicateursEconomie(liste(), p1, "reel", contexte(instantane));
    const phytos = e["economie.reel.chargesOperationnelles.phytos"];
    expect(phytos.completude).toBe(50);
    expect(phytos.manquants).toEqual([expect.objectContaining({ objet: "prix", champ: "prixAchat", libelle: "Fongicide" })]);
    expect(e["economie.reel.margeBrute"].manquants).toHaveLength(1);
    expect(e["economie.reel.margeBrute"].completude).toBeLessThan(100);
    // The explanation names the price used and its source.
    expect(phytos.explication.entrees).toContainEqual(expect.objectContaining({ objet: "prix", id: "herb", valeur: 20, source: "prix_appro 2024" }));
  });

  test("a plot with a crop and no harvest of its main product: the gross product and the yield list it as missing", () => {
    const sansRecolte = liste().slice(0, 2);
    const e = indicateursEconomie(sansRecolte, p1, "reel", contexte(instantane));
    for (const code of ["economie.reel.produitBrut", "economie.reel.rendementPrincipal"]) {
      expect(e[code].manquants).toContainEqual({ objet: "parcelle", id: 1, champ: "recoltePrincipale", libelle: "P1" });
      expect(e[code].completude).toBeLessThan(100);
    }
    expect(e["economie.reel.margeBrute"].manquants).toContainEqual(expect.objectContaining({ champ: "recoltePrincipale" }));
    // With its harvest, nothing of the kind is missing.
    expect(indicateursEconomie(liste(), p1, "reel", contexte(instantane))["economie.reel.produitBrut"].manquants).toEqual([]);
  });

  test("explanation walk: gross margin → operating costs → phytos → the price and the input", () => {
    const e = indicateursEconomie(liste(), p1, "reel", contexte(instantane));
    const mb = e["economie.reel.margeBrute"].explication.entrees;
    expect(mb.map((x) => [x.objet, x.id, x.contribution])).toEqual([
      ["indicateur", "economie.reel.produitBrut", 1750],
      ["indicateur", "economie.reel.chargesOperationnelles", -255],
    ]);
    const co = e[mb[1].id as string].explication.entrees.find((x) => x.id === "economie.reel.chargesOperationnelles.phytos");
    const phytos = e[co!.id as string].explication.entrees;
    expect(phytos).toEqual([
      expect.objectContaining({ objet: "prix", id: "herb", valeur: 20, unite: "€/l" }),
      expect.objectContaining({ objet: "intrant", libelle: "Herbicide", valeur: 1.5, contribution: 30, idIntervention: expect.any(Number) }),
    ]);
  });

  test("reference prices: the same plot valued with the reference set, what it lacks listed", () => {
    const e = indicateursEconomie(liste(), p1, "reference", contexte(instantane));
    expect(e["economie.reference.produitBrut"].valeur).toBeCloseTo(1440, 9); // 8 × 180; straw has no reference price
    expect(e["economie.reference.produitBrut"].manquants).toEqual([expect.objectContaining({ id: "paille", champ: "prixVente" })]);
    expect(e["economie.reference.chargesOperationnelles"].valeur).toBe(0);
    expect(e["economie.reference.chargesOperationnelles"].completude).toBe(0);
  });

  test("price units: €/t against q/ha, a supply unit stored as the dose unit, water in mm against €/m3", () => {
    expect(quantiteEnUnitePrix(80, "q/ha", "t")).toBe(8);
    expect(unitePrix({ unite: "KG/HA" })).toBe("kg");
    expect(unitePrix({ unite: "€/m3" })).toBe("m3");
    expect(quantiteEnUnitePrix(30, "mm", "m3")).toBe(300);
    expect(quantiteEnUnitePrix(1, "kg/q", "kg")).toBeNull();
  });
});
