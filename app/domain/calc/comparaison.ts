/**
 * Campaign against simulation (issue 14, beyond; decision 0069): the figures of a campaign's series and of its
 * simulation's series side by side, indicator by indicator, with the difference (simulation − campaign) in the
 * indicator's unit and in % of the campaign's figure. Pure: the service reads the stored rows, the screen shows these.
 */

import { groupeDuCode } from "./serie";

/** One stored figure of a series (a calcul_resultat row as the service reads it). */
export type FigureSerie = { niveau: string; idEntite: string; code: string; valeur: number | null; unite: string; completude: number; nbManquants: number };
export type FigureComparee = { valeur: number | null; unite: string; completude: number; nbManquants: number };

/** Which way the simulation moves the figure; null when either side has no value. */
export type SensEcart = "hausse" | "baisse" | "egal";

export type LigneComparaison = {
  niveau: string;
  idEntite: string;
  code: string;
  idGroupe: number | null;
  base: FigureComparee | null;
  simulation: FigureComparee | null;
  /** simulation − campaign, in the indicator's unit. */
  ecart: number | null;
  /** The difference in % of the campaign's figure (null when the campaign's figure is 0 or missing). */
  ecartPct: number | null;
  sens: SensEcart | null;
};

/** Below this a difference is rounding noise of the stored decimals: the figures are equal. */
const EPSILON = 1e-9;

export function ecartDe(base: number | null | undefined, simulation: number | null | undefined): Pick<LigneComparaison, "ecart" | "ecartPct" | "sens"> {
  if (base == null || simulation == null || !Number.isFinite(base) || !Number.isFinite(simulation)) return { ecart: null, ecartPct: null, sens: null };
  const brut = simulation - base;
  const ecart = Math.abs(brut) < EPSILON ? 0 : brut;
  return {
    ecart,
    ecartPct: Math.abs(base) < EPSILON ? null : (ecart / Math.abs(base)) * 100,
    sens: ecart === 0 ? "egal" : ecart > 0 ? "hausse" : "baisse",
  };
}

const cle = (f: Pick<FigureSerie, "niveau" | "idEntite" | "code">) => `${f.niveau}|${f.idEntite}|${f.code}`;
const figure = (f: FigureSerie): FigureComparee => ({ valeur: f.valeur, unite: f.unite, completude: f.completude, nbManquants: f.nbManquants });

/**
 * Pairs the two series' figures by level, entity and code. Rows keep the engine's order (the campaign's rows first,
 * then those only the simulation has); a figure one side lacks shows empty on that side.
 */
export function comparerFigures(base: readonly FigureSerie[], simulation: readonly FigureSerie[]): LigneComparaison[] {
  const sim = new Map(simulation.map((f) => [cle(f), f]));
  const vus = new Set<string>();
  const lignes: LigneComparaison[] = [];
  const ajouter = (b: FigureSerie | undefined, s: FigureSerie | undefined) => {
    const f = (b ?? s)!;
    lignes.push({
      niveau: f.niveau,
      idEntite: f.idEntite,
      code: f.code,
      idGroupe: groupeDuCode(f.code),
      base: b ? figure(b) : null,
      simulation: s ? figure(s) : null,
      ...ecartDe(b?.valeur, s?.valeur),
    });
  };
  for (const b of base) {
    const k = cle(b);
    if (vus.has(k)) continue;
    vus.add(k);
    ajouter(b, sim.get(k));
  }
  for (const s of simulation)
    if (!vus.has(cle(s))) {
      vus.add(cle(s));
      ajouter(undefined, s);
    }
  return lignes;
}
