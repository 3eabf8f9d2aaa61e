import { z } from "zod";
import { apiCall, type ApiCall } from "../http/api.server";
import {
  caracteristiqueIntrantCampaign,
  cibleIntrantCampaign,
  createIntrantApi,
  idActionOf,
  intrantOf,
  intrantOfCaracteristiqueRow,
  intrantOfCibleRow,
  saveCaracteristiqueIntrantApi,
  saveCiblesIntrantApi,
  updateIntrantApi,
} from "../intrant/api";
import { getCaracteristiqueIntrant, getIntrant, removeIntrant, saveCiblesIntrant } from "../intrant/service";
import { actionCampaign, getIntrantsOfAction, intrantCampaign, KINDS_INTRANT } from "../intervention/saison";
import { rowId } from "~/domain/validation";
import {
  autresIntrantsApi,
  dosesReferenceApi,
  fertilisantsApi,
  matiereActiveApi,
  phytosApi,
  semencesApi,
  semencesDuDossierApi,
} from "../referentiel-intrants/api";
import {
  campagneOf,
  createIntrantDossierApi,
  getFertilisantCompo,
  intrantDossierOf,
  intrantOfComposition,
  saveFertilisantCompo,
  updateIntrantDossierApi,
} from "../intrant-dossier/api";
import { getIntrantDossier } from "../intrant-dossier/non-reference";
import { ServiceError } from "../errors";
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

const IntrantDossier = z.looseObject({
  id: z.number().int(),
  updatedAt: stamp,
  dicIdTypeIntrant: z.number().int(),
  libelle: z.string(),
  code: z.string().nullable(),
  composition: z.record(z.string(), z.number().nullable()).nullable(),
  modifiable: z.boolean(),
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

  // --- catalogues (C-API-10..13): global reference lists, with a readable folder's own inputs when idDossier is given
  apiCall({
    method: "GET",
    path: "/api/v1/intrant_phytos",
    tag: "catalogues",
    summary: "Plant-protection products whose name, other names or AMM match q (and the folder's own, idDossier)",
    query: z.object({ q: z.string().max(100).optional(), idDossier: rowId().optional(), limit: z.coerce.number().int().min(1).max(500).optional() }),
    answer: z.array(z.looseObject({ idProduit: z.number().int(), cle: z.string(), nomProduit: z.string() })),
    refusals: [404],
    handle: ({ scope, query }) => phytosApi(scope, query),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/intrant_phytos/dossier/{id}",
    tag: "catalogues",
    summary: "The same, with the folder {id}'s own products",
    params: byId,
    query: z.object({ q: z.string().max(100).optional(), limit: z.coerce.number().int().min(1).max(500).optional() }),
    answer: z.array(z.looseObject({ idProduit: z.number().int(), cle: z.string(), nomProduit: z.string() })),
    refusals: [404],
    handle: ({ scope, params, query }) => phytosApi(scope, { ...query, idDossier: params.id }),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_fertilisants",
    tag: "catalogues",
    summary: "Fertilisers of a type (idTypeFertilisant), with the folder's own (idDossier) and their composition",
    query: z.object({ idTypeFertilisant: rowId().optional(), idDossier: rowId().optional() }),
    answer: z.array(z.looseObject({ id: z.number().int(), libelle: z.string(), idTypeFertilisant: z.number().int().nullable(), origine: z.number().int() })),
    refusals: [404],
    handle: ({ scope, query }) => fertilisantsApi(scope, query),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_autre_intrants",
    tag: "catalogues",
    summary: "Other inputs, with the folder's own (idDossier)",
    query: z.object({ idDossier: rowId().optional(), dicIdTypeIntrant: rowId().optional() }),
    answer: z.array(z.looseObject({ idIntrantDossier: z.number().int(), intNom: z.string() })),
    refusals: [404],
    handle: ({ scope, query }) => autresIntrantsApi(scope, query),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_semences/{id}",
    tag: "catalogues",
    summary: "The varieties of the species {id}: reference (origine 776), the folder's (777, idDossier), or both",
    params: byId,
    query: z.object({
      idDossier: rowId().optional(),
      origine: z.coerce
        .number()
        .int()
        .refine((v) => v === 776 || v === 777, "warning.invalid")
        .optional(),
    }),
    answer: z.array(z.looseObject({ id: z.number().int(), libelle: z.string(), idOriginIntrant: z.number().int() })),
    refusals: [404],
    handle: ({ scope, params, query }) => semencesApi(scope, params.id, query),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/matiere_actives/{cle}",
    tag: "catalogues",
    summary: "The active matter of a product by its key idProduit-idSource: id, quantite, unite, composition",
    params: z.object({ cle: z.string().regex(/^\d{1,10}-\d{1,10}$/, "warning.invalid") }),
    query: z.object({ idDossier: rowId().optional() }),
    answer: z.object({
      id: z.number().int(),
      quantite: z.number().nullable(),
      unite: z.string().nullable(),
      composition: z.array(z.looseObject({ libelle: z.string(), quantite: z.number().nullable(), unite: z.string().nullable() })),
    }),
    refusals: [404],
    handle: ({ scope, params, query }) => matiereActiveApi(scope, params.cle, query),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_dose_cible_ifts",
    tag: "catalogues",
    summary: "The reference doses of a product (codeAmm) on a crop for a harvest year, and for each target (idCible) whether it has one (exists)",
    query: z.object({
      codeAmm: z.string().min(1).max(20),
      anneeRecolte: z.coerce.number().int().min(1900).max(2200),
      idCulture: rowId(),
      idCible: z
        .union([rowId(), z.array(rowId()).max(50)])
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .optional(),
    }),
    answer: z.object({
      anneeRecolte: z.number().int().nullable(),
      doses: z.array(z.looseObject({ idCible: z.number().int().nullable(), doseRef: z.number().nullable() })),
      exists: z.record(z.string(), z.boolean()),
      doseCulture: z.looseObject({ doseRef: z.number().nullable() }).nullable(),
    }),
    handle: ({ scope, query }) => dosesReferenceApi(scope, query),
  }),

  // --- unreferenced inputs of a folder (C-API-21, C-API-22 in part): the folder through which the user works `campagne`
  apiCall({
    method: "GET",
    path: "/api/v1/intrant_dossiers/{id}",
    tag: "intrants",
    summary: "An unreferenced input of the folder of the campaign campagne, with its composition (a fertiliser)",
    params: byId,
    query: z.object({ campagne: rowId() }),
    campaign: ({ query }) => query.campagne,
    answer: IntrantDossier,
    refusals: [404],
    handle: ({ scope, params }) => getIntrantDossier(scope, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/intrant_dossiers",
    tag: "intrants",
    summary: "A new unreferenced input (origin 777) of the folder of the campaign campagne; a fertiliser's percentages total 100",
    body: z
      .record(z.string(), z.unknown())
      .describe(
        "campagne, and the unreferenced input dialog's fields: dicIdTypeIntrant, libelle, idCulture, idCategorie, code, matiereActive, uniteMatActive, biocontrole, remarque, n, p2o5, ... (%)",
      ),
    campaign: ({ body }) => campagneOf(body),
    answer: IntrantDossier,
    status: 201,
    refusals: [404],
    handle: ({ scope, body }) => createIntrantDossierApi(scope, body),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/intrant_dossiers/{id}",
    tag: "intrants",
    summary: "Updates an unreferenced input (animation right on the folder); the inputs using it are relabelled; updatedAt as read, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe("campagne, updatedAt, and the unreferenced input dialog's fields"),
    campaign: ({ body }) => campagneOf(body),
    answer: IntrantDossier.extend({ relabelled: z.number().int() }),
    refusals: [404, 409],
    handle: ({ scope, params, body }) => updateIntrantDossierApi(scope, params.id, body),
  }),
];

// --- issue 27, decision 0141: an input's characteristics and targets on their own, a folder fertiliser's
// composition, the seed variants. Written through the inputs' dialog path (rights, lock, schema, token).

const CaracteristiqueIntrant = z.looseObject({
  id: z.number().int().nullable().describe("null while the input has no characteristics row"),
  intrant: z.number().int(),
  idAction: z.number().int(),
  type: z.enum(["fertilisant", "semence"]),
  updatedAt: stamp.describe("The input's: the characteristics are written with it"),
});
const CARACTERISTIQUE_FIELDS =
  "a fertiliser's percentages n, p2o5, k2o, so3, mgo, cao, na2o, cu, mn, b, fe, mo, co (total 100); a seed's semenceFerme, semenceCertifiee (total 100), semenceOgm";

const IntrantCible = z.object({
  id: z.number().int().nullable().describe("null while the input has no targets"),
  intrant: z.number().int(),
  uniteRefCible1: z.string().nullable(),
  idCibles: z.array(z.number().int()),
  cibles: z.array(z.object({ id: z.number().int(), libelle: z.string(), doseRef: z.number().nullable(), uniteRef: z.string().nullable() })),
  updatedAt: stamp.describe("The input's: the targets are written with it"),
});
const CIBLES_BODY =
  "idCibles (up to four target ids; empty ones dropped and the others closed up), updatedAt (the input's, as read), uniteRefCible1 (accepted, not stored: the first target's reference dose unit is copied at save)";

const FertilisantCompo = z.looseObject({
  id: z.number().int().nullable().describe("null while the input has no composition row"),
  intrantDossier: z.number().int(),
  updatedAt: stamp.describe("The unreferenced input's"),
});

const semenceRef = z.array(z.looseObject({ id: z.number().int(), libelle: z.string(), idOriginIntrant: z.number().int() }));

export const APPELS_INTRANTS_SUITE: readonly ApiCall[] = [
  // C-API-14
  apiCall({
    method: "GET",
    path: "/api/v1/caracteristique_intrants/{id}",
    tag: "intrants",
    summary: "A characteristics row of an input (a fertiliser's percentages, a seed's shares)",
    params: byId,
    campaign: ({ params }, db) => caracteristiqueIntrantCampaign(db, params.id),
    answer: CaracteristiqueIntrant,
    refusals: [404],
    handle: async ({ scope, params }) => getCaracteristiqueIntrant(scope, await intrantOfCaracteristiqueRow(scope.db, params.id)),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/intrants/{id}/caracteristique_intrant",
    tag: "intrants",
    summary: "The characteristics of the input {id}",
    params: byId,
    campaign: ({ params }, db) => intrantCampaign(db, params.id),
    answer: CaracteristiqueIntrant,
    refusals: [404],
    handle: ({ scope, params }) => getCaracteristiqueIntrant(scope, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/actions/{id}/intrants/{idIntrant}/caracteristique_intrant",
    tag: "intrants",
    summary: "The characteristics of the input {idIntrant} of the intervention {id}",
    params: z.object({ id: rowId(), idIntrant: rowId() }),
    campaign: ({ params }, db) => actionCampaign(db, params.id),
    answer: CaracteristiqueIntrant,
    refusals: [404],
    handle: async ({ scope, params }) => {
      const c = await getCaracteristiqueIntrant(scope, params.idIntrant);
      if (c.idAction !== params.id) throw new ServiceError("errors.not-found", 404);
      return c;
    },
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/caracteristique_intrants",
    tag: "intrants",
    summary: "Writes the characteristics of the input intrant (created when it has none) through its dialog's schema; updatedAt the input's, else 409",
    body: z.record(z.string(), z.unknown()).describe(`intrant, updatedAt (the input's, as read), and ${CARACTERISTIQUE_FIELDS}`),
    campaign: ({ body }, db) => intrantCampaign(db, intrantOf(body)),
    answer: CaracteristiqueIntrant,
    status: 201,
    refusals: [404, 409],
    handle: ({ scope, body }) => saveCaracteristiqueIntrantApi(scope, intrantOf(body), body),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/caracteristique_intrants/{id}",
    tag: "intrants",
    summary: "Updates a characteristics row (the fields sent; the others kept) through its input's dialog schema; updatedAt the input's, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe(`updatedAt (the input's, as read), and ${CARACTERISTIQUE_FIELDS}`),
    campaign: ({ params }, db) => caracteristiqueIntrantCampaign(db, params.id),
    answer: CaracteristiqueIntrant,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => saveCaracteristiqueIntrantApi(scope, await intrantOfCaracteristiqueRow(scope.db, params.id), body),
  }),

  // C-API-08, C-API-09
  apiCall({
    method: "POST",
    path: "/api/v1/intrant_cibles",
    tag: "intrants",
    summary: "Sets the targets of the phyto input intrant (its reference doses copied); updatedAt the input's, else 409",
    body: z.record(z.string(), z.unknown()).describe(`intrant, ${CIBLES_BODY}`),
    campaign: ({ body }, db) => intrantCampaign(db, intrantOf(body)),
    answer: IntrantCible,
    status: 201,
    refusals: [404, 409],
    handle: ({ scope, body }) => saveCiblesIntrantApi(scope, intrantOf(body), body),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/intrant_cibles/{id}",
    tag: "intrants",
    summary: "Replaces the targets of a targets row's input; updatedAt the input's, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe(CIBLES_BODY),
    campaign: ({ params }, db) => cibleIntrantCampaign(db, params.id),
    answer: IntrantCible,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => saveCiblesIntrantApi(scope, await intrantOfCibleRow(scope.db, params.id), body),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/intrant_cibles/{id}",
    tag: "intrants",
    summary: "Removes the targets of a targets row's input (the input stays)",
    params: byId,
    campaign: ({ params }, db) => cibleIntrantCampaign(db, params.id),
    refusals: [404],
    handle: async ({ scope, params }) => saveCiblesIntrant(scope, await intrantOfCibleRow(scope.db, params.id), [], null),
  }),

  // C-API-22: a fertiliser of the folder through which the user works `campagne`
  apiCall({
    method: "GET",
    path: "/api/v1/fertilisant_compo_dossiers",
    tag: "intrants",
    summary: "The composition of the unreferenced fertiliser intrantDossier of the folder of the campaign campagne (one row)",
    query: z.object({ intrantDossier: rowId(), campagne: rowId() }),
    campaign: ({ query }) => query.campagne,
    answer: z.array(FertilisantCompo),
    refusals: [404],
    handle: async ({ scope, query }) => [await getFertilisantCompo(scope, query.intrantDossier)],
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/fertilisant_compo_dossiers",
    tag: "intrants",
    summary: "Writes the percentages of the unreferenced fertiliser intrantDossier (animation right; total 100); updatedAt the input's, else 409",
    body: z
      .record(z.string(), z.unknown())
      .describe("campagne, intrantDossier, updatedAt (the unreferenced input's, as read), n, p2o5, k2o, so3, mgo, ... (%)"),
    campaign: ({ body }) => campagneOf(body),
    answer: FertilisantCompo,
    status: 201,
    refusals: [404, 409],
    handle: ({ scope, body: { campagne: _c, intrantDossier, updatedAt, ...values } }) =>
      saveFertilisantCompo(scope, intrantDossierOf(intrantDossier), values, updatedAt),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/fertilisant_compo_dossiers/{id}",
    tag: "intrants",
    summary: "Updates a composition row's percentages (those sent; the others kept; total 100); updatedAt the unreferenced input's, else 409",
    params: byId,
    body: z.record(z.string(), z.unknown()).describe("campagne, updatedAt (the unreferenced input's, as read), and the percentages"),
    campaign: ({ body }) => campagneOf(body),
    answer: FertilisantCompo,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { campagne: _c, updatedAt, ...values } }) => {
      const id = await intrantOfComposition(scope.db, params.id);
      if (id == null) throw new ServiceError("errors.not-found", 404);
      return saveFertilisantCompo(scope, id, values, updatedAt);
    },
  }),

  // C-API-11, C-SEED-23: {product} is the product's own name (sillon), as in the spec's idCulture{product}
  apiCall({
    method: "GET",
    path: "/api/v1/reference_semence_sillon_dossiers/{id}",
    tag: "catalogues",
    summary: "The varieties of the species {id} of one origin: reference (776) or the folder's own (777, idDossier)",
    params: byId,
    query: z.object({
      idDossier: rowId().optional(),
      origine: z.coerce
        .number()
        .int()
        .refine((v) => v === 776 || v === 777, "warning.invalid"),
    }),
    answer: semenceRef,
    refusals: [404],
    handle: ({ scope, params, query }) => semencesApi(scope, params.id, query),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_semences_sillon_dossiers",
    tag: "catalogues",
    summary: "The folder idDossier's own seed varieties (origin 777) of every species",
    query: z.object({ idDossier: rowId() }),
    answer: semenceRef,
    refusals: [404],
    handle: ({ scope, query }) => semencesDuDossierApi(scope, query.idDossier),
  }),
];
