import { initReactI18next } from "react-i18next";
import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next/middleware";
import { availableLocales, DEFAULT_LOCALE, fallbackLng, resources } from "~/locales";

// Readable by the server on every request; the browser also keeps the choice in localStorage (spec 1 §9).
export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: false, maxAge: 365 * 24 * 3600 });

const production = (process.env.APP_ENV ?? "production") === "production";
const supported = availableLocales(production);

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    // French first: the fallback is the last supported language.
    supportedLanguages: [...supported.filter((l) => l !== DEFAULT_LOCALE), DEFAULT_LOCALE],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
    order: ["cookie"],
  },
  i18next: { resources, fallbackLng, interpolation: { escapeValue: false } },
  plugins: [initReactI18next],
});
