import { z } from "zod";
import { JETON_ACCES, JetonPersonnelSchema } from "~/domain/jeton-api";
import { DossierSchema } from "~/domain/partage";
import { MajDatesCampagneSchema, ParcelleFields, withDerivedSurfaces } from "~/domain/parcelle";
import { rowId } from "~/domain/validation";
import { createDossier, deleteDossier, dossiersOfOad, getDossier, getOad, getOads, updateDossier } from "../dossier/service";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall } from "../http/api.server";
import { createJetonPersonnel, getJetonsPersonnels, revokeJetonPersonnel, revokeOwnToken } from "../jeton-api/service";
import { getCampagne } from "../campagne/service";
import { farmsOfDossier } from "../exploitation/service";
import { getParcelle, getParcelles, majDatesCampagne, parcelleCampaign, saveParcelle } from "../parcelle/service";
import { getGroupeUtilisateurs, listGroupesUtilisateurs, listGroupMembers, ownUser } from "../utilisateur/service";

/**
 * The calls of the JSON API (spec 1 §7, spec 2 §7; issue 26), each a few lines: its path, its schemas (the screens'
 * own, from app/domain) and the service that answers it. No SQL and no rights check here: the services do both, as
 * for the screens. The adapter and the OpenAPI document are in server/http/api.server.ts.
 */

const byId = z.object({ id: rowId() });
const stamp = z.string().describe("ISO 8601 date and time");

const Utilisateur = z.object({
  id: z.number().int(),
  username: z.string(),
  nom: z.string(),
  prenom: z.string(),
  email: z.string().nullable(),
  acceptcgu: z.boolean(),
  isVisible: z.boolean(),
});
const UtilisateurConnecte = Utilisateur.extend({ admin: z.boolean(), roles: z.array(z.string()) });

const Groupe = z.object({ idGroupe: z.number().int(), nomGroupe: z.string() });
const Oad = z.object({ id: z.number().int(), libelle: z.string(), libelleLong: z.string().nullable() });
const DossierListItem = z.object({ id: z.number().int(), libelle: z.string(), idOad: z.number().int() });
const Dossier = z.object({
  id: z.number().int(),
  libelle: z.string(),
  suffixe: z.string().nullable(),
  idOad: z.number().int(),
  remarque: z.string(),
  updatedAt: stamp,
});
const Jeton = z.object({ id: z.number().int(), nom: z.string(), acces: z.enum(JETON_ACCES), expiresAt: stamp, lastUsedAt: stamp.nullable(), createdAt: stamp });
const NouveauJeton = z.object({ id: z.number().int(), nom: z.string(), acces: z.enum(JETON_ACCES), expiresAt: stamp, token: z.string() });
const Parcelle = z.looseObject({
  id: z.number().int(),
  idCampagne: z.number().int(),
  libelle: z.string(),
  surface: z.number().nullable(),
  libelleModeConduite: z.string().nullable(),
  libelleLot: z.string().nullable(),
  parcellesHistorique: z.array(z.number().int()),
  updatedAt: stamp,
});

const FarmRight = z.object({
  dexEcriture: z.boolean(),
  dexLecture: z.boolean(),
  dexSynthese: z.boolean(),
  dexAnimation: z.boolean(),
  dexNominatif: z.boolean(),
});
const ExploitationListItem = z.object({
  id: z.number().int(),
  libelle: z.string(),
  suffixe: z.string().nullable(),
  idDossier: z.number().int(),
  dossierExploitation: FarmRight,
});
const Campagne = z.object({
  id: z.number().int(),
  idExploitation: z.number().int(),
  anneeRecolte: z.number().int(),
  prefixeCampagne: z.string(),
  apiLibelle: z.string(),
  libelle: z.string(),
  simulation: z.boolean(),
  serieValide: z.boolean(),
  indicateurPublie: z.boolean(),
  anneeDerniereAction: z.number().int().nullable(),
  idCampagneHistoParcelle: z.number().int().nullable(),
  locked: z.boolean(),
});

const boolQuery = z.enum(["true", "false"]).transform((v) => v === "true");

export const API_CALLS: readonly ApiCall[] = [
  // --- tokens (decision 0098)
  apiCall({
    method: "POST",
    path: "/api/v1/logout",
    tag: "auth",
    summary: "Signs the API client out: the token of the call is revoked",
    beforeTerms: true,
    handle: ({ scope, bearer }) => revokeOwnToken(scope.db, scope.user, bearer.idToken),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/jetons",
    tag: "auth",
    summary: "The user's personal access tokens (never their value)",
    answer: z.array(Jeton),
    handle: ({ scope }) => getJetonsPersonnels(scope.db, scope.user),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/jetons",
    tag: "auth",
    summary: "A new personal access token (its value is answered once)",
    body: JetonPersonnelSchema,
    answer: NouveauJeton,
    status: 201,
    refusals: [403, 409],
    handle: ({ scope, body }) => createJetonPersonnel(scope.db, scope.user, body),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/jetons/{id}",
    tag: "auth",
    summary: "Revokes one of the user's personal access tokens",
    params: byId,
    refusals: [403, 404],
    handle: ({ scope, params }) => revokeJetonPersonnel(scope.db, scope.user, params.id),
  }),

  // --- users (A-API-09, A-API-11)
  apiCall({
    method: "GET",
    path: "/api/v1/utilisateurs/{id}",
    tag: "utilisateurs",
    summary: "The user (himself only)",
    params: byId,
    answer: Utilisateur,
    refusals: [403],
    beforeTerms: true,
    handle: async ({ scope, params }) => ownUser(scope.user, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/utilisateur_connectes/{id}",
    tag: "utilisateurs",
    summary: "The connected user, with his roles",
    params: byId,
    answer: UtilisateurConnecte,
    refusals: [403],
    beforeTerms: true,
    handle: async ({ scope, params }) => ownUser(scope.user, params.id),
  }),

  // --- user groups, to share a folder (A-API-21, A-API-22)
  apiCall({
    method: "GET",
    path: "/api/v1/reference_groupes_utilisateurs",
    tag: "utilisateurs",
    summary: "The user groups (visible users who may grant rights)",
    answer: z.array(Groupe),
    handle: ({ scope }) => listGroupesUtilisateurs(scope.db, scope.user),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_groupes_utilisateurs/{id}",
    tag: "utilisateurs",
    summary: "One user group",
    params: byId,
    answer: Groupe,
    refusals: [404],
    handle: ({ scope, params }) => getGroupeUtilisateurs(scope.db, scope.user, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/utilisateurs",
    tag: "utilisateurs",
    summary: "The visible members of a group (idGroupe)",
    query: z.object({ idGroupe: rowId() }),
    answer: z.array(z.object({ id: z.number().int(), nom: z.string(), prenom: z.string() })),
    handle: ({ scope, query }) => listGroupMembers(scope.db, scope.user, query.idGroupe),
  }),

  // --- networks (A-API-12)
  apiCall({
    method: "GET",
    path: "/api/v1/oads",
    tag: "oads",
    summary: "The networks",
    answer: z.array(Oad),
    handle: ({ scope }) => getOads(scope.db),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/oads/{id}",
    tag: "oads",
    summary: "One network",
    params: byId,
    answer: Oad,
    refusals: [404],
    handle: ({ scope, params }) => getOad(scope.db, params.id),
  }),

  // --- folders (A-API-13, A-API-14, A-ENT-02)
  apiCall({
    method: "GET",
    path: "/api/v2/dossiers",
    tag: "dossiers",
    summary: "The folders of a network the user may read (ecriture=true: write)",
    query: z.object({ oad: rowId(), ecriture: boolQuery.optional() }),
    answer: z.array(DossierListItem),
    handle: ({ scope, query }) => dossiersOfOad(scope.db, scope.user, query.oad, query.ecriture ?? false),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/dossiers/{id}",
    tag: "dossiers",
    summary: "One folder (any right on it)",
    params: byId,
    answer: Dossier,
    refusals: [403, 404],
    handle: ({ scope, params }) => getDossier(scope.db, scope.user, params.id),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/dossiers",
    tag: "dossiers",
    summary: "A new folder; its creator animates it",
    body: DossierSchema,
    answer: Dossier,
    status: 201,
    refusals: [403],
    handle: async ({ scope, body }) => getDossier(scope.db, scope.user, await createDossier(scope.db, scope.user, body)),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/dossiers/{id}",
    tag: "dossiers",
    summary: "Updates a folder (animation right); updatedAt as read, else 409",
    params: byId,
    body: DossierSchema.extend({ updatedAt: tokenField }),
    answer: Dossier,
    refusals: [403, 404, 409],
    handle: async ({ scope, params, body }) => {
      await updateDossier(scope, params.id, body);
      return getDossier(scope.db, scope.user, params.id);
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/dossiers/{id}",
    tag: "dossiers",
    summary: "Deletes a folder (animation right; refused while a farm has no other folder)",
    params: byId,
    refusals: [403, 404, 409],
    handle: ({ scope, params }) => deleteDossier(scope, params.id),
  }),

  // --- farms (A-API-15, B-API-04)
  apiCall({
    method: "GET",
    path: "/api/v1/exploitations",
    tag: "exploitations",
    summary: "The farms of a folder the user may see (dexEcriture=true: those he may write)",
    query: z.object({ "dossierExploitation.dossier": rowId(), "dossierExploitation.dexEcriture": boolQuery.optional() }),
    answer: z.array(ExploitationListItem),
    refusals: [403],
    handle: ({ scope, query }) => farmsOfDossier(scope.db, scope.user, query["dossierExploitation.dossier"], query["dossierExploitation.dexEcriture"] ?? false),
  }),

  // --- campaigns (B-API-06, A-API-27, B-API-07)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}",
    tag: "campagnes",
    summary: "One campaign, with its lock and its last-action year",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: Campagne,
    refusals: [404],
    handle: ({ scope }) => getCampagne(scope),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/campagnes/{id}/maj_dates_actions",
    tag: "campagnes",
    summary: "Moves the campaign's interventions and last-action year to anneeRecolteCible (refused on a locked campaign)",
    params: byId,
    campaign: ({ params }) => params.id,
    body: MajDatesCampagneSchema,
    answer: z.object({ moved: z.number().int() }),
    refusals: [404],
    handle: async ({ scope, body }) => ({ moved: await majDatesCampagne(scope, body) }),
  }),

  // --- farm description (spec 2 §7; B-API-16)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/parcelles",
    tag: "parcelles",
    summary: "The plots of a campaign",
    params: byId,
    campaign: ({ params }) => params.id,
    answer: z.array(Parcelle),
    refusals: [403, 404],
    handle: async ({ scope }) => (await getParcelles(scope)).rows,
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/parcelles",
    tag: "parcelles",
    summary: "A new plot in the campaign idCampagne (the plot form's fields)",
    body: z.preprocess(withDerivedSurfaces, ParcelleFields.extend({ idCampagne: rowId() })),
    campaign: ({ body }) => body.idCampagne,
    answer: Parcelle,
    status: 201,
    refusals: [404, 409],
    handle: async ({ scope, body }) => {
      const { idCampagne: _campaign, ...plot } = body;
      void _campaign;
      return getParcelle(scope, await saveParcelle(scope, plot));
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/parcelles/{id}",
    tag: "parcelles",
    summary: "Updates a plot; updatedAt as read, else 409",
    params: byId,
    body: z.preprocess(withDerivedSurfaces, ParcelleFields.extend({ updatedAt: tokenField })),
    campaign: ({ params }, db) => parcelleCampaign(db, params.id),
    answer: Parcelle,
    refusals: [404, 409],
    handle: async ({ scope, params, body }) => {
      const { updatedAt, ...plot } = body;
      return getParcelle(scope, await saveParcelle(scope, plot, { id: params.id, updatedAt }));
    },
  }),
];
