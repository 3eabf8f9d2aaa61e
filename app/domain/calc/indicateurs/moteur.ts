/**
 * Entry points of the indicator engine (issue 14; docs/indicators.md §7; decision 0044).
 *
 * - `calculerIntervention`: the indicators of one intervention (IFT per input inside, work, fuel, inputs),
 *   per hectare of its plot.
 * - `calculerParcelle`: every indicator of one plot (what a live recompute after a save needs).
 * - `calculerCampagne`: every plot, then crop, management mode and farm, area-weighted upward.
 *
 * Pure: the caller (a loader) fills an InstantaneCampagne from the database.
 */

import { contexte, interventionsRetenues, type Contexte } from "./contexte";
import { indicateursEconomie, ratiosCoutProduction } from "./economie";
import { indicateursEnergieGes } from "./energie-ges";
import { RATIO_EFFICIENCE_AZOTE, indicateursBilanAzote, indicateursFertilisation } from "./fertilisation";
import { indicateursIft } from "./ift";
import { agregerParSurface, grouper, type DefinitionRatio, type ParcelleIndicateurs } from "./resultat";
import { indicateursTravail } from "./travail";
import type { Indicateurs, InstantaneCampagne, InterventionCampagne, OptionsCalcul, ParcelleCampagne } from "./types";

/** Indicators recomputed from their numerator and denominator at every level. */
export const RATIOS: DefinitionRatio[] = [RATIO_EFFICIENCE_AZOTE, ...ratiosCoutProduction("reel"), ...ratiosCoutProduction("reference")];

function indicateursDe(interventions: InterventionCampagne[], parcelle: ParcelleCampagne | null, ctxCampagne: Contexte, avecReference: boolean): Indicateurs {
  const ctx: Contexte = parcelle ? { ...ctxCampagne, parcelle } : ctxCampagne;
  const travail = indicateursTravail(interventions, ctx);
  const fertilisation = indicateursFertilisation(interventions, ctx);
  const r: Indicateurs = {};
  Object.assign(r, indicateursIft(interventions, ctx), fertilisation, indicateursBilanAzote(interventions, parcelle, fertilisation, ctx), travail);
  Object.assign(r, indicateursEconomie(interventions, parcelle, "reel", ctx));
  if (avecReference) Object.assign(r, indicateursEconomie(interventions, parcelle, "reference", ctx));
  Object.assign(r, indicateursEnergieGes(interventions, travail, ctx));
  return r;
}

/** Indicators of one intervention, per hectare of its plot (the plot gives the crop for the main yield). */
export function calculerIntervention(instantane: InstantaneCampagne, intervention: InterventionCampagne, options?: OptionsCalcul): Indicateurs {
  const ctx = contexte(instantane, options);
  const parcelle = instantane.parcelles.find((p) => p.id === intervention.idParcelle) ?? null;
  return indicateursDe([intervention], parcelle, ctx, instantane.prix.reference != null);
}

export type ResultatParcelle = ParcelleIndicateurs & {
  /** The indicators of each counted intervention, by intervention id (only when asked: `parIntervention`). */
  interventions: Record<number, Indicateurs>;
};

export type OptionsMoteur = OptionsCalcul & {
  /** Also compute each intervention's indicators (a plot's detail; true by default for one plot, false for a campaign). */
  parIntervention?: boolean;
  /**
   * Keep each figure's explanation entries (true by default). A calculation series computes without them: it stores
   * values, completeness and missing data, and a plot's explanation is computed again when opened (decision 0070).
   */
  explications?: boolean;
};

const contexteMoteur = (instantane: InstantaneCampagne, options?: OptionsMoteur): Contexte => {
  const ctx = contexte(instantane, options);
  if (options?.explications === false) ctx.explique = false;
  return ctx;
};

function parcelleDe(
  instantane: InstantaneCampagne,
  parcelle: ParcelleCampagne,
  interventions: InterventionCampagne[],
  ctx: Contexte,
  parIntervention: boolean,
): ResultatParcelle {
  const avecReference = instantane.prix.reference != null;
  const detail: Record<number, Indicateurs> = {};
  if (parIntervention) for (const i of interventionsRetenues(interventions, ctx.options)) detail[i.id] = indicateursDe([i], parcelle, ctx, avecReference);
  return { parcelle, indicateurs: indicateursDe(interventions, parcelle, ctx, avecReference), interventions: detail };
}

export function calculerParcelle(instantane: InstantaneCampagne, idParcelle: number, options?: OptionsMoteur): ResultatParcelle {
  const ctx = contexteMoteur(instantane, options);
  const parcelle = instantane.parcelles.find((p) => p.id === idParcelle);
  if (!parcelle) throw new Error(`Unknown plot ${idParcelle}`);
  const interventions = instantane.interventions.filter((i) => i.idParcelle === idParcelle);
  return parcelleDe(instantane, parcelle, interventions, ctx, options?.parIntervention ?? true);
}

export type ResultatCampagne = {
  parcelles: ResultatParcelle[];
  /** By crop id ("null" = plots without a crop). */
  cultures: Record<string, Indicateurs>;
  /** By management-mode id ("null" = none). */
  modesConduite: Record<string, Indicateurs>;
  exploitation: Indicateurs;
};

/**
 * The campaign's context, once, and a function computing one of its plots with it: a calculation series computes
 * plot by plot (progress, a plot that fails does not stop the others), then aggregates with `agregerCampagne`.
 */
export function preparerCampagne(instantane: InstantaneCampagne, options?: OptionsMoteur): (parcelle: ParcelleCampagne) => ResultatParcelle {
  const ctx = contexteMoteur(instantane, options);
  const parParcelle = grouper(instantane.interventions, (i) => i.idParcelle);
  return (p) => parcelleDe(instantane, p, parParcelle.get(String(p.id)) ?? [], ctx, options?.parIntervention ?? false);
}

/** Crop, management mode and farm levels of computed plots, area-weighted (§7.2). */
export function agregerCampagne(parcelles: ResultatParcelle[]): ResultatCampagne {
  const parGroupe = (cle: (p: ResultatParcelle) => number | null) =>
    Object.fromEntries([...grouper(parcelles, cle)].map(([k, liste]) => [k, agregerParSurface(liste, RATIOS)]));
  return {
    parcelles,
    cultures: parGroupe((p) => p.parcelle.idCulture),
    modesConduite: parGroupe((p) => p.parcelle.idModeConduite),
    exploitation: agregerParSurface(parcelles, RATIOS),
  };
}

export function calculerCampagne(instantane: InstantaneCampagne, options?: OptionsMoteur): ResultatCampagne {
  const calculer = preparerCampagne(instantane, options);
  return agregerCampagne(instantane.parcelles.map(calculer));
}

export type NiveauResultat = "intervention" | "parcelle" | "culture" | "modeConduite" | "exploitation";

/** One row of a result table (series storage, result export): a level, its id, a code and the figure. */
export type LigneResultat = {
  niveau: NiveauResultat;
  /** The plot, crop, mode or intervention id; the farm id for the farm level. */
  id: number | string;
  /** The plot of an intervention or plot row. */
  idParcelle?: number;
  code: string;
  valeur: number | null;
  unite: string;
  completude: number;
  nbManquants: number;
};

/** Flattens a campaign result into rows, level by level (plots with their interventions when computed). */
export function lignesResultat(resultat: ResultatCampagne, idExploitation: number | string): LigneResultat[] {
  const lignes: LigneResultat[] = [];
  const ajouter = (niveau: NiveauResultat, id: number | string, indicateurs: Indicateurs, idParcelle?: number) => {
    for (const ind of Object.values(indicateurs))
      lignes.push({
        niveau,
        id,
        ...(idParcelle !== undefined ? { idParcelle } : {}),
        code: ind.code,
        valeur: ind.valeur,
        unite: ind.unite,
        completude: ind.completude,
        nbManquants: ind.manquants.length,
      });
  };
  for (const p of resultat.parcelles) {
    for (const [id, ind] of Object.entries(p.interventions)) ajouter("intervention", Number(id), ind, p.parcelle.id);
    ajouter("parcelle", p.parcelle.id, p.indicateurs, p.parcelle.id);
  }
  for (const [id, ind] of Object.entries(resultat.cultures)) ajouter("culture", id, ind);
  for (const [id, ind] of Object.entries(resultat.modesConduite)) ajouter("modeConduite", id, ind);
  ajouter("exploitation", idExploitation, resultat.exploitation);
  return lignes;
}
