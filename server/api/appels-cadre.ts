import { z } from "zod";
import { JetonPersonnelSchema } from "~/domain/jeton-api";
import { DossierSchema } from "~/domain/partage";
import { rowId } from "~/domain/validation";
import { createDossier, deleteDossier, dossiersOfOad, getDossier, getOad, getOads, updateDossier } from "../dossier/service";
import { tokenField } from "../http/fields";
import { byId, Utilisateur, UtilisateurConnecte, Groupe, Oad, DossierListItem, Dossier, Jeton, NouveauJeton, boolQuery } from "./schemas";
import { apiCall, type ApiCall } from "../http/api.server";
import { createJetonPersonnel, getJetonsPersonnels, revokeJetonPersonnel, revokeOwnToken } from "../jeton-api/service";
import { getGroupeUtilisateurs, listGroupesUtilisateurs, listGroupMembers, ownUser, connectedUser } from "../utilisateur/service";

/** The frame calls of the JSON API: tokens, users, user groups, networks and folders (spec 1 §7; issue 26). */
export const APPELS_CADRE: readonly ApiCall[] = [
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
    handle: async ({ scope, params }) => connectedUser(scope.user, params.id),
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
];
