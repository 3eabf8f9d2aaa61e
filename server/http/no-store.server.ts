import type { MiddlewareFunction } from "react-router";

/**
 * The /home layout's first middleware (issue 23, decision 0091): every answer made for a signed-in user (a page, a
 * `.data` answer, a resource route's JSON or file) carries `Cache-Control: no-store`, so that neither the browser's
 * cache, nor its back-forward cache, nor a proxy keeps a copy of his data once he has signed out.
 */
export const noStoreMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  response.headers.set("Cache-Control", "no-store");
  return response;
};
