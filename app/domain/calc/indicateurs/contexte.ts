/**
 * What every family of indicators reads besides the interventions: options, factors, prices, the
 * plot and the farm (docs/indicators.md §7.1).
 */

import { nombrePassages } from "../../intervention";
import { facteur as facteurParId } from "./facteurs";
import type { Facteur, InstantaneCampagne, InterventionCampagne, JeuPrix, Manquant, OptionsCalcul, ParcelleCampagne } from "./types";

export type Contexte = {
  options: Required<OptionsCalcul>;
  facteur: (id: string) => Facteur;
  prix: InstantaneCampagne["prix"];
  parcelle?: ParcelleCampagne;
  exploitation?: InstantaneCampagne["exploitation"];
  /** Total area of the farm's plots, ha (spreads the per-farm diverse costs). */
  surfaceExploitation?: number;
  tauxHoraireMainOeuvre?: number | null;
  /** Whether figures keep their explanation entries (default true; a series run computes without: decision 0070). */
  explique?: boolean;
};

export const OPTIONS_DEFAUT: Required<OptionsCalcul> = { realisation: "realisee", prg: "AR6", climat: "humide", horsHerbicidesAvecTS: false };

export function contexte(instantane?: Partial<InstantaneCampagne> | null, options?: OptionsCalcul): Contexte {
  const surcharges = instantane?.facteurs ?? null;
  const surface = (instantane?.parcelles ?? []).reduce((s, p) => s + (p.surface && p.surface > 0 ? p.surface : 0), 0);
  return {
    options: { ...OPTIONS_DEFAUT, ...options },
    facteur: (id) => facteurParId(id, surcharges),
    prix: instantane?.prix ?? { reel: { appro: {}, vente: {} } },
    exploitation: instantane?.exploitation,
    surfaceExploitation: surface,
    tauxHoraireMainOeuvre: instantane?.tauxHoraireMainOeuvre ?? null,
  };
}

/** The interventions that count (decision 0044): done ones, or planned ones for a simulation. */
export function interventionsRetenues(interventions: InterventionCampagne[], options: Pick<OptionsCalcul, "realisation">): InterventionCampagne[] {
  return interventions.filter((i) => ((options.realisation ?? "realisee") === "prevue" ? i.prevue : i.realisee));
}

/**
 * Passes of an intervention (spec 3 §3.1): frequency × surface rate, the share of the plot covered
 * over the campaign. Null (and a missing datum) when neither is set.
 */
export function passages(intervention: InterventionCampagne): { valeur: number | null; manquant?: Manquant } {
  // Each family asks again for the same intervention's passes (decision 0081): the answer is kept while the fields it
  // reads are unchanged (nombrePassages rounds through a string, a tenth of the engine's time on the series bench).
  const vu = PASSAGES.get(intervention);
  if (vu && vu.frequence === intervention.frequence && vu.tauxSurface === intervention.tauxSurface && vu.libelle === intervention.libelle) return vu.resultat;
  const valeur = nombrePassages(intervention.frequence, intervention.tauxSurface);
  const resultat: { valeur: number | null; manquant?: Manquant } =
    valeur === null
      ? { valeur: null, manquant: { objet: "intervention", id: intervention.id, champ: "tauxSurface", libelle: intervention.libelle } }
      : { valeur };
  PASSAGES.set(intervention, { frequence: intervention.frequence, tauxSurface: intervention.tauxSurface, libelle: intervention.libelle, resultat });
  return resultat;
}
const PASSAGES = new WeakMap<
  InterventionCampagne,
  {
    frequence: InterventionCampagne["frequence"];
    tauxSurface: InterventionCampagne["tauxSurface"];
    libelle: InterventionCampagne["libelle"];
    resultat: { valeur: number | null; manquant?: Manquant };
  }
>();

export type { JeuPrix };
