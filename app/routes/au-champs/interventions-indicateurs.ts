import { isServiceError } from "#server/errors";
import { queryId, resourceLoader } from "#server/http/route.server";
import { getIndicateursParcelle } from "#server/calcul/service.server";

/**
 * The interventions screen's plot indicator panel (issue 14), in its own request since decision 0076: the panel asks
 * it once the grid is shown (a fetcher, so every save's revalidation asks again and shows the new figures at once).
 * `?parcelle=` the first chosen plot. A plot the service refuses (not of the selected campaign) gives no panel.
 */
export const loader = resourceLoader("/home/description/au_champs/interventions", async ({ scope, query }) => {
  const parcelle = queryId(query, "parcelle");
  if (!parcelle) return { indicateurs: null };
  try {
    return { indicateurs: await getIndicateursParcelle(scope, parcelle) };
  } catch (e) {
    if (isServiceError(e) && e.status === 404) return { indicateurs: null };
    throw e;
  }
});
