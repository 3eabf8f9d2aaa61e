import { z } from "zod";
import { CopieSeriesSchema } from "~/domain/observation";
import { FarmDuplicationSchema } from "~/domain/partage";
import { flag, MAX_IDS, rowId } from "~/domain/validation";
import { apiCall, type ApiCall } from "../http/api.server";
import { ServiceError } from "../errors";
import { copyActionsFromCampaign, copyActionsToPlot, duplicatePlotInterventions } from "../copie/service";
import { duplicateExploitation } from "../exploitation/service";
import { affecterEges } from "../intrant-dossier/service";
import { actionCampaign, parcelleCampaignOf } from "../intervention/saison";
import { copierSeries, serieCampaign } from "../observation/service";
import { getAffectations, parcelleCampaign } from "../parcelle/service";
import { byId } from "./schemas";

/**
 * The copy and duplication calls of the JSON API (spec 3 §7; issue 27, C-API-32..38): the copy dialogs' copies named by
 * a plot, the farm duplication, the GHG assignment of a folder and the target crops of a campaign's plots. Each calls
 * the service the screen's dialog calls; the services ask the rights and the lock.
 */

/** One id or several (a JSON number or array). */
const ids = z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(rowId()).min(1, "warning.required").max(MAX_IDS, "warning.too-many"));
const Copies = z.object({ copies: z.number().int().describe("How many interventions (or series) were copied") });

const Affectation = z.object({
  idParcelle: z.number().int(),
  libelle: z.string(),
  libelleModeConduite: z.string().nullable(),
  options: z.array(z.object({ id: z.number().int(), libelle: z.string(), libelleEn: z.string().nullable() })),
  idCulture: z.number().int().nullable(),
  enregistree: z.boolean(),
});

export const APPELS_COPIES: readonly ApiCall[] = [
  // C-API-32
  apiCall({
    method: "PATCH",
    path: "/api/v1/parcelles/{id}/copie_action",
    tag: "copies",
    summary: "Copies interventions of a campaign of the same farm (actionSource: one id or several; campagneSource: theirs by default) into the plot {id}",
    params: byId,
    body: z.object({ actionSource: ids, campagneSource: rowId().optional() }),
    campaign: ({ params }, db) => parcelleCampaignOf(db, params.id),
    answer: Copies,
    refusals: [404],
    handle: async ({ scope, params, body }) => ({ copies: await copyActionsToPlot(scope, params.id, body) }),
  }),
  // C-API-33
  apiCall({
    method: "PATCH",
    path: "/api/v1/parcelles/{id}/copie_actions",
    tag: "copies",
    summary:
      "Copies interventions (actionsSource, of one campaign) to the plot {id} of a campaign the user may write in the folder dossierDestination; suppressionInterventionsParcellesDst deletes the plot's interventions first",
    params: byId,
    body: z.object({ actionsSource: ids, dossierDestination: rowId(), suppressionInterventionsParcellesDst: flag() }),
    // The scope is the source campaign's: the interventions are read there, the write gate asked on the plot's.
    campaign: ({ body }, db) => actionCampaign(db, body.actionsSource[0]),
    answer: Copies,
    refusals: [404],
    handle: async ({ scope, params, body }) => ({ copies: await copyActionsFromCampaign(scope, params.id, body) }),
  }),
  // C-API-34
  apiCall({
    method: "PATCH",
    path: "/api/v1/parcelles/{id}/copie_series",
    tag: "copies",
    summary:
      "Copies observation series (seriesSource, of one campaign) to the plot {id} in the folder dossierDestination: eltObserve with their rows, valeur with their values; suppressionSeriesParcellesDst deletes the plot's series first",
    params: byId,
    body: CopieSeriesSchema.omit({ idParcelle: true }),
    campaign: ({ body }, db) => serieCampaign(db, body.seriesSource[0]),
    answer: Copies,
    refusals: [404],
    handle: async ({ scope, params, body }) => ({ copies: (await copierSeries(scope, { ...body, idParcelle: params.id })).count }),
  }),
  // C-API-35
  apiCall({
    method: "PATCH",
    path: "/api/v1/parcelles/{id}/duplication_interventions",
    tag: "copies",
    summary:
      "Duplicates the interventions of the plot {id} to the plots parcellesDestination (of one campaign the user may write; campagneDestination and dossierDestination default to the first plot's and the scope's folder); suppressionInterventionsParcellesDst deletes theirs first",
    params: byId,
    body: z.object({
      parcellesDestination: ids,
      suppressionInterventionsParcellesDst: flag(),
      dossierDestination: rowId().optional(),
      campagneDestination: rowId().optional(),
    }),
    campaign: ({ params }, db) => parcelleCampaignOf(db, params.id),
    answer: Copies,
    refusals: [404],
    handle: async ({ scope, params, body }) => ({ copies: await duplicatePlotInterventions(scope, params.id, body) }),
  }),
  // C-API-36
  apiCall({
    method: "POST",
    path: "/api/v1/exploitations/duplication",
    tag: "copies",
    summary:
      "Duplicates the farm exploitationSource of the folder dossierSource with the campaigns campagnesCibles into the folder idDossier (of the network idOad): libelle, idTypeExploitation",
    body: FarmDuplicationSchema.extend({ dossierSource: rowId(), exploitationSource: rowId() }),
    answer: z.object({ id: z.number().int(), dupliBaseDossier: z.boolean().optional() }),
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { dossierSource, exploitationSource, ...input } = body;
      const r = await duplicateExploitation(scope, { idDossier: dossierSource, idExploitation: exploitationSource }, input);
      return { id: r.id, ...(r.dupliBaseDossier === undefined ? {} : { dupliBaseDossier: r.dupliBaseDossier }) };
    },
  }),
  // C-API-37
  apiCall({
    method: "PATCH",
    path: "/api/v1/dossier/{id}/affectation_eges",
    tag: "copies",
    summary:
      "Assigns the proposed greenhouse-gas category to the fertilisers of the folder {id}, seen from the campaign `campagne` of one of its farms (writable)",
    params: byId,
    body: z.object({ campagne: rowId() }),
    campaign: ({ body }) => body.campagne,
    answer: z.object({ affectees: z.number().int(), conservees: z.number().int(), nonClassees: z.array(z.string()) }),
    refusals: [404],
    handle: ({ scope, params }) => affecterEges(scope, params.id),
  }),
  // C-API-38
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/parcelles/affectation_culture_cible",
    tag: "copies",
    summary: "The target crop of each plot of the campaign: the crops its driving mode offers, the one chosen (else the main crop)",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(Affectation),
    refusals: [404],
    handle: ({ scope }) => getAffectations(scope),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/parcelles/{id}/affectation_culture_cible",
    tag: "copies",
    summary: "The target crop of one plot: the crops its driving mode offers, the one chosen (else the main crop)",
    params: byId,
    campaign: ({ params }, db) => parcelleCampaign(db, params.id),
    answer: Affectation,
    refusals: [404],
    handle: async ({ scope, params }) => {
      const found = (await getAffectations(scope)).find((a) => a.idParcelle === params.id);
      if (!found) throw new ServiceError("errors.not-found", 404);
      return found;
    },
  }),
];
