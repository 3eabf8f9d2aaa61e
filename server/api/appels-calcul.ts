import { z } from "zod";
import { rowId } from "~/domain/validation";
import { apiCall, type ApiCall } from "../http/api.server";
import { etatLancement, lancerCalcul } from "../calcul-serie/lancement";
import { controlerSerie, listerSeries, lireSerie, modifierSerie } from "../calcul-serie/service";
import { lireTache } from "../jobs/service";
import { boolQuery, byId, stamp } from "./schemas";

/**
 * The calculation calls of the JSON API (spec 3 §7; issue 27, C-API-45..48): the series, their publication, visa,
 * remark and group flags, the pre-check, and the launch as a job (decision 0102) answered 202 with the job's address,
 * which GET taches/{id} answers with its state and progress.
 */

/** campagne=1&campagne=2 (or campagne[]=...): one id or several. */
const idList = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(rowId()));

const Serie = z.looseObject({
  id: z.number().int(),
  idCampagne: z.number().int(),
  campagne: z.string(),
  exploitation: z.string(),
  statut: z.enum(["en_cours", "termine", "erreur"]),
  publication: z.boolean(),
  visaAnimateur: z.boolean(),
  remarque: z.string().nullable(),
  nbParcellesATraiter: z.number().int(),
  nbParcellesTraiteesReussies: z.number().int(),
  createdAt: stamp,
  updatedAt: stamp,
  dtFin: stamp.nullable(),
  perimee: z.boolean(),
});
const Groupe = z.looseObject({ id: z.number().int(), publie: z.boolean() });
const Resultat = z.object({
  niveau: z.string(),
  idEntite: z.string(),
  code: z.string(),
  valeur: z.number().nullable(),
  unite: z.string(),
  completude: z.number(),
  nbManquants: z.number().int(),
});
const DetailSerie = z.object({
  serie: Serie,
  groupes: z.array(Groupe),
  peutValider: z.boolean(),
  parcelles: z.array(z.object({ id: z.number().int(), libelle: z.string(), surface: z.number().nullable(), idCulture: z.string().nullable() })),
  cultures: z.array(z.object({ id: z.string(), libelle: z.string() })),
  resultats: z.array(Resultat),
});
const Controle = z.object({ codeRetour: z.string(), details: z.array(z.looseObject({})) });
const Tache = z.object({
  id: z.number().int(),
  type: z.string(),
  etat: z.enum(["en_attente", "en_cours", "terminee", "echec"]),
  progression: z.number(),
  total: z.number(),
  erreur: z.string().nullable(),
  resultat: z.unknown(),
  /** The series a calculation job created so far. */
  series: z.array(z.object({ id: z.number().int(), idCampagne: z.number().int() })).optional(),
});
const TacheLancee = z.object({ idTache: z.number().int(), href: z.string().describe("The job's address: GET it for its state and progress") });

/** The PATCH of a series: one change at a time, as the screen sends them (C-CALC-13..22). */
const ChangementSerie = z
  .object({
    groupes: z.array(z.object({ id: rowId(), publie: z.boolean() })).optional(),
    tous: z.boolean().optional(),
    remarque: z.string().max(2000).nullable().optional(),
    visa: z.boolean().optional(),
  })
  .refine((c) => Object.values(c).filter((v) => v !== undefined).length === 1, { message: "warning.invalid", path: ["form"] });

export const TACHE_HREF = (id: number): string => `/api/v1/taches/${id}`;

export const APPELS_CALCUL: readonly ApiCall[] = [
  apiCall({
    method: "GET",
    path: "/api/v1/calculs_series",
    tag: "calculs",
    summary: "The series of the campaigns `campagne` (repeated) the user may see, newest first",
    query: z.object({ campagne: idList, "campagne[]": idList.optional() }),
    answer: z.array(Serie),
    handle: ({ scope, query }) => listerSeries(scope.db, scope.user, [...query.campagne, ...(query["campagne[]"] ?? [])]),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/calculs_series/check",
    tag: "calculs",
    summary: "The pre-calculation check of a campaign: codeRetour (OK, Avertissement or Erreur) and the detail list",
    query: z.object({ campagne: rowId(), force: boolQuery.optional() }),
    answer: Controle,
    refusals: [404],
    handle: ({ scope, query }) => controlerSerie(scope.db, scope.user, query.campagne),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/calculs_series/calc",
    tag: "calculs",
    summary:
      "Starts the calculation of the campaigns (a job, decision 0102: check, then series); force=true runs past warnings. Answers 202 with the job's address",
    body: z.object({ campagne: z.array(rowId()).min(1), force: z.boolean().optional() }),
    answer: TacheLancee,
    status: 202,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { idTache } = await lancerCalcul(scope.db, scope.user, body.campagne, { confirme: body.force === true });
      return { idTache, href: TACHE_HREF(idTache) };
    },
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/calculs_series/{id}",
    tag: "calculs",
    summary: "One series with its groups and its figures (IFT, nitrogen, gross margin, work time per plot, crop and farm)",
    params: byId,
    answer: DetailSerie,
    refusals: [404],
    handle: ({ scope, params }) => lireSerie(scope.db, scope.user, params.id),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/calculs_series/{id}",
    tag: "calculs",
    summary: "One change of a series: groups' published flags, tous (all groups), remarque, or visa (animation right, after publication)",
    params: byId,
    body: ChangementSerie,
    answer: Serie,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => {
      await modifierSerie(scope.db, scope.user, params.id, body);
      return (await lireSerie(scope.db, scope.user, params.id)).serie;
    },
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/taches/{id}",
    tag: "calculs",
    summary: "A job of the user: its state, progress, error key and result (a calculation's series)",
    params: byId,
    answer: Tache,
    refusals: [404],
    handle: async ({ scope, params }) => {
      const tache = await lireTache(scope.db, scope.user, params.id);
      if (tache.type !== "calcul-lancement") return tache;
      return { ...tache, series: (await etatLancement(scope.db, scope.user, params.id)).series };
    },
  }),
];
