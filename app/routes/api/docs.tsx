import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import swaggerStyles from "swagger-ui-dist/swagger-ui.css?url";
import contrastStyles from "./docs.css?url";
import { useTranslation } from "~/use-translation";
import { getUser } from "#server/auth/session.server";
import { basePath } from "#server/base-path";
import { env } from "#server/env";
import type { Route } from "./+types/docs";

/**
 * GET /api/docs: the documentation of the JSON API (issue 26, decision 0124). The page's own texts follow the app's
 * language; the calls are drawn by Swagger UI from /api/v1/openapi.json, its script and styles bundled by Vite
 * with the app's own assets (no outside address, the app's Content-Security-Policy unchanged).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return { loggedIn: (await getUser(request)) !== null, openApiUrl: `${basePath(env().BASE_PATH)}api/v1/openapi.json` };
}

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: swaggerStyles },
  { rel: "stylesheet", href: contrastStyles },
];

export function meta() {
  return [{ title: "Sillon – API" }];
}

type State = "loading" | "ready" | "failed";

/** Swagger UI, loaded in the browser only (it draws into its own element with its own copy of React). */
function SwaggerReference({ url, onState }: { url: string; onState: (state: State) => void }) {
  const node = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    import("swagger-ui-dist/swagger-ui-es-bundle.js")
      .then(({ default: SwaggerUIBundle }) => {
        if (cancelled || !node.current) return;
        SwaggerUIBundle({
          domNode: node.current,
          url,
          // The badge would send the document to an outside validator.
          validatorUrl: null,
          deepLinking: false,
          // The tags closed and the schemas hidden: some 200 calls drawn at once would keep the page busy.
          docExpansion: "none",
          defaultModelsExpandDepth: -1,
          // A token typed in "Authorize" stays in memory: the page keeps no token in its storage (A-API-04).
          persistAuthorization: false,
          onComplete: () => {
            if (!cancelled) onState("ready");
          },
        });
      })
      .catch(() => {
        if (!cancelled) onState("failed");
      });
    return () => {
      cancelled = true;
    };
  }, [url, onState]);
  return <div ref={node} data-testid="api-docs-reference" />;
}

export default function ApiDocs({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>("loading");
  return (
    <main className="mx-auto max-w-6xl p-6" data-testid="api-docs" data-state={state}>
      <h1 className="mb-4 text-2xl font-semibold text-sillon-800">{t("api-docs.title")}</h1>
      <div className="max-w-3xl space-y-3 text-stone-800">
        <p>{t("api-docs.intro")}</p>
        <h2 className="text-lg font-semibold">{t("api-docs.jeton-titre")}</h2>
        <ul className="list-disc space-y-1 pl-6">
          <li>{t("api-docs.jeton-connexion")}</li>
          <li>
            {t("api-docs.jeton-personnel")}{" "}
            <Link to="/home/profil" className="underline hover:text-sillon-700">
              {t("api-docs.page-profil")}
            </Link>
            .
          </li>
        </ul>
        <p>
          {t("api-docs.document")}{" "}
          <a href={loaderData.openApiUrl} className="font-mono text-sm underline hover:text-sillon-700" data-testid="api-docs-openapi">
            {loaderData.openApiUrl}
          </a>
        </p>
        <p className="text-sm text-stone-600">{t("api-docs.langue-bibliotheque")}</p>
        <Link to={loaderData.loggedIn ? "/home/description/home" : "/login"} className="btn-secondary" data-testid="api-docs-back">
          {t("api-docs.retour")}
        </Link>
      </div>
      {state === "loading" ? (
        <p role="status" className="mt-6 text-stone-600">
          {t("api-docs.chargement")}
        </p>
      ) : null}
      {state === "failed" ? (
        <p role="alert" className="mt-6 text-red-700">
          {t("api-docs.echec")}
        </p>
      ) : null}
      <div className="mt-6 border-t border-stone-200 pt-2" lang="en">
        <SwaggerReference url={loaderData.openApiUrl} onState={setState} />
      </div>
    </main>
  );
}
