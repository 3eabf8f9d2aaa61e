import { z } from "zod";
import { ExportResultatsSchema } from "~/domain/export-resultats";
import { NewCampagneSchema } from "~/domain/partage";
import { DemandeExportSchema } from "~/domain/session-export";
import { rowId } from "~/domain/validation";
import { ApiFileAnswer, apiCall, type ApiCall } from "../http/api.server";
import { tokenField } from "../http/fields";
import { getAssolement } from "../assolement/service";
import { campagnesDeFerme, creerCampagneDeFerme, renommerCampagne, supprimerCampagne } from "../campagne/service";
import { campagneDeSerie, lireSerie } from "../calcul-serie/service";
import { lancerExportResultats } from "../export-resultats/service.server";
import { getPosts } from "../post/service";
import { creerExportDonneesBrutes, fichierSessionExport, listerDonneesExportables } from "../session-export/service.server";
import { TACHE_HREF } from "./appels-calcul";
import { boolQuery, byId, Campagne, stamp } from "./schemas";

/**
 * The campaign, export and news calls of the JSON API (spec 1 §7, spec 3 §7; issues 26 and 27; decision 0111): a
 * farm's campaigns (list with the spec's filters, create, rename, delete), a campaign's crop areas, the news posts,
 * an export session's file, the raw-data export of campaigns and the result export of series (both jobs answered
 * 202 with the job's and the file's addresses), and the per-plot results of series. The services are the screens'.
 */

/** idCalculSerie[]=1&idCalculSerie[]=2 (or idCalculSerie=…): one id or several. */
const idList = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(rowId()));

// The campaign answer of GET campagnes/{id}, without what a list does not read, with the edit token.
const CampagneListee = Campagne.omit({ anneeDerniereAction: true, locked: true }).extend({ updatedAt: stamp });

/** The creation payload of the campaign screen (A-CAMP-15): its form's fields and the farm, `exploitation`. */
const NouvelleCampagne = NewCampagneSchema.in.extend({ exploitation: rowId() });
const { exploitation: _farm, ...champsCampagne } = NouvelleCampagne.shape;
void _farm;

const Assolement = z.object({
  idCampagne: z.number().int(),
  items: z.array(
    z.object({ key: z.string(), kind: z.enum(["culture", "mode", "sansMode"]), libelle: z.string(), libelleEn: z.string().nullable(), surface: z.number() }),
  ),
  total: z.number(),
});

const Post = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  creationDate: stamp,
  postCategory: z.string().nullable(),
  image: z.string().nullable(),
});

/** A started export: its session, its job (GET it for progress) and the address of its file once finished. */
const ExportLance = z.object({
  id: z.number().int(),
  idTache: z.number().int(),
  href: z.string().describe("The job's address: GET it for its state and progress"),
  fichier: z.string().describe("The file's address (GET session_exports/{id}), once the job is done"),
});
const SESSION_HREF = (id: number): string => `/api/v1/session_exports/${id}`;
const lance = (r: { id: number; idTache: number }) => ({ ...r, href: TACHE_HREF(r.idTache), fichier: SESSION_HREF(r.id) });

/**
 * POST campagnes/export (A-API-28, C-API-54): the campaigns' raw data, the raw-data export screen's request
 * (DemandeExportSchema) with lists as JSON lists; without `groupes`, every exportable data group.
 */
const { campagnes: _c, groupes: _g, nature: _n, series: _s, options: _o, ...champsExport } = DemandeExportSchema.shape;
void [_c, _g, _n, _s, _o];
const ExportCampagnes = z.object({
  campagneId: z.array(rowId()).min(1, "warning.required").max(500, "warning.too-many"),
  groupes: z.array(rowId()).min(1, "warning.required").max(500, "warning.too-many").optional(),
  ...champsExport,
});

const ResultatParcelle = z.object({
  idCalculSerie: z.number().int(),
  idCampagne: z.number().int(),
  idParcelle: z.number().int(),
  libelleParcelle: z.string().nullable(),
  code: z.string(),
  valeur: z.number().nullable(),
  unite: z.string(),
  completude: z.number(),
  nbManquants: z.number().int(),
});

export const APPELS_CAMPAGNES: readonly ApiCall[] = [
  // --- campaigns of a farm (A-API-24, B-API-08, A-API-25)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes",
    tag: "campagnes",
    summary: "The campaigns of the farm `exploitation`, filtered on serieValide and indicateurPublie (true or false) when given; newest harvest first",
    query: z.object({ exploitation: rowId(), serieValide: boolQuery.optional(), indicateurPublie: boolQuery.optional() }),
    answer: z.array(CampagneListee),
    refusals: [404],
    handle: ({ scope, query }) => campagnesDeFerme(scope, query.exploitation, { serieValide: query.serieValide, indicateurPublie: query.indicateurPublie }),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/exploitations/{id}/campagnes",
    tag: "campagnes",
    summary: "The campaigns of a farm, newest harvest first, the base campaign of a year before its simulations",
    params: byId,
    answer: z.array(CampagneListee),
    refusals: [404],
    handle: ({ scope, params }) => campagnesDeFerme(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/campagnes",
    tag: "campagnes",
    summary:
      "A new campaign of the farm `exploitation` (the campaign form: anneeRecolte, apiLibelle, campagneSource and its duplication options inter, majDtInter, obs, eltObserve, valeur, prix, campagneHistoParcelle); simulation is computed",
    body: NouvelleCampagne,
    answer: CampagneListee,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { exploitation, ...form } = body;
      const input = NewCampagneSchema.parse(form);
      return creerCampagneDeFerme(scope, exploitation, input);
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/campagnes/{id}",
    tag: "campagnes",
    summary: "Renames a campaign (apiLibelle); updatedAt as read, else 409; refused on a locked campaign",
    params: byId,
    campaign: ({ params }) => params.id,
    body: z.object({ apiLibelle: champsCampagne.apiLibelle, updatedAt: tokenField }),
    answer: CampagneListee,
    refusals: [404, 409],
    handle: ({ scope, body }) => renommerCampagne(scope, { apiLibelle: body.apiLibelle ?? "", updatedAt: body.updatedAt }),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/campagnes/{id}",
    tag: "campagnes",
    summary: "Deletes a campaign and what it holds (refused on a locked campaign, and for a base campaign while simulations of its year exist: 409)",
    params: byId,
    campaign: ({ params }) => params.id,
    refusals: [404, 409],
    handle: ({ scope }) => supprimerCampagne(scope),
  }),
  // A-API-26
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/assolements",
    tag: "campagnes",
    summary: "The campaign's crop areas: plot surfaces summed by main crop (or by driving mode), with libelle and surface (ha), largest first",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: Assolement,
    refusals: [404],
    handle: ({ scope }) => getAssolement(scope),
  }),

  // --- news (A-API-30)
  apiCall({
    method: "GET",
    path: "/api/v1/posts",
    tag: "posts",
    summary: "The news posts of the home page, newest first",
    answer: z.array(Post),
    handle: ({ scope }) => getPosts(scope.db),
  }),

  // --- exports (A-API-32, A-API-28, C-API-54, C-API-49)
  apiCall({
    method: "GET",
    path: "/api/v1/session_exports/{id}",
    tag: "exports",
    summary: "The xlsx file of one of the user's finished export sessions (409 while it runs, 410 when its file is gone)",
    params: byId,
    answer: ApiFileAnswer,
    file: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    refusals: [404, 409, 410],
    handle: ({ scope, params }) => fichierSessionExport(scope.db, scope.user, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/campagnes/export",
    tag: "exports",
    summary:
      "Starts the raw-data export of the campaigns `campagneId` (the raw-data export screen's; `groupes`: donnee_exportable ids, every group when absent; anglais for English texts): answered 202 with the job's address and the file's, GET session_exports/{id}",
    body: ExportCampagnes,
    // The scope's view is the first campaign's: the campaigns offered are those of its network, as on the screen.
    campaign: ({ body }) => body.campagneId[0],
    answer: ExportLance,
    status: 202,
    refusals: [404, 413],
    handle: async ({ scope, body, locale }) => {
      const groupes = body.groupes ?? (await listerDonneesExportables(scope.db)).map((d) => d.id);
      const r = await creerExportDonneesBrutes(scope, {
        libelle: body.libelle,
        version: body.version,
        anglais: body.anglais || locale === "en",
        campagnes: body.campagneId,
        groupes,
      });
      return lance(r);
    },
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/calculs_series/export",
    tag: "calculs",
    summary:
      "Starts the result workbook of the series `calculsSeries` (the export-result form; an .xlsx without macros, decision 0057): answered 202 with the job's address and the file's, GET session_exports/{id}",
    body: ExportResultatsSchema,
    campaign: ({ body }, db) => campagneDeSerie(db, body.calculsSeries[0]),
    answer: ExportLance,
    status: 202,
    refusals: [404, 409, 413],
    handle: async ({ scope, body, locale }) => lance(await lancerExportResultats(scope, { ...body, anglais: body.anglais || locale === "en" })),
  }),

  // --- results per plot (C-API-50)
  apiCall({
    method: "GET",
    path: "/api/v1/calculs_resultats_plots",
    tag: "calculs",
    summary: "The per-plot figures of the series `idCalculSerie[]` the user sees (IFT, nitrogen, gross margin, work time, ...), series by series",
    query: z.object({ "idCalculSerie[]": idList.optional(), idCalculSerie: idList.optional() }),
    answer: z.array(ResultatParcelle),
    refusals: [404],
    handle: async ({ scope, query }) => {
      const ids = [...new Set([...(query["idCalculSerie[]"] ?? []), ...(query.idCalculSerie ?? [])])];
      const out: z.input<typeof ResultatParcelle>[] = [];
      for (const id of ids) {
        const d = await lireSerie(scope.db, scope.user, id);
        const libelles = new Map(d.parcelles.map((p) => [String(p.id), p.libelle]));
        for (const r of d.resultats)
          if (r.niveau === "parcelle")
            out.push({
              idCalculSerie: d.serie.id,
              idCampagne: d.serie.idCampagne,
              idParcelle: Number(r.idEntite),
              libelleParcelle: libelles.get(r.idEntite) ?? null,
              code: r.code,
              valeur: r.valeur,
              unite: r.unite,
              completude: r.completude,
              nbManquants: r.nbManquants,
            });
      }
      return out;
    },
  }),
];
