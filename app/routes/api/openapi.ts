import { API_CALLS } from "#server/api/calls";
import { openApiDocument } from "#server/http/api.server";
import { env } from "#server/env";

/** GET /api/v1/openapi.json: the OpenAPI 3.1 document of the JSON API, written from its calls' zod schemas (decision 0098). */
export function loader() {
  const doc = openApiDocument(API_CALLS, env().BASE_PATH);
  return new Response(JSON.stringify(doc), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" } });
}
