import { z } from "zod";
import { InterventionGrilleSchema } from "~/domain/intervention";
import { QualifiantRecolteSchema } from "~/domain/recolte";
import { rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { idActionOf } from "../intrant/api";
import { apiCall, type ApiCall } from "../http/api.server";
import { getInterventions, removeInterventions, saveIntervention } from "../intervention/service";
import { actionCampaign, getIntervention, MAX_SAISON, parcelleCampaignOf, saveSaison } from "../intervention/saison";
import { createQualifiant, getRecolte, listQualifiants, removeQualifiant, removeRecolte, typesSortie } from "../recolte/service";
import { createRecolteApi, recolteCampaign, recoltesOfAction, updateRecolteApi } from "../recolte/api";
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
  // The register's fields (issue 28, decision 0125), absent when empty.
  heureDebut: z.string().optional().describe("HH:MM"),
  heureFin: z.string().optional().describe("HH:MM, after heureDebut"),
  idStadeCulture: z.number().int().optional().describe("a BBCH stage of the reference list (stade_culture)"),
  precisionStade: z.string().optional().describe("the stage as free text"),
  siretPrestataire: z.string().optional().describe("the contractor's SIRET, 14 digits"),
  rentreeAnticipee: z.boolean().optional().describe("early re-entry used"),
  lotSemences: z.string().optional().describe("the lot of treated seed sown"),
});

export const Recolte = z.looseObject({
  id: z.number().int(),
  updatedAt: stamp,
  idAction: z.number().int(),
  idCulture: z.number().int(),
  dicIdTypeSortie: z.number().int(),
  rendement: z.number().nullable(),
  dicLlUnite: z.string(),
  idQualifiantRecolte: z.number().int().nullable(),
  idObservationSerie: z.number().int().nullable(),
  humiditeReference: z.number().nullable(),
  animaux: z.array(z.object({ dicIdModalite: z.number().int(), nombre: z.number().nullable() })),
});
export const RECOLTE_FIELDS =
  "the harvest dialog's fields: idCulture, dicIdTypeSortie, rendement, humiditeReference, idQualifiantRecolte, obsRendement, obsHumidite, obsPoidsSpecifique, obsPmg, obsProteines, obsHuile, dureePaturage, animaux: [{ dicIdModalite, nombre }]";

const SaisonBody = z.object({
  interventions: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(MAX_SAISON)
    .describe(
      "Each intervention: the intervention form's fields (date, idOperationCulturale, idCultureConcernee, debit, frequence, tauxSurface, realisee, prevue, and the register's heureDebut, heureFin, idStadeCulture, precisionStade, siretPrestataire, rentreeAnticipee, lotSemences) and intrants: [{ type: semence|phyto|fertilisant|eau|autre, ...the input form's fields of that type }]",
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
    summary: "A new intervention of a plot (the intervention form's fields, the register's included); nombrePassage = frequence × tauxSurface",
    body: InterventionGrilleSchema,
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
    summary: "Updates an intervention (all its form's fields, the register's included: one left out is stored empty); updatedAt as read, else 409",
    params: byId,
    body: InterventionGrilleSchema.extend({ updatedAt: tokenField }),
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

  // C-API-15, C-API-16: harvests, with their characteristics (reference humidity, animals) and observation series.
  apiCall({
    method: "GET",
    path: "/api/v1/actions/{id}/recoltes",
    tag: "recoltes",
    summary: "The harvests of an intervention, with their characteristics",
    params: byId,
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    answer: z.array(Recolte),
    refusals: [404],
    handle: async ({ scope, params }) => {
      await getIntervention(scope, params.id);
      return recoltesOfAction(scope, params.id);
    },
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/recoltes/{id}",
    tag: "recoltes",
    summary: "One harvest, with its characteristics and observation series",
    params: byId,
    campaign: ({ params }, db) => recolteCampaign(db, params.id),
    answer: Recolte,
    refusals: [404],
    handle: ({ scope, params }) => getRecolte(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/recoltes",
    tag: "recoltes",
    summary: "A new harvest of the intervention idAction",
    body: z.record(z.string(), z.unknown()).describe(`idAction, and ${RECOLTE_FIELDS}`),
    campaign: ({ body }, db) => actionCampaign(db, idActionOf(body)),
    answer: Recolte,
    status: 201,
    refusals: [404],
    handle: ({ scope, body }) => createRecolteApi(scope, body),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/recoltes/{id}",
    tag: "recoltes",
    summary: "Updates a harvest (all its dialog's fields); updatedAt as read, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe(`updatedAt, and ${RECOLTE_FIELDS}`),
    campaign: ({ params }, db) => recolteCampaign(db, params.id),
    answer: Recolte,
    refusals: [404, 409],
    handle: ({ scope, params, body }) => updateRecolteApi(scope, params.id, body),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/recoltes/{id}",
    tag: "recoltes",
    summary: "Deletes a harvest with its characteristics and observation series",
    params: byId,
    campaign: ({ params }, db) => recolteCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeRecolte(scope, params.id),
  }),

  // C-API-17 (in part), C-API-20 (in part): the qualifiers are the folder's through which the user works the campaign
  // `campagne` (the services read the folder from the campaign's scope, decision 0112).
  apiCall({
    method: "GET",
    path: "/api/v1/qualifiant_recoltes",
    tag: "recoltes",
    summary: "The harvest qualifiers of the folder of the campaign campagne, each saying whether harvests use it",
    query: z.object({ campagne: rowId() }),
    campaign: ({ query }) => query.campagne,
    answer: z.array(z.object({ id: z.number().int(), qrdNom: z.string(), utilise: z.boolean() })),
    refusals: [404],
    handle: ({ scope }) => listQualifiants(scope),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/qualifiant_recoltes",
    tag: "recoltes",
    summary: "A new harvest qualifier (qrdNom) of the folder of the campaign campagne; the same name twice is the one qualifier",
    body: QualifiantRecolteSchema.extend({ campagne: rowId() }),
    campaign: ({ body }) => body.campagne,
    answer: z.object({ id: z.number().int(), qrdNom: z.string() }),
    status: 201,
    refusals: [404],
    handle: ({ scope, body }) => createQualifiant(scope, { qrdNom: body.qrdNom }),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/qualifiant_recoltes/{id}",
    tag: "recoltes",
    summary: "Deletes a harvest qualifier of the folder of the campaign campagne; refused (409) while harvests or sale prices use it",
    params: byId,
    query: z.object({ campagne: rowId() }),
    campaign: ({ query }) => query.campagne,
    refusals: [404, 409],
    handle: ({ scope, params }) => removeQualifiant(scope, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/types_sorties",
    tag: "recoltes",
    summary: "The output types of a crop (idCulture)",
    query: z.object({ idCulture: rowId(), campagne: rowId() }),
    campaign: ({ query }) => query.campagne,
    answer: z.array(z.object({ id: z.number().int(), libelle: z.string(), libelleEn: z.string().nullable(), unite: z.string() })),
    refusals: [404],
    handle: ({ scope, query }) => typesSortie(scope, query.idCulture),
  }),
];
