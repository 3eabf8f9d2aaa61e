import type { z } from "zod";
import { numberBounds } from "~/domain/validation";
import { formatNumber } from "./format";

/**
 * The one message of a refused bound, for the grid and the forms alike (issue 29, decision 0115): the schema's
 * messages stay the bare keys (warning.min, warning.max, warning.minmax: the API's and the importer's too), and
 * the UI says them with the field's bounds read from its schema ("Valeur hors des bornes : entre 0 et 100").
 */

const BOUND_KEYS: Record<string, string> = { "warning.min": "bornes.min", "warning.max": "bornes.max", "warning.minmax": "bornes.minmax" };

/** The i18n key and values a field's error is said with: a bound refused names the bounds; any other key as it is. */
export function boundsMessage(field: z.ZodType | undefined, key: string, language: string): { key: string; params?: Record<string, string> } {
  const named = BOUND_KEYS[key];
  const bounds = named ? numberBounds(field) : undefined;
  if (!named || !bounds || (key !== "warning.max" && bounds.min === undefined) || (key !== "warning.min" && bounds.max === undefined)) return { key };
  const params: Record<string, string> = {};
  if (bounds.min !== undefined) params.min = formatNumber(bounds.min, language, 4);
  if (bounds.max !== undefined) params.max = formatNumber(bounds.max, language, 4);
  return { key: named, params };
}
