import { useTranslation } from "~/use-translation";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/** What a failed route answered: its status and, for a refusal of the adapter, its message key. */
export function errorOf(error: unknown): { status: number; key: string | null; params?: Record<string, string | number> } {
  if (!isRouteErrorResponse(error)) return { status: 500, key: null };
  const body = error.data as { error?: unknown; params?: Record<string, string | number> } | null;
  const key = typeof body?.error === "string" && /^[\w.-]+$/.test(body.error) ? body.error : null;
  return { status: error.status, key, params: body?.params };
}

/**
 * The page a failed screen gives way to, inside the shell (header, menu and context bar stay): what went
 * wrong in the user's language, and a way back home. 404 is "page not found", 403 the refusal's reason.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const { status, key, params } = errorOf(useRouteError());
  const title = status === 404 ? t("errors.not-found") : status === 403 ? t("errors.forbidden-page") : t("errors.error-encountered");
  const detail = status === 404 ? t("errors.not-found-detail") : key ? t(key, params ?? {}) : t("errors.try-again-later");
  return (
    <section className="mx-auto mt-8 max-w-xl card" role="alert" data-testid="route-error" data-status={status}>
      <h1 className="text-lg font-semibold text-sillon-800">{title}</h1>
      <p className="mt-2 text-stone-700">{detail}</p>
      <Link className="btn-secondary mt-4 inline-block" to="/home/description/home" data-testid="route-error-home">
        {t("shell.home")}
      </Link>
    </section>
  );
}
