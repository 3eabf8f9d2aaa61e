import en from "./en/translation";
import fr from "./fr/translation";

export const resources = {
  fr: { translation: fr },
  en: { translation: en },
};

export const LOCALES = ["fr", "en", "dev"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";
export const LOCALE_STORAGE_KEY = "locale";
export const LOCALE_RELOAD_DELAY_MS = 3000;

/** The dev locale shows the translation keys; it exists only outside production. */
export function availableLocales(production: boolean): Locale[] {
  return production ? ["fr", "en"] : [...LOCALES];
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** i18next fallback: en falls back to fr; dev has no resources and no fallback, so keys show. */
export const fallbackLng = { dev: [] as string[], default: ["fr"] };
