import { z } from "zod";
import { PrixApproSchema, PrixVenteSchema } from "~/domain/prix";
import { rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall } from "../http/api.server";
import { prixCampaign, prixProposeDe, savePrixCampagne, savePrixRow } from "../prix/api";
import { getPrixAppro, getPrixVente, removeUnusedAppro, removeUnusedVente } from "../prix/service";
import { boolQuery, byId, stamp } from "./schemas";

/** The prices calls of the JSON API (spec 3 §7 Prices; issue 27, decision 0112), and a campaign's prices in one call. */

const PrixAppro = z.looseObject({
  id: z.number().int(),
  updatedAt: z.string(),
  fioul: z.boolean(),
  idOrigineIntrant: z.number().int().nullable(),
  idTypeIntrant: z.number().int().nullable(),
  idIntrant: z.number().int().nullable(),
  idModalite: z.number().int().nullable(),
  traitementSemence: z.boolean(),
  libelleIntrant: z.string(),
  prixAchat: z.number().nullable(),
  unite: z.string().nullable(),
  utilise: z.boolean(),
});
const PrixVente = z.looseObject({
  id: z.number().int(),
  updatedAt: z.string(),
  idModeConduite: z.number().int().nullable(),
  idCulture: z.number().int(),
  idTypeSortie: z.number().int(),
  idQualifiantRecolte: z.number().int().nullable(),
  prixVente: z.number().nullable(),
  utilise: z.boolean(),
});
const Stats = z.object({
  count: z.number().int(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  cv: z.number().nullable(),
});
const Patch = (values: z.ZodType) => z.object({ id: rowId(), updatedAt: tokenField, values });
const Saved = z.object({
  saved: z.array(z.object({ index: z.number().int(), id: z.number().int(), updatedAt: stamp })),
  conflicts: z.array(z.object({ index: z.number().int(), id: z.number().int(), key: z.string(), updatedAt: z.string().nullable() })),
});

export const APPELS_PRIX: readonly ApiCall[] = [
  // C-API-23, C-API-24, C-API-25
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/prix_appros",
    tag: "prix",
    summary: "The campaign's supply prices: the fuel row first, then the products its inputs use",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(PrixAppro),
    refusals: [404],
    handle: async ({ scope }) => (await getPrixAppro(scope)).rows,
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/campagnes/{id}/prix_appros",
    tag: "prix",
    summary: "Deletes the campaign's supply prices no input uses",
    params: byId,
    campaign: ({ params }) => params.id,
    refusals: [404],
    handle: async ({ scope }) => void (await removeUnusedAppro(scope)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/prix_appros/{id}",
    tag: "prix",
    summary: "Sets a supply price (prixAchat, a number; traitementSemence is not written); updatedAt as read, else 409",
    params: byId,
    body: PrixApproSchema.extend({ updatedAt: tokenField }),
    campaign: ({ params }, db) => prixCampaign(db, "prix_appro", params.id),
    refusals: [404, 409],
    handle: ({ scope, params, body }) => savePrixRow(scope, "prix_appro", { id: params.id, updatedAt: body.updatedAt, values: { prixAchat: body.prixAchat } }),
  }),
  // C-API-26
  apiCall({
    method: "GET",
    path: "/api/v1/prix_proposes",
    tag: "prix",
    summary: "The proposed prices of a product of the campaign: statistics of the user's other campaigns, of this year's, the reference price",
    query: z.object({
      campagne: rowId(),
      idIntrant: rowId().optional(),
      idOrigineIntrant: rowId().optional(),
      idModalite: rowId().optional(),
      libelle: z.string().max(255).optional(),
      unite: z.string().max(40).optional(),
      traitementSemence: boolQuery.optional(),
    }),
    campaign: ({ query }) => query.campagne,
    answer: z.looseObject({
      id: z.number().int(),
      toutes: Stats,
      annee: Stats,
      anneeRecolte: z.number().int(),
      reference: z.looseObject({ prixPhytcom: z.number() }).nullable(),
      referenceApplicable: z.boolean(),
      unite: z.string().nullable(),
    }),
    refusals: [404],
    handle: ({ scope, query }) => {
      const { campagne: _c, ...produit } = query;
      void _c;
      return prixProposeDe(scope, produit);
    },
  }),
  // C-API-27
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/prix_ventes",
    tag: "prix",
    summary: "The campaign's sale prices: the products its harvests give",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(PrixVente),
    refusals: [404],
    handle: async ({ scope }) => (await getPrixVente(scope)).rows,
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/campagnes/{id}/prix_ventes",
    tag: "prix",
    summary: "Deletes the campaign's sale prices no harvest gives",
    params: byId,
    campaign: ({ params }) => params.id,
    refusals: [404],
    handle: async ({ scope }) => void (await removeUnusedVente(scope)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/prix_ventes/{id}",
    tag: "prix",
    summary: "Sets a sale price (prixVente; null clears it); updatedAt as read, else 409",
    params: byId,
    body: PrixVenteSchema.extend({ updatedAt: tokenField }),
    campaign: ({ params }, db) => prixCampaign(db, "prix_vente", params.id),
    refusals: [404, 409],
    handle: ({ scope, params, body }) => savePrixRow(scope, "prix_vente", { id: params.id, updatedAt: body.updatedAt, values: { prixVente: body.prixVente } }),
  }),
  // Bulk (issue 27, beyond the spec): a whole campaign's prices in one call and one transaction.
  apiCall({
    method: "PATCH",
    path: "/api/v1/campagnes/{id}/prix",
    tag: "prix",
    summary:
      "Sets many supply and sale prices of the campaign in one transaction: a bad row stores nothing (400, errors named appros.<i>.<field>, ventes.<i>.<field>); a row changed meanwhile is a conflict, the others are written",
    params: byId,
    body: z.object({
      appros: z
        .array(Patch(z.object({ prixAchat: z.unknown() })))
        .max(5000)
        .default([]),
      ventes: z
        .array(Patch(z.object({ prixVente: z.unknown() })))
        .max(5000)
        .default([]),
    }),
    campaign: ({ params }) => params.id,
    answer: z.object({ appros: Saved, ventes: Saved }),
    refusals: [404],
    handle: ({ scope, body }) => savePrixCampagne(scope, body as never),
  }),
];
