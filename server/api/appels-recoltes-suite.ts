import { z } from "zod";
import { rowId } from "~/domain/validation";
import { apiCall, type ApiCall } from "../http/api.server";
import { ServiceError } from "../errors";
import { actionCampaign, getIntervention } from "../intervention/saison";
import {
  getCaracteristiqueRecolte,
  getCaracteristiquesRecolte,
  getCultureAvecSorties,
  getRecolte,
  recolteOfCaracteristique,
  recoltesDuQualifiant,
} from "../recolte/service";
import {
  createCaracteristiqueRecolteApi,
  idRecolteOf,
  recolteCampaign,
  recoltesOfAction,
  removeCaracteristiqueRecolteApi,
  updateCaracteristiqueRecolteApi,
  updateRecolteApi,
} from "../recolte/api";
import type { Scope } from "../access/scope";
import { Recolte, RECOLTE_FIELDS } from "./appels-interventions";
import { byId, stamp } from "./schemas";

/**
 * The harvest calls of the JSON API left by decision 0112 (spec 3 §7; issue 27, decision 0141): the characteristic
 * rows of a harvest on their own, written through the harvest dialog's schema and save; PUT recoltes/{id}; the
 * campaign/plot/intervention alias; a qualifier's harvests; a crop with its output types.
 */

const CaracteristiqueRecolte = z.object({
  id: z.number().int().describe("The rows are rewritten with their harvest: an id may change after a write"),
  idRecolte: z.number().int(),
  dicIdCaracteristiqueRecolte: z.number().int().describe("1 reference humidity (%), 2 an animal row of a grazing"),
  valeurNum: z.number().nullable(),
  dicIdModalite: z.number().int().nullable().describe("The animal type (kind 2)"),
  dicLlUnite: z.string().nullable(),
  updatedAt: stamp.describe("The harvest's: the rows are written with it"),
});
const ROW_FIELDS =
  "dicIdCaracteristiqueRecolte (1 reference humidity of a harvest, 2 an animal row of a grazing), valeurNum, dicIdModalite (the animal type, kind 2)";

/** The campaign of a characteristic row, through its harvest. */
async function caracteristiqueCampaign(db: Scope["db"], id: number): Promise<number | null> {
  const idRecolte = await recolteOfCaracteristique(db, id);
  return idRecolte == null ? null : recolteCampaign(db, idRecolte);
}

/** A harvest's rows, the harvest being the intervention's (404 otherwise). */
async function rowsOfActionRecolte(scope: Scope, idAction: number, idRecolte: number) {
  const r = await getRecolte(scope, idRecolte);
  if (r.idAction !== idAction) throw new ServiceError("errors.not-found", 404);
  return getCaracteristiquesRecolte(scope, idRecolte);
}

/** The intervention, checked to be the plot's. */
async function actionOfPlot(scope: Scope, idParcelle: number, idAction: number) {
  const a = await getIntervention(scope, idAction);
  if (a.idParcelle !== idParcelle) throw new ServiceError("errors.not-found", 404);
}

const alias = z.object({ id: rowId(), idParcelle: rowId(), idAction: rowId() });

export const APPELS_RECOLTES_SUITE: readonly ApiCall[] = [
  // C-API-15, C-API-16
  apiCall({
    method: "GET",
    path: "/api/v1/caracteristique_recoltes",
    tag: "recoltes",
    summary: "The characteristic rows of the harvest idRecolte (reference humidity, animals)",
    query: z.object({ idRecolte: rowId() }),
    campaign: ({ query }, db) => recolteCampaign(db, query.idRecolte),
    answer: z.array(CaracteristiqueRecolte),
    refusals: [404],
    handle: ({ scope, query }) => getCaracteristiquesRecolte(scope, query.idRecolte),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/caracteristique_recoltes/{id}",
    tag: "recoltes",
    summary: "One characteristic row of a harvest",
    params: byId,
    campaign: ({ params }, db) => caracteristiqueCampaign(db, params.id),
    answer: CaracteristiqueRecolte,
    refusals: [404],
    handle: ({ scope, params }) => getCaracteristiqueRecolte(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/caracteristique_recoltes",
    tag: "recoltes",
    summary: "Adds (or sets) a characteristic row of the harvest idRecolte through the harvest dialog's schema; updatedAt the harvest's, else 409",
    body: z.record(z.string(), z.unknown()).describe(`idRecolte, updatedAt (the harvest's, as read), ${ROW_FIELDS}`),
    campaign: ({ body }, db) => recolteCampaign(db, idRecolteOf(body)),
    answer: CaracteristiqueRecolte,
    status: 201,
    refusals: [404, 409],
    handle: ({ scope, body }) => createCaracteristiqueRecolteApi(scope, body),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/caracteristique_recoltes/{id}",
    tag: "recoltes",
    summary: "Updates a characteristic row (its kind unchanged); updatedAt the harvest's, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe(`updatedAt (the harvest's, as read), ${ROW_FIELDS}`),
    campaign: ({ params }, db) => caracteristiqueCampaign(db, params.id),
    answer: CaracteristiqueRecolte,
    refusals: [404, 409],
    handle: ({ scope, params, body }) => updateCaracteristiqueRecolteApi(scope, params.id, body),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/caracteristique_recoltes/{id}",
    tag: "recoltes",
    summary: "Removes a characteristic row from its harvest",
    params: byId,
    campaign: ({ params }, db) => caracteristiqueCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeCaracteristiqueRecolteApi(scope, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/actions/{id}/recoltes/{idRecolte}/caracteristique_recoltes",
    tag: "recoltes",
    summary: "The characteristic rows of the harvest {idRecolte} of the intervention {id}",
    params: z.object({ id: rowId(), idRecolte: rowId() }),
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    answer: z.array(CaracteristiqueRecolte),
    refusals: [404],
    handle: ({ scope, params }) => rowsOfActionRecolte(scope, params.id, params.idRecolte),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/parcelles/{idParcelle}/actions/{idAction}/recoltes",
    tag: "recoltes",
    summary: "The harvests of an intervention of a plot of the campaign, each with its characteristic rows (caracteristiqueRecoltes)",
    params: alias,
    campaign: ({ params }) => params.id,
    answer: z.array(Recolte.extend({ caracteristiqueRecoltes: z.array(CaracteristiqueRecolte) })),
    refusals: [404],
    handle: async ({ scope, params }) => {
      await actionOfPlot(scope, params.idParcelle, params.idAction);
      const out = [];
      for (const r of await recoltesOfAction(scope, params.idAction))
        out.push({ ...r, caracteristiqueRecoltes: await getCaracteristiquesRecolte(scope, r.id) });
      return out;
    },
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/parcelles/{idParcelle}/actions/{idAction}/recoltes/{idRecolte}/caracteristique_recoltes",
    tag: "recoltes",
    summary: "The characteristic rows of a harvest of an intervention of a plot of the campaign",
    params: alias.extend({ idRecolte: rowId() }),
    campaign: ({ params }) => params.id,
    answer: z.array(CaracteristiqueRecolte),
    refusals: [404],
    handle: async ({ scope, params }) => {
      await actionOfPlot(scope, params.idParcelle, params.idAction);
      return rowsOfActionRecolte(scope, params.idAction, params.idRecolte);
    },
  }),
  apiCall({
    method: "PUT",
    path: "/api/v1/recoltes/{id}",
    tag: "recoltes",
    summary: "Replaces a harvest with the whole dialog's fields (as PATCH recoltes/{id}); updatedAt as read, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe(`updatedAt, and ${RECOLTE_FIELDS}`),
    campaign: ({ params }, db) => recolteCampaign(db, params.id),
    answer: Recolte,
    refusals: [404, 409],
    handle: ({ scope, params, body }) => updateRecolteApi(scope, params.id, body),
  }),

  // C-API-17
  apiCall({
    method: "GET",
    path: "/api/v1/qualifiant_recoltes/{id}/recoltes",
    tag: "recoltes",
    summary: "The harvests of the campaign campagne that carry the qualifier {id} of its folder",
    params: byId,
    query: z.object({ campagne: rowId() }),
    campaign: ({ query }) => query.campagne,
    answer: z.array(Recolte),
    refusals: [404],
    handle: ({ scope, params }) => recoltesDuQualifiant(scope, params.id),
  }),

  // C-API-20
  apiCall({
    method: "GET",
    path: "/api/v1/cultures/{id}",
    tag: "recoltes",
    summary: "A crop of the reference with its output types (typesSorties)",
    params: byId,
    answer: z.object({
      id: z.number().int(),
      libelle: z.string(),
      libelleEn: z.string().nullable(),
      idCatCulture: z.number().int().nullable(),
      interculture: z.boolean(),
      typesSorties: z.array(z.object({ id: z.number().int(), libelle: z.string(), libelleEn: z.string().nullable(), unite: z.string() })),
    }),
    refusals: [404],
    handle: ({ scope, params }) => getCultureAvecSorties(scope, params.id),
  }),
];
