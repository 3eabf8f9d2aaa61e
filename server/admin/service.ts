import { buildDisplayName } from "~/domain/access/rights";
import {
  DEFAULT_POST_CATEGORY,
  resolvePostDate,
  withTestRole,
  type AdminUserInput,
  type GroupeInput,
  type OadInput,
  type PostInput,
  type ResetPasswordInput,
} from "~/domain/admin";
import { recordAudit, type AuditAction } from "../audit/repo";
import { hashPassword } from "../auth/password";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import * as repo from "./repo";

/**
 * Administration use cases (issue 3): users, user groups, networks and news posts. Every function first
 * checks that the caller has the admin flag; a refused call changes nothing.
 */

export const FORBIDDEN = "errors.forbidden";

function requireAdmin(caller: Utilisateur): void {
  if (!caller.admin) throw new ServiceError(FORBIDDEN, 403);
}

/** The administration's gate, for a caller that must refuse before it reads its input (the API's user calls). */
export const ensureAdmin = requireAdmin;

const notFound = () => new ServiceError("admin.not-found", 404);
const fieldError = (field: string, key: string, status = 409) => new ServiceError("warning.invalid-form", status, { [field]: [key] });

/** The row an edit writes, with the updatedAt its form was loaded with (checked by the write, server/db/stale.ts). */
const tokenOf = (id: number, updatedAt: string | undefined): Token => ({ id, updatedAt: updatedAt ?? "" });

function audit(db: Db, caller: Utilisateur, action: AuditAction, entite: string, idEntite: number, details: Record<string, unknown>) {
  return recordAudit(db, { idUser: caller.id, userLabel: buildDisplayName(caller.nom, caller.prenom), action, entite, idEntite, details });
}

async function knownIds(db: Db, table: "utilisateur" | "groupe_utilisateur", ids: number[], field: string): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await repo.existingIds(db, table, unique);
  if (found.length !== unique.length) throw fieldError(field, "warning.invalid", 400);
  return unique;
}

// --- users --------------------------------------------------------------------------------------

export async function getAdminUsers(db: Db, caller: Utilisateur) {
  requireAdmin(caller);
  const groupes = await repo.listGroupes(db);
  return { users: await repo.listAdminUsers(db), groupes: groupes.map((g) => ({ id: g.id, nomGroupe: g.nomGroupe })) };
}

/** Creates (no id) or edits a user: username unique, names, e-mail, admin flag, test role, groups. Returns the id. */
export async function saveUser(db: Db, caller: Utilisateur, input: AdminUserInput): Promise<number> {
  requireAdmin(caller);
  return db.transaction(async (trx) => {
    if (await repo.usernameTaken(trx, input.username, input.id)) throw fieldError("username", "admin.username-taken");
    const groupes = await knownIds(trx, "groupe_utilisateur", input.groupes, "groupes");
    const write = { username: input.username, nom: input.nom, prenom: input.prenom, email: input.email ?? null, admin: input.admin };
    if (!input.id) {
      if (!input.password) throw fieldError("password", "warning.required", 400);
      const id = await repo.insertUser(trx, { ...write, roles: withTestRole([], input.roleTest), passwordHash: await hashPassword(input.password) });
      await repo.setUserGroupes(trx, id, groupes);
      await audit(trx, caller, "utilisateur.create", "utilisateur", id, { username: input.username });
      return id;
    }
    const current = await repo.findAdminUser(trx, input.id);
    if (!current) throw notFound();
    // An admin keeps his own admin flag: otherwise nobody might be left to administer the install.
    if (current.id === caller.id && !input.admin) throw fieldError("admin", "admin.own-admin-flag", 400);
    await repo.editUser(trx, tokenOf(current.id, input.updatedAt), { ...write, roles: withTestRole(current.roles, input.roleTest) });
    await repo.setUserGroupes(trx, current.id, groupes);
    await audit(trx, caller, "utilisateur.update", "utilisateur", current.id, { username: input.username });
    return current.id;
  });
}

/** Disables a user (they can no longer sign in, and are signed out everywhere) or enables them again. */
export async function setUserActive(db: Db, caller: Utilisateur, id: number, actif: boolean): Promise<void> {
  requireAdmin(caller);
  if (!actif && id === caller.id) throw new ServiceError("admin.cannot-disable-self", 400);
  await db.transaction(async (trx) => {
    const current = await repo.findAdminUser(trx, id);
    if (!current) throw notFound();
    await repo.updateUser(trx, id, { actif });
    if (!actif) await repo.endUserSessions(trx, id);
    await audit(trx, caller, actif ? "utilisateur.enable" : "utilisateur.disable", "utilisateur", id, { username: current.username });
  });
}

/** Sets a new password chosen by the admin and ends the user's sessions (their own: in the profile). */
export async function resetPassword(db: Db, caller: Utilisateur, input: ResetPasswordInput): Promise<void> {
  requireAdmin(caller);
  if (input.id === caller.id) throw new ServiceError("admin.own-password-in-profile", 400);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (trx) => {
    const current = await repo.findAdminUser(trx, input.id);
    if (!current) throw notFound();
    await repo.updateUser(trx, input.id, { passwordHash });
    await repo.endUserSessions(trx, input.id);
    await audit(trx, caller, "utilisateur.password", "utilisateur", input.id, { username: current.username });
  });
}

// --- groups -------------------------------------------------------------------------------------

export async function getAdminGroupes(db: Db, caller: Utilisateur) {
  requireAdmin(caller);
  const users = await repo.listAdminUsers(db);
  return {
    groupes: await repo.listGroupes(db),
    users: users.map((u) => ({ id: u.id, username: u.username, nom: u.nom, prenom: u.prenom, actif: u.actif })),
  };
}

export async function saveGroupe(db: Db, caller: Utilisateur, input: GroupeInput): Promise<number> {
  requireAdmin(caller);
  return db.transaction(async (trx) => {
    if (await repo.groupeNameTaken(trx, input.nomGroupe, input.id)) throw fieldError("nomGroupe", "admin.groupe-name-taken");
    const membres = await knownIds(trx, "utilisateur", input.membres, "membres");
    let id = input.id;
    if (!id) {
      id = await repo.insertGroupe(trx, input.nomGroupe);
    } else {
      const current = await repo.findGroupe(trx, id);
      if (!current) throw notFound();
      await repo.updateGroupe(trx, tokenOf(id, input.updatedAt), input.nomGroupe);
    }
    await repo.setGroupeMembres(trx, id, membres);
    await audit(trx, caller, input.id ? "groupe.update" : "groupe.create", "groupe_utilisateur", id, { libelle: input.nomGroupe, membres: membres.length });
    return id;
  });
}

export async function deleteGroupe(db: Db, caller: Utilisateur, id: number): Promise<void> {
  requireAdmin(caller);
  await db.transaction(async (trx) => {
    const current = await repo.findGroupe(trx, id);
    if (!current) throw notFound();
    await repo.deleteGroupe(trx, id);
    await audit(trx, caller, "groupe.delete", "groupe_utilisateur", id, { libelle: current.nomGroupe });
  });
}

// --- networks -----------------------------------------------------------------------------------

export async function getAdminOads(db: Db, caller: Utilisateur) {
  requireAdmin(caller);
  return { oads: await repo.listOads(db) };
}

export async function saveOad(db: Db, caller: Utilisateur, input: OadInput): Promise<number> {
  requireAdmin(caller);
  const write = { libelle: input.libelle, libelleLong: input.libelleLong ?? null, international: input.international, emailAcces: input.emailAcces ?? null };
  return db.transaction(async (trx) => {
    let id = input.id;
    if (!id) {
      id = await repo.insertOad(trx, write);
    } else {
      const current = await repo.findOad(trx, id);
      if (!current) throw notFound();
      await repo.updateOad(trx, tokenOf(id, input.updatedAt), write);
    }
    await audit(trx, caller, input.id ? "oad.update" : "oad.create", "oad", id, { libelle: input.libelle });
    return id;
  });
}

/** A network that still holds folders cannot be deleted. */
export async function deleteOad(db: Db, caller: Utilisateur, id: number): Promise<void> {
  requireAdmin(caller);
  await db.transaction(async (trx) => {
    const current = await repo.findOad(trx, id);
    if (!current) throw notFound();
    if (current.dossiers > 0) throw new ServiceError("admin.network-has-folders", 409);
    await repo.deleteOad(trx, id);
    await audit(trx, caller, "oad.delete", "oad", id, { libelle: current.libelle });
  });
}

// --- news posts ---------------------------------------------------------------------------------

export async function getAdminPosts(db: Db, caller: Utilisateur) {
  requireAdmin(caller);
  return { posts: await repo.listAdminPosts(db) };
}

/** Writes a news post of the home page; without a date it is dated now and so shows first. */
export async function savePost(db: Db, caller: Utilisateur, input: PostInput, now = new Date()): Promise<number> {
  requireAdmin(caller);
  return db.transaction(async (trx) => {
    const base = { title: input.title, content: input.content, postCategory: input.postCategory ?? DEFAULT_POST_CATEGORY };
    if (!input.id) return repo.insertPost(trx, { ...base, creationDate: resolvePostDate(input.creationDate, null, now), idAuteur: caller.id });
    const current = await repo.findPost(trx, input.id);
    if (!current) throw notFound();
    await repo.updatePost(trx, tokenOf(input.id, input.updatedAt), {
      ...base,
      creationDate: resolvePostDate(input.creationDate, new Date(current.creationDate), now),
    });
    return input.id;
  });
}

export async function deletePost(db: Db, caller: Utilisateur, id: number): Promise<void> {
  requireAdmin(caller);
  await db.transaction(async (trx) => {
    if (!(await repo.findPost(trx, id))) throw notFound();
    await repo.deletePost(trx, id);
  });
}
