import "./zod-config";
import { layoutShouldRevalidate } from "~/layout-revalidation";
import { useEffect } from "react";
import { useTranslation } from "~/use-translation";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
  type MiddlewareFunction,
} from "react-router";
import { env, isMaintenance, isProduction } from "#server/env.server";
import { dbMiddleware } from "#server/http/context.server";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { FeedbackProvider } from "./components/feedback";
import { MaintenancePage } from "./components/maintenance-page";
import { syncStoredLocale } from "./components/locale-selector";
import { getLocale, i18nextMiddleware, localeCookie } from "./middleware/i18next";
import { availableLocales, type Locale } from "./locales";
import { useNonce } from "./nonce";

const maintenanceMiddleware: MiddlewareFunction<Response> = async () => {
  if (isMaintenance()) throw data({ maintenance: true, supportEmail: env().SUPPORT_EMAIL }, { status: 503 });
};

export const middleware = [i18nextMiddleware, maintenanceMiddleware, dbMiddleware];
export const shouldRevalidate = layoutShouldRevalidate;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

export async function loader({ context }: Route.LoaderArgs) {
  const locale = getLocale(context) as Locale;
  const settings = env();
  return data(
    {
      locale,
      locales: availableLocales(isProduction()),
      appEnv: isProduction() ? null : settings.APP_ENV,
      supportEmail: settings.SUPPORT_EMAIL,
    },
    { headers: { "Set-Cookie": await localeCookie.serialize(locale) } },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root") as RootData | undefined;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { i18n } = useTranslation();
  const nonce = useNonce();
  return (
    <html lang={i18n.language === "dev" ? "dev" : i18n.language} className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href={`${import.meta.env.BASE_URL}favicon.svg`} type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="h-full">
        {children}
        <div id="portal" />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export function meta() {
  return [{ title: "Sillon" }];
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language !== loaderData.locale) void i18n.changeLanguage(loaderData.locale);
  }, [loaderData.locale, i18n]);
  useEffect(() => syncStoredLocale(loaderData.locale, loaderData.locales), [loaderData.locale, loaderData.locales]);
  // Tests wait for this before acting: a click before hydration would be lost.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <FeedbackProvider>
      <Outlet />
    </FeedbackProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 503 && error.data?.maintenance) {
    return <MaintenancePage supportEmail={String(error.data.supportEmail)} />;
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-xl font-semibold">{status === 404 ? t("errors.not-found") : t("errors.error-encountered")}</h1>
      <p className="mt-2 text-stone-700">{isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : t("errors.try-again-later")}</p>
      <a className="btn-secondary mt-4" href={import.meta.env.BASE_URL}>
        {t("shell.home")}
      </a>
    </main>
  );
}
