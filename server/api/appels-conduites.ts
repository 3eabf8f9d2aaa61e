import { z } from "zod";
import { AssuranceFields, assuranceRules, EstimationSchema, ModeConduiteCultureSchema } from "~/domain/mode-conduite";
import { rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall, type Locale } from "../http/api.server";
import {
  assuranceCampaign,
  estimateAssurance,
  getAssurance,
  getModeConduiteCulture,
  getModeConduiteCultures,
  getQualifiantsOfCulture,
  modeConduiteCampaign,
  modeConduiteCultureCampaign,
  removeAssuranceById,
  removeModeConduiteCulture,
  saveModeConduiteAssurance,
  saveModeConduiteCulture,
} from "../mode-conduite/service";
import { byId, stamp } from "./schemas";

/**
 * The crop-management calls of the JSON API beside the modes themselves (spec 2 §7 "Crop management"; issue 26,
 * decision 0129): a mode's crop rows one by one, its insurance, the insurance estimate and a crop's qualifiers, through
 * the crops screen's services and schemas. The mode's form (PATCH mode_conduites/{id}) still saves all of them at once.
 */

const id = z.number().int();
const num = z.number().nullable();
const withStamp = { updatedAt: tokenField.describe("The row's updatedAt as read: a stale one is refused (409)") };
const withMode = { idModeConduite: rowId().describe("The management mode (mode_conduites id)") };

/** A mode-conduite-culture (B-API-15): culture (idCulture), modeConduite (idModeConduite), qualifiantCulture (idQualifiant), idCatCulture. */
const ModeConduiteCulture = z.object({
  id,
  idModeConduite: id,
  idCulture: id,
  idCatCulture: id.nullable(),
  idQualifiant: id.nullable(),
  ordre: z.number().int().describe("Its place in the mode's list"),
  libelleCulture: z.string(),
  libelleCultureEn: z.string().nullable(),
  updatedAt: stamp,
});

const Assurance = z.object({
  id,
  idModeConduite: id,
  idCulture: id.nullable(),
  idTypeSortie: id.nullable(),
  mtCotisationAssurance: num,
  mtIndemniteSaisie: num,
  rendementAssure: num,
  mtPrixAssure: num,
  txFranchise: num,
  rendementReelMoyen: num.describe("Calculated: the farm's average recorded yield"),
  rendementNonIndemnisable: num.describe("Calculated"),
  mtIndemniteCalculee: num.describe("Calculated"),
  updatedAt: stamp,
});

const Estimation = z.object({
  annees: z.array(z.object({ anneeRecolte: z.number().int(), rendement: z.number() })).describe("The earlier years' yields used, newest first"),
  rendementReelMoyen: num,
  rendementCampagne: num.describe("The campaign's own yield, when its harvests are recorded"),
  rendementNonIndemnisable: num,
  mtIndemniteCalculee: num,
});

const Qualifiant = z.object({ id, libelle: z.string().describe("In English with locale=en") });
const qualifiantOut = ({ libelleEn, ...q }: { id: number; libelle: string; libelleEn: string | null }, locale: Locale) => ({
  ...q,
  libelle: locale === "en" && libelleEn ? libelleEn : q.libelle,
});

/** The insurance form's fields and rules, with the mode it insures. */
const AssuranceBody = AssuranceFields.extend(withMode).superRefine(assuranceRules);
const AssurancePatch = AssuranceFields.extend(withStamp).superRefine(assuranceRules);

export const APPELS_CONDUITES: readonly ApiCall[] = [
  // --- crop rows of a mode (B-API-15)
  apiCall({
    method: "GET",
    path: "/api/v1/mode_conduites/{id}/mode_conduite_cultures",
    tag: "mode_conduite_cultures",
    summary: "The crop rows of a management mode, in the form's order",
    params: byId,
    campaign: ({ params }, db) => modeConduiteCampaign(db, params.id),
    answer: z.array(ModeConduiteCulture),
    refusals: [404],
    handle: ({ scope, params }) => getModeConduiteCultures(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/mode_conduite_cultures",
    tag: "mode_conduite_cultures",
    summary: "A new crop row, last in the mode idModeConduite (the form's row fields: idCulture, idCatCulture, idQualifiant of that crop)",
    body: ModeConduiteCultureSchema.omit({ id: true }).extend(withMode),
    campaign: ({ body }, db) => modeConduiteCampaign(db, body.idModeConduite),
    answer: ModeConduiteCulture,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idModeConduite, ...row } }) => getModeConduiteCulture(scope, await saveModeConduiteCulture(scope, idModeConduite, row)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/mode_conduite_cultures/{id}",
    tag: "mode_conduite_cultures",
    summary: "Updates a crop row (idCulture, idCatCulture, idQualifiant; it keeps its mode and place); updatedAt as read, else 409",
    params: byId,
    body: ModeConduiteCultureSchema.omit({ id: true }).extend(withStamp),
    campaign: ({ params }, db) => modeConduiteCultureCampaign(db, params.id),
    answer: ModeConduiteCulture,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...row } }) => {
      const { idModeConduite } = await getModeConduiteCulture(scope, params.id);
      return getModeConduiteCulture(scope, await saveModeConduiteCulture(scope, idModeConduite, row, { id: params.id, updatedAt }));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/mode_conduite_cultures/{id}",
    tag: "mode_conduite_cultures",
    summary: "Deletes a crop row of a mode",
    params: byId,
    campaign: ({ params }, db) => modeConduiteCultureCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeModeConduiteCulture(scope, params.id),
  }),

  // --- a mode's insurance (B-INS-*)
  apiCall({
    method: "POST",
    path: "/api/v1/mode_conduite_assurances",
    tag: "mode_conduite_assurances",
    summary:
      "The insurance of the mode idModeConduite (the insurance panel's fields: idCulture, idTypeSortie, mtCotisationAssurance, mtIndemniteSaisie, rendementAssure, mtPrixAssure, txFranchise); the estimate is stored with it. A mode has one: a second is 409",
    body: AssuranceBody,
    campaign: ({ body }, db) => modeConduiteCampaign(db, body.idModeConduite),
    answer: Assurance,
    status: 201,
    refusals: [404, 409],
    handle: async ({ scope, body: { idModeConduite, ...a } }) => getAssurance(scope, await saveModeConduiteAssurance(scope, idModeConduite, a)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/mode_conduite_assurances/{id}",
    tag: "mode_conduite_assurances",
    summary: "Updates an insurance (all the panel's fields), its estimate recomputed; updatedAt as read, else 409",
    params: byId,
    body: AssurancePatch,
    campaign: ({ params }, db) => assuranceCampaign(db, params.id),
    answer: Assurance,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...a } }) => {
      const { idModeConduite } = await getAssurance(scope, params.id);
      return getAssurance(scope, await saveModeConduiteAssurance(scope, idModeConduite, a, { id: params.id, updatedAt }));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/mode_conduite_assurances/{id}",
    tag: "mode_conduite_assurances",
    summary: "Deletes an insurance",
    params: byId,
    campaign: ({ params }, db) => assuranceCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeAssuranceById(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/mode_conduite_assurances/estimate",
    tag: "mode_conduite_assurances",
    summary:
      "The insurance estimate the panel shows (B-INS-05, B-INS-06): from the farm's recorded harvests of the crop and output type, the real average yield, the non-indemnified yield and the indemnity. Stores nothing; a reader may estimate, a read-only token may not (it is a POST)",
    body: EstimationSchema,
    campaign: ({ body }, db) => modeConduiteCampaign(db, body.idModeConduite),
    answer: Estimation,
    refusals: [404],
    handle: ({ scope, body }) => estimateAssurance(scope, body),
  }),

  // --- qualifiers of a crop (B-CROP-04)
  apiCall({
    method: "GET",
    path: "/api/v1/cultures/{id}/qualifiants",
    tag: "cultures",
    summary: "The qualifiers a crop row of this crop may take (reference data)",
    params: byId,
    answer: z.array(Qualifiant),
    refusals: [404],
    handle: async ({ scope, params, locale }) => (await getQualifiantsOfCulture(scope.db, params.id)).map((q) => qualifiantOut(q, locale)),
  }),
];
