import type { AssolementAnswer } from "~/domain/contracts/assolement";
import { getAssolement } from "#server/assolement/service.server";
import { isServiceError } from "#server/errors";
import { resourceLoader } from "#server/http/route.server";

/**
 * GET campagnes/{id}/assolements (spec 1 §7) for the context bar's dialog: the selected campaign's
 * crop-area items (libelle, surface in ha) and their total. A failed load answers the catalogued error.
 * Typed in the browser: the description of the campaign, where the dialog opens.
 */
export const loader = resourceLoader("/home/description", async ({ scope }): Promise<AssolementAnswer> => {
  try {
    return { ok: true as const, ...(await getAssolement(scope)) };
  } catch (e) {
    if (isServiceError(e)) return { ok: false as const, error: e.key };
    throw e;
  }
});
