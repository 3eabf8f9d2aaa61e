import { API_CALLS } from "#server/api/calls";
import { answerApi } from "#server/http/api.server";
import { dbContext } from "#server/http/context.server";
import { clientIpContext } from "#server/security/context";
import type { Route } from "./+types/api";

/**
 * The JSON API under /api/v1 and /api/v2 (spec 1 §7, spec 2 §7; issue 26, decision 0098): every call is declared in
 * server/api/calls.ts and run by the API adapter (bearer token, the screens' schemas, rights and services).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return answerApi(API_CALLS, request, context.get(dbContext), { clientIp: context.get(clientIpContext) });
}

export function action({ request, context }: Route.ActionArgs) {
  return answerApi(API_CALLS, request, context.get(dbContext), { clientIp: context.get(clientIpContext) });
}
