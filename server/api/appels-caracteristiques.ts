import { z } from "zod";
import { ADMIN_FIELDS, CaracteristiquesAdminSchema } from "~/domain/caracteristiques-economiques";
import { rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall } from "../http/api.server";
import type { Scope } from "../access/scope";
import { caracteristiqueCampaign, getCaracteristiques, saveCaracteristiques } from "../exploitation-description/service";
import { byId, stamp } from "./schemas";

/**
 * The campaign characteristics calls of the JSON API (spec 2 §7 "Farm and characteristics"; issue 26, decision 0128):
 * read and write through the economics screen's schema and service. The administrator-only fields (long-term loan,
 * short-term rate and duration, own-capital remuneration) are optional in the body: an administrator must send them
 * (the screen's admin schema, 400 otherwise), another user's are ignored and never shown, as on the screen.
 */

const id = z.number().int();
const num = z.number().nullable();

/** The body: the screen's fields, the admin-only ones optional here (the service applies the user's own schema). */
const adminOptional = Object.fromEntries(ADMIN_FIELDS.map((f) => [f, true])) as { [K in (typeof ADMIN_FIELDS)[number]]: true };
const CaracteristiquesBody = CaracteristiquesAdminSchema.partial(adminOptional);

const Caracteristique = z.looseObject({
  id: id.nullable().describe("null while the campaign has none: POST caracteristiques creates it"),
  idCampagne: id,
  campagne: z.string().describe("/api/v1/campagnes/{idCampagne}"),
  anneeprix: id.nullable(),
  cotisationMsa: num,
  fermageMoyen: num,
  chargesDiverses: num,
  aidesDecouplees: num,
  courtTermeSomme: num,
  chargesMainOeuvreSalarialePermanente: num,
  chargesMainOeuvreSalarialeOccasionnel: num,
  chargesMainOeuvreFamiliale: num,
  normeChargesMainOeuvreSalarialePermanente: num,
  normeChargesMainOeuvreSalarialeOccasionnel: num,
  normeChargesMainOeuvreFamiliale: num,
  prixFioul: num,
  remarqueAnnuelle: z.string().nullable().describe("The yearly remark"),
  ...Object.fromEntries(ADMIN_FIELDS.map((f) => [f, num.optional().describe("Administrators only")])),
  defaults: z.looseObject({}).describe("The values the calculations use when a field is empty (spec 2 §9)"),
  updatedAt: stamp.nullable().describe("null while the campaign has none"),
});

/** The fields of a campaign without characteristics yet. */
const EMPTY = {
  cotisationMsa: null,
  fermageMoyen: null,
  chargesDiverses: null,
  aidesDecouplees: null,
  courtTermeSomme: null,
  chargesMainOeuvreSalarialePermanente: null,
  chargesMainOeuvreSalarialeOccasionnel: null,
  chargesMainOeuvreFamiliale: null,
  prixFioul: null,
  remarqueAnnuelle: null,
};

/** The scope's campaign characteristics as the API shows them: the stored row, else an empty one with the current norms. */
async function caracteristiqueOf(scope: Scope) {
  const { caracteristique, idCampagne, anneeprix, isAdmin, normes, defaults } = await getCaracteristiques(scope);
  const admin = isAdmin && !caracteristique ? Object.fromEntries(ADMIN_FIELDS.map((f) => [f, null])) : {};
  return {
    ...EMPTY,
    ...admin,
    ...normes,
    ...caracteristique,
    id: caracteristique?.id ?? null,
    idCampagne,
    campagne: `/api/v1/campagnes/${idCampagne}`,
    anneeprix,
    defaults,
    updatedAt: caracteristique?.updatedAt ?? null,
  };
}

export const APPELS_CARACTERISTIQUES: readonly ApiCall[] = [
  // B-ECO-02, B-ECO-03
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/caracteristique",
    tag: "caracteristiques",
    summary: "The campaign's economic characteristics (the admin-only fields for administrators), with the defaults of empty fields",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: Caracteristique,
    refusals: [404],
    handle: ({ scope }) => caracteristiqueOf(scope),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/caracteristiques",
    tag: "caracteristiques",
    summary: "Creates the characteristics of the campaign idCampagne (the economics form's fields); 409 when it has them already",
    body: CaracteristiquesBody.extend({ idCampagne: rowId().describe("The campaign the row is made for") }),
    campaign: ({ body }) => body.idCampagne,
    answer: Caracteristique,
    status: 201,
    refusals: [404, 409],
    handle: async ({ scope, body: { idCampagne: _c, ...input } }) => {
      await saveCaracteristiques(scope, input, null);
      return caracteristiqueOf(scope);
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/caracteristiques/{id}",
    tag: "caracteristiques",
    summary:
      "Saves a campaign's characteristics (all the economics form's fields, remarqueAnnuelle included; the norms are recalculated from its labour); updatedAt as read, else 409",
    params: byId,
    body: CaracteristiquesBody.extend({ updatedAt: tokenField.describe("The row's updatedAt as read: a stale one is refused (409)") }),
    campaign: ({ params }, db) => caracteristiqueCampaign(db, params.id),
    answer: Caracteristique,
    refusals: [404, 409],
    handle: async ({ scope, body: { updatedAt, ...input } }) => {
      await saveCaracteristiques(scope, input, updatedAt);
      return caracteristiqueOf(scope);
    },
  }),
];
