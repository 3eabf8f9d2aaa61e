import type { Route } from "./+types/parcelle-export";

/** The campaign's plots as a GeoJSON file (docs/decisions/0015-import-parcelles.md): whoever may read the campaign. */
export async function loader({ request }: Route.LoaderArgs) {
  const { requireAcceptedUser } = await import("../../../server/auth/session");
  const { exportParcelles } = await import("../../../server/parcelle/import-service");
  const { db } = await import("../../../server/db");
  const user = await requireAcceptedUser(request);
  const { fileName, collection } = await exportParcelles(db(), user);
  return new Response(JSON.stringify(collection, null, 1), {
    headers: {
      "Content-Type": "application/geo+json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
