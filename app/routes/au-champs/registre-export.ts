import { screenLoader } from "#server/http/route.server";
import { fichierCsv, fichierJson, fichierXlsx, registreDeLaCampagne } from "#server/registre/service.server";

const TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  json: "application/json; charset=utf-8",
} as const;

/** The selected campaign's register as a file (decision 0105): `?format=csv|xlsx|json`; whoever may read the farm. */
export const loader = screenLoader(async ({ scope, query }) => {
  const asked = query.get("format");
  const format = asked === "xlsx" || asked === "json" ? asked : "csv";
  const registre = await registreDeLaCampagne(scope, { du: query.get("du"), au: query.get("au") });
  const body = format === "csv" ? fichierCsv(registre) : format === "json" ? fichierJson(registre) : await fichierXlsx(registre);
  const name = `registre-phyto-${registre.exploitation.siret ?? registre.exploitation.id}-${registre.periode.idCampagne ?? "periode"}.${format}`;
  return new Response(new Uint8Array(body), {
    headers: { "Content-Type": TYPES[format], "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store" },
  });
});
