import { z } from "zod";
import { ComplementObservationSchema, ObservationRowSchema, SerieSchema } from "~/domain/observation";
import { rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall } from "../http/api.server";
import { parcelleCampaign } from "../parcelle/service";
import {
  complementCampaign,
  getComplement,
  getObservation,
  getSerie,
  getSeriesOfParcelle,
  observationSerie,
  removeObservations,
  removeSeries,
  saveComplement,
  saveObservation,
  saveSerie,
  serieCampaign,
} from "../observation/service";
import { byId, stamp } from "./schemas";

/**
 * The observation calls of the JSON API (spec 2 §7; issue 26, decision 0110): series (observations_series) and the
 * rows of a series' observations table (observations_parcelles), through the measures screen's services and schemas.
 */

const id = z.number().int();
const withStamp = { updatedAt: tokenField.describe("The row's updatedAt as read: a stale one is refused (409)") };

/** A row of a series' observations table, with the spec's names beside the screen's (B-API-21). */
const Observation = z.looseObject({
  id,
  serieId: id,
  observedElemId: id.describe("The observed element (element; a folder's own element is negative)"),
  parcelleId: id,
  value: z.number().nullable(),
  unit: z.string().nullable(),
  remarque: z.string().nullable(),
  stadeAdventice: id.nullable(),
  idPereStade: id.nullable().describe("The weed (idAdventice)"),
  horizon: id.nullable(),
  updatedAt: stamp,
});
type ObservationData = Awaited<ReturnType<typeof getObservation>>;
const observationOut = (serieId: number, o: ObservationData) => ({
  ...o,
  serieId,
  observedElemId: o.element,
  parcelleId: o.idParcelle,
  value: o.valeur,
  unit: o.unite,
  idPereStade: o.idAdventice,
  horizon: o.idHorizon,
});

/** A series, with the spec's names beside the screen's (B-API-20). */
const Serie = z.looseObject({
  id,
  name: z.string(),
  nom: z.string(),
  remarque: z.string().nullable(),
  date: z.string(),
  dicIdTypeSerie: id,
  idAction: id.nullable(),
  idUser: id.nullable(),
  idStade: id.nullable(),
  idCulture: id.nullable(),
  idParcelle: id,
  organeEtudie: id.nullable(),
  laboratoire: z.string().nullable(),
  isPlacetteSelected: z.boolean(),
  placettes: z.array(id),
  updatedAt: stamp,
});
const SerieDetail = Serie.extend({
  idExploitation: id,
  observations: z.array(Observation),
  horizons: z.array(z.looseObject({ id, name: z.string(), limiteSup: z.number().nullable(), limiteInf: z.number().nullable() })),
});
type SerieData = Awaited<ReturnType<typeof getSerie>>;
const serieOut = (s: SerieData) => ({ ...s, name: s.nom, observations: s.observations.map((o) => observationOut(s.id, o)) });

/** A complement observation (B-API-22): a further value of an observation row. */
const Complement = z.object({
  id,
  dicoIdEltObserve: id,
  obsValNum: z.number().nullable(),
  observationsParcelle: id.describe("The observation row (observations_parcelles id) it completes"),
  idObservation: id,
  updatedAt: stamp,
});
const complementCampaignOf = ({ params }: { params: { id: number } }, db: Parameters<typeof complementCampaign>[0]) => complementCampaign(db, params.id);

export const APPELS_OBSERVATIONS: readonly ApiCall[] = [
  // --- series (B-API-19, B-API-20, C-API-18)
  apiCall({
    method: "GET",
    path: "/api/v1/parcelles/{id}/observations_series",
    tag: "observations_series",
    summary: "The observation series of a plot, newest first",
    params: byId,
    campaign: ({ params }, db) => parcelleCampaign(db, params.id),
    answer: z.array(Serie),
    refusals: [404],
    handle: async ({ scope, params }) => (await getSeriesOfParcelle(scope, params.id)).map((s) => ({ ...s, name: s.nom })),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/observations_series/{id}",
    tag: "observations_series",
    summary: "One series with its observations and horizons",
    params: byId,
    campaign: ({ params }, db) => serieCampaign(db, params.id),
    answer: SerieDetail,
    refusals: [404],
    handle: async ({ scope, params }) => serieOut(await getSerie(scope, params.id)),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/observations_series/{id}/observations",
    tag: "observations_series",
    summary: "The observations of a series",
    params: byId,
    campaign: ({ params }, db) => serieCampaign(db, params.id),
    answer: z.array(Observation),
    refusals: [404],
    handle: async ({ scope, params }) => serieOut(await getSerie(scope, params.id)).observations,
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/observations_series",
    tag: "observations_series",
    summary:
      "A new series on the plot idParcelle (the series form's fields: nom, date, dicIdTypeSerie (1128: harvest), idCulture, idStade, idAction, organeEtudie, laboratoire, remarque, isPlacetteSelected, placettes)",
    body: SerieSchema,
    campaign: ({ body }, db) => parcelleCampaign(db, body.idParcelle),
    answer: SerieDetail,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => serieOut(await getSerie(scope, await saveSerie(scope, body))),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/observations_series/{id}",
    tag: "observations_series",
    summary: "Updates a series (its type, plot and placette mode stay); updatedAt as read, else 409",
    params: byId,
    body: SerieSchema.extend(withStamp),
    campaign: ({ params }, db) => serieCampaign(db, params.id),
    answer: SerieDetail,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) =>
      serieOut(await getSerie(scope, await saveSerie(scope, input, { id: params.id, updatedAt }))),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/observations_series/{id}",
    tag: "observations_series",
    summary: "Deletes a series with its observations, horizons and files",
    params: byId,
    campaign: ({ params }, db) => serieCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeSeries(scope, [params.id]),
  }),

  // --- observations (B-API-19, B-API-21, C-API-19)
  apiCall({
    method: "GET",
    path: "/api/v1/observations_parcelles/{id}",
    tag: "observations_parcelles",
    summary: "One observation",
    params: byId,
    campaign: async ({ params }, db) => (await observationSerie(db, params.id))?.idCampagne ?? null,
    answer: Observation,
    refusals: [404],
    handle: async ({ scope, params }) => {
      const { idSerie } = (await observationSerie(scope.db, params.id))!;
      return observationOut(idSerie, await getObservation(scope, idSerie, params.id));
    },
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/observations_parcelles",
    tag: "observations_parcelles",
    summary:
      "A new observation in the series idObservationSerie (the observations table's fields: element, valeur, unite, remarque, idHorizon, idAdventice, stadeAdventice, classe)",
    body: ObservationRowSchema.extend({ idObservationSerie: rowId() }),
    campaign: ({ body }, db) => serieCampaign(db, body.idObservationSerie),
    answer: Observation,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idObservationSerie, ...values } }) =>
      observationOut(idObservationSerie, await getObservation(scope, idObservationSerie, await saveObservation(scope, idObservationSerie, values))),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/observations_parcelles/{id}",
    tag: "observations_parcelles",
    summary: "Updates an observation (all the table's fields); updatedAt as read, else 409",
    params: byId,
    body: ObservationRowSchema.extend(withStamp),
    campaign: async ({ params }, db) => (await observationSerie(db, params.id))?.idCampagne ?? null,
    answer: Observation,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...values } }) => {
      const { idSerie } = (await observationSerie(scope.db, params.id))!;
      return observationOut(idSerie, await getObservation(scope, idSerie, await saveObservation(scope, idSerie, values, { id: params.id, updatedAt })));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/observations_parcelles/{id}",
    tag: "observations_parcelles",
    summary: "Deletes an observation (with its placettes' values)",
    params: byId,
    campaign: async ({ params }, db) => (await observationSerie(db, params.id))?.idCampagne ?? null,
    refusals: [404],
    handle: async ({ scope, params }) => removeObservations(scope, (await observationSerie(scope.db, params.id))!.idSerie, [params.id]),
  }),

  // --- complement observations (B-API-22)
  apiCall({
    method: "GET",
    path: "/api/v1/complement_observations/{id}",
    tag: "complement_observations",
    summary: "One complement observation",
    params: byId,
    campaign: complementCampaignOf,
    answer: Complement,
    refusals: [404],
    handle: ({ scope, params }) => getComplement(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/complement_observations",
    tag: "complement_observations",
    summary: "A new complement observation of the observation row observationsParcelle (dicoIdEltObserve, obsValNum)",
    body: ComplementObservationSchema,
    campaign: async ({ body }, db) => (await observationSerie(db, body.observationsParcelle))?.idCampagne ?? null,
    answer: Complement,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => getComplement(scope, await saveComplement(scope, body)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/complement_observations/{id}",
    tag: "complement_observations",
    summary: "Updates a complement observation (dicoIdEltObserve, obsValNum, observationsParcelle of the same campaign); updatedAt as read, else 409",
    params: byId,
    body: ComplementObservationSchema.extend(withStamp),
    campaign: complementCampaignOf,
    answer: Complement,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) => getComplement(scope, await saveComplement(scope, input, { id: params.id, updatedAt })),
  }),
];
