import { z } from "zod";
import { AmenagementSchema } from "~/domain/amenagement";
import { LotParcelleSchema } from "~/domain/lot-parcelle";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { ModeConduiteSchema } from "~/domain/mode-conduite";
import { OperationCulturaleSchema } from "~/domain/operation-culturale";
import { rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall, type Locale } from "../http/api.server";
import type { Scope } from "../access/scope";
import { amenagementCampaign, getAmenagement, getAmenagements, removeAmenagements, saveAmenagement } from "../amenagement/service";
import { getLotParcelle, getLotsParcelle, lotParcelleCampaign, removeLotsParcelle, saveLotParcelle } from "../lot-parcelle/service";
import { getMainOeuvre, getMainOeuvres, mainOeuvreCampaign, removeMainOeuvres, saveMainOeuvre } from "../main-oeuvre/service";
import { getModeConduite, getModesConduite, modeConduiteCampaign, removeModesConduite, saveModeConduite } from "../mode-conduite/service";
import {
  getActionsOfOperation,
  getIndicateur,
  getIndicateurs,
  getMainOeuvresOfOperation,
  getOperationCulturale,
  getOperationsCulturales,
  operationCulturaleCampaign,
  removeOperationsCulturales,
  saveOperationCulturale,
} from "../operation-culturale/service";
import { byId, stamp } from "./schemas";
import { optionalNumber } from "~/domain/validation";

/**
 * The farm-description calls of the JSON API (spec 2 §7; issue 26, decision 0110): labour, cultural operations,
 * crop management modes, plot groups and landscape features. Each call names its campaign (the address, the body's
 * idCampagne, or the campaign of the row it reads or writes) and calls the screen's own service with the screen's
 * own schema; the services check the rights and the lock.
 */

const id = z.number().int();
const num = z.number().nullable();
const text = z.string().nullable();
const withCampaign = { idCampagne: rowId().describe("The campaign the row is made in") };
const withStamp = { updatedAt: tokenField.describe("The row's updatedAt as read: a stale one is refused (409)") };

// --- answers
const MainOeuvre = z.object({
  id,
  idCampagne: id,
  campagne: z.string().describe("/api/v1/campagnes/{idCampagne}"),
  libelle: z.string(),
  uta: z.number(),
  idTypeUser: id,
  remarque: z.string().optional(),
  montant: z.number().optional(),
  updatedAt: stamp,
});
const mainOeuvreOut = <T extends { idCampagne: number }>(r: T) => ({ ...r, campagne: `/api/v1/campagnes/${r.idCampagne}` });

const TypeOperation = z.object({
  id,
  libelle: z.string().describe("In English with locale=en"),
  profondeurTravail: z.boolean(),
  debitIrrigation: z.boolean(),
  volumeBouillie: z.boolean(),
});
const OperationCulturale = z.looseObject({
  id,
  idCampagne: id,
  idTypeAction: id,
  typeOperation: TypeOperation.nullable(),
  libelle: z.string(),
  remarque: text,
  eta: z.boolean(),
  materielTractant: id.nullable(),
  materielTractes: z.array(id),
  parcMateriel: z.array(id).describe("The equipment: the tractor, then the towed equipment"),
  mainOeuvre: z.array(id),
  debitReel: num,
  consoCarburantReelle: num,
  profondeurTravail: z.number(),
  debitIrrigation: num,
  volumeBouillie: num,
  proportionSurfaceTravaillee: z.number(),
  surfaceTravaillee: num,
  nombrePassage: num,
  updatedAt: stamp,
});
type OperationData = Awaited<ReturnType<typeof getOperationsCulturales>>;
/** An operation as the API shows it: its type's flags (B-API-14) and its whole equipment list (parcMateriel). */
function operationOut(op: OperationData["rows"][number], types: OperationData["typesAction"], locale: Locale) {
  const type = types.find((t) => t.id === op.idTypeAction);
  const libelle = type && locale === "en" && type.libelleEn ? type.libelleEn : type?.libelle;
  return {
    ...op,
    typeOperation: type
      ? {
          id: type.id,
          libelle: libelle!,
          profondeurTravail: !!type.profondeurTravail,
          debitIrrigation: !!type.debitIrrigation,
          volumeBouillie: !!type.volumeBouillie,
        }
      : null,
    parcMateriel: [...(op.materielTractant == null ? [] : [op.materielTractant]), ...op.materielTractes],
  };
}
const operationOf = async (scope: Scope, idOperation: number, locale: Locale) => {
  const row = await getOperationCulturale(scope, idOperation);
  return operationOut(row, (await getOperationsCulturales(scope)).typesAction, locale);
};
const OperationSaved = z.object({ id, repercutAction: z.boolean(), actionsMisesAJour: z.number().int(), operation: OperationCulturale });
const Action = z.looseObject({ id, idParcelle: id, date: z.string(), idOperationCulturale: id.nullable(), updatedAt: stamp });

const Indicateur = z.object({
  idIndicateur: id,
  indNom: z.string().describe("In English with locale=en"),
  dicLlUnite: z.string().nullable(),
  pDtCrea: stamp,
  idIndicateurPere: id.nullable(),
  idGroupeIndicateur: id.nullable(),
  indOrdre: z.number().int().nullable(),
  indCode: z.string().nullable(),
  indEchelle: z.string().nullable(),
  idDicoPackage: id.nullable(),
});
type IndicateurData = Awaited<ReturnType<typeof getIndicateur>>;
const indicateurOut = ({ indNomEn, ...i }: IndicateurData, locale: Locale) => ({ ...i, indNom: locale === "en" && indNomEn ? indNomEn : i.indNom });

const ModeConduite = z.looseObject({
  id,
  idCampagne: id,
  libelle: z.string(),
  aideCouplee: num,
  dicIdCatCompetilis: id.nullable(),
  remarque: text,
  modeConduiteCultureList: z.array(
    z
      .looseObject({ id, idCulture: id, idCatCulture: id.nullable(), idQualifiant: id.nullable(), libelleCulture: z.string() })
      .describe("A mode-conduite-culture: culture (idCulture), modeConduite, qualifiantCulture (idQualifiant), idCatCulture"),
  ),
  modeConduiteAssurance: z.looseObject({}).nullable(),
  updatedAt: stamp,
});

const LotParcelle = z.looseObject({
  id,
  idCampagne: id,
  libelle: z.string(),
  noIlotPac: z.string().nullable().optional(),
  irrigable: z.boolean(),
  drainee: z.boolean(),
  nbParcelles: z.number().int(),
  updatedAt: stamp,
});
const LotSaved = z.object({ id, replicated: z.number().int(), lot: LotParcelle });

const Zone = z.looseObject({
  id,
  idCampagne: id,
  libelle: z.string(),
  idTypeAmenagement: id,
  idParcelleAdjacente: id.nullable().optional(),
  surface: z.number().nullable().optional(),
  updatedAt: stamp,
});

export const APPELS_DESCRIPTION: readonly ApiCall[] = [
  // --- labour (B-API-09)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/main_oeuvres",
    tag: "main_oeuvres",
    summary: "The labour items of a campaign, newest first",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(MainOeuvre),
    refusals: [404],
    handle: async ({ scope }) => (await getMainOeuvres(scope)).rows.map(mainOeuvreOut),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/operation_culturales/{id}/main_oeuvres",
    tag: "main_oeuvres",
    summary: "The labour items a cultural operation is done with",
    params: byId,
    campaign: ({ params }, db) => operationCulturaleCampaign(db, params.id),
    answer: z.array(MainOeuvre),
    refusals: [404],
    handle: async ({ scope, params }) => (await getMainOeuvresOfOperation(scope, params.id)).map(mainOeuvreOut),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/main_oeuvres/{id}",
    tag: "main_oeuvres",
    summary: "One labour item",
    params: byId,
    campaign: ({ params }, db) => mainOeuvreCampaign(db, params.id),
    answer: MainOeuvre,
    refusals: [404],
    handle: async ({ scope, params }) => mainOeuvreOut(await getMainOeuvre(scope, params.id)),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/main_oeuvres",
    tag: "main_oeuvres",
    summary: "A new labour item in the campaign idCampagne (the labour form's fields: libelle, uta, idTypeUser, remarque, montant)",
    body: MainOeuvreSchema.extend(withCampaign),
    campaign: ({ body }) => body.idCampagne,
    answer: MainOeuvre,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idCampagne: _c, ...input } }) => mainOeuvreOut(await getMainOeuvre(scope, await saveMainOeuvre(scope, input))),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/main_oeuvres/{id}",
    tag: "main_oeuvres",
    summary: "Updates a labour item (all the form's fields); updatedAt as read, else 409",
    params: byId,
    body: MainOeuvreSchema.extend(withStamp),
    campaign: ({ params }, db) => mainOeuvreCampaign(db, params.id),
    answer: MainOeuvre,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) =>
      mainOeuvreOut(await getMainOeuvre(scope, await saveMainOeuvre(scope, input, { id: params.id, updatedAt }))),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/main_oeuvres/{id}",
    tag: "main_oeuvres",
    summary: "Deletes a labour item",
    params: byId,
    campaign: ({ params }, db) => mainOeuvreCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeMainOeuvres(scope, [params.id]),
  }),

  // --- cultural operations (B-API-12, B-API-14)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/operation_culturales",
    tag: "operation_culturales",
    summary: "The cultural operations of a campaign, newest first, with their type's flags and their costs",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(OperationCulturale),
    refusals: [404],
    handle: async ({ scope, locale }) => {
      const { rows, typesAction } = await getOperationsCulturales(scope);
      return rows.map((op) => operationOut(op, typesAction, locale));
    },
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/operation_culturales/{id}",
    tag: "operation_culturales",
    summary: "One cultural operation",
    params: byId,
    campaign: ({ params }, db) => operationCulturaleCampaign(db, params.id),
    answer: OperationCulturale,
    refusals: [404],
    handle: ({ scope, params, locale }) => operationOf(scope, params.id, locale),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/operation_culturales/{id}/actions",
    tag: "operation_culturales",
    summary: "The interventions made with a cultural operation, on every plot of its campaign",
    params: byId,
    campaign: ({ params }, db) => operationCulturaleCampaign(db, params.id),
    answer: z.array(Action),
    refusals: [404],
    handle: ({ scope, params }) => getActionsOfOperation(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/operation_culturales",
    tag: "operation_culturales",
    summary:
      "A new cultural operation in the campaign idCampagne (the operation form's fields: idTypeAction, libelle, materielTractant, materielTractes, eta, mainOeuvre, debitReel, consoCarburantReelle, profondeurTravail, debitIrrigation, volumeBouillie, proportionSurfaceTravaillee, ...)",
    body: OperationCulturaleSchema.extend(withCampaign),
    campaign: ({ body }) => body.idCampagne,
    answer: OperationSaved,
    status: 201,
    refusals: [404],
    handle: async ({ scope, locale, body: { idCampagne: _c, ...input } }) => {
      const saved = await saveOperationCulturale(scope, input);
      return { ...saved, operation: await operationOf(scope, saved.id, locale) };
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/operation_culturales/{id}",
    tag: "operation_culturales",
    summary: "Updates a cultural operation (all the form's fields; repercutAction: the new work rate to its interventions too); updatedAt as read, else 409",
    params: byId,
    body: OperationCulturaleSchema.extend(withStamp),
    campaign: ({ params }, db) => operationCulturaleCampaign(db, params.id),
    answer: OperationSaved,
    refusals: [404, 409],
    handle: async ({ scope, params, locale, body: { updatedAt, ...input } }) => {
      const saved = await saveOperationCulturale(scope, input, { id: params.id, updatedAt });
      return { ...saved, operation: await operationOf(scope, saved.id, locale) };
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/operation_culturales/{id}",
    tag: "operation_culturales",
    summary: "Deletes a cultural operation",
    params: byId,
    campaign: ({ params }, db) => operationCulturaleCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeOperationsCulturales(scope, [params.id]),
  }),

  // --- indicators (B-API-13)
  apiCall({
    method: "GET",
    path: "/api/v1/indicateurs",
    tag: "indicateurs",
    summary: "The indicator reference list, filtered on indCode, idGroupeIndicateur or idIndicateurPere",
    query: z.object({
      indCode: z.string().max(64).optional(),
      idGroupeIndicateur: optionalNumber({ integer: true, min: 1 }),
      idIndicateurPere: optionalNumber({ integer: true, min: 1 }),
    }),
    answer: z.array(Indicateur),
    handle: async ({ scope, query, locale }) => (await getIndicateurs(scope, query)).map((i) => indicateurOut(i, locale)),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/indicateurs/{id}",
    tag: "indicateurs",
    summary: "One indicator of the reference list",
    params: byId,
    answer: Indicateur,
    refusals: [404],
    handle: async ({ scope, params, locale }) => indicateurOut(await getIndicateur(scope, params.id), locale),
  }),

  // --- crop management modes (B-API-15)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/mode_conduites",
    tag: "mode_conduites",
    summary: "The crop management modes of a campaign, newest first, with their crops (modeConduiteCultureList) and insurance",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(ModeConduite),
    refusals: [404],
    handle: async ({ scope }) => (await getModesConduite(scope)).rows,
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/mode_conduites/{id}",
    tag: "mode_conduites",
    summary: "One crop management mode",
    params: byId,
    campaign: ({ params }, db) => modeConduiteCampaign(db, params.id),
    answer: ModeConduite,
    refusals: [404],
    handle: ({ scope, params }) => getModeConduite(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/mode_conduites",
    tag: "mode_conduites",
    summary:
      "A new crop management mode in the campaign idCampagne (the form's fields: libelle, aideCouplee, dicIdCatCompetilis, remarque, cultures, assurance)",
    body: ModeConduiteSchema.extend(withCampaign),
    campaign: ({ body }) => body.idCampagne,
    answer: ModeConduite,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idCampagne: _c, ...input } }) => getModeConduite(scope, await saveModeConduite(scope, input)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/mode_conduites/{id}",
    tag: "mode_conduites",
    summary: "Updates a crop management mode with its crops and insurance; updatedAt as read, else 409",
    params: byId,
    body: ModeConduiteSchema.extend(withStamp),
    campaign: ({ params }, db) => modeConduiteCampaign(db, params.id),
    answer: ModeConduite,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) =>
      getModeConduite(scope, await saveModeConduite(scope, input, { id: params.id, updatedAt })),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/mode_conduites/{id}",
    tag: "mode_conduites",
    summary: "Deletes a crop management mode",
    params: byId,
    campaign: ({ params }, db) => modeConduiteCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeModesConduite(scope, [params.id]),
  }),

  // --- plot groups (B-API-17)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/lots",
    tag: "lots",
    summary: "The plot groups of a campaign, with their number of plots",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(LotParcelle),
    refusals: [404],
    handle: async ({ scope }) => (await getLotsParcelle(scope)).rows,
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/lots",
    tag: "lots",
    summary: "A new plot group in the campaign idCampagne (the group form's fields)",
    body: LotParcelleSchema.extend(withCampaign),
    campaign: ({ body }) => body.idCampagne,
    answer: LotSaved,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idCampagne: _c, ...input } }) => {
      const saved = await saveLotParcelle(scope, input);
      return { ...saved, lot: await getLotParcelle(scope, saved.id) };
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/lots/{id}",
    tag: "lots",
    summary: "Updates a plot group; replicate=true copies its PAC island, irrigation, drainage and soil onto its plots; updatedAt as read, else 409",
    params: byId,
    body: LotParcelleSchema.extend(withStamp),
    campaign: ({ params }, db) => lotParcelleCampaign(db, params.id),
    answer: LotSaved,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) => {
      const saved = await saveLotParcelle(scope, input, { id: params.id, updatedAt });
      return { ...saved, lot: await getLotParcelle(scope, saved.id) };
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/lots/{id}",
    tag: "lots",
    summary: "Deletes a plot group (its plots stay, without a group)",
    params: byId,
    campaign: ({ params }, db) => lotParcelleCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeLotsParcelle(scope, [params.id]),
  }),

  // --- landscape features (B-API-18)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/zones",
    tag: "zone_amenagements",
    summary: "The landscape features of a campaign",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(Zone),
    refusals: [404],
    handle: async ({ scope }) => (await getAmenagements(scope)).rows,
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/zone_amenagements",
    tag: "zone_amenagements",
    summary: "A new landscape feature in the campaign idCampagne (the feature form's fields)",
    body: AmenagementSchema.extend(withCampaign),
    campaign: ({ body }) => body.idCampagne,
    answer: Zone,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idCampagne: _c, ...input } }) => getAmenagement(scope, await saveAmenagement(scope, input)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/zone_amenagements/{id}",
    tag: "zone_amenagements",
    summary: "Updates a landscape feature; updatedAt as read, else 409",
    params: byId,
    body: AmenagementSchema.extend(withStamp),
    campaign: ({ params }, db) => amenagementCampaign(db, params.id),
    answer: Zone,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) =>
      getAmenagement(scope, await saveAmenagement(scope, input, { id: params.id, updatedAt })),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/zone_amenagements/{id}",
    tag: "zone_amenagements",
    summary: "Deletes a landscape feature",
    params: byId,
    campaign: ({ params }, db) => amenagementCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeAmenagements(scope, [params.id]),
  }),
];
