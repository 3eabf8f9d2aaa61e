import { fileResponse, screenLoader } from "#server/http/route.server";
import { archiveDuDossier } from "#server/registre/service.server";

/**
 * The selected folder's registers in one zip (issue 28, decision 0105): one CSV per farm the user may read and the
 * farms' statuses, for `?du=&au=` (default: the selected campaign's harvest year).
 */
export const loader = screenLoader(async ({ scope, query }) => {
  const { du, au, zip } = await archiveDuDossier(scope, { du: query.get("du"), au: query.get("au") });
  return fileResponse({ bytes: new Uint8Array(zip) }, `registres-phyto-dossier-${du}-${au}.zip`, "application/zip");
});
