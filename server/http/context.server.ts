import { createContext, type MiddlewareFunction, type Params, type RouterContextProvider } from "react-router";
import { requireAcceptedUser } from "../auth/session";
import { withinBasePath } from "../base-path";
import { loadContextView, shareViewOfRequest, type ContextView } from "../contexte/service";
import { db } from "../db";
import { env } from "../env";
import type { Db } from "../db/knex";
import { requestLogContext } from "../security/context";
import type { Utilisateur } from "../utilisateur/repo";

/**
 * What React Router middleware puts into the request's typed context, once per request:
 * the database (root route), the signed-in user and his context view (the /home layout).
 * Loaders and actions read them through `routeArgs`, never by reloading the session.
 */
export const dbContext = createContext<Db>();
export const userContext = createContext<Utilisateur | null>(null);
const viewContext = createContext<(() => Promise<ContextView>) | null>(null);

/** Root middleware: the application's database for every request. */
export const dbMiddleware: MiddlewareFunction<Response> = async ({ context }) => {
  context.set(dbContext, db());
};

/**
 * The /home layout's middleware: a signed-in user who accepted the terms (else /login or /cgu), and his
 * context view, loaded at most once per request, when a layout or a screen first asks for it.
 */
export const userMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  const user = await requireAcceptedUser(request).catch((e: unknown) => {
    throw withinBasePath(e, env().BASE_PATH);
  });
  provideSignedIn(context, request, user);
};

/**
 * What userMiddleware gives a request once its user is known: the user and his context view, loaded at most once.
 * The service tests that call a route's loader or action as a demo user go through it too (tests/helpers/route-call.ts).
 */
export function provideSignedIn(context: Readonly<RouterContextProvider>, request: Request, user: Utilisateur) {
  const database = context.get(dbContext);
  let view: Promise<ContextView> | undefined;
  context.set(userContext, user);
  const log = context.get(requestLogContext);
  if (log) log.userId = user.id;
  const load = () => (view ??= loadContextView(database, user));
  context.set(viewContext, load);
  // A page's loaders: the services' campaignContext takes the same view (a request that writes loads its own).
  if (request.method === "GET" || request.method === "HEAD") shareViewOfRequest(user, database, load);
}

/** What every loader and action of the adapter receives. */
export type RouteArgs = {
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

/** The request's database, user and view (the route must sit under /home, whose middleware sets them). */
export function routeArgs({ request, params, context }: RouterArgs): RouteArgs {
  const user = context.get(userContext);
  const view = context.get(viewContext);
  if (!user || !view) throw new Error("routeArgs: the route is not under the /home layout's middleware");
  return { db: context.get(dbContext), user, view, request, params, query: new URL(request.url).searchParams };
}
