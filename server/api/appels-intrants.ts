import { z } from "zod";
import { apiCall, type ApiCall } from "../http/api.server";
import { createIntrantApi, idActionOf, updateIntrantApi } from "../intrant/api";
import { getIntrant, removeIntrant } from "../intrant/service";
import { actionCampaign, getIntrantsOfAction, intrantCampaign, KINDS_INTRANT } from "../intervention/saison";
import { byId, stamp } from "./schemas";

/** The inputs calls of the JSON API (spec 3 §7; issue 27, decision 0112): an intervention's inputs, one input, with its characteristics and targets. */

const Intrant = z.looseObject({
  id: z.number().int(),
  updatedAt: stamp,
  type: z.number().int(),
  idCategorie: z.number().int(),
  idIntrant: z.number().int().nullable(),
  origine: z.number().int().nullable(),
  libelle: z.string(),
  quantite: z.number().nullable(),
  unite: z.string().nullable(),
  caracteristique: z.record(z.string(), z.number().nullable()).nullable(),
  cibles: z.array(z.object({ id: z.number().int(), libelle: z.string(), doseRef: z.number().nullable(), uniteRef: z.string().nullable() })),
});

const FIELDS = `type: ${KINDS_INTRANT.join("|")}, and the input form's fields of that type (phyto: idIntrant, origine, quantite, dicLlUnite, cible1..cible4 — empty targets dropped; fertilisant: idCategorie, idIntrant, origine, quantite, dicLlUnite, n, p2o5, ... in %; semence: idCulture, idIntrant, origine, quantite, dicLlUnite, semenceFerme, semenceCertifiee, semenceOgm, idTraitement...)`;
const body = (extra: string) => z.record(z.string(), z.unknown()).describe(`${extra}${FIELDS}`);

export const APPELS_INTRANTS: readonly ApiCall[] = [
  // C-API-07
  apiCall({
    method: "GET",
    path: "/api/v1/actions/{id}/intrants",
    tag: "intrants",
    summary: "The inputs of an intervention, with their characteristics and targets",
    params: byId,
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    answer: z.array(Intrant),
    refusals: [404],
    handle: ({ scope, params }) => getIntrantsOfAction(scope, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/intrants/{id}",
    tag: "intrants",
    summary: "One input, with its characteristics (caracteristique) and targets (cibles)",
    params: byId,
    campaign: ({ params }, db) => intrantCampaign(db, params.id),
    answer: Intrant,
    refusals: [404],
    handle: ({ scope, params }) => getIntrant(scope, params.id),
  }),
  // C-API-07, C-API-08, C-API-09, C-API-14: targets and characteristics are written with their input, in its transaction.
  apiCall({
    method: "POST",
    path: "/api/v1/intrants",
    tag: "intrants",
    summary: "A new input of the intervention idAction, with its characteristics and targets (empty target ids dropped)",
    body: body("idAction, "),
    campaign: ({ body }, db) => actionCampaign(db, idActionOf(body)),
    answer: Intrant,
    status: 201,
    refusals: [404],
    handle: ({ scope, body }) => createIntrantApi(scope, body),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/intrants/{id}",
    tag: "intrants",
    summary: "Updates an input (all its form's fields, its type unchanged); updatedAt as read, else 409",
    params: byId,
    body: body("updatedAt, "),
    campaign: ({ params }, db) => intrantCampaign(db, params.id),
    answer: Intrant,
    refusals: [404, 409],
    handle: ({ scope, params, body }) => updateIntrantApi(scope, params.id, body),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/intrants/{id}",
    tag: "intrants",
    summary: "Deletes an input (its seed treatment, targets and characteristics with it)",
    params: byId,
    campaign: ({ params }, db) => intrantCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeIntrant(scope, params.id),
  }),
];
