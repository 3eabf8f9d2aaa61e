import { createContext, type MiddlewareFunction, type Params, type RouterContextProvider } from "react-router";
import { requireAcceptedUser } from "../auth/session";
import { withinBasePath } from "../base-path";
import { shownCampaignOf, SHOWN_CAMPAIGN_HEADER } from "~/domain/access/shown-campaign";
import { requestScope, type Scope } from "../access/scope";
import type { ContextView } from "../contexte/service";
import { db } from "../db";
import { env } from "../env";
import type { Db } from "../db/knex";
import { requestLogContext } from "../security/context";
import type { Utilisateur } from "../utilisateur/repo";

/**
 * What React Router middleware puts into the request's typed context, once per request:
 * the database (root route), the signed-in user and his request scope (the /home layout, decision 0092).
 * Loaders and actions read them through `routeArgs`, never by reloading the session.
 */
export const dbContext = createContext<Db>();
export const userContext = createContext<Utilisateur | null>(null);
const scopeContext = createContext<Scope | null>(null);

/** Root middleware: the application's database for every request. */
export const dbMiddleware: MiddlewareFunction<Response> = async ({ context }) => {
  context.set(dbContext, db());
};

/**
 * The /home layout's middleware: a signed-in user who accepted the terms (else /login or /cgu), and his
 * request scope: the context view and the rights, each read at most once per request, when a layout, a screen
 * or a service first asks (server/access/scope.ts); the campaign the page showed when the browser names it.
 */
export const userMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  const user = await requireAcceptedUser(request).catch((e: unknown) => {
    throw withinBasePath(e, env().BASE_PATH);
  });
  provideSignedIn(context, request, user);
};

/**
 * What userMiddleware gives a request once its user is known: the request scope (user, context view and rights, each
 * read at most once). The service tests that call a route's loader or action as a demo user go through it too
 * (tests/helpers/route-call.ts).
 */
export function provideSignedIn(context: Readonly<RouterContextProvider>, request: Request, user: Utilisateur) {
  const log = context.get(requestLogContext);
  if (log) log.userId = user.id;
  setRequestScope(context, requestScope(context.get(dbContext), user, { shownCampaign: shownCampaignOf(request.headers.get(SHOWN_CAMPAIGN_HEADER)) }));
}

/** The scope that the loaders and actions of one request share (the layouts' and the screen's alike). */
export function setRequestScope(context: Readonly<RouterContextProvider>, scope: Scope): void {
  context.set(scopeContext, scope);
  context.set(userContext, scope.user);
}

/** What every loader and action of the adapter receives. */
export type RouteArgs = {
  /** The request's scope (server/access/scope.ts): what services that need rights or the context take. */
  scope: Scope;
  db: Db;
  user: Utilisateur;
  /** The user's context (network › folder › farms › campaign), loaded once per request. */
  view: () => Promise<ContextView>;
  request: Request;
  params: Params;
  /** The request's search parameters. */
  query: URLSearchParams;
};

/** The loader/action arguments React Router gives (its typed context included). */
export type RouterArgs = { request: Request; params: Params; context: Readonly<RouterContextProvider> };

/** The request's scope, database, user and view (the route must sit under /home, whose middleware sets them). */
export function routeArgs({ request, params, context }: RouterArgs): RouteArgs {
  const scope = context.get(scopeContext);
  if (!scope) throw new Error("routeArgs: the route is not under the /home layout's middleware");
  return { scope, db: scope.db, user: scope.user, view: scope.view, request, params, query: new URL(request.url).searchParams };
}
