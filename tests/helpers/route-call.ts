import { RouterContextProvider, type Params } from "react-router";
import { dbContext, provideSignedIn, type RouterArgs } from "../../server/http/context.server";
import type { Db } from "../../server/db/knex";
import type { Utilisateur } from "../../server/utilisateur/repo";

/**
 * Calls a route's action or loader as React Router does for a signed-in user: the request's context carries the
 * database and the user through the /home middleware's own `provideSignedIn`; what it answers is read back as React
 * Router would send it (status and body). A thrown error that is neither a Response nor `data()` is a 500, as in the app.
 */
export type RouteAnswer = { status: number; body: unknown };

type Handler = (args: RouterArgs) => Promise<unknown>;

const BASE = "http://sillon.test/sillon/";

function answerOf(value: unknown): RouteAnswer {
  if (value instanceof Response) return { status: value.status, body: undefined };
  if (value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit") {
    const d = value as { data: unknown; init: ResponseInit | null };
    return { status: d.init?.status ?? 200, body: d.data };
  }
  return { status: 200, body: value };
}

async function call(handler: Handler, request: Request, db: Db, user: Utilisateur, params: Params): Promise<RouteAnswer> {
  const context = new RouterContextProvider();
  context.set(dbContext, db);
  provideSignedIn(context, request, user);
  try {
    return answerOf(await handler({ request, params, context }));
  } catch (e) {
    if (e instanceof Response || (e && typeof e === "object" && (e as { type?: unknown }).type === "DataWithResponseInit")) return answerOf(e);
    return { status: 500, body: e };
  }
}

/** Posts `form` (strings, or files) to a route's action at `path` (below the base path) as `user`. */
export function postForm(
  action: Handler,
  o: { db: Db; user: Utilisateur; path: string; form: Record<string, string | File> | FormData; params?: Params },
): Promise<RouteAnswer> {
  let body: FormData;
  if (o.form instanceof FormData) body = o.form;
  else {
    body = new FormData();
    for (const [k, v] of Object.entries(o.form)) body.append(k, v);
  }
  const request = new Request(new URL(o.path, BASE), { method: "POST", body });
  return call(action, request, o.db, o.user, o.params ?? {});
}

/** Asks a route's loader at `path` (with its query) as `user`. */
export function getRoute(loader: Handler, o: { db: Db; user: Utilisateur; path: string; params?: Params }): Promise<RouteAnswer> {
  return call(loader, new Request(new URL(o.path, BASE)), o.db, o.user, o.params ?? {});
}
