/**
 * Objectives against results (issue 24; decision 0087): which figure of the engine each objective indicator of the
 * protocol (table indicateur, spec 3 §3.9, by its indCode) is compared with, and in which direction. A figure meets
 * a ceiling when it is at or below the objective, a floor when it is at or above it. Pure: the objectives service
 * and the screen use the same answers.
 */

export type SensObjectif = "plafond" | "plancher";

export type CorrespondanceObjectif = {
  /** The engine's indicator code the objective is compared with (docs/indicators.md §7). */
  code: string;
  sens: SensObjectif;
};

/**
 * indCode → engine figure and direction. Pressures and costs are ceilings (IFT, nitrogen applied and balance
 * surplus, energy, greenhouse gases, operating costs, working time); a margin is a floor.
 */
export const CORRESPONDANCES_OBJECTIFS: Readonly<Record<string, CorrespondanceObjectif>> = {
  IFT_TOT: { code: "ift.cible.total", sens: "plafond" },
  IFT_H: { code: "ift.cible.herbicides", sens: "plafond" },
  IFT_HH: { code: "ift.cible.horsHerbicides", sens: "plafond" },
  N_MIN: { code: "fertilisation.n.mineral", sens: "plafond" },
  N_BILAN: { code: "bilanAzote.solde", sens: "plafond" },
  ENERGIE: { code: "energie.totale", sens: "plafond" },
  GES: { code: "ges.total", sens: "plafond" },
  MSN: { code: "economie.reel.margeSemiNette", sens: "plancher" },
  CH_OP: { code: "economie.reel.chargesOperationnelles", sens: "plafond" },
  TPS_TRAV: { code: "travail.temps.total", sens: "plafond" },
};

export const correspondanceObjectif = (indCode: string | null | undefined): CorrespondanceObjectif | null =>
  (indCode ? CORRESPONDANCES_OBJECTIFS[indCode] : undefined) ?? null;

/** Met, missed, or not judged: no objective value, no figure, or no engine figure for the indicator. */
export type Verdict = "atteint" | "manque" | "sans-objectif" | "sans-resultat" | "sans-correspondance";

export function verdictObjectif(objectif: number | null, valeur: number | null | undefined, sens: SensObjectif | null): Verdict {
  if (sens == null) return "sans-correspondance";
  if (objectif == null) return "sans-objectif";
  if (valeur == null || !Number.isFinite(valeur)) return "sans-resultat";
  // The figures are stored unrounded: compare them as shown (2 decimals), so that 3.2 shown meets a 3.2 ceiling.
  const v = Math.round(valeur * 100) / 100;
  return (sens === "plafond" ? v <= objectif : v >= objectif) ? "atteint" : "manque";
}

/** How far from the objective, in the indicator's unit: positive is on the good side (under a ceiling, over a floor). */
export function ecartObjectif(objectif: number | null, valeur: number | null | undefined, sens: SensObjectif | null): number | null {
  if (sens == null || objectif == null || valeur == null || !Number.isFinite(valeur)) return null;
  return sens === "plafond" ? objectif - valeur : valeur - objectif;
}

// ---------------------------------------------------------------------------------------------
// What the objectives service answers the screen.

export type FigureObjectif = { idEntite: string; libelle: string; valeur: number | null; completude: number | null; verdict: Verdict; ecart: number | null };

export type LigneObjectif = {
  id: number;
  idIndicateur: number;
  indCode: string | null;
  indNom: string;
  indNomEn: string | null;
  unite: string;
  /** The engine figure compared, its direction (decision 0087), and the objective. */
  code: string | null;
  sens: SensObjectif | null;
  objectif: number | null;
  exploitation: FigureObjectif | null;
  cultures: FigureObjectif[];
  parcelles: FigureObjectif[];
};

export type PointTrajectoire = {
  idCampagne: number;
  campagne: string;
  anneeRecolte: number;
  idSerie: number | null;
  objectif: number | null;
  valeur: number | null;
  verdict: Verdict;
};

export type EcranObjectifs = {
  idCampagne: number;
  campagne: string;
  exploitation: string;
  /** The latest finished series of the campaign the user may see, or null. */
  serie: { id: number; dtFin: string | null; perimee: boolean; publication: boolean } | null;
  lignes: LigneObjectif[];
  /** Per objective indicator (by idIndicateur), the farm figure and objective of each campaign of the farm. */
  trajectoires: { idIndicateur: number; indNom: string; indNomEn: string | null; unite: string; sens: SensObjectif | null; points: PointTrajectoire[] }[];
  /** Whether the user may open the series' detail (the calculation right). */
  peutOuvrirSerie: boolean;
};
