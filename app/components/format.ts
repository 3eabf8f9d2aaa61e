/**
 * The display formats (spec 1 §9), the one place where numbers become text for reading: grouped digits and
 * the decimal sign of the UI language ("1 234,5" in French, "1,234.5" in English), amounts in euros
 * (A-CONST-12), dates day/month/year (A-CONST-11). Numbers written into a form's input: numberText.
 */

import { teneursNpk, type CompositionFertilisant } from "~/domain/eges";

/** The Intl locale of a UI language: English writes numbers the British way; French (and the dev locale) the French way. */
export function numberLocale(language: string): string {
  return language === "en" ? "en-GB" : "fr-FR";
}

const formats = new Map<string, Intl.NumberFormat>();

/** Intl.NumberFormat is costly to build: one per locale and options, kept. */
function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const locale = numberLocale(language);
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

const isNumber = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/** A number for reading, at most `maximumFractionDigits` decimals (at least `minimumFractionDigits`); "" when empty. */
export function formatNumber(n: number | null | undefined, language: string, maximumFractionDigits = 2, minimumFractionDigits = 0): string {
  return isNumber(n) ? numberFormat(language, { maximumFractionDigits, minimumFractionDigits }).format(n) : "";
}

/** An amount in euros: "1 234,50 €" in French, "€1,234.50" in English; "" when empty. */
export function formatEuro(n: number | null | undefined, language: string): string {
  return isNumber(n) ? numberFormat(language, { style: "currency", currency: "EUR" }).format(n) : "";
}

/** A percentage given out of 100: "73,7 %" in French, "73.7%" in English; "" when empty. */
export function formatPercent(n: number | null | undefined, language: string, fractionDigits = 1): string {
  return isNumber(n)
    ? numberFormat(language, { style: "percent", minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(n / 100)
    : "";
}

/** A number as a form's text input shows it: the UI language's decimal sign, no grouping; undefined when empty. */
export function numberText(n: number | null | undefined, language: string): string | undefined {
  if (!isNumber(n)) return undefined;
  return numberLocale(language) === "fr-FR" ? String(n).replace(".", ",") : String(n);
}

/** "33,5-0-0": the N-P2O5-K2O grade of a fertiliser's composition, as printed on its bags, in the UI language. */
export function formuleNpk(composition: CompositionFertilisant, language: string): string {
  return teneursNpk(composition)
    .map((v) => formatNumber(v, language, 3))
    .join("-");
}

// Day/month/year (spec 1 §9), the day as in France, so that the server's rendering and the browser's agree.
const DAY_MONTH_YEAR = new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", day: "2-digit", month: "2-digit", year: "numeric" });

export function formatDate(iso: string): string {
  return DAY_MONTH_YEAR.format(new Date(iso));
}

const DAY_MONTH_YEAR_TIME = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** Day/month/year hour:minute in Paris time: never the machine's own zone, which differs between the server (UTC) and a browser. */
export function formatDateTime(iso: string): string {
  return DAY_MONTH_YEAR_TIME.format(new Date(iso)).replace(",", "");
}

const PARIS_YEAR = new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", year: "numeric" });

/** The current year in Paris (the server's UTC year differs on the night of 31 December). */
export function parisYear(now = new Date()): number {
  return Number(PARIS_YEAR.format(now));
}
