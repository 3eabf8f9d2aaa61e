import { queryIds, screenLoader } from "#server/http/route.server";
import { exportSeries } from "#server/observation/service.server";

/** Export of the ticked series as a JSON file (decision 0039): whoever may read the campaign. */
export const loader = screenLoader(async ({ scope, query }) => {
  const file = await exportSeries(scope, queryIds(query, "id"));
  return new Response(JSON.stringify(file, null, 1), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="series-observations.json"`,
      "Cache-Control": "no-store",
    },
  });
});
