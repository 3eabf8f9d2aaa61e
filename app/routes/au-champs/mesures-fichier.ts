import { fileResponse, screenLoader } from "#server/http/route.server";
import { fichierPourTelechargement } from "#server/observation/service.server";
import type { Route } from "./+types/mesures-fichier";

/**
 * Download of an attached file (spec 2 §7 GET fichier_attache_series/{id}/download, B-FILE-06): the bytes under the
 * stored name, for whoever may read the series' campaign.
 */
export const loader = screenLoader(async ({ scope, params }) => {
  const id = Number((params as Route.LoaderArgs["params"]).id);
  const f = await fichierPourTelechargement(scope, Number.isInteger(id) && id > 0 ? id : 0);
  return fileResponse({ bytes: new Uint8Array(f.bytes) }, f.nom, f.typeMime);
});
