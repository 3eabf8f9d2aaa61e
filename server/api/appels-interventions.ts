import { z } from "zod";
import { InterventionSchema } from "~/domain/intervention";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall } from "../http/api.server";
import { getInterventions, removeInterventions, saveIntervention } from "../intervention/service";
import { actionCampaign, getIntervention, MAX_SAISON, parcelleCampaignOf, saveSaison } from "../intervention/saison";
import { byId, stamp } from "./schemas";

/** The interventions calls of the JSON API (spec 3 §7; issue 27, decision 0112): a plot's interventions, one intervention, a season in one call. */

const Intervention = z.looseObject({
  id: z.number().int(),
  updatedAt: stamp,
  idParcelle: z.number().int(),
  date: z.string().describe("yyyy-mm-dd"),
  idOperationCulturale: z.number().int().nullable(),
  idCultureConcernee: z.number().int().nullable(),
  debit: z.number().nullable(),
  frequence: z.number(),
  tauxSurface: z.number(),
  nombrePassage: z.number().nullable(),
  realisee: z.boolean(),
  prevue: z.boolean(),
});

const SaisonBody = z.object({
  interventions: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(MAX_SAISON)
    .describe(
      "Each intervention: the intervention form's fields (date, idOperationCulturale, idCultureConcernee, debit, frequence, tauxSurface, realisee, prevue) and intrants: [{ type: semence|phyto|fertilisant|eau|autre, ...the input form's fields of that type }]",
    ),
});

export const APPELS_INTERVENTIONS: readonly ApiCall[] = [
  // C-API-05
  apiCall({
    method: "GET",
    path: "/api/v1/parcelles/{id}/actions",
    tag: "interventions",
    summary: "The interventions of a plot, by date, with their inputs' detail",
    params: byId,
    campaign: ({ params }, db) => parcelleCampaignOf(db, params.id),
    answer: z.array(Intervention),
    refusals: [404],
    handle: async ({ scope, params }) => (await getInterventions(scope, { parcelleIds: [params.id] })).rows,
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/actions/{id}",
    tag: "interventions",
    summary: "One intervention",
    params: byId,
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    answer: Intervention,
    refusals: [404],
    handle: ({ scope, params }) => getIntervention(scope, params.id),
  }),
  // C-API-06: the date as the form takes it (dd/mm/yyyy or yyyy-mm-dd), nombrePassage computed from frequence and tauxSurface.
  apiCall({
    method: "POST",
    path: "/api/v1/actions",
    tag: "interventions",
    summary: "A new intervention of a plot (the intervention form's fields); nombrePassage = frequence × tauxSurface",
    body: InterventionSchema,
    campaign: ({ body }, db) => parcelleCampaignOf(db, body.idParcelle),
    answer: Intervention,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => getIntervention(scope, await saveIntervention(scope, body)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/actions/{id}",
    tag: "interventions",
    summary: "Updates an intervention (all its form's fields); updatedAt as read, else 409",
    params: byId,
    body: InterventionSchema.extend({ updatedAt: tokenField }),
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    answer: Intervention,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => {
      const { updatedAt, ...fields } = body;
      return getIntervention(scope, await saveIntervention(scope, fields, { id: params.id, updatedAt }));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/actions/{id}",
    tag: "interventions",
    summary: "Deletes an intervention with its inputs and harvests",
    params: byId,
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeInterventions(scope, [params.id]),
  }),
  // Bulk (issue 27, beyond the spec): a season in one call and one transaction.
  apiCall({
    method: "POST",
    path: "/api/v1/parcelles/{id}/saison",
    tag: "interventions",
    summary:
      "A season of interventions of a plot with their inputs, in one transaction: one bad row stores nothing (400, errors named interventions.<i>.<field> and interventions.<i>.intrants.<j>.<field>)",
    params: byId,
    body: SaisonBody,
    campaign: ({ params }, db) => parcelleCampaignOf(db, params.id),
    answer: z.object({ interventions: z.array(z.object({ index: z.number().int(), id: z.number().int(), intrants: z.array(z.number().int()) })) }),
    status: 201,
    refusals: [404],
    handle: ({ scope, params, body }) => saveSaison(scope, params.id, body.interventions),
  }),
];
