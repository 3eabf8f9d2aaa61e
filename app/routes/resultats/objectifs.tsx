import { useLoaderData } from "react-router";
import { ObjectifsEcran } from "~/components/objectifs/objectifs-ecran";
import { queryId, screenLoader } from "#server/http/route.server";
import { ecranObjectifs } from "#server/objectifs/service.server";

/**
 * Objectives against results (issue 24; decision 0087): the selected campaign's objective indicators (or those of the
 * campaign in the address, `?campagne=`) beside its latest series' figures, per farm, crop and plot, and the farm's
 * trajectory over its campaigns.
 */
export const loader = screenLoader(async ({ scope, query, view }) => {
  const idCampagne = queryId(query, "campagne") ?? (await view()).campagne?.id ?? null;
  return idCampagne == null ? { campagneRequise: true as const } : { campagneRequise: false as const, ...(await ecranObjectifs(scope, idCampagne)) };
});

export default function Objectifs() {
  const data = useLoaderData<typeof loader>();
  return <ObjectifsEcran data={data} />;
}
