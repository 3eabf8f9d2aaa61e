import { queryId, resourceLoader } from "#server/http/route.server";
import { isServiceError, ServiceError } from "#server/errors";
import { getPrixPropose } from "#server/prix/service.server";

/**
 * The proposed prices of a supply price row (GET prix_proposes; spec 3 §3.7, §7): `?id=` the row. A row deleted
 * meanwhile ('delete unused products' revalidates this read) answers `{ ok: false }`, not an error page. A typed
 * address gets the screen.
 */
export const loader = resourceLoader("/home/description/prix/prix_approvisionnement", async ({ scope, query }) => {
  const id = queryId(query, "id");
  if (!id) throw new ServiceError("warning.invalid", 400, { id: ["warning.invalid"] });
  try {
    return { ok: true as const, ...(await getPrixPropose(scope, id)) };
  } catch (e) {
    if (isServiceError(e) && e.status === 404) return { ok: false as const, error: e.key };
    throw e;
  }
});
