import type { i18n as I18n } from "i18next";
import { useContext } from "react";
import { getI18n, I18nContext, useTranslation as useTranslationOfReactI18next } from "react-i18next";

type Translation = ReturnType<typeof useTranslationOfReactI18next>;

const onServer = typeof document === "undefined";

/** The server's instances (one per language, made once): neither their language nor their resources change. */
const fixedInstances = new WeakSet<I18n>();
export function markFixed(instance: I18n): void {
  fixedInstances.add(instance);
}

const translations = new WeakMap<I18n, { language: string; value: Translation }>();

function serverTranslation(i18n: I18n): Translation {
  const kept = translations.get(i18n);
  if (kept && kept.language === i18n.language) return kept.value;
  const fixedT = i18n.getFixedT(i18n.language);
  let t = fixedT;
  if (fixedInstances.has(i18n)) {
    const lookUp = fixedT as unknown as (...args: unknown[]) => unknown;
    // A plain key (no options) always gives the same text on a fixed instance: looked up once.
    const known = new Map<string, string>();
    t = ((key: unknown, ...rest: unknown[]) => {
      if (rest.length > 0 || typeof key !== "string") return lookUp(key, ...rest);
      let text = known.get(key);
      if (text === undefined) {
        const found = lookUp(key);
        if (typeof found !== "string") return found;
        known.set(key, (text = found));
      }
      return text;
    }) as unknown as typeof fixedT;
  }
  const ready = i18n.isInitialized;
  const value = Object.assign([t, i18n, ready], { t, i18n, ready }) as unknown as Translation;
  translations.set(i18n, { language: i18n.language, value });
  return value;
}

/**
 * react-i18next's `useTranslation` in the browser. On the server, where a page is rendered once and never again,
 * the same translation function and instance for every component: react-i18next's hook makes a fixed `t` and
 * copies the whole i18next instance once per component per render (a few ms of CPU per page, bench/load.mjs,
 * issue 10), and i18next resolves each key anew.
 */
export const useTranslation: () => Translation = onServer ? useServerTranslation : useBrowserTranslation;

/** The server's hook: chosen once per process (above), so the hooks called stay the same from render to render. */
function useServerTranslation(): Translation {
  return serverTranslation(useContext(I18nContext)?.i18n ?? getI18n());
}

function useBrowserTranslation(): Translation {
  return useTranslationOfReactI18next();
}
