import type { Indicateur } from "~/domain/calc/indicateurs/types";

/** One figure of the plot's indicator panel (issue 14). */
export type IndicateurPanneau = Pick<Indicateur, "code" | "valeur" | "unite" | "completude" | "manquants">;
/** The plot's indicator panel: its plot and its figures, in the panel's order. */
export type IndicateursParcelle = { idParcelle: number; libelle: string; indicateurs: IndicateurPanneau[] };
