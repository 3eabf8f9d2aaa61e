import { z } from "zod";
import { IndicateurObjectifSchema, ProtocoleSchema } from "~/domain/protocole";
import { EvaluationSchema, RddSchema } from "~/domain/rdd";
import { optionalNumber, rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall } from "../http/api.server";
import {
  getObjectif,
  getObjectifs,
  getProtocole,
  getProtocoles,
  objectifCampaign,
  protocoleCampaign,
  removeObjectif,
  removeProtocole,
  saveObjectif,
  saveProtocole,
} from "../protocole/service";
import { actionCampaign, parcelleCampaignOf } from "../intervention/saison";
import {
  evaluationCampaign,
  getEvaluation,
  getRdd,
  getRdds,
  listEvaluationsOf,
  rddCampaign,
  removeEvaluation,
  removeRdds,
  saveEvaluation,
  saveRdd,
} from "../rdd/service";
import { byId, stamp } from "./schemas";

/** The system calls of the JSON API: protocols, objective indicators and decision rules (spec 3 §7; issue 27, C-API-28..30). */

const Protocole = z.object({
  id: z.number().int(),
  idProtocoleExploitation: z.number().int(),
  campagne: z.number().int(),
  dicIdChapitreProtocole: z.number().int(),
  pexLibelle: z.string(),
  pexValTexte: z.string().nullable(),
  updatedAt: stamp,
});
const Objectif = z.object({ id: z.number().int(), indicateur: z.number().int(), value: z.number().nullable(), campagne: z.number().int(), updatedAt: stamp });

/** The spec's objective fields (indicateur, value) read by the screen's schema (idIndicateur, value). */
const ObjectifBody = z.object({ indicateur: IndicateurObjectifSchema.shape.idIndicateur, value: IndicateurObjectifSchema.shape.value });
const objectifInput = (b: z.output<typeof ObjectifBody>) => ({ idIndicateur: b.indicateur, value: b.value });

const Rdd = z.looseObject({
  id: z.number().int(),
  idCampagne: z.number().int(),
  libelle: z.string(),
  dicIdTypeRdd: z.number().int(),
  idCulture: z.number().int().nullable(),
  aModifier: z.boolean(),
  objectif: z.string().nullable(),
  evaluation: z.string().nullable(),
  solution: z.string().nullable(),
  macroRegle: z.boolean(),
  modeConduite: z.array(z.number().int()),
  updatedAt: stamp,
});

const Evaluation = z.object({
  id: z.number().int(),
  idRdd: z.number().int(),
  rddLibelle: z.string(),
  idAction: z.number().int().nullable(),
  idParcelle: z.number().int().nullable(),
  ecartSolution: z.number().int().nullable(),
  explicationEcart: z.string().nullable(),
  ecartResultat: z.number().int().nullable(),
  justification: z.string().nullable(),
  aModifier: z.boolean(),
  updatedAt: stamp,
});
/** An evaluation's target: exactly one of action (an intervention) and parcelle (a plot), C-EVAL-09. */
const Cible = z.object({ action: rowId().optional(), parcelle: rowId().optional() });
const cibleOf = (c: z.output<typeof Cible>) => (c.action != null ? { idAction: c.action } : { idParcelle: c.parcelle! });
const oneTarget = (c: z.output<typeof Cible>) => (c.action == null) !== (c.parcelle == null);
const ONE_TARGET = { message: "warning.invalid", path: ["action"] };
const cibleCampaign = (c: z.output<typeof Cible>, db: Parameters<typeof actionCampaign>[0]) =>
  c.action != null ? actionCampaign(db, c.action) : c.parcelle != null ? parcelleCampaignOf(db, c.parcelle) : Promise.resolve(null);

export const APPELS_PROTOCOLES: readonly ApiCall[] = [
  // --- protocols (C-API-28)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/protocoles_exploitations",
    tag: "protocoles",
    summary: "The protocols of a campaign, of one chapter when dicIdChapitreProtocole is given",
    params: byId,
    query: z.object({ dicIdChapitreProtocole: optionalNumber({ integer: true }) }),
    campaign: ({ params }) => params.id,
    answer: z.array(Protocole),
    refusals: [404],
    handle: ({ scope, query }) => getProtocoles(scope, query.dicIdChapitreProtocole ?? undefined),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/protocoles_exploitations/{id}",
    tag: "protocoles",
    summary: "One protocol",
    params: byId,
    campaign: ({ params }, db) => protocoleCampaign(db, params.id),
    answer: Protocole,
    refusals: [404],
    handle: ({ scope, params }) => getProtocole(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/protocoles_exploitations",
    tag: "protocoles",
    summary: "A new protocol of the campaign `campagne` (refused on a locked campaign)",
    body: ProtocoleSchema.extend({ campagne: rowId() }),
    campaign: ({ body }) => body.campagne,
    answer: Protocole,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { campagne: _c, ...input } = body;
      void _c;
      return getProtocole(scope, await saveProtocole(scope, input));
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/protocoles_exploitations/{id}",
    tag: "protocoles",
    summary: "Updates a protocol; updatedAt as read, else 409",
    params: byId,
    body: ProtocoleSchema.extend({ updatedAt: tokenField }),
    campaign: ({ params }, db) => protocoleCampaign(db, params.id),
    answer: Protocole,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => {
      const { updatedAt, ...input } = body;
      return getProtocole(scope, await saveProtocole(scope, input, { id: params.id, updatedAt }));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/protocoles_exploitations/{id}",
    tag: "protocoles",
    summary: "Deletes a protocol",
    params: byId,
    campaign: ({ params }, db) => protocoleCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeProtocole(scope, params.id),
  }),

  // --- objective indicators (C-API-29)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/indicateur_objectifs",
    tag: "protocoles",
    summary: "The objective indicators of a campaign",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(Objectif),
    refusals: [404],
    handle: ({ scope }) => getObjectifs(scope),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/indicateur_objectifs/{id}",
    tag: "protocoles",
    summary: "One objective indicator",
    params: byId,
    campaign: ({ params }, db) => objectifCampaign(db, params.id),
    answer: Objectif,
    refusals: [404],
    handle: ({ scope, params }) => getObjectif(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/indicateur_objectifs",
    tag: "protocoles",
    summary: "A new objective: indicateur, value (numeric or null), campagne",
    body: ObjectifBody.extend({ campagne: rowId() }),
    campaign: ({ body }) => body.campagne,
    answer: Objectif,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => getObjectif(scope, await saveObjectif(scope, objectifInput(body))),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/indicateur_objectifs/{id}",
    tag: "protocoles",
    summary: "Updates an objective; updatedAt as read, else 409",
    params: byId,
    body: ObjectifBody.extend({ updatedAt: tokenField }),
    campaign: ({ params }, db) => objectifCampaign(db, params.id),
    answer: Objectif,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => getObjectif(scope, await saveObjectif(scope, objectifInput(body), { id: params.id, updatedAt: body.updatedAt })),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/indicateur_objectifs/{id}",
    tag: "protocoles",
    summary: "Deletes an objective",
    params: byId,
    campaign: ({ params }, db) => objectifCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeObjectif(scope, params.id),
  }),

  // --- decision rules (C-API-30)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/rdds",
    tag: "rdds",
    summary: "The decision rules of a campaign, of one driving mode when modeConduite is given (macro-rules included)",
    params: byId,
    query: z.object({ modeConduite: optionalNumber({ integer: true }) }),
    campaign: ({ params }) => params.id,
    answer: z.array(Rdd),
    refusals: [404],
    handle: async ({ scope, query }) => (await getRdds(scope, { modeConduite: query.modeConduite ?? null })).rows,
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/rdds/{id}",
    tag: "rdds",
    summary: "One decision rule",
    params: byId,
    campaign: ({ params }, db) => rddCampaign(db, params.id),
    answer: Rdd,
    refusals: [404],
    handle: ({ scope, params }) => getRdd(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/rdds",
    tag: "rdds",
    summary: "A new decision rule of the campaign `campagne` (label, type and driving modes required)",
    body: RddSchema.safeExtend({ campagne: rowId() }),
    campaign: ({ body }) => body.campagne,
    answer: Rdd,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { campagne: _c, ...input } = body;
      void _c;
      return getRdd(scope, await saveRdd(scope, input));
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/rdds/{id}",
    tag: "rdds",
    summary: "Updates a decision rule (every field, as the form sends it); updatedAt as read, else 409",
    params: byId,
    body: RddSchema.safeExtend({ updatedAt: tokenField }),
    campaign: ({ params }, db) => rddCampaign(db, params.id),
    answer: Rdd,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => {
      const { updatedAt, ...input } = body;
      return getRdd(scope, await saveRdd(scope, input, { id: params.id, updatedAt }));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/rdds/{id}",
    tag: "rdds",
    summary: "Deletes a decision rule and its evaluations",
    params: byId,
    campaign: ({ params }, db) => rddCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeRdds(scope, [params.id]),
  }),

  // --- evaluations of the rules (C-API-31)
  apiCall({
    method: "GET",
    path: "/api/v1/rdd_evaluations",
    tag: "rdds",
    summary: "The evaluations of an intervention (action) or of a plot (parcelle): exactly one of the two",
    query: Cible.refine(oneTarget, ONE_TARGET),
    campaign: ({ query }, db) => cibleCampaign(query, db),
    answer: z.array(Evaluation),
    refusals: [404],
    handle: ({ scope, query }) => listEvaluationsOf(scope, cibleOf(query)),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/rdds/{id}/rdd_evaluations",
    tag: "rdds",
    summary: "The evaluations of a decision rule, on interventions and plots",
    params: byId,
    campaign: ({ params }, db) => rddCampaign(db, params.id),
    answer: z.array(Evaluation),
    refusals: [404],
    handle: ({ scope, params }) => listEvaluationsOf(scope, { idRdd: params.id }),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/rdd_evaluations/{id}",
    tag: "rdds",
    summary: "One evaluation",
    params: byId,
    campaign: ({ params }, db) => evaluationCampaign(db, params.id),
    answer: Evaluation,
    refusals: [404],
    handle: ({ scope, params }) => getEvaluation(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/rdd_evaluations",
    tag: "rdds",
    summary:
      "Evaluates rules (rdds) on an intervention (action) or a plot (parcelle): ecartSolution, explicationEcart, ecartResultat, justification, aModifier; a rule already evaluated there has its evaluation updated",
    body: EvaluationSchema.extend(Cible.shape).refine(oneTarget, ONE_TARGET),
    campaign: ({ body }, db) => cibleCampaign(body, db),
    answer: z.array(Evaluation),
    status: 201,
    refusals: [404],
    handle: async ({ scope, body }) => {
      const { action: _a, parcelle: _p, ...input } = body;
      void [_a, _p];
      const ids = await saveEvaluation(scope, cibleOf(body), input);
      return Promise.all(ids.map((id) => getEvaluation(scope, id)));
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/rdd_evaluations/{id}",
    tag: "rdds",
    summary: "Updates an evaluation (one rule in rdds; it may move between the intervention and its plot); updatedAt as read, else 409",
    params: byId,
    body: EvaluationSchema.extend({ ...Cible.shape, updatedAt: tokenField }).refine(oneTarget, ONE_TARGET),
    campaign: ({ params }, db) => evaluationCampaign(db, params.id),
    answer: Evaluation,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => {
      const { action: _a, parcelle: _p, updatedAt, ...input } = body;
      void [_a, _p];
      await saveEvaluation(scope, cibleOf(body), input, { id: params.id, updatedAt });
      return getEvaluation(scope, params.id);
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/rdd_evaluations/{id}",
    tag: "rdds",
    summary: "Deletes an evaluation",
    params: byId,
    campaign: ({ params }, db) => evaluationCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeEvaluation(scope, params.id),
  }),
];
