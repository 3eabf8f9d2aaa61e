/**
 * The pre-check run before a calculation (spec 3 §5 "Calculation pre-checks", §7 calculs_series/check;
 * checklist C-CHECK; docs/indicators.md §7.12). Pure: it reads the same snapshot as the engine plus the
 * farm's machines and the campaign's loan figures.
 *
 * Answer: code_retour "Erreur" when any item offends, else "OK", with the list of offending items, each
 * with a message code a screen translates (placeholders: the object's label and value).
 */

import { interventionsRetenues } from "./contexte";
import { estNombre } from "./resultat";
import { debitIntervention } from "./travail";
import type { InstantaneCampagne, ObjetDonnee, OptionsCalcul } from "./types";

/** Bounds of spec 3 §5 (also spec 2 §5, §9). */
export const BORNES_CONTROLE = {
  prixAchat: [0, 2_000_000],
  tauxRevente: [0, 100],
  ageAchat: [0, 20],
  obsolescence: [0, 20],
  usure: [0, 500_000],
  longTermeTaux: [0, 100],
  longTermeDuree: [1, 20],
  valeurRemplacement: [0, 100],
} as const;

export type MaterielControle = {
  id: number;
  libelle: string;
  prixAchat?: number | null;
  tauxRevente?: number | null;
  ageAchat?: number | null;
  obsolescence?: number | null;
  usure?: number | null;
};

export type ComplementsControle = {
  materiels?: MaterielControle[];
  /** The campaign's long-term loan rate (%) and duration (years), and replacement value (%). */
  longTermeTaux?: number | null;
  longTermeDuree?: number | null;
  valeurRemplacement?: number | null;
};

export const MESSAGES_CONTROLE = {
  composition: "indicateurs.controle.composition",
  type: "indicateurs.controle.type-intrant",
  matiereActive: "indicateurs.controle.matiere-active",
  surface: "indicateurs.controle.surface",
  debitIrrigation: "indicateurs.controle.debit-irrigation",
  debit: "indicateurs.controle.debit",
  rendement: "indicateurs.controle.rendement",
  dureePature: "indicateurs.controle.duree-pature",
  cultureItineraire: "indicateurs.controle.culture-itineraire",
  cultureIntervention: "indicateurs.controle.culture-intervention",
  amm: "indicateurs.controle.amm",
  materiel: "indicateurs.controle.materiel-hors-bornes",
  emprunt: "indicateurs.controle.emprunt-hors-bornes",
  valeurRemplacement: "indicateurs.controle.valeur-remplacement",
  coefficientEmission: "indicateurs.controle.coefficient-emission-semence",
} as const;

export type MessageControle = {
  code: (typeof MESSAGES_CONTROLE)[keyof typeof MESSAGES_CONTROLE];
  objet: ObjetDonnee | "materiel";
  id: number | string;
  libelle?: string;
  /** The field at fault and, for a bound, its value. */
  champ?: string;
  valeur?: number | null;
};

export type ResultatControle = { codeRetour: "OK" | "Erreur"; details: MessageControle[] };

const horsBornes = (valeur: number | null | undefined, [min, max]: readonly [number, number]) => estNombre(valeur) && (valeur < min || valeur > max);

export function controlerCampagne(instantane: InstantaneCampagne, complements: ComplementsControle = {}, options: OptionsCalcul = {}): ResultatControle {
  const d: MessageControle[] = [];
  const M = MESSAGES_CONTROLE;
  for (const p of instantane.parcelles) {
    if (!estNombre(p.surface) || p.surface <= 0) d.push({ code: M.surface, objet: "parcelle", id: p.id, libelle: p.libelle });
    if (p.idCulture == null) d.push({ code: M.cultureItineraire, objet: "parcelle", id: p.id, libelle: p.libelle });
  }
  for (const i of interventionsRetenues(instantane.interventions, options)) {
    const libelle = i.libelle ?? i.operation?.libelle;
    if (i.idCultureConcernee === null) d.push({ code: M.cultureIntervention, objet: "intervention", id: i.id, libelle });
    if (i.operation?.irrigation) {
      if (!estNombre(i.operation.debitIrrigation) || i.operation.debitIrrigation <= 0)
        d.push({ code: M.debitIrrigation, objet: "operation", id: i.operation.id, libelle: i.operation.libelle });
    } else if (i.operation && debitIntervention(i) === null) d.push({ code: M.debit, objet: "intervention", id: i.id, libelle });
    for (const r of i.recoltes) {
      if (!estNombre(r.rendement)) d.push({ code: r.pature ? M.dureePature : M.rendement, objet: "recolte", id: r.id, libelle: r.libelle });
    }
    for (const x of i.intrants) {
      const e = { objet: "intrant" as const, id: x.id, libelle: x.libelle };
      if (x.idCategorie === null) d.push({ code: M.type, ...e });
      if (x.type === "fertilisant" && !(x.composition && Object.values(x.composition).some(estNombre))) d.push({ code: M.composition, ...e });
      if (x.type === "phyto") {
        if (!x.amm) d.push({ code: M.amm, ...e });
        if (!x.substances?.length || x.substances.some((s) => !estNombre(s.concentration))) d.push({ code: M.matiereActive, ...e });
      }
      if (x.type === "semence" && !estNombre(x.coefficientEmission)) d.push({ code: M.coefficientEmission, ...e });
    }
  }
  for (const m of complements.materiels ?? []) {
    for (const champ of ["prixAchat", "tauxRevente", "ageAchat", "obsolescence", "usure"] as const) {
      if (horsBornes(m[champ], BORNES_CONTROLE[champ])) d.push({ code: M.materiel, objet: "materiel", id: m.id, libelle: m.libelle, champ, valeur: m[champ] });
    }
  }
  for (const champ of ["longTermeTaux", "longTermeDuree"] as const) {
    if (horsBornes(complements[champ], BORNES_CONTROLE[champ]))
      d.push({ code: M.emprunt, objet: "exploitation", id: instantane.exploitation.id, champ, valeur: complements[champ] });
  }
  if (horsBornes(complements.valeurRemplacement, BORNES_CONTROLE.valeurRemplacement))
    d.push({
      code: M.valeurRemplacement,
      objet: "exploitation",
      id: instantane.exploitation.id,
      champ: "valeurRemplacement",
      valeur: complements.valeurRemplacement,
    });
  return { codeRetour: d.length ? "Erreur" : "OK", details: d };
}
