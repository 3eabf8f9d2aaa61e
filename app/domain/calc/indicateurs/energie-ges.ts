/**
 * Active-substance quantities, primary energy and greenhouse gases (research §1, §5, §6; docs/indicators.md
 * §7.8–7.10; decision 0046). Every factor is a row of facteurs.ts named in the explanation.
 *
 *   QSA (kg sa/ha)             = Σ phyto dose × concentration × passes   (g/L, g/kg /1000; % /100)
 *   energy direct (MJ/ha)      = fuel L/ha × E2 + water m3/ha × kWh/m3 × MJ/kWh (water of a diesel-pumped irrigation: in its fuel)
 *   energy indirect (MJ/ha)    = N × E6|E7 + P2O5 × E8 + K2O × E9 + CaO × E10 (mineral fertilisers)
 *                                + QSA × E11 (by family) + seed kg × E12 + machinery Σ kg × E13 / wear life h × machine h/ha
 *   N2O (kg N2O/ha)            = [N × EF1 + (Nmin × FracGASF + Norg × FracGASM) × EF4 + N × FracLEACH × EF5] × 44/28
 *   direct GHG (kg CO2e/ha)    = N2O × GWP + CO2 urea + CO2 liming + fuel combustion
 *   indirect GHG (kg CO2e/ha)  = fertiliser manufacturing + QSA × G24 + seed kg × seed coefficient + fuel upstream
 */

import { contexte as contexteDefaut, interventionsRetenues, passages, type Contexte } from "./contexte";
import { N2O_PAR_N2O_N } from "./facteurs";
import { produitKgHa } from "./fertilisation";
import { carburantIntervention, heuresMachines } from "./travail";
import { Cumul, entreeFacteur, estNombre, indicateur, SANS_ENTREE, unionManquants } from "./resultat";
import type { Entree, Facteur, Indicateur, Indicateurs, IntrantFertilisant, IntrantPhyto, InterventionCampagne } from "./types";

/** kg of active substance per unit of product dose (kg/L or kg/kg), from a concentration; null when unusable. */
export function kgSubstanceParUnite(concentration: number | null | undefined, unite: string | null | undefined): number | null {
  if (!estNombre(concentration)) return null;
  const u = (unite ?? "").toLowerCase();
  if (u === "g/l" || u === "g/kg") return concentration / 1000;
  if (u === "%") return concentration / 100;
  return null;
}

/** Product dose per ha in L or kg (g and mL scaled); null for per-hectolitre or unknown units. */
function doseProduitHa(intrant: IntrantPhyto): number | null {
  if (!estNombre(intrant.dose)) return null;
  const u = (intrant.unite ?? "").toLowerCase();
  if (u === "l/ha" || u === "kg/ha") return intrant.dose;
  if (u === "g/ha" || u === "ml/ha") return intrant.dose / 1000;
  if ((u === "l/hl" || u === "kg/hl") && estNombre(intrant.volumeBouillie)) return (intrant.dose * intrant.volumeBouillie) / 100;
  return null;
}

/** Mineral N form factor ids: urea and solutions have their own; ammonitrate otherwise (decision 0046). */
const formeN = (i: IntrantFertilisant) => (i.formeAzote === "uree" ? "uree" : i.formeAzote === "solution" ? "solution" : "ammonitrate");

/** A water input's m3/ha over its passes; null without a dose in mm. */
const m3Eau = (dose: number | null, unite: string | null) => (estNombre(dose) && (unite ?? "mm").toLowerCase() === "mm" ? dose * 10 : null);

type Ctx = Contexte;

export function indicateursEnergieGes(interventions: InterventionCampagne[], travail: Indicateurs, ctx: Ctx = contexteDefaut()): Indicateurs {
  const F = (id: string) => ctx.facteur(id);
  const c = (code: string, unite: string, formule: string) => new Cumul(code, unite, formule, ctx.explique);
  const qsa = c("phyto.qsa", "kg sa/ha", "7.8");
  const eCarburant = c("energie.directe.carburant", "MJ/ha", "7.9");
  const eIrrigation = c("energie.directe.irrigation", "MJ/ha", "7.9");
  const eEngrais = c("energie.indirecte.engrais", "MJ/ha", "7.9");
  const ePhytos = c("energie.indirecte.phytos", "MJ/ha", "7.9");
  const eSemences = c("energie.indirecte.semences", "MJ/ha", "7.9");
  const eMateriel = c("energie.indirecte.materiel", "MJ/ha", "7.9");
  const gN2O = c("ges.n2o.kg", "kg N2O/ha", "7.10");
  const gUree = c("ges.direct.co2Uree", "kg CO2e/ha", "7.10");
  const gChaulage = c("ges.direct.co2Chaulage", "kg CO2e/ha", "7.10");
  const gCombustion = c("ges.direct.carburant", "kg CO2e/ha", "7.10");
  const gAmontCarburant = c("ges.indirect.carburant", "kg CO2e/ha", "7.10");
  const gEngrais = c("ges.indirect.engrais", "kg CO2e/ha", "7.10");
  const gPhytos = c("ges.indirect.phytos", "kg CO2e/ha", "7.10");
  const gSemences = c("ges.indirect.semences", "kg CO2e/ha", "7.10");

  const x = ctx.explique !== false;
  const avecFacteur = (cumul: Cumul, f: Facteur, quantite: number, entree: Parameters<Cumul["ajoute"]>[1]) => {
    if (x) cumul.cite(entreeFacteur(f));
    cumul.ajoute(quantite * f.valeur, entree);
  };

  // Fuel comes from the work indicators (same completeness).
  const heriter = (cumul: Cumul, source: Indicateur, f: Facteur, multiplicateur = 1) => {
    cumul.attendus += source.attendus;
    source.manquants.forEach((m) => cumul.manque(m));
    if (estNombre(source.valeur))
      avecFacteur(cumul, f, source.valeur * multiplicateur, { objet: "indicateur", id: source.code, valeur: source.valeur, unite: source.unite });
  };
  const carburant = travail["travail.carburant"];
  if (carburant) {
    heriter(eCarburant, carburant, F("energie.carburant"));
    heriter(gCombustion, carburant, F("ges.carburant.combustion"));
    const total = F("ges.carburant");
    const combustion = F("ges.carburant.combustion");
    heriter(gAmontCarburant, carburant, {
      ...total,
      id: `${total.id}-${combustion.id}`,
      libelle: `${total.libelle} moins la combustion`,
      valeur: total.valeur - combustion.valeur,
    });
  }
  // Irrigation is counted once (decision 0086): the water of an intervention whose operation burns fuel (a diesel
  // motor-pump) is in the fuel above; only the other irrigations count the pumping electricity.
  const kwh = F("energie.irrigation.kwh");
  const electricite = F("energie.electricite");

  // N by origin for the field N2O
  let nMineral = 0;
  let nOrganique = 0;
  const entreesN: Parameters<Cumul["ajoute"]>[1][] = [];
  const manquantsN: Indicateur["manquants"] = [];
  let attendusN = 0;

  for (const i of interventionsRetenues(interventions, ctx.options)) {
    const p = passages(i);
    const entreeIntrant = (id: number, libelle: string, valeur: number, unite: string): Entree =>
      x ? { objet: "intrant" as const, id, libelle, valeur, unite, date: i.date, idIntervention: i.id } : SANS_ENTREE;
    // Machinery: mass × MJ/kg / wear life (h) × machine hours per ha of the intervention (passes / work rate: the
    // machines' hours, not the people's).
    if (i.operation?.mecanisee && i.operation.materiels?.length) {
      const temps = heuresMachines(i);
      for (const m of i.operation.materiels) {
        eMateriel.attend();
        if (!temps) eMateriel.manque({ objet: "operation", id: i.operation.id, champ: "debit", libelle: i.operation.libelle });
        if (!estNombre(m.poids) || !estNombre(m.usure) || m.usure <= 0) {
          eMateriel.manque({ objet: "operation", id: m.id, champ: estNombre(m.poids) ? "usure" : "poids", libelle: m.libelle });
          continue;
        }
        if (temps)
          avecFacteur(eMateriel, F("energie.materiel"), (m.poids / m.usure) * temps.heures, {
            objet: "operation",
            id: m.id,
            libelle: m.libelle,
            valeur: temps.heures,
            unite: `h/ha × ${m.poids} kg / ${m.usure} h`,
            date: i.date,
            idIntervention: i.id,
          });
      }
    }
    const gazole = (carburantIntervention(i) ?? 0) > 0;
    for (const intrant of i.intrants) {
      if (intrant.type === "eau") {
        if (gazole) {
          eIrrigation.remarque("irrigation-gazole");
          continue;
        }
        eIrrigation.attend();
        if (p.manquant) eIrrigation.manque(p.manquant);
        const m3 = m3Eau(intrant.dose, intrant.unite);
        if (m3 === null) eIrrigation.manque({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
        if (m3 === null || p.valeur === null) continue;
        if (x) eIrrigation.cite(entreeFacteur(kwh));
        avecFacteur(eIrrigation, electricite, m3 * p.valeur * kwh.valeur, entreeIntrant(intrant.id, intrant.libelle, m3 * p.valeur, "m3/ha"));
      } else if (intrant.type === "phyto") {
        const famille = intrant.famille === "TS" || !intrant.famille ? "A" : intrant.famille;
        for (const cumul of [qsa, ePhytos, gPhytos]) {
          cumul.attend();
          if (p.manquant) cumul.manque(p.manquant);
          const dose = doseProduitHa(intrant);
          const substances = intrant.substances ?? [];
          if (dose === null) cumul.manque({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
          if (substances.length === 0 || substances.some((s) => kgSubstanceParUnite(s.concentration, s.unite) === null))
            cumul.manque({ objet: "intrant", id: intrant.id, champ: "matiereActive", libelle: intrant.libelle });
          if (dose === null || p.valeur === null) continue;
          for (const s of substances) {
            const kg = kgSubstanceParUnite(s.concentration, s.unite);
            if (kg === null) continue;
            const q = dose * kg * p.valeur;
            const e = x ? entreeIntrant(intrant.id, `${intrant.libelle} : ${s.libelle}`, s.concentration ?? 0, s.unite ?? "") : SANS_ENTREE;
            if (cumul === qsa) cumul.ajoute(q, e);
            else avecFacteur(cumul, F(`${cumul === ePhytos ? "energie" : "ges"}.phyto.${famille}`), q, e);
          }
        }
      } else if (intrant.type === "semence") {
        const kg = estNombre(intrant.dose) && (intrant.unite ?? "").toLowerCase() === "kg/ha" ? intrant.dose : null;
        for (const cumul of [eSemences, gSemences]) {
          cumul.attend();
          if (p.manquant) cumul.manque(p.manquant);
          if (kg === null) cumul.manque({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
        }
        if (!estNombre(intrant.coefficientEmission))
          gSemences.manque({ objet: "intrant", id: intrant.id, champ: "coefficientEmission", libelle: intrant.libelle });
        if (kg === null || p.valeur === null) continue;
        avecFacteur(eSemences, F("energie.semence"), kg * p.valeur, entreeIntrant(intrant.id, intrant.libelle, kg, "kg/ha"));
        if (estNombre(intrant.coefficientEmission))
          gSemences.ajoute(
            kg * p.valeur * intrant.coefficientEmission,
            entreeIntrant(intrant.id, intrant.libelle, kg, `kg/ha × ${intrant.coefficientEmission} kg CO2e/kg`),
          );
      } else if (intrant.type === "fertilisant") {
        const produit = produitKgHa(intrant);
        const composition = intrant.composition ?? {};
        const aComposition = Object.values(composition).some(estNombre);
        const element = (el: "n" | "p2o5" | "k2o" | "cao") => {
          const pct = composition[el];
          return produit && p.valeur !== null && estNombre(pct) ? ((produit.kg * pct) / 100) * p.valeur : 0;
        };
        const manques = (cumul: Cumul) => {
          cumul.attend();
          if (p.manquant) cumul.manque(p.manquant);
          if (!produit) cumul.manque({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
          if (!aComposition) cumul.manque({ objet: "intrant", id: intrant.id, champ: "composition", libelle: intrant.libelle });
        };
        const n = element("n");
        attendusN++;
        if (p.manquant) manquantsN.push(p.manquant);
        if (!produit) manquantsN.push({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
        if (!aComposition) manquantsN.push({ objet: "intrant", id: intrant.id, champ: "composition", libelle: intrant.libelle });
        if (n > 0) {
          if (intrant.nature === "mineral") nMineral += n;
          else nOrganique += n;
          if (x) entreesN.push(entreeIntrant(intrant.id, `${intrant.libelle} (${intrant.nature})`, n, "kg N/ha"));
        }
        // Liming: the product mass of a liming product.
        if (intrant.amendement) {
          manques(gChaulage);
          if (produit && p.valeur !== null)
            avecFacteur(
              gChaulage,
              F(`ges.co2.${intrant.amendement === "dolomie" ? "dolomie" : "calcaire"}`),
              produit.kg * p.valeur,
              entreeIntrant(intrant.id, intrant.libelle, produit.kg, "kg/ha"),
            );
        }
        if (intrant.nature !== "mineral") continue; // organic products carry no manufacturing burden (decision 0046)
        manques(eEngrais);
        manques(gEngrais);
        // A mineral N whose form is unknown is costed as ammonitrate, and says so (decision 0086).
        if (n > 0 && !intrant.formeAzote)
          for (const cumul of [eEngrais, gEngrais, gUree.attend()])
            cumul.manque({ objet: "intrant", id: intrant.id, champ: "formeAzote", libelle: intrant.libelle }).remarque("forme-azote-ammonitrate");
        const forme = formeN(intrant);
        const e = (el: string, q: number) => {
          if (!x) return SANS_ENTREE;
          const entree = entreeIntrant(intrant.id, `${intrant.libelle} : ${el === "N" ? `N (${forme})` : el}`, q, `kg ${el}/ha`);
          if (el === "N" && intrant.sourceFormeAzote) entree.source = intrant.sourceFormeAzote;
          return entree;
        };
        if (n > 0) {
          avecFacteur(eEngrais, F(`energie.n.${forme === "ammonitrate" ? "ammonitrate" : "uree"}`), n, e("N", n));
          const fab = F(`ges.n.${forme}`);
          if (forme === "ammonitrate") avecFacteur(gEngrais, fab, n, e("N", n));
          else {
            // The urea and solution factors hold the field CO2: it is moved to the direct CO2 of urea.
            const champ = F(`ges.co2.${forme}`);
            gUree.attend();
            avecFacteur(gUree, champ, n, e("N", n));
            avecFacteur(
              gEngrais,
              { ...fab, id: `${fab.id}-${champ.id}`, libelle: `${fab.libelle} moins le CO2 au champ`, valeur: fab.valeur - champ.valeur },
              n,
              e("N", n),
            );
          }
        }
        for (const [el, fid] of [
          ["p2o5", "p2o5"],
          ["k2o", "k2o"],
        ] as const) {
          const q = element(el);
          if (q > 0) {
            avecFacteur(eEngrais, F(`energie.${fid}`), q, e(el.toUpperCase(), q));
            avecFacteur(gEngrais, F(`ges.${fid}`), q, e(el.toUpperCase(), q));
          }
        }
        const cao = element("cao");
        if (cao > 0) avecFacteur(eEngrais, F("energie.cao"), cao, e("CaO", cao));
      }
    }
  }

  // Field N2O (IPCC Tier 1)
  const ef1 = F("n2o.ef1");
  const gasf = F("n2o.fracgasf");
  const gasm = F("n2o.fracgasm");
  const ef4 = F("n2o.ef4");
  const leach = F("n2o.fracleach");
  const ef5 = F("n2o.ef5");
  const prg = F(`prg.${ctx.options.prg}.n2o`);
  // Crop residues (IPCC F_CR) enter the direct and leaching paths, not volatilisation.
  const nResidus = estNombre(ctx.parcelle?.azoteResidus) ? ctx.parcelle.azoteResidus : 0;
  if (ctx.parcelle && nResidus > 0)
    entreesN.push({ objet: "parcelle", id: ctx.parcelle.id, libelle: `${ctx.parcelle.libelle} : résidus de culture`, valeur: nResidus, unite: "kg N/ha" });
  const nTotal = nMineral + nOrganique + nResidus;
  const parts = {
    direct: nTotal * ef1.valeur * N2O_PAR_N2O_N,
    volatilisation: (nMineral * gasf.valeur + nOrganique * gasm.valeur) * ef4.valeur * N2O_PAR_N2O_N,
    lessivage: ctx.options.climat === "sec" ? 0 : nTotal * leach.valeur * ef5.valeur * N2O_PAR_N2O_N,
  };
  gN2O.attendus = attendusN;
  manquantsN.forEach((m) => gN2O.manque(m));
  entreesN.forEach((e) => gN2O.cite(e));
  for (const f of [ef1, gasf, gasm, ef4, ...(ctx.options.climat === "sec" ? [] : [leach, ef5])]) gN2O.cite(entreeFacteur(f));
  for (const [nom, kg] of Object.entries(parts)) gN2O.ajoute(kg, { objet: "facteur", id: `n2o.${nom}`, libelle: nom, valeur: kg, unite: "kg N2O/ha" });
  if (ctx.options.climat === "sec") gN2O.remarque("climat-sec");

  const r: Indicateurs = {};
  for (const cumul of [
    qsa,
    eCarburant,
    eIrrigation,
    eEngrais,
    ePhytos,
    eSemences,
    eMateriel,
    gN2O,
    gUree,
    gChaulage,
    gCombustion,
    gAmontCarburant,
    gEngrais,
    gPhytos,
    gSemences,
  ])
    r[cumul.code] = cumul.resultat();
  // N2O in CO2e, by path
  const n2o = r[gN2O.code];
  for (const [nom, kg] of Object.entries(parts)) {
    const code = `ges.direct.n2o.${nom}`;
    r[code] = indicateur(code, kg * prg.valeur, "kg CO2e/ha", n2o.attendus, n2o.manquants, {
      formule: "7.10",
      entrees: [
        ...n2o.explication.entrees.filter((e) => e.contribution === undefined),
        entreeFacteur(prg),
        { objet: "facteur", id: `n2o.${nom}`, valeur: kg, unite: "kg N2O/ha", contribution: kg * prg.valeur },
      ],
    });
  }
  const somme = (code: string, unite: string, formule: string, codes: string[]): Indicateur => {
    const termes = codes.map((x) => r[x]);
    const manquants = unionManquants(termes.map((t) => t.manquants));
    return indicateur(
      code,
      termes.reduce((s, t) => s + (t.valeur ?? 0), 0),
      unite,
      termes.reduce((s, t) => s + t.attendus, 0),
      manquants,
      {
        formule,
        entrees: termes.map((t) => ({ objet: "indicateur" as const, id: t.code, valeur: t.valeur ?? undefined, unite: t.unite, contribution: t.valeur ?? 0 })),
      },
    );
  };
  r["energie.directe"] = somme("energie.directe", "MJ/ha", "7.9", ["energie.directe.carburant", "energie.directe.irrigation"]);
  r["energie.indirecte"] = somme("energie.indirecte", "MJ/ha", "7.9", [
    "energie.indirecte.engrais",
    "energie.indirecte.phytos",
    "energie.indirecte.semences",
    "energie.indirecte.materiel",
  ]);
  r["energie.totale"] = somme("energie.totale", "MJ/ha", "7.9", ["energie.directe", "energie.indirecte"]);
  r["ges.gaz.n2o"] = somme("ges.gaz.n2o", "kg CO2e/ha", "7.10", ["ges.direct.n2o.direct", "ges.direct.n2o.volatilisation", "ges.direct.n2o.lessivage"]);
  r["ges.gaz.co2"] = somme("ges.gaz.co2", "kg CO2e/ha", "7.10", ["ges.direct.co2Uree", "ges.direct.co2Chaulage", "ges.direct.carburant"]);
  r["ges.direct"] = somme("ges.direct", "kg CO2e/ha", "7.10", ["ges.gaz.n2o", "ges.gaz.co2"]);
  r["ges.indirect"] = somme("ges.indirect", "kg CO2e/ha", "7.10", [
    "ges.indirect.carburant",
    "ges.indirect.engrais",
    "ges.indirect.phytos",
    "ges.indirect.semences",
  ]);
  r["ges.total"] = somme("ges.total", "kg CO2e/ha", "7.10", ["ges.direct", "ges.indirect"]);
  return r;
}
