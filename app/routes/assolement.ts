import type { Route } from "./+types/assolement";

/**
 * GET campagnes/{id}/assolements (spec 1 §7) for the context bar's dialog: the selected campaign's
 * crop-area items (libelle, surface in ha) and their total. A failed load answers the catalogued error.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { requireAcceptedUser } = await import("../../server/auth/session");
  const { getAssolement } = await import("../../server/assolement/service");
  const { isServiceError } = await import("../../server/errors");
  const { db } = await import("../../server/db");
  const user = await requireAcceptedUser(request);
  try {
    return { ok: true as const, ...(await getAssolement(db(), user)) };
  } catch (e) {
    if (isServiceError(e)) return { ok: false as const, error: e.key };
    throw e;
  }
}
