/**
 * Economic indicators of a plot for one price set, real or reference (research §3; docs/indicators.md §7.7;
 * decision 0044). All in €/ha of the plot except the cost of production (€/t).
 *
 *   PB  gross product            = Σ harvests yield × sale price × passes
 *   CO  operating costs          = Σ inputs dose × supply price × passes, by family
 *   MB  gross margin             = PB − CO
 *   CM  mechanisation costs      = Σ passes × the operation's mechanisation charges per pass (fuel included)
 *   MSN semi-net margin          = MB − CM
 *   CMO labour costs             = (tractor-driver time + manual time) × hourly rate (contractor work excluded)
 *   MD  direct margin            = MSN − CMO
 *   production cost (€/t)        = (CO + CM + CMO + land rent + diverse costs − co-products) / main yield
 */

import { doseParHectare } from "./ift-doses";
import { contexte as contexteDefaut, interventionsRetenues, passages, type Contexte } from "./contexte";
import { rendementTHa } from "./fertilisation";
import { Cumul, estNombre, indicateur, ratio, SANS_ENTREE, unionManquants, type DefinitionRatio } from "./resultat";
import { personnesSupposees, tempsIntervention } from "./travail";
import type { Indicateur, Indicateurs, IntrantCampagne, InterventionCampagne, JeuPrix, ParcelleCampagne, Prix } from "./types";

export type JeuPrixNom = "reel" | "reference";

/** Spec 3 §9: defaults when empty in the calculation. */
export const DEFAUTS_ECONOMIE = { chargesDiversesExploitation: 4600, chargesDiversesHa: 45, fermageHa: 100 } as const;

export const FAMILLES_CHARGES = ["semences", "traitementSemences", "engraisMineraux", "engraisOrganiques", "phytos", "eau", "autres"] as const;
export type FamilleCharges = (typeof FAMILLES_CHARGES)[number];

export function familleCharges(intrant: IntrantCampagne): FamilleCharges {
  switch (intrant.type) {
    case "semence":
      return "semences";
    case "phyto":
      return intrant.famille === "TS" ? "traitementSemences" : "phytos";
    case "fertilisant":
      return intrant.nature === "organique" ? "engraisOrganiques" : "engraisMineraux";
    case "eau":
      return "eau";
    default:
      return "autres";
  }
}

const MASSE: Record<string, number> = { g: 0.001, kg: 1, q: 100, t: 1000 };
const VOLUME: Record<string, number> = { ml: 0.001, l: 1, hl: 100, m3: 1000 };

/** The unit a price is per: "€/t" → t; a supply-price unit stored as the dose unit ("KG/HA") → kg (spec 3 §3.7). */
export function unitePrix(prix: Pick<Prix, "unite">): string {
  let r = UNITES_PRIX.get(prix.unite);
  if (r === undefined) {
    const u = prix.unite.trim().toLowerCase().replace("m³", "m3");
    r = u.startsWith("€/") || u.startsWith("eur/") ? u.slice(u.indexOf("/") + 1) : u.split("/")[0];
    if (UNITES_PRIX.size < 1000) UNITES_PRIX.set(prix.unite, r);
  }
  return r;
}
const UNITES_PRIX = new Map<string, string>();

/**
 * A per-hectare quantity (dose or yield "x/ha") in the unit of a price: masses and volumes convert,
 * water in mm is 10 m3 per mm; the same unit is itself; null otherwise.
 */
export function quantiteEnUnitePrix(quantite: number, uniteParHa: string | null | undefined, unite: string): number | null {
  // The conversion of a unit pair, read once (the string work cost a fifth of the economic figures on the series
  // bench: 90,000 inputs × 2 price sets); the arithmetic stays the same, in the same order.
  const cle = `${uniteParHa ?? ""}\u0001${unite}`;
  let c = CONVERSIONS.get(cle);
  if (c === undefined) {
    c = conversion(uniteParHa, unite);
    if (CONVERSIONS.size < 1000) CONVERSIONS.set(cle, c);
  }
  switch (c.sorte) {
    case "meme":
      return quantite;
    case "facteurs":
      return (quantite * c.fois) / c.par;
    case "mm":
      return (quantite * 10 * VOLUME.m3) / c.par;
    default:
      return null;
  }
}
type Conversion = { sorte: "meme" } | { sorte: "facteurs"; fois: number; par: number } | { sorte: "mm"; par: number } | { sorte: "aucune" };
const CONVERSIONS = new Map<string, Conversion>();
function conversion(uniteParHa: string | null | undefined, unite: string): Conversion {
  const [x, par] = (uniteParHa ?? "").trim().toLowerCase().replace("m³", "m3").split("/");
  if (par !== undefined && par !== "ha") return { sorte: "aucune" }; // per quintal of seed, per hectolitre…: not a quantity per hectare
  if (x === unite) return { sorte: "meme" };
  if (x in MASSE && unite in MASSE) return { sorte: "facteurs", fois: MASSE[x], par: MASSE[unite] };
  if (x in VOLUME && unite in VOLUME) return { sorte: "facteurs", fois: VOLUME[x], par: VOLUME[unite] };
  if (x === "mm" && unite in VOLUME) return { sorte: "mm", par: VOLUME[unite] };
  return { sorte: "aucune" };
}

function combiner(code: string, unite: string, formule: string, termes: Array<[1 | -1, Indicateur]>): Indicateur {
  let valeur: number | null = 0;
  let attendus = 0;
  for (const [signe, t] of termes) {
    attendus += t.attendus;
    valeur = valeur === null || t.valeur === null ? null : valeur + signe * t.valeur;
  }
  const manquants = unionManquants(termes.map(([, t]) => t.manquants));
  return indicateur(code, valeur, unite, attendus, manquants, {
    formule,
    entrees: termes.map(([signe, t]) => ({
      objet: "indicateur" as const,
      id: t.code,
      valeur: t.valeur ?? undefined,
      unite: t.unite,
      contribution: t.valeur === null ? undefined : signe * t.valeur,
    })),
  });
}

export const ratiosCoutProduction = (jeu: JeuPrixNom): DefinitionRatio[] => [
  {
    code: `economie.${jeu}.coutProduction`,
    unite: "€/t",
    formule: "7.7",
    numerateur: `economie.${jeu}.coutsNets`,
    denominateur: `economie.${jeu}.rendementPrincipal`,
  },
];

/** Economic indicators "economie.<jeu>.<code>" of a plot's interventions for one price set. */
export function indicateursEconomie(
  interventions: InterventionCampagne[],
  parcelle: Pick<ParcelleCampagne, "id" | "libelle" | "idCulture"> | null,
  jeu: JeuPrixNom,
  ctx: Contexte = contexteDefaut(),
): Indicateurs {
  const prix: JeuPrix | null | undefined = jeu === "reel" ? ctx.prix.reel : ctx.prix.reference;
  const k = (code: string) => `economie.${jeu}.${code}`;
  const pb = new Cumul(k("produitBrut"), "€/ha", "7.7", ctx.explique);
  const coProduits = new Cumul(k("coProduits"), "€/ha", "7.7", ctx.explique);
  const rendementPrincipal = new Cumul(k("rendementPrincipal"), "t/ha", "7.7", ctx.explique);
  const co = Object.fromEntries(FAMILLES_CHARGES.map((f) => [f, new Cumul(k(`chargesOperationnelles.${f}`), "€/ha", "7.7", ctx.explique)])) as Record<
    FamilleCharges,
    Cumul
  >;
  const cm = new Cumul(k("chargesMecanisation"), "€/ha", "7.7", ctx.explique);
  const cmoTractoriste = new Cumul(k("chargesMainOeuvre.tractoriste"), "€/ha", "7.7", ctx.explique);
  const cmoManuelle = new Cumul(k("chargesMainOeuvre.manuelle"), "€/ha", "7.7", ctx.explique);

  const retenues = interventionsRetenues(interventions, ctx.options);
  const recoltes = retenues.flatMap((i) => i.recoltes.map((r) => ({ i, r })));
  const aPrincipale = recoltes.some(({ r }) => r.principale);
  const estPrincipale = (r: (typeof recoltes)[number]["r"]) =>
    aPrincipale ? r.principale === true : parcelle?.idCulture != null && r.idCulture === parcelle.idCulture;

  for (const { i, r } of recoltes) {
    const p = passages(i);
    const principale = estPrincipale(r);
    if (principale && !r.pature) {
      rendementPrincipal.attend();
      const t = rendementTHa(r.rendement, r.unite);
      if (t === null) rendementPrincipal.manque({ objet: "recolte", id: r.id, champ: "rendement", libelle: r.libelle });
      else if (p.valeur !== null)
        rendementPrincipal.ajoute(
          t * p.valeur,
          !rendementPrincipal.explique
            ? SANS_ENTREE
            : { objet: "recolte", id: r.id, libelle: r.libelle, valeur: t, unite: "t/ha", date: i.date, idIntervention: i.id },
        );
    }
    const cibles = principale ? [pb] : [pb, coProduits];
    const pv = r.clePrix ? prix?.vente[r.clePrix] : undefined;
    const quantite = pv && estNombre(r.rendement) ? quantiteEnUnitePrix(r.rendement, r.unite, unitePrix(pv)) : null;
    for (const c of cibles) {
      c.attend(2);
      if (p.manquant) c.manque(p.manquant);
      if (!estNombre(r.rendement)) c.manque({ objet: "recolte", id: r.id, champ: "rendement", libelle: r.libelle });
      if (!pv) c.manque({ objet: "prix", id: r.clePrix ?? `recolte-${r.id}`, champ: "prixVente", libelle: r.libelle });
      else if (estNombre(r.rendement) && quantite === null) c.manque({ objet: "prix", id: r.clePrix ?? `recolte-${r.id}`, champ: "unite", libelle: r.libelle });
      if (pv && quantite !== null && p.valeur !== null) {
        if (c.explique)
          c.cite({
            objet: "prix",
            id: r.clePrix ?? "",
            libelle: pv.libelle ?? r.libelle,
            valeur: pv.valeur,
            unite: `€/${unitePrix(pv)}`,
            source: pv.source ?? jeu,
          });
        c.ajoute(
          quantite * pv.valeur * p.valeur,
          !c.explique
            ? SANS_ENTREE
            : { objet: "recolte", id: r.id, libelle: r.libelle, valeur: r.rendement ?? undefined, unite: r.unite, date: i.date, idIntervention: i.id },
        );
      }
    }
  }

  // A plot with a crop and no harvest of its main product recorded: its gross product is not zero but unknown.
  if (parcelle?.idCulture != null && !recoltes.some(({ r }) => estPrincipale(r))) {
    const absente = { objet: "parcelle" as const, id: parcelle.id, champ: "recoltePrincipale", libelle: parcelle.libelle };
    pb.attend().manque(absente);
    rendementPrincipal.attend().manque(absente);
  }

  for (const i of retenues) {
    const p = passages(i);
    for (const intrant of i.intrants) {
      const c = co[familleCharges(intrant)].attend();
      if (p.manquant) c.manque(p.manquant);
      const pa = intrant.clePrix ? prix?.appro[intrant.clePrix] : undefined;
      if (!pa) {
        c.manque({ objet: "prix", id: intrant.clePrix ?? `intrant-${intrant.id}`, champ: "prixAchat", libelle: intrant.libelle });
        continue;
      }
      // A per-hectolitre phyto dose is first put per hectare through the spray volume (decision 0085).
      const parHa = estNombre(intrant.dose)
        ? intrant.type === "phyto"
          ? doseParHectare(intrant.dose, intrant.unite, intrant.volumeBouillie)
          : { dose: intrant.dose, unite: intrant.unite }
        : null;
      const quantite = parHa ? quantiteEnUnitePrix(parHa.dose, parHa.unite ?? (intrant.type === "eau" ? "mm" : null), unitePrix(pa)) : null;
      if (quantite === null) {
        c.manque({ objet: "intrant", id: intrant.id, champ: estNombre(intrant.dose) ? "unite" : "dose", libelle: intrant.libelle });
        continue;
      }
      if (p.valeur === null) continue;
      if (c.explique)
        c.cite({
          objet: "prix",
          id: intrant.clePrix ?? "",
          libelle: pa.libelle ?? intrant.libelle,
          valeur: pa.valeur,
          unite: `€/${unitePrix(pa)}`,
          source: pa.source ?? jeu,
        });
      c.ajoute(
        quantite * pa.valeur * p.valeur,
        !c.explique
          ? SANS_ENTREE
          : {
              objet: "intrant",
              id: intrant.id,
              libelle: intrant.libelle,
              valeur: intrant.dose ?? undefined,
              unite: intrant.unite ?? undefined,
              date: i.date,
              idIntervention: i.id,
            },
      );
    }

    // Mechanisation and labour
    const x = ctx.explique !== false;
    const entree = x ? { objet: "intervention" as const, id: i.id, libelle: i.libelle ?? i.operation?.libelle, date: i.date } : null;
    cm.attend();
    if (p.manquant) cm.manque(p.manquant);
    if (!i.operation) cm.manque({ objet: "intervention", id: i.id, champ: "operation" });
    else if (!estNombre(i.operation.chargesMecanisation))
      cm.manque({ objet: "operation", id: i.operation.id, champ: "chargesMecanisation", libelle: i.operation.libelle });
    else if (p.valeur !== null)
      cm.ajoute(
        i.operation.chargesMecanisation * p.valeur,
        entree ? { ...entree, valeur: i.operation.chargesMecanisation, unite: "€/ha par passage" } : SANS_ENTREE,
      );

    if (i.operation?.eta) continue; // the contractor's price includes labour
    const cmo = i.operation?.mecanisee === false ? cmoManuelle : cmoTractoriste;
    cmo.attend(2);
    const temps = tempsIntervention(i);
    if (p.manquant) cmo.manque(p.manquant);
    if (i.operation && !temps) cmo.manque({ objet: "operation", id: i.operation.id, champ: "debit", libelle: i.operation.libelle });
    if (!i.operation) cmo.manque({ objet: "intervention", id: i.id, champ: "operation" });
    if (personnesSupposees(i)) cmo.manque({ objet: "operation", id: i.operation!.id, champ: "mainOeuvre", libelle: i.operation!.libelle });
    if (!estNombre(ctx.tauxHoraireMainOeuvre))
      cmo.manque({ objet: "exploitation", id: ctx.exploitation?.id ?? "exploitation", champ: "tauxHoraireMainOeuvre" });
    else if (temps)
      cmo.ajoute(
        temps.heures * ctx.tauxHoraireMainOeuvre,
        entree ? { ...entree, valeur: temps.heures, unite: `h/ha × ${Math.round(ctx.tauxHoraireMainOeuvre * 100) / 100} €/h` } : SANS_ENTREE,
      );
  }

  const r: Indicateurs = {};
  for (const c of [pb, coProduits, rendementPrincipal, ...Object.values(co), cm, cmoTractoriste, cmoManuelle]) r[c.code] = c.resultat();
  r[k("chargesOperationnelles")] = combiner(
    k("chargesOperationnelles"),
    "€/ha",
    "7.7",
    FAMILLES_CHARGES.map((f) => [1, r[co[f].code]]),
  );
  r[k("chargesMainOeuvre")] = combiner(k("chargesMainOeuvre"), "€/ha", "7.7", [
    [1, r[cmoTractoriste.code]],
    [1, r[cmoManuelle.code]],
  ]);
  r[k("margeBrute")] = combiner(k("margeBrute"), "€/ha", "7.7", [
    [1, r[pb.code]],
    [-1, r[k("chargesOperationnelles")]],
  ]);
  r[k("margeSemiNette")] = combiner(k("margeSemiNette"), "€/ha", "7.7", [
    [1, r[k("margeBrute")]],
    [-1, r[cm.code]],
  ]);
  r[k("margeDirecte")] = combiner(k("margeDirecte"), "€/ha", "7.7", [
    [1, r[k("margeSemiNette")]],
    [-1, r[k("chargesMainOeuvre")]],
  ]);

  // Structure: land rent and diverse costs, as the campaign's economics screen records them (spec 3 §9 defaults when
  // empty): a defaulted term is listed missing, so the figure is not complete on a guess (decision 0086).
  const e = ctx.exploitation;
  const fermage = estNombre(e?.fermageHa) ? e.fermageHa : DEFAUTS_ECONOMIE.fermageHa;
  const diversesExploitation = estNombre(e?.chargesDiversesExploitation) ? e.chargesDiversesExploitation : DEFAUTS_ECONOMIE.chargesDiversesExploitation;
  const diversesHa = estNombre(e?.chargesDiversesHa) ? e.chargesDiversesHa : DEFAUTS_ECONOMIE.chargesDiversesHa;
  const surface = ctx.surfaceExploitation ?? 0;
  const structure = new Cumul(k("chargesStructure"), "€/ha", "7.7", ctx.explique);
  const idExploitation = e?.id ?? "exploitation";
  structure.attend(2);
  if (!estNombre(e?.fermageHa))
    structure.manque({ objet: "exploitation", id: idExploitation, champ: "fermageMoyen", libelle: e?.libelle }).remarque("fermage-defaut");
  if (!estNombre(e?.chargesDiversesExploitation) || !estNombre(e?.chargesDiversesHa))
    structure.manque({ objet: "exploitation", id: idExploitation, champ: "chargesDiverses", libelle: e?.libelle }).remarque("charges-diverses-defaut");
  structure.ajoute(fermage, { objet: "exploitation", id: "fermageHa", valeur: fermage, unite: "€/ha" });
  structure.ajoute(diversesHa, { objet: "exploitation", id: "chargesDiversesHa", valeur: diversesHa, unite: "€/ha" });
  if (surface > 0)
    structure.ajoute(diversesExploitation / surface, {
      objet: "exploitation",
      id: "chargesDiversesExploitation",
      valeur: diversesExploitation,
      unite: `€ / ${surface} ha`,
    });
  r[structure.code] = structure.resultat();
  r[k("coutsNets")] = combiner(k("coutsNets"), "€/ha", "7.7", [
    [1, r[k("chargesOperationnelles")]],
    [1, r[cm.code]],
    [1, r[k("chargesMainOeuvre")]],
    [1, r[structure.code]],
    [-1, r[coProduits.code]],
  ]);
  for (const def of ratiosCoutProduction(jeu)) {
    const x = ratio(def, r);
    if (x) r[def.code] = x;
  }
  return r;
}
