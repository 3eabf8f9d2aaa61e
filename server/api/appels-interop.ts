import { z } from "zod";
import { ImportDaplosSchema } from "~/domain/import-daplos";
import { rowId } from "~/domain/validation";
import { ApiFileAnswer, apiCall, type ApiCall } from "../http/api.server";
import { invalidField } from "../errors";
import { traducteur } from "../i18n";
import { historiqueImportsDaplos, lancerImportDaplos, TAILLE_MAX_DAPLOS } from "../interop/daplos/service.server";
import {
  creerExportEdaplos,
  fichierEdaplos,
  lireLogEdaplos,
  lireSessionEdaplos,
  listerSessionsEdaplos,
  logsSessionEdaplos,
  supprimerSessionEdaplos,
} from "../interop/edaplos/service.server";
import { TACHE_HREF } from "./appels-calcul";
import { byId, stamp } from "./schemas";

/**
 * The interop calls of the JSON API (spec 3 §7; issue 27, C-API-39..44): the eDaplos export sessions (list, one, start
 * as a job answered 202 with the job's address, the XML, the logs, delete), the Daplos upload (multipart, started as a
 * job) and the import history. The services are the interop screens'.
 */

const idList = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(rowId()));

const lien = z.object({ id: z.number().int(), libelle: z.string().nullable() }).nullable();
const Session = z.object({
  id: z.number().int(),
  libelle: z.string(),
  dtDebExport: stamp,
  dtFinExport: stamp.nullable(),
  taille: z.number().int().nullable(),
  succes: z.boolean(),
  statut: z.number().int().describe("0 finished, 2 error, else in progress"),
  idTache: z.number().int().nullable(),
  campagnes: z.array(
    z.object({ id: z.number().int(), libelle: z.string(), prefixeCampagne: z.string().nullable(), exploitation: z.object({ libelle: z.string() }) }),
  ),
});
const LigneLog = z.object({
  id: z.number().int(),
  niveau: z.number().int().describe("1 information, 2 error"),
  logMessage: z.string().describe("Key under edaplos.logs"),
  parametres: z.record(z.string(), z.union([z.string(), z.number()])),
  exploitation: lien,
  campagne: lien,
  modeConduite: lien,
  parcelle: lien,
  action: z
    .object({ id: z.number().int(), dicIdTypeAction: z.number().int().nullable(), libelle: z.string().nullable(), date: z.string().nullable() })
    .nullable(),
  intrant: lien,
});
const Import = z.object({
  id: z.number().int(),
  nomFichier: z.string(),
  dtDebImport: stamp,
  dtFinImport: stamp.nullable(),
  message: z.string().nullable(),
  nbparcellescrees: z.number().int(),
  nbinterventionsimportees: z.number().int(),
  etat: z.enum(["en_cours", "termine", "echec"]),
  idTache: z.number().int().nullable(),
});

/** The uploaded Daplos file: a File of a Daplos extension, not empty (the import screen's rule). */
const fichierDaplos = z.instanceof(File, { error: "warning.required" }).superRefine((f, ctx) => {
  const r = ImportDaplosSchema.shape.fichier.safeParse(f);
  if (!r.success) ctx.addIssue({ code: "custom", message: r.error.issues[0]?.message ?? "warning.invalid" });
});

export const APPELS_INTEROP: readonly ApiCall[] = [
  // C-API-39
  apiCall({
    method: "GET",
    path: "/api/v1/e_daplos",
    tag: "interop",
    summary: "The user's eDaplos export sessions concerning the campaigns `campagnes` (repeated), newest first",
    query: z.object({ campagnes: idList }),
    answer: z.array(Session),
    handle: ({ scope, query }) => listerSessionsEdaplos(scope, query.campagnes),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/e_daplos/{id}",
    tag: "interop",
    summary: "One of the user's eDaplos export sessions",
    params: byId,
    answer: Session,
    refusals: [404],
    handle: ({ scope, params }) => lireSessionEdaplos(scope, params.id),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/e_daplos/{id}",
    tag: "interop",
    summary: "Deletes one of the user's eDaplos export sessions, its file and its logs",
    params: byId,
    refusals: [404],
    handle: ({ scope, params }) => supprimerSessionEdaplos(scope, params.id),
  }),
  // C-API-40
  apiCall({
    method: "POST",
    path: "/api/v1/e_daplos",
    tag: "interop",
    summary:
      "Starts an eDaplos export of the campaigns `campagnes` (each one the user may export): a session and its job, answered 202 with the session's statut and the job's address",
    body: z.object({ campagnes: z.array(rowId()).min(1, "warning.required").max(1000, "warning.too-many") }),
    // The scope's view is the first campaign's: the campaigns offered are those of its network, as on the screen.
    campaign: ({ body }) => body.campagnes[0],
    answer: z.object({ id: z.number().int(), statut: z.number().int(), idTache: z.number().int(), href: z.string() }),
    status: 202,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { id, idTache } = await creerExportEdaplos(scope, body);

      return { id, statut: (await lireSessionEdaplos(scope, id)).statut, idTache, href: TACHE_HREF(idTache) };
    },
  }),
  // C-API-41
  apiCall({
    method: "GET",
    path: "/api/v1/e_daplos/{id}/download",
    tag: "interop",
    summary: "The XML file of a finished eDaplos session (409 while it runs, 410 when its file is gone)",
    params: byId,
    answer: ApiFileAnswer,
    file: "application/xml; charset=utf-8",
    refusals: [404, 409, 410],
    handle: ({ scope, params }) => fichierEdaplos(scope, params.id),
  }),
  // C-API-42
  apiCall({
    method: "GET",
    path: "/api/v1/e_daplos/{id}/logs",
    tag: "interop",
    summary: "The log lines of an eDaplos session in order, their links (farm, campaign, mode, plot, intervention, input) resolved to labels",
    params: byId,
    answer: z.array(LigneLog),
    refusals: [404],
    handle: ({ scope, params }) => logsSessionEdaplos(scope, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/e_daplos_logs/{id}",
    tag: "interop",
    summary: "One log line of one of the user's eDaplos sessions, its links resolved to labels",
    params: byId,
    answer: LigneLog,
    refusals: [404],
    handle: ({ scope, params }) => lireLogEdaplos(scope, params.id),
  }),
  // C-API-42: the message of a log line resolved to its text (spec 3 §7 "log messages are resolved by link to obtain
  // libelle"), in French or with locale=en in English, its parameters filled in, as the export screen shows it.
  apiCall({
    method: "GET",
    path: "/api/v1/calculs_e_daplos_messages_logs/{id}",
    tag: "interop",
    summary: "The message of one log line of one of the user's eDaplos sessions: its key, level, parameters and text (in English with locale=en)",
    params: byId,
    answer: z.object({
      id: z.number().int(),
      niveau: z.number().int().describe("1 information, 2 error"),
      logMessage: z.string().describe("Key under edaplos.logs"),
      parametres: LigneLog.shape.parametres,
      libelle: z.string().describe("The message's text, its parameters filled in"),
    }),
    refusals: [404],
    handle: async ({ scope, params, locale }) => {
      const { id, niveau, logMessage, parametres } = await lireLogEdaplos(scope, params.id);
      const t = await traducteur(locale === "en");
      return { id, niveau, logMessage, parametres, libelle: t(`edaplos.logs.${logMessage}`, parametres) };
    },
  }),
  // C-API-43
  apiCall({
    method: "POST",
    path: "/api/v1/daplos/upload",
    tag: "interop",
    summary:
      "Uploads a Daplos file (multipart: file, oad, user_id the caller's id, dossier optional) and starts its import as a job: answered 202 with the import's id and the job's address",
    body: z.object({
      file: fichierDaplos,
      oad: ImportDaplosSchema.shape.idOad,
      user_id: rowId(),
      dossier: ImportDaplosSchema.shape.idDossier,
    }),
    multipart: { limit: TAILLE_MAX_DAPLOS + 64 * 1024 },
    answer: z.object({ idImport: z.number().int(), idTache: z.number().int(), href: z.string() }),
    status: 202,
    refusals: [404, 413],
    handle: async ({ scope, body }) => {
      // user_id names the caller (the import is recorded as his): another id is a wrong field, not another user's import.
      if (body.user_id !== scope.user.id) throw invalidField("user_id");
      const r = await lancerImportDaplos(scope, {
        idOad: body.oad,
        idDossier: body.dossier ?? null,
        nomFichier: body.file.name,
        octets: new Uint8Array(await body.file.arrayBuffer()),
      });
      return { ...r, href: TACHE_HREF(r.idTache) };
    },
  }),
  // C-API-44
  apiCall({
    method: "GET",
    path: "/api/v1/saedi_imports",
    tag: "interop",
    summary: "The Daplos import history of the network `oad`, newest first: the user's own imports (every import for an administrator)",
    query: z.object({ oad: rowId() }),
    answer: z.array(Import),
    handle: ({ scope, query }) => historiqueImportsDaplos(scope, query.oad),
  }),
];
