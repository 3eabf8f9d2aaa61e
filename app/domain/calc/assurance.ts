/**
 * Crop insurance estimate of a management mode (spec 2 §3 Crop insurance, §4; docs/indicators.md
 * "Crop insurance estimate"). Pure functions; the server loads the recorded harvests.
 *
 * Units: yields in the output type's unit per hectare (t/ha, t MS/ha; days for grazing), prices in €
 * per that unit, amounts in €/ha, the franchise in % of the insured yield.
 */

/** One plot's harvest of the crop and output type in a campaign: its yield and the plot's surface (ha). */
export type RecoltePlot = { idParcelle: number; rendement: number; surface: number | null };

/** Number of years of the reference (olympic) average, and how many extremes it drops at each end. */
export const ANNEES_REFERENCE = 5;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The campaign's yield: the yields of a plot's harvests add up (several cuts of a meadow, a harvest in
 * two passes), then the plots are averaged weighted by their surface. Plots without a surface weigh
 * nothing, unless no plot has one (then a plain mean). Null without harvests.
 */
export function rendementCampagne(recoltes: readonly RecoltePlot[]): number | null {
  const byPlot = new Map<number, { rendement: number; surface: number | null }>();
  for (const r of recoltes) {
    const p = byPlot.get(r.idParcelle);
    if (p) p.rendement += r.rendement;
    else byPlot.set(r.idParcelle, { rendement: r.rendement, surface: r.surface });
  }
  const plots = [...byPlot.values()];
  if (plots.length === 0) return null;
  const weighted = plots.filter((p) => p.surface != null && p.surface > 0);
  if (weighted.length === 0) return plots.reduce((s, p) => s + p.rendement, 0) / plots.length;
  const surface = weighted.reduce((s, p) => s + p.surface!, 0);
  return weighted.reduce((s, p) => s + p.rendement * p.surface!, 0) / surface;
}

/**
 * The real average yield (rendementReelMoyen) from the yields of earlier years: with 5 years or more, the
 * olympic average of the 5 latest (the highest and the lowest dropped, the 3 others averaged), as the
 * reference yield of EU-subsidised crop insurance (Regulation (EU) 2021/2115 art. 76(5)); with fewer, the
 * plain mean; with none, null.
 */
export function rendementReelMoyen(annuels: readonly { anneeRecolte: number; rendement: number }[]): number | null {
  if (annuels.length === 0) return null;
  if (annuels.length < ANNEES_REFERENCE) return annuels.reduce((s, a) => s + a.rendement, 0) / annuels.length;
  const latest = [...annuels]
    .sort((a, b) => b.anneeRecolte - a.anneeRecolte)
    .slice(0, ANNEES_REFERENCE)
    .map((a) => a.rendement)
    .sort((a, b) => a - b);
  const middle = latest.slice(1, -1);
  return middle.reduce((s, v) => s + v, 0) / middle.length;
}

/** rendementNonIndemnisable = rendementAssure × txFranchise / 100: the loss the farmer bears. */
export function rendementNonIndemnisable(rendementAssure: number | null | undefined, txFranchise: number | null | undefined): number | null {
  if (rendementAssure == null || txFranchise == null) return null;
  return (rendementAssure * txFranchise) / 100;
}

/**
 * mtIndemniteCalculee (€/ha) = max(0, rendementAssure − rendementNonIndemnisable − rendement constaté) ×
 * mtPrixAssure, where the observed yield is the campaign's own when recorded, else the real average yield.
 * Null when a term is missing (a franchise left empty counts as 0 %).
 */
export function indemniteCalculee(input: {
  rendementAssure: number | null | undefined;
  txFranchise: number | null | undefined;
  mtPrixAssure: number | null | undefined;
  rendementConstate: number | null | undefined;
}): number | null {
  const { rendementAssure, mtPrixAssure, rendementConstate } = input;
  if (rendementAssure == null || mtPrixAssure == null || rendementConstate == null) return null;
  const franchise = rendementNonIndemnisable(rendementAssure, input.txFranchise ?? 0) ?? 0;
  return Math.max(0, rendementAssure - franchise - rendementConstate) * mtPrixAssure;
}

export type EstimationAssurance = {
  /** Yields of the earlier years used, newest first. */
  annees: { anneeRecolte: number; rendement: number }[];
  rendementReelMoyen: number | null;
  /** The current campaign's own yield, when harvests are recorded. */
  rendementCampagne: number | null;
  rendementNonIndemnisable: number | null;
  mtIndemniteCalculee: number | null;
};

/**
 * The whole estimate from the harvests of the earlier years (by harvest year) and of the current campaign,
 * rounded as stored (yields to 3 decimals, amounts to the cent).
 */
export function estimerAssurance(input: {
  anterieures: ReadonlyMap<number, readonly RecoltePlot[]>;
  courante: readonly RecoltePlot[];
  rendementAssure?: number | null;
  txFranchise?: number | null;
  mtPrixAssure?: number | null;
}): EstimationAssurance {
  const annees = [...input.anterieures.entries()]
    .map(([anneeRecolte, recoltes]) => ({ anneeRecolte, rendement: rendementCampagne(recoltes) }))
    .filter((a): a is { anneeRecolte: number; rendement: number } => a.rendement !== null)
    .sort((a, b) => b.anneeRecolte - a.anneeRecolte);
  const moyen = rendementReelMoyen(annees);
  const courant = rendementCampagne(input.courante);
  const nonIndemnisable = rendementNonIndemnisable(input.rendementAssure, input.txFranchise);
  const indemnite = indemniteCalculee({
    rendementAssure: input.rendementAssure,
    txFranchise: input.txFranchise,
    mtPrixAssure: input.mtPrixAssure,
    rendementConstate: courant ?? moyen,
  });
  return {
    annees: annees.map((a) => ({ ...a, rendement: round(a.rendement, 3) })),
    rendementReelMoyen: moyen === null ? null : round(moyen, 3),
    rendementCampagne: courant === null ? null : round(courant, 3),
    rendementNonIndemnisable: nonIndemnisable === null ? null : round(nonIndemnisable, 3),
    mtIndemniteCalculee: indemnite === null ? null : round(indemnite, 2),
  };
}
