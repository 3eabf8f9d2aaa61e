import { parseWithZod } from "@conform-to/zod/v4";
import { ExportResultatsSchema } from "~/domain/export-resultats";
import { lancerExportResultats } from "#server/export-resultats/service.server";
import { formOf, invalid } from "#server/http/answers";
import { resourceAction, resourceLoader } from "#server/http/route.server";

/**
 * POST of the export-result dialog (spec 3 §7 POST session_exports, nature 1; C-REXP-01..09, A-PUB-09): the form
 * parsed with its schema (field errors back beside the fields), then the series, rights, duplicates and the
 * spreadsheet's capacity checked, the session recorded and its job started: { ok, id, idTache, notice }.
 * A typed address gets the published-indicators screen.
 */
export const loader = resourceLoader("/home/resultats/indicateurs");

export const action = resourceAction(async ({ scope, request }) => {
  const s = parseWithZod(await formOf(request), { schema: ExportResultatsSchema });
  if (s.status !== "success") return invalid(s.reply());
  const r = await lancerExportResultats(scope, s.value);
  return { ok: true as const, notice: "ui.export-started", ...r };
});
