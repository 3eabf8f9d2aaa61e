import { redirect } from "react-router";
import { isServiceError, ServiceError } from "#server/errors";
import { fileResponse, isNavigation, resourceAction } from "#server/http/route.server";
import { routeArgs, type RouterArgs } from "#server/http/context.server";
import { fichierSessionExport, supprimerSessionExport } from "#server/session-export/service.server";

const idOf = (raw: string | undefined) => {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new ServiceError("errors.not-found", 404);
  return id;
};

/**
 * One export session (spec 1 §7 session_exports/{id}):
 * - GET: the finished workbook, under the session's name (A-EXPORT-20). A refusal answers JSON { ok: false, error }
 *   with its status, the detail the screen shows (A-EXPORT-21): not his or deleted (404), not finished (409), file
 *   gone (410). A typed address gets the screen.
 * - DELETE: removes the session and its file (A-EXPORT-22, 24).
 */
export async function loader(router: RouterArgs) {
  if (isNavigation(router.request)) throw redirect("/home/resultats/donneesbrutes");
  const { db, user, params } = routeArgs(router);
  try {
    const f = await fichierSessionExport(db, user, idOf(params.id));
    return fileResponse({ chemin: f.chemin }, f.nom, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  } catch (e) {
    if (isServiceError(e)) return Response.json({ ok: false, error: e.key, params: e.params }, { status: e.status });
    throw e;
  }
}

export const action = resourceAction(async ({ db, user, params, request }) => {
  if (request.method !== "DELETE") throw new ServiceError("errors.forbidden", 405);
  await supprimerSessionExport(db, user, idOf(params.id));
  return { ok: true as const };
});
