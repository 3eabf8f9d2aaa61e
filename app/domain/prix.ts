import { z } from "zod";
import { decimalMax, INT_MAX, optionalNumber, requiredNumber } from "./validation";

/**
 * Supply and sale prices (spec 3 §2.4, §2.5, §3.7, §3.8, §4.3, §5 Prices, §9; decision 0034).
 *
 * - A supply price row is an input product as the campaign's interventions use it; its price is € per the part of
 *   its unit before the slash (KG/HA → €/KG), rounded to 4 decimals. The fuel price (€/L, the campaign's
 *   caracteristique.prix_fioul) is the first row of the grid, under the id FUEL_ROW_ID, and is saved apart.
 * - A sale price row is a harvested output (crop, output type, qualifier) of a management mode, in €/t.
 * - Cell rules: the purchase price is required and numeric; the sale price is required and numeric in its cell,
 *   but the save of the changed rows only asks it to be numeric (spec 3 §5): an emptied sale price is saved empty,
 *   its cell says it is missing (PRIX_VENTE_MANQUANT, a note, not a refusal).
 */

export const PRIX_DECIMALES = 4;
/** The proposed reference price of a phyto product is shown with 2 decimals (spec 3 §9). */
export const PRIX_PROPOSE_DECIMALES = 2;
/** What the narrowest price column (caracteristique.prix_fioul, decimal(10,4)) holds. */
export const PRIX_MAX = decimalMax(10, 4);

/** The grid row of the fuel price: no prix_appro row has this id (ids are far below 2^31 − 1). */
export const FUEL_ROW_ID = INT_MAX;
/** The token of the fuel row when the campaign has no economic characteristics row yet. */
export const FUEL_NO_ROW_TOKEN = "1970-01-01T00:00:00.000Z";

/** Rounds a price to 4 decimals (C-PAPPRO-08, C-PVENTE-05). */
export function roundPrix(value: number, decimals = PRIX_DECIMALES): number {
  const f = 10 ** decimals;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * f) / f;
}

/** The unit as stored: upper-cased, trimmed; empty → null (C-PAPPRO-09). */
export function uniteMajuscule(unite: string | null | undefined): string | null {
  const u = (unite ?? "").trim().toUpperCase();
  return u === "" ? null : u;
}

/** The price unit: € per the part of the unit before the slash, upper-cased ("kg/ha" → "€/KG"; C-PAPPRO-10). */
export function unitePrix(unite: string | null | undefined): string {
  const u = uniteMajuscule(unite);
  if (!u) return "€";
  const before = u.split("/")[0].trim();
  return before ? `€/${before}` : "€";
}

export const PrixApproSchema = z.object({
  prixAchat: requiredNumber({ min: 0, max: PRIX_MAX }),
});
export type PrixApproInput = z.output<typeof PrixApproSchema>;

export const PrixVenteSchema = z.object({
  prixVente: optionalNumber({ min: 0, max: PRIX_MAX }),
});
export type PrixVenteInput = z.output<typeof PrixVenteSchema>;

/** The note of an empty sale price cell (required in the cell, not at save: spec 3 §5). */
export const PRIX_VENTE_MANQUANT = "warning.required";

/** The filter value that keeps the rows without a price (C-PAPPRO-04, C-PVENTE-03). */
export const FILTRE_SANS_PRIX = "sans-prix";

// ---------------------------------------------------------------------------------------------
// Proposed prices (C-PAPPRO-11, 12; docs/indicators.md "Proposed prices")

export type Statistiques = {
  count: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  median: number | null;
  /** Coefficient of variation, %: the sample standard deviation (n − 1) over the mean; null below 2 values or a zero mean. */
  cv: number | null;
};

/** Count, min, max, mean, median and coefficient of variation of some prices (each rounded to 4 decimals). */
export function statistiques(values: readonly number[]): Statistiques {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = v.length;
  if (n === 0) return { count: 0, min: null, max: null, mean: null, median: null, cv: null };
  const mean = v.reduce((a, b) => a + b, 0) / n;
  const median = n % 2 === 1 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  let cv: number | null = null;
  if (n >= 2 && mean !== 0) {
    const variance = v.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
    cv = roundPrix((Math.sqrt(variance) / mean) * 100, 2);
  }
  return { count: n, min: v[0], max: v[n - 1], mean: roundPrix(mean), median: roundPrix(median), cv };
}
