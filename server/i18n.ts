import { createInstance, type TFunction } from "i18next";
import { fallbackLng, resources } from "~/locales";

const traducteurs = new Map<string, Promise<TFunction>>();

/**
 * The server's texts in French, or in English (`anglais`): the same locales as the screens, for what the server writes
 * itself (workbooks, the API's resolved messages). One instance per language, made once.
 */
export function traducteur(anglais: boolean): Promise<TFunction> {
  const lng = anglais ? "en" : "fr";
  let t = traducteurs.get(lng);
  if (!t) {
    const i18n = createInstance({ resources, fallbackLng, lng, interpolation: { escapeValue: false } });
    t = i18n.init().then(() => i18n.t);
    traducteurs.set(lng, t);
  }
  return t;
}
