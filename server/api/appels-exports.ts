import { z } from "zod";
import { ExportResultatsSchema } from "~/domain/export-resultats";
import { DemandeExportSchema, NATURE_DONNEES_BRUTES } from "~/domain/session-export";
import { rowId } from "~/domain/validation";
import { apiCall, type ApiCall } from "../http/api.server";
import { lancerExportResultats } from "../export-resultats/service.server";
import { creerExportDonneesBrutes, listerSessionsExport, supprimerSessionExport } from "../session-export/service.server";
import { campagneDeSerie } from "../calcul-serie/service";
import { TACHE_HREF } from "./appels-calcul";
import { byId, stamp } from "./schemas";

/**
 * The export calls of the JSON API (spec 3 §7; issue 27, C-API-51, C-API-52, C-API-53): the user's export sessions of
 * some campaigns, the result export started as a job (answered 202 with the job's address), and a session's delete.
 */

const idList = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(rowId()));

const Session = z.object({
  id: z.number().int(),
  libelle: z.string(),
  nature: z.number().int(),
  version: z.number().int(),
  anglais: z.boolean(),
  statut: z.number().int().describe("0 finished, 2 error, else in progress"),
  dtDebSession: stamp,
  dtFinSession: stamp.nullable(),
  idTache: z.number().int().nullable(),
  campagnes: z.array(z.number().int()),
});

/**
 * POST session_exports of nature 0 (A-API-33): the raw-data export screen's request (DemandeExportSchema: libelle,
 * version, anglais), its campaigns and data groups (donnee_exportable ids) as JSON lists rather than JSON texts.
 */
const { campagnes: _c, groupes: _g, nature: _n, series: _s, options: _o, ...champsDemande } = DemandeExportSchema.shape;
void [_c, _g, _n, _s, _o];
const idsRequis = z.array(rowId()).min(1, "warning.required").max(500, "warning.too-many");
const DemandeDonneesBrutes = z
  .object({ nature: z.literal(NATURE_DONNEES_BRUTES), campagnes: idsRequis, groupes: idsRequis, ...champsDemande })
  .strict()
  .describe("Nature 0: raw data of the campaigns `campagnes`, the data groups `groupes`");
/** Nature 1 (the default): the export-result form of some calculation series. */
const DemandeResultats = ExportResultatsSchema.strict().describe("Nature 1 (default): the result workbook of the series `calculsSeries`");

export const APPELS_EXPORTS: readonly ApiCall[] = [
  apiCall({
    method: "GET",
    path: "/api/v1/session_exports",
    tag: "exports",
    summary: "The user's export sessions of nature 0 (raw data) or 1 (calculation) concerning the campaigns `campagnes` (repeated), newest first",
    query: z.object({ campagnes: idList, nature: z.enum(["0", "1"]).transform(Number) }),
    answer: z.array(Session),
    handle: ({ scope, query }) => listerSessionsExport(scope.db, scope.user, { campagnes: query.campagnes, nature: query.nature }),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/session_exports",
    tag: "exports",
    summary:
      "Starts an export: nature 0, the raw data of campaigns (libelle, nature, version, campagnes, groupes); nature 1 (default), the result export form (series, groups, options); anglais for English texts, set by locale=en. A session and its job, answered 202 with the job's address",
    body: z.union([DemandeDonneesBrutes, DemandeResultats]),
    // The scope's view is the first campaign's, or the first series' (its folder decides which campaigns may be exported).
    campaign: ({ body }, db) => ("calculsSeries" in body ? campagneDeSerie(db, body.calculsSeries[0]) : body.campagnes[0]),
    answer: z.object({ id: z.number().int(), idTache: z.number().int(), href: z.string() }),
    status: 202,
    refusals: [404, 409, 413],
    handle: async ({ scope, body, locale }) => {
      const anglais = body.anglais || locale === "en";
      const r =
        "calculsSeries" in body
          ? await lancerExportResultats(scope, { ...body, anglais })
          : await creerExportDonneesBrutes(scope, { libelle: body.libelle, version: body.version, anglais, campagnes: body.campagnes, groupes: body.groupes });
      return { ...r, href: TACHE_HREF(r.idTache) };
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/session_exports/{id}",
    tag: "exports",
    summary: "Deletes one of the user's export sessions and its file",
    params: byId,
    refusals: [404],
    handle: ({ scope, params }) => supprimerSessionExport(scope.db, scope.user, params.id),
  }),
];
