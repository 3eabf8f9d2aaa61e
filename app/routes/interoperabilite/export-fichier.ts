import { isServiceError, ServiceError } from "#server/errors";
import { routeArgs, type RouterArgs } from "#server/http/context.server";
import { fileResponse } from "#server/http/route.server";
import { fichierEdaplos } from "#server/interop/edaplos/service.server";

/**
 * GET e_daplos/{id}/download (spec 3 §7; C-EDAP-07): the finished session's XML under its file name. A refusal
 * answers JSON { ok: false, error } with its status: not his or deleted (404), not finished (409), file gone (410).
 * The screen's link downloads it (an address typed in downloads it too: the file is the user's own).
 */
export async function loader(router: RouterArgs) {
  const { scope, params } = routeArgs(router);
  const id = Number(params.id);
  try {
    if (!Number.isInteger(id) || id <= 0) throw new ServiceError("errors.not-found", 404);
    const f = await fichierEdaplos(scope, id);
    return fileResponse({ chemin: f.chemin }, f.nom, "application/xml; charset=utf-8");
  } catch (e) {
    if (isServiceError(e)) return Response.json({ ok: false, error: e.key, params: e.params }, { status: e.status });
    throw e;
  }
}
