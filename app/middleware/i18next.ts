import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { availableLocales, DEFAULT_LOCALE, fallbackLng, resources } from "~/locales";
import { markFixed } from "~/use-translation";

// Readable by the server on every request; the browser also keeps the choice in localStorage (spec 1 §9).
export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: false, maxAge: 365 * 24 * 3600 });

const production = (process.env.APP_ENV ?? "production") === "production";
const supported: readonly string[] = availableLocales(production);

const localeContext = createContext<string>(DEFAULT_LOCALE);
const instanceContext = createContext<i18n | null>(null);

/**
 * One i18next instance per language, made once: the server only reads translations, and building an
 * instance with every resource on each request cost as much as rendering the page (bench/load.mjs).
 */
const instances = new Map<string, Promise<i18n>>();
function instanceFor(lng: string): Promise<i18n> {
  let instance = instances.get(lng);
  if (!instance) {
    const created = createInstance({ resources, fallbackLng, interpolation: { escapeValue: false } }).use(initReactI18next);
    markFixed(created);
    instance = created.init({ lng }).then(() => created);
    instances.set(lng, instance);
  }
  return instance;
}

/** The request's language: the `lng` cookie when it names a supported language, French otherwise. */
async function detect(request: Request): Promise<string> {
  const chosen: unknown = await localeCookie.parse(request.headers.get("Cookie"));
  return typeof chosen === "string" && supported.includes(chosen) ? chosen : DEFAULT_LOCALE;
}

export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const lng = await detect(request);
  context.set(localeContext, lng);
  context.set(instanceContext, await instanceFor(lng));
  return next();
};

type ContextReader = Pick<RouterContextProvider, "get">;
export const getLocale = (context: ContextReader): string => context.get(localeContext);
/**
 * The instance to render a document with: the middleware's, or, for a request no route matched (the
 * middleware never ran: an address outside the base path), the one of the request's language.
 */
export async function instanceForRequest(request: Request, context: ContextReader): Promise<i18n> {
  return context.get(instanceContext) ?? instanceFor(await detect(request));
}
