import { round } from "./resultat";

/**
 * How an indicator's figure is shown, by its unit (issue 29; decision 0118): the one rounding rule of the screens
 * (the series' charts and tables, the plot panel, the pre-check: `formatNumber(valeur, langue, 2)`, completeness
 * `formatNumber(completude, langue, 0)`) and of the result workbook, which writes the rounded number, not its text.
 *
 * - a completeness or any figure in percent: a whole number (73 %);
 * - every other indicator unit (€/ha, €/t, doses de référence/ha, kg N/ha, h/ha, L/ha, MJ/ha, kg CO2e/ha, t/ha...):
 *   two decimals at most (3.426573 doses/ha: 3.43).
 */
export const DECIMALES_INDICATEUR = 2;
export const DECIMALES_POURCENTAGE = 0;

/** The decimals shown for a figure of this unit. */
export function decimalesIndicateur(unite: string | null | undefined): number {
  return (unite ?? "").trim() === "%" ? DECIMALES_POURCENTAGE : DECIMALES_INDICATEUR;
}

/** The figure as shown for its unit (null stays null; an infinite or NaN value is no figure). */
export function arrondiIndicateur(valeur: number | null | undefined, unite: string | null | undefined): number | null {
  if (valeur == null || !Number.isFinite(valeur)) return null;
  return round(valeur, decimalesIndicateur(unite));
}

/** A completeness (out of 100) as shown: a whole number. */
export function arrondiCompletude(completude: number | null | undefined): number | null {
  return arrondiIndicateur(completude, "%");
}

/** The spreadsheet number format of a figure of this unit: grouped digits and its decimals ("#,##0.##"). */
export function formatTableurIndicateur(unite: string | null | undefined): string {
  const d = decimalesIndicateur(unite);
  return d ? `#,##0.${"#".repeat(d)}` : "#,##0";
}
