import { screenLoader } from "#server/http/route.server";
import { exportParcelles } from "#server/parcelle/import-service.server";

/** The campaign's plots as a GeoJSON file (docs/decisions/0015-import-parcelles.md): whoever may read the campaign. */
export const loader = screenLoader(async ({ scope }) => {
  const { fileName, collection } = await exportParcelles(scope);
  return new Response(JSON.stringify(collection, null, 1), {
    headers: {
      "Content-Type": "application/geo+json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
});
