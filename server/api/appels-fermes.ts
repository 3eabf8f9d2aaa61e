import { z } from "zod";
import {
  AddFolderToFarmSchema,
  ExploitationSettingsSchema,
  FarmDuplicationSchema,
  FarmLinkSchema,
  FolderUserRightSchema,
  NewExploitationSchema,
} from "~/domain/partage";
import { AdminUserSchema } from "~/domain/admin";
import { CguSchema, ProfileSchema } from "~/domain/utilisateur";
import { MAX_IDS, rowId, validate } from "~/domain/validation";
import { ensureAdmin, saveUser, setUserActive } from "../admin/service";
import { saveOwnProfileApi } from "../auth/profile";
import { folderUserRights, saveFolderRights } from "../dossier/service";
import { ServiceError } from "../errors";
import {
  addFolderToFarm,
  createExploitation,
  deleteExploitation,
  duplicateExploitation,
  ensureFarmCampaigns,
  farmContext,
  farmLinksOf,
  farmPermissions,
  farmsOfLinks,
  getExploitation,
  oadOfDossier,
  saveFarmLinks,
  updateExploitation,
} from "../exploitation/service";
import { tokenField } from "../http/fields";
import { API_ERRORS, apiCall, type ApiCall } from "../http/api.server";
import { acceptCgu, ownUser } from "../utilisateur/service";
import { findUtilisateurById, toPublic } from "../utilisateur/repo";
import { byId, stamp, Utilisateur, FarmRight } from "./schemas";

/**
 * The frame calls of the JSON API on users, farms and their folder links (spec 1 §3, §7; issue 26, decision 0109):
 * one's profile and terms, a farm read, created, saved, deleted and duplicated, its folder links, a folder's user
 * rights and the farm permissions. Each call names its farm or folder; the services check the rights on it.
 */

/** The screen's schema checked on a value the API built from its body: 400 with the field errors, as the adapter does. */
function checked<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const r = validate(schema, value);
  if (!r.success) throw new ServiceError("warning.invalid-form", 400, r.fieldErrors);
  return r.data;
}

/** Fields this use of the call does not take: 400 naming them (an API client's mix-up is not silently ignored). */
function notSent(fields: Record<string, unknown>): void {
  const sent = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (sent.length) throw new ServiceError("warning.invalid-form", 400, Object.fromEntries(sent.map(([k]) => [k, ["warning.invalid"]])));
}

async function userOf(db: Parameters<typeof findUtilisateurById>[0], id: number) {
  const row = await findUtilisateurById(db, id);
  if (!row) throw new ServiceError("errors.not-found", 404);
  return toPublic(row);
}

/** A body of one item or a list of them (spec 1 §7 "single or list"): always read as a list, each item strict. */
const oneOrMany = <S extends z.ZodRawShape>(item: z.ZodObject<S>) =>
  z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(item.strict()).min(1, "warning.required").max(MAX_IDS, "warning.too-many"));

const Exploitation = z.object({
  id: z.number().int(),
  libelle: z.string(),
  apiLibelle: z.string(),
  suffixe: z.string().nullable(),
  idTypeExploitation: z.number().int().nullable(),
  idDossier: z.number().int(),
  updatedAt: stamp,
});
const DossierExploitation = FarmRight.extend({
  idDossierExploitation: z.number().int(),
  idDossier: z.number().int(),
  idExploitation: z.number().int(),
  dossier: z.object({ libelle: z.string(), apiLibelle: z.string(), idOad: z.number().int() }),
});
const UtilisateurDossier = z.object({
  idUser: z.number().int(),
  idDossier: z.number().int(),
  username: z.string(),
  displayName: z.string(),
  udoAnimation: z.boolean(),
  udoEcriture: z.boolean(),
  udoLecture: z.boolean(),
  udoSynthese: z.boolean(),
  udoNominatif: z.boolean(),
  udoPath: z.string().nullable(),
  udoAnneeRecolte: z.number().int().nullable(),
  udoProprietaire: z.boolean(),
});

const withApiLibelle = <L extends { dossier: { libelle: string } }>(l: L) => ({ ...l, dossier: { ...l.dossier, apiLibelle: l.dossier.libelle } });
const linksOfFarms = async (db: Parameters<typeof farmLinksOf>[0], user: Parameters<typeof farmLinksOf>[1], farms: Iterable<number>) => {
  const out = [];
  for (const idExploitation of farms) out.push(...(await farmLinksOf(db, user, await farmContext(db, user, idExploitation))));
  return out.map(withApiLibelle);
};

const LinkKey = z.object({ idDossierExploitation: rowId() });
const FolderRightRow = FolderUserRightSchema.omit({ removed: true }).extend({ idDossier: rowId() });
const FolderRightKey = z.object({ idUser: rowId(), idDossier: rowId() });

/** Saves rights rows grouped by their folder (each folder's list saved together, as the folder settings do). */
async function saveRightsByFolder(
  scope: Parameters<typeof saveFolderRights>[0],
  rows: { idDossier: number; idUser: number; udoAnimation?: boolean; udoEcriture?: boolean; udoLecture?: boolean; udoSynthese?: boolean; removed?: boolean }[],
) {
  const byFolder = new Map<number, typeof rows>();
  for (const r of rows) byFolder.set(r.idDossier, [...(byFolder.get(r.idDossier) ?? []), r]);
  for (const [idDossier, list] of byFolder)
    await saveFolderRights(scope, idDossier, {
      rows: list.map((r) => ({
        idUser: r.idUser,
        udoAnimation: !!r.udoAnimation,
        udoEcriture: !!r.udoEcriture,
        udoLecture: !!r.udoLecture,
        udoSynthese: !!r.udoSynthese,
        ...(r.removed ? { removed: true } : {}),
      })),
    });
  return [...byFolder.keys()];
}

async function rightsOfFolders(scope: Parameters<typeof saveFolderRights>[0], folders: number[]) {
  const out = [];
  for (const id of folders) out.push(...(await folderUserRights(scope.db, scope.user, id)));
  return out;
}

export const APPELS_FERMES: readonly ApiCall[] = [
  // --- one's own profile and the terms (A-API-10); the administration of users (A-API-23)
  apiCall({
    method: "PATCH",
    path: "/api/v1/utilisateurs/{id}",
    tag: "utilisateurs",
    summary:
      "One's own id: the profile (nom, prenom, password with currentPassword, isVisible; updatedAt as read, else 409) or the terms (acceptcgu: true, isVisible). Another id: an administrator edits the user (username, nom, prenom, email, admin, roleTest, groupes, updatedAt)",
    params: byId,
    body: z.object({
      acceptcgu: z.boolean().optional(),
      isVisible: z.boolean().optional(),
      nom: z.string().optional(),
      prenom: z.string().optional(),
      password: z.string().optional(),
      currentPassword: z.string().optional(),
      updatedAt: z.string().optional(),
      username: z.string().optional(),
      email: z.string().nullable().optional(),
      admin: z.boolean().optional(),
      roleTest: z.boolean().optional(),
      groupes: z.array(z.number().int()).optional(),
    }),
    answer: Utilisateur,
    refusals: [403, 404, 409],
    beforeTerms: true,
    handle: async ({ scope, params, body, bearer }) => {
      const { db, user } = scope;
      const { acceptcgu, isVisible, nom, prenom, password, currentPassword, updatedAt, ...administration } = body;
      if (params.id !== user.id) {
        // Another user: the administration screen's form, only an administrator's.
        ensureAdmin(user);
        notSent({ acceptcgu, isVisible, password, currentPassword });
        await saveUser(db, user, checked(AdminUserSchema, { ...administration, nom, prenom, updatedAt, id: params.id }));
        return userOf(db, params.id);
      }
      ownUser(user, params.id);
      notSent(administration);
      const profile = { nom, prenom, password, currentPassword, updatedAt };
      if (acceptcgu !== undefined && Object.values(profile).every((v) => v === undefined)) {
        // The terms dialog: the box must be ticked (CguSchema), visibility optional.
        checked(CguSchema, { accept: acceptcgu ? "on" : undefined, isVisible: isVisible ? "on" : undefined });
        await acceptCgu(db, user, !!isVisible);
      } else {
        if (!user.acceptcgu) throw new ServiceError(API_ERRORS.terms, 403);
        if (acceptcgu === false) throw new ServiceError("warning.invalid-form", 400, { acceptcgu: ["warning.invalid"] });
        const input = checked(ProfileSchema, { ...profile, confirmation: password, isVisible: isVisible ? "on" : undefined });
        await saveOwnProfileApi(db, user, input, bearer.idToken);
      }
      return userOf(db, user.id);
    },
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/utilisateurs",
    tag: "utilisateurs",
    summary: "A new user (an administrator only): username, nom, prenom, email, admin, roleTest, groupes and the first password",
    body: z.preprocess(
      (v) => (v && typeof v === "object" && !Array.isArray(v) && !("confirmation" in v) ? { ...v, confirmation: (v as { password?: unknown }).password } : v),
      AdminUserSchema,
    ),
    answer: Utilisateur,
    status: 201,
    refusals: [403, 409],
    handle: async ({ scope, body }) => {
      if (body.id !== undefined || body.updatedAt !== undefined) notSent({ id: body.id, updatedAt: body.updatedAt });
      return userOf(scope.db, await saveUser(scope.db, scope.user, body));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/utilisateurs/{id}",
    tag: "utilisateurs",
    summary: "Disables a user (an administrator only): he can no longer sign in, his sessions and tokens end; his rows stay",
    params: byId,
    refusals: [403, 404],
    handle: ({ scope, params }) => setUserActive(scope.db, scope.user, params.id, false),
  }),

  // --- farm permissions (A-API-29); before exploitations/{id}, whose pattern also matches
  apiCall({
    method: "GET",
    path: "/api/v1/exploitations/permissions",
    tag: "exploitations",
    summary: "The user's permissions on farms reached through the folder idDossier (exploitationsIds: the farms)",
    query: z.object({
      idDossier: rowId(),
      exploitationsIds: z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(rowId()).min(1).max(MAX_IDS)),
    }),
    answer: z.array(z.object({ idExploitation: z.number().int(), lecture: z.boolean(), gestion: z.boolean(), ecriture: z.boolean(), animation: z.boolean() })),
    handle: ({ scope, query }) => farmPermissions(scope.db, scope.user, query.idDossier, query.exploitationsIds),
  }),

  // --- farm duplication (A-API-19; spec 3 §3.11)
  apiCall({
    method: "POST",
    path: "/api/v1/exploitations/duplication",
    tag: "exploitations",
    summary:
      "Duplicates the farm exploitationSource (reached through dossierSource) into the folder idDossier with the campaigns campagnesCibles; dupliBaseDossier is the server's",
    body: FarmDuplicationSchema.extend({
      idOad: rowId().optional(),
      exploitationSource: rowId(),
      dossierSource: rowId().optional(),
      dupliBaseDossier: z.boolean().optional(),
    }),
    answer: z.object({ id: z.number().int(), dupliBaseDossier: z.boolean().optional() }),
    status: 201,
    refusals: [403, 404],
    handle: async ({ scope, body }) => {
      const ctx = await farmContext(scope.db, scope.user, body.exploitationSource, body.dossierSource);
      const idOad = body.idOad ?? (await oadOfDossier(scope.db, body.idDossier));
      const r = await duplicateExploitation(scope, ctx, { ...body, idOad });
      return r.dupliBaseDossier === undefined ? { id: r.id } : r;
    },
  }),

  // --- farms (A-API-16, A-ENT-03)
  apiCall({
    method: "GET",
    path: "/api/v1/exploitations/{id}",
    tag: "exploitations",
    summary: "One farm (any right on it; idDossier: the folder it is read through), libelle also as apiLibelle",
    params: byId,
    query: z.object({ idDossier: rowId().optional() }),
    answer: Exploitation,
    refusals: [403, 404],
    handle: async ({ scope, params, query }) => getExploitation(scope.db, scope.user, await farmContext(scope.db, scope.user, params.id, query.idDossier)),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/dossiers/{id}/exploitations",
    tag: "exploitations",
    summary: "A new farm in the folder (folder writing); linked to it with every right",
    params: byId,
    body: NewExploitationSchema.extend({ idDossier: rowId().optional() }),
    answer: Exploitation,
    status: 201,
    refusals: [403, 404],
    handle: async ({ scope, params, body }) => {
      if (body.idDossier !== undefined && body.idDossier !== params.id) throw new ServiceError("warning.invalid-form", 400, { idDossier: ["warning.invalid"] });
      const id = await createExploitation(scope, params.id, { libelle: body.libelle, idTypeExploitation: body.idTypeExploitation });
      return getExploitation(scope.db, scope.user, { idDossier: params.id, idExploitation: id });
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/exploitations/{id}",
    tag: "exploitations",
    summary: "Saves a farm (farm writing; idDossier: the folder it is reached through); updatedAt as read, else 409",
    params: byId,
    body: ExploitationSettingsSchema.extend({
      updatedAt: tokenField,
      idDossier: rowId().optional(),
      replicationCampagnesIds: z.array(rowId()).max(MAX_IDS, "warning.too-many").optional(),
    }),
    answer: Exploitation.extend({ replicationCampagnesIds: z.array(z.number().int()) }),
    refusals: [403, 404, 409],
    handle: async ({ scope, params, body }) => {
      const ctx = await farmContext(scope.db, scope.user, params.id, body.idDossier);
      await updateExploitation(scope, ctx, body);
      const replicationCampagnesIds = await ensureFarmCampaigns(scope.db, params.id, body.replicationCampagnesIds ?? []);
      return { ...(await getExploitation(scope.db, scope.user, ctx)), replicationCampagnesIds };
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/exploitations/{id}",
    tag: "exploitations",
    summary: "Deletes a farm, its campaigns and their data (farm writing)",
    params: byId,
    query: z.object({ idDossier: rowId().optional() }),
    refusals: [403, 404],
    handle: async ({ scope, params, query }) => deleteExploitation(scope, await farmContext(scope.db, scope.user, params.id, query.idDossier)),
  }),

  // --- a farm's folder links (A-API-17, A-API-18, A-ENT-01)
  apiCall({
    method: "GET",
    path: "/api/v1/exploitations/{id}/dossiers_exploitations",
    tag: "exploitations",
    summary: "The farm's folder links with their rights and the folder (libelle also as apiLibelle)",
    params: byId,
    answer: z.array(DossierExploitation),
    refusals: [403, 404],
    handle: ({ scope, params }) => linksOfFarms(scope.db, scope.user, [params.id]),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/dossiers_exploitations",
    tag: "exploitations",
    summary: "Links folders to farms (one link or a list; farm animation, reading on the folder); answers the farms' links",
    body: oneOrMany(AddFolderToFarmSchema.extend({ idOad: rowId().optional(), idExploitation: rowId() })),
    answer: z.array(DossierExploitation),
    status: 201,
    refusals: [403, 404, 409],
    handle: async ({ scope, body }) => {
      for (const link of body) {
        const ctx = await farmContext(scope.db, scope.user, link.idExploitation);
        const { idExploitation: _farm, ...rest } = link;
        void _farm;
        await addFolderToFarm(scope, ctx, { ...rest, idOad: link.idOad ?? (await oadOfDossier(scope.db, link.idDossier)) });
      }
      return linksOfFarms(scope.db, scope.user, new Set(body.map((l) => l.idExploitation)));
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/dossiers_exploitations",
    tag: "exploitations",
    summary: "Changes the rights of folder links (one link or a list; the cascade of spec 1 §4 applied); answers the farms' links",
    body: oneOrMany(FarmLinkSchema.omit({ removed: true })),
    answer: z.array(DossierExploitation),
    refusals: [403, 404, 409],
    handle: async ({ scope, body }) => {
      const farms = await farmsOfLinks(
        scope.db,
        body.map((l) => l.idDossierExploitation),
      );
      for (const [idExploitation, ids] of farms)
        await saveFarmLinks(scope, await farmContext(scope.db, scope.user, idExploitation), {
          links: body.filter((l) => ids.includes(l.idDossierExploitation)),
        });
      return linksOfFarms(scope.db, scope.user, farms.keys());
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/dossiers_exploitations",
    tag: "exploitations",
    summary: "Removes folder links (one or a list of idDossierExploitation; farm animation); a farm keeps a folder, else 409",
    body: oneOrMany(LinkKey),
    refusals: [403, 404, 409],
    handle: async ({ scope, body }) => {
      const farms = await farmsOfLinks(
        scope.db,
        body.map((l) => l.idDossierExploitation),
      );
      const none = { dexEcriture: false, dexLecture: false, dexSynthese: false, dexAnimation: false, dexNominatif: false };
      for (const [idExploitation, ids] of farms)
        await saveFarmLinks(scope, await farmContext(scope.db, scope.user, idExploitation), {
          links: ids.map((idDossierExploitation) => ({ idDossierExploitation, ...none, removed: true })),
        });
    },
  }),

  // --- a folder's user rights (A-API-20)
  apiCall({
    method: "GET",
    path: "/api/v1/utilisateurs_dossiers",
    tag: "dossiers",
    summary: "The user rights of the folder idDossier (folder animation, visibility accepted)",
    query: z.object({ idDossier: rowId() }),
    answer: z.array(UtilisateurDossier),
    refusals: [403, 404],
    handle: ({ scope, query }) => folderUserRights(scope.db, scope.user, query.idDossier),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/utilisateurs_dossiers",
    tag: "dossiers",
    summary: "Grants folder rights (one or a list, saved together per folder; folder animation); answers the folders' rights",
    body: oneOrMany(FolderRightRow),
    answer: z.array(UtilisateurDossier),
    status: 201,
    refusals: [403, 404, 409],
    handle: async ({ scope, body }) => {
      const folders = await saveRightsByFolder(scope, body);
      return rightsOfFolders(scope, folders);
    },
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/utilisateurs_dossiers",
    tag: "dossiers",
    summary: "Changes folder rights (one or a list, saved together per folder; the cascade applied; an animator kept, else 409)",
    body: oneOrMany(FolderRightRow),
    answer: z.array(UtilisateurDossier),
    refusals: [403, 404, 409],
    handle: async ({ scope, body }) => {
      const folders = await saveRightsByFolder(scope, body);
      return rightsOfFolders(scope, folders);
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/utilisateurs_dossiers",
    tag: "dossiers",
    summary: "Removes users from folders (one or a list of idUser and idDossier; an animator kept, else 409)",
    body: oneOrMany(FolderRightKey),
    refusals: [403, 404, 409],
    handle: async ({ scope, body }) => {
      await saveRightsByFolder(
        scope,
        body.map((r) => ({ ...r, removed: true })),
      );
    },
  }),
];
