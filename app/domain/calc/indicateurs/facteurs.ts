/**
 * Reference factors of the indicator engine, each with its source, version and confidence
 * (research/indicators-and-reference-data.md §5, §6, §7; docs/indicators.md §7.11; decision 0046).
 *
 * They are typed data, not constants buried in formulas: a snapshot may replace any of them by id
 * (InstantaneCampagne.facteurs), and every figure's explanation names the factors it used.
 * Version "recherche-2026-11" = the research notes of the project, read in November 2026.
 */

import type { Facteur } from "./types";

const V = "recherche-2026-11";

const f = (id: string, libelle: string, valeur: number, unite: string, source: string, confiance: Facteur["confiance"]): Facteur => ({
  id,
  libelle,
  valeur,
  unite,
  source,
  version: V,
  confiance,
});

const IPCC = "IPCC 2019 Refinement, Vol. 4 Ch. 11 (research §5)";
const GESTIM = "GES'TIM+ table in a public calculator; Base Carbone says its fertiliser factors come from GES'TIM+ (research §5)";

export const FACTEURS_DEFAUT: Record<string, Facteur> = Object.fromEntries(
  [
    // Fuel (research §5 G1, §6 E2; same values as operation.ts D-OP-6)
    f("energie.carburant", "Énergie primaire du GNR, amont compris", 43, "MJ/L", "Research §6 E2 (≈ 1.2 × PCI, ecoinvent-type CED)", "M-L"),
    f(
      "ges.carburant",
      "GES du gazole (amont + combustion)",
      3.1,
      "kg CO2e/L",
      "Base Carbone, gazole routier B7, via @incubateur-ademe/nosgestesclimat (research §5 G1; proxy for GNR)",
      "H",
    ),
    f(
      "ges.carburant.combustion",
      "CO2 de la combustion du GNR",
      2.67,
      "kg CO2/L",
      "IFV / Chambre d'agriculture de l'Hérault, viticulture bio (2019) (research §5 G4)",
      "M-H",
    ),
    // Electricity for irrigation (research §6 E4, E14)
    f("energie.electricite", "Énergie primaire de l'électricité (France)", 8.28, "MJ/kWh", "RE2020 coefficient 2.3 kWhEP/kWh (research §6 E4)", "M-H"),
    f("energie.irrigation.kwh", "Électricité de pompage d'irrigation", 0.35, "kWh/m3", "Research §6 E14 (0.2–0.5 kWh/m3, middle)", "L"),
    f("ges.electricite", "GES de l'électricité France, mix moyen 2022", 0.052, "kg CO2e/kWh", "Base Empreinte via nosgestesclimat (research §5 G6)", "H"),
    // Fertiliser manufacturing energy (research §6 E6–E10)
    f(
      "energie.n.ammonitrate",
      "Énergie de fabrication de l'azote (ammonitrate)",
      45,
      "MJ/kg N",
      "Research §6 E6 (35–55; ecoinvent AN 55, azote.info, ADEME)",
      "M-L",
    ),
    f("energie.n.uree", "Énergie de fabrication de l'azote (urée, solution)", 55, "MJ/kg N", "Research §6 E7 (50–60, azote.info)", "L"),
    f("energie.p2o5", "Énergie de fabrication du P2O5", 15, "MJ/kg P2O5", "Research §6 E8 (10–17, literature)", "L"),
    f("energie.k2o", "Énergie de fabrication du K2O", 8, "MJ/kg K2O", "Research §6 E9 (6–10, literature)", "L"),
    f("energie.cao", "Énergie des amendements calciques", 2, "MJ/kg CaO", "Research §6 E10 (1–3, literature)", "L"),
    // Pesticides (research §6 E11, §5 G24), per kg of active substance
    f("energie.phyto.H", "Énergie de fabrication des herbicides", 280, "MJ/kg sa", "Green 1987 / Audsley (research §6 E11)", "L-M"),
    f("energie.phyto.F", "Énergie de fabrication des fongicides", 200, "MJ/kg sa", "Green 1987 / Audsley (research §6 E11)", "L-M"),
    f("energie.phyto.I", "Énergie de fabrication des insecticides", 240, "MJ/kg sa", "Green 1987 / Audsley (research §6 E11)", "L-M"),
    f("energie.phyto.A", "Énergie de fabrication des autres produits", 240, "MJ/kg sa", "Research §6 E11 (≈200–300; middle value, decision 0046)", "L"),
    f("ges.phyto.H", "GES de fabrication des herbicides", 23, "kg CO2e/kg sa", "Lal 2004, 6.3 kg C-eq/kg sa (research §5 G24)", "M"),
    f("ges.phyto.F", "GES de fabrication des fongicides", 14, "kg CO2e/kg sa", "Lal 2004, 3.9 kg C-eq/kg sa (research §5 G24)", "M"),
    f("ges.phyto.I", "GES de fabrication des insecticides", 19, "kg CO2e/kg sa", "Lal 2004, 5.1 kg C-eq/kg sa (research §5 G24)", "M"),
    f("ges.phyto.A", "GES de fabrication des autres produits", 19, "kg CO2e/kg sa", "Research §5 G24 (middle of the three, decision 0046)", "L"),
    // Machinery embodied energy (research §6 E13)
    f(
      "energie.materiel",
      "Énergie grise du matériel",
      85,
      "MJ/kg",
      "Research §6 E13 (70–100 MJ/kg of machine mass, amortised over the lifetime hours; middle value)",
      "L",
    ),
    // Seeds (research §6 E12)
    f("energie.semence", "Énergie des semences (céréales certifiées)", 6, "MJ/kg", "Research §6 E12 (5–7 MJ/kg)", "L"),
    // Fertiliser manufacturing GHG (research §5 G9–G11, G25)
    f("ges.n.ammonitrate", "GES de fabrication de l'ammonitrate 33.5", 3.97, "kg CO2e/kg N", GESTIM + " G9", "M"),
    f("ges.n.uree", "GES de l'urée 46, CO2 au champ compris", 4.54, "kg CO2e/kg N", GESTIM + " G10 (includes +1.593 kg CO2/kg N in field)", "M"),
    f(
      "ges.n.solution",
      "GES de la solution azotée 30, CO2 au champ compris",
      4.99,
      "kg CO2e/kg N",
      GESTIM + " G11 (includes +0.797 kg CO2/kg N in field)",
      "M",
    ),
    f("ges.p2o5", "GES de fabrication du P2O5", 0.7, "kg CO2e/kg P2O5", "Lal 2004, 0.2 kg C-eq (research §5 G25)", "L-M"),
    f("ges.k2o", "GES de fabrication du K2O", 0.55, "kg CO2e/kg K2O", "Lal 2004, 0.15 kg C-eq (research §5 G25)", "L-M"),
    // Field CO2 (research §5 G14, G15)
    f(
      "ges.co2.uree",
      "CO2 de l'hydrolyse de l'urée",
      1.593,
      "kg CO2/kg N",
      "IPCC 2006/2019 Eq. 11.13, 0.20 t C/t urée; Base Carbone 1.593 (research §5 G14)",
      "H",
    ),
    f(
      "ges.co2.solution",
      "CO2 de l'urée d'une solution azotée",
      0.797,
      "kg CO2/kg N",
      "Base Carbone note on the solution azotée factor (research §5 G11)",
      "M",
    ),
    f("ges.co2.calcaire", "CO2 du chaulage, calcaire", 0.44, "kg CO2/kg produit", "IPCC 2006 Vol. 4 Ch. 11 Eq. 11.12, 0.12 t C/t (research §5 G15)", "H"),
    f("ges.co2.dolomie", "CO2 du chaulage, dolomie", 0.477, "kg CO2/kg produit", "IPCC 2006 Vol. 4 Ch. 11 Eq. 11.12, 0.13 t C/t (research §5 G15)", "H"),
    // Field N2O, IPCC Tier 1 (research §5 G16–G21)
    f("n2o.ef1", "EF1, N2O direct", 0.01, "kg N2O-N/kg N", IPCC + " Table 11.1, aggregated (G16)", "H"),
    f("n2o.fracgasf", "FracGASF, volatilisation des engrais minéraux", 0.11, "kg N/kg N", IPCC + " Table 11.3, aggregated (G17)", "H"),
    f("n2o.fracgasm", "FracGASM, volatilisation de l'azote organique", 0.21, "kg N/kg N", IPCC + " (G18)", "H"),
    f("n2o.ef4", "EF4, N2O de l'azote volatilisé", 0.01, "kg N2O-N/kg N", IPCC + ", aggregated (G19)", "H"),
    f("n2o.fracleach", "FracLEACH, lessivage (climat humide)", 0.24, "kg N/kg N", IPCC + " (G20)", "H"),
    f("n2o.ef5", "EF5, N2O de l'azote lessivé", 0.011, "kg N2O-N/kg N", IPCC + " (G20)", "H"),
    // GWP100 (research §5)
    f("prg.AR4.n2o", "PRG100 du N2O (AR4)", 298, "kg CO2e/kg", "IPCC AR4 (research §5)", "H"),
    f("prg.AR5.n2o", "PRG100 du N2O (AR5)", 265, "kg CO2e/kg", "IPCC AR5 (research §5)", "H"),
    f("prg.AR6.n2o", "PRG100 du N2O (AR6)", 273, "kg CO2e/kg", "IPCC AR6 (research §5)", "H"),
  ].map((x) => [x.id, x]),
);

/** N2O-N to N2O (research §5 G21). */
export const N2O_PAR_N2O_N = 44 / 28;

/** The factor of an id: the snapshot's override, else the default. Throws on an unknown id (a programming error). */
export function facteur(id: string, surcharges?: Record<string, Facteur> | null): Facteur {
  const trouve = surcharges?.[id] ?? FACTEURS_DEFAUT[id];
  if (!trouve) throw new Error(`Unknown factor ${id}`);
  return trouve;
}
