/**
 * Nutrients applied (mineral and organic N, P2O5, K2O; CaO, MgO, SO3) and the N balance
 * (research §1 "Inputs", §7; docs/indicators.md §7.4, §7.5; decision 0044).
 *
 *   product (kg/ha)   = dose × 1000 (t/ha) | × 1 (kg/ha) | × density kg/L (l/ha)
 *   element (kg/ha)   = Σ product × % / 100 × passes                     (spec 3 §9 custom composition)
 *   N exported        = Σ harvests yield (t/ha) × N content (kg N/t) × passes
 *   N balance         = N mineral + N organic + symbiotic fixation − N exported    (kg N/ha)
 *   N efficiency      = N exported / (N mineral + N organic + fixation)
 */

import { contexte as contexteDefaut, interventionsRetenues, passages, type Contexte } from "./contexte";
import { Cumul, estNombre, ratio, SANS_ENTREE, type DefinitionRatio } from "./resultat";
import type { Indicateurs, IntrantFertilisant, InterventionCampagne, ParcelleCampagne } from "./types";

export const ELEMENTS_BILAN = ["n", "p2o5", "k2o"] as const;
export const ELEMENTS_AUTRES = ["cao", "mgo", "so3"] as const;

/** Product mass per hectare, kg/ha; `densiteSupposee` when an l/ha dose had no density (1 kg/L assumed). */
export function produitKgHa(intrant: Pick<IntrantFertilisant, "dose" | "unite" | "densite">): { kg: number; densiteSupposee: boolean } | null {
  if (!estNombre(intrant.dose)) return null;
  const unite = (intrant.unite ?? "").toLowerCase();
  if (unite === "t/ha") return { kg: intrant.dose * 1000, densiteSupposee: false };
  if (unite === "kg/ha") return { kg: intrant.dose, densiteSupposee: false };
  if (unite === "l/ha") {
    const densite = estNombre(intrant.densite) && intrant.densite > 0 ? intrant.densite : null;
    return { kg: intrant.dose * (densite ?? 1), densiteSupposee: densite === null };
  }
  return null;
}

/** Yield in t/ha from t/ha, q/ha or kg/ha; null for other units (grazing days…). */
export function rendementTHa(rendement: number | null | undefined, unite: string | null | undefined): number | null {
  if (!estNombre(rendement)) return null;
  const u = (unite ?? "").toLowerCase();
  if (u === "t/ha") return rendement;
  if (u === "q/ha") return rendement / 10;
  if (u === "kg/ha") return rendement / 1000;
  return null;
}

/** For each element, in order, the codes an input of each nature adds to. */
const CODES_ELEMENTS: Record<IntrantFertilisant["nature"], Array<[(typeof ELEMENTS_BILAN)[number] | (typeof ELEMENTS_AUTRES)[number], string[]]>> = {
  mineral: [
    ...ELEMENTS_BILAN.map((el) => [el, [`fertilisation.${el}.mineral`, `fertilisation.${el}.total`]] as [typeof el, string[]]),
    ...ELEMENTS_AUTRES.map((el) => [el, [`fertilisation.${el}.total`]] as [typeof el, string[]]),
  ],
  organique: [
    ...ELEMENTS_BILAN.map((el) => [el, [`fertilisation.${el}.organique`, `fertilisation.${el}.total`]] as [typeof el, string[]]),
    ...ELEMENTS_AUTRES.map((el) => [el, [`fertilisation.${el}.total`]] as [typeof el, string[]]),
  ],
};

const compositionDonnee = (i: IntrantFertilisant) => i.composition != null && Object.values(i.composition).some(estNombre);

/**
 * Nutrient indicators of a list of interventions, kg/ha of their plot: "fertilisation.<element>.<mineral|organique|total>"
 * for N, P2O5, K2O and "fertilisation.<element>.total" for CaO, MgO, SO3.
 */
export function indicateursFertilisation(interventions: InterventionCampagne[], ctx: Contexte = contexteDefaut()): Indicateurs {
  const cumuls = new Map<string, Cumul>();
  const cumul = (code: string) => {
    let c = cumuls.get(code);
    if (!c) cumuls.set(code, (c = new Cumul(code, `kg ${code.split(".")[1].toUpperCase()}/ha`, "7.4", ctx.explique)));
    return c;
  };
  for (const el of ELEMENTS_BILAN) for (const n of ["mineral", "organique", "total"]) cumul(`fertilisation.${el}.${n}`);
  for (const el of ELEMENTS_AUTRES) cumul(`fertilisation.${el}.total`);

  for (const intervention of interventionsRetenues(interventions, ctx.options)) {
    const fertilisants = intervention.intrants.filter((i): i is IntrantFertilisant => i.type === "fertilisant");
    if (fertilisants.length === 0) continue;
    const p = passages(intervention);
    for (const intrant of fertilisants) {
      const produit = produitKgHa(intrant);
      const avecComposition = compositionDonnee(intrant);
      for (const [el, codes] of CODES_ELEMENTS[intrant.nature]) {
        for (const code of codes) {
          const c = cumul(code).attend();
          if (p.manquant) c.manque(p.manquant);
          if (!produit) c.manque({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
          if (!avecComposition) c.manque({ objet: "intrant", id: intrant.id, champ: "composition", libelle: intrant.libelle });
          if (produit?.densiteSupposee) c.manque({ objet: "intrant", id: intrant.id, champ: "densite", libelle: intrant.libelle }).remarque("densite-1");
          if (!produit || !avecComposition || p.valeur === null) continue;
          const pourcentage = intrant.composition?.[el];
          if (!estNombre(pourcentage) || pourcentage === 0) continue;
          c.ajoute(
            ((produit.kg * pourcentage) / 100) * p.valeur,
            !c.explique
              ? SANS_ENTREE
              : {
                  objet: "intrant",
                  id: intrant.id,
                  libelle: intrant.libelle,
                  valeur: pourcentage,
                  unite: `% de ${produit.kg} kg/ha × ${p.valeur} passage(s)`,
                  date: intervention.date,
                  idIntervention: intervention.id,
                },
          );
        }
      }
    }
  }
  return Object.fromEntries([...cumuls].map(([code, c]) => [code, c.resultat()]));
}

export const RATIO_EFFICIENCE_AZOTE: DefinitionRatio = {
  code: "bilanAzote.efficience",
  unite: "kg N/kg N",
  formule: "7.5",
  numerateur: "bilanAzote.exporte",
  denominateur: "bilanAzote.apports",
};

/**
 * N balance of a plot (research §7): N exported by the harvests, N inputs (mineral + organic + fixation),
 * the balance and the efficiency. Grazing and harvests in other units than a mass per ha export nothing here.
 */
export function indicateursBilanAzote(
  interventions: InterventionCampagne[],
  parcelle: Pick<ParcelleCampagne, "id" | "libelle" | "fixationAzote"> | null,
  fertilisation: Indicateurs,
  ctx: Contexte = contexteDefaut(),
): Indicateurs {
  const exporte = new Cumul("bilanAzote.exporte", "kg N/ha", "7.5", ctx.explique);
  for (const intervention of interventionsRetenues(interventions, ctx.options)) {
    for (const recolte of intervention.recoltes) {
      if (recolte.pature) {
        exporte.remarque("pature-non-comptee");
        continue;
      }
      exporte.attend();
      const p = passages(intervention);
      // A forage's yield in t MS/ha goes with an N content per t of dry matter (the reference table's unit).
      const t = rendementTHa(recolte.rendement, (recolte.unite ?? "").replace(/^t ms\/ha$/i, "t/ha"));
      if (p.manquant) exporte.manque(p.manquant);
      if (t === null) exporte.manque({ objet: "recolte", id: recolte.id, champ: "rendement", libelle: recolte.libelle });
      if (!estNombre(recolte.teneurAzote)) exporte.manque({ objet: "recolte", id: recolte.id, champ: "teneurAzote", libelle: recolte.libelle });
      if (t === null || p.valeur === null || !estNombre(recolte.teneurAzote)) continue;
      exporte.ajoute(t * recolte.teneurAzote * p.valeur, {
        objet: "recolte",
        id: recolte.id,
        libelle: recolte.libelle,
        valeur: t,
        unite: `t/ha × ${recolte.teneurAzote} kg N/t`,
        ...(recolte.sourceTeneurAzote ? { source: recolte.sourceTeneurAzote } : {}),
        date: intervention.date,
        idIntervention: intervention.id,
      });
    }
  }
  const apports = new Cumul("bilanAzote.apports", "kg N/ha", "7.5", ctx.explique);
  for (const code of ["fertilisation.n.mineral", "fertilisation.n.organique"]) {
    const ind = fertilisation[code];
    apports.attendus += ind.attendus;
    ind.manquants.forEach((m) => apports.manque(m));
    apports.ajoute(ind.valeur ?? 0, { objet: "indicateur", id: code, valeur: ind.valeur ?? 0, unite: "kg N/ha" });
  }
  if (parcelle && estNombre(parcelle.fixationAzote))
    apports.ajoute(parcelle.fixationAzote, {
      objet: "parcelle",
      id: parcelle.id,
      libelle: `${parcelle.libelle} : fixation symbiotique`,
      valeur: parcelle.fixationAzote,
      unite: "kg N/ha",
    });

  const e = exporte.resultat();
  const a = apports.resultat();
  const solde = new Cumul("bilanAzote.solde", "kg N/ha", "7.5", ctx.explique);
  solde.attendus = a.attendus + e.attendus;
  [...a.manquants, ...e.manquants].forEach((m) => solde.manque(m));
  solde.ajoute(a.valeur ?? 0, { objet: "indicateur", id: "bilanAzote.apports", valeur: a.valeur ?? 0, unite: "kg N/ha" });
  solde.ajoute(-(e.valeur ?? 0), { objet: "indicateur", id: "bilanAzote.exporte", valeur: e.valeur ?? 0, unite: "kg N/ha" });
  const resultat: Indicateurs = { "bilanAzote.exporte": e, "bilanAzote.apports": a, "bilanAzote.solde": solde.resultat() };
  const eff = ratio(RATIO_EFFICIENCE_AZOTE, resultat);
  if (eff) resultat[eff.code] = eff;
  return resultat;
}
