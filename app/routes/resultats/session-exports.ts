import { DemandeExportSchema } from "~/domain/session-export";
import { parse, ServiceError } from "#server/errors";
import { queryIds, queryNumber, resourceAction, resourceLoader } from "#server/http/route.server";
import { choixCampagnes } from "#server/resultats/selection";
import { creerExportDonneesBrutes, creerSessionExport, listerSessionsExport, typeTacheExport } from "#server/session-export/service.server";

/**
 * Export sessions (spec 1 §7 session_exports; decision 0052), for the raw-data export screen and the result export:
 * - GET `?campagnes=1&campagnes=2&nature=0`: the user's own sessions concerning these campaigns, newest first
 *   (A-EXPORT-15); `?portee=calcul&nature=1` instead of the campaigns: every campaign the calculation screen offers
 *   the user, of every folder (C-CALC-05), read here rather than listed in the address (it may hold thousands);
 * - POST (form fields of DemandeExportSchema: libelle, nature, version, anglais, campagnes and groupes as JSON lists,
 *   series and options for nature 1): records the session and starts its job; answers { ok, id, idTache }
 *   (A-EXPORT-11, 12). Campaigns the user may not export are refused (403); a raw export over the spreadsheet limit
 *   is refused before anything is created (413 exports.trop-de-lignes, A-EXPORT-25).
 * A typed address gets the raw-data export screen.
 */
export const loader = resourceLoader("/home/resultats/donneesbrutes", async ({ scope, db, user, query }) => {
  const nature = queryNumber(query, "nature") ?? 0;
  if (nature !== 0 && nature !== 1) throw new ServiceError("warning.invalid", 400, { nature: ["warning.invalid"] });
  const portee = query.get("portee");
  if (portee != null && portee !== "calcul") throw new ServiceError("warning.invalid", 400, { portee: ["warning.invalid"] });
  const campagnes =
    portee === "calcul"
      ? (await choixCampagnes(scope, "calcul")).dossiers.flatMap((d) => d.exploitations.flatMap((e) => e.campagnes.map((c) => c.id)))
      : queryIds(query, "campagnes");
  return { sessions: await listerSessionsExport(db, user, { campagnes, nature }) };
});

export const action = resourceAction(async ({ scope, request }) => {
  if (request.method !== "POST") throw new ServiceError("errors.forbidden", 405);
  const form = await request.formData().catch(() => {
    throw new ServiceError("warning.invalid-form", 400);
  });
  const fields: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === "string") fields[k] = v;
  const d = parse(DemandeExportSchema, fields);
  const r = d.nature === 1 ? await creerSessionExport(scope, { ...d, nature: 1 }, typeTacheExport(1)) : await creerExportDonneesBrutes(scope, d);
  return { ok: true as const, ...r };
});
