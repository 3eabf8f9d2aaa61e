import { ROLE_TEST } from "~/domain/admin";
import { bool, parseJson, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { insertId } from "../db/insert-id";

/** The refusal of an edit whose row is gone. */
const NOT_FOUND = "admin.not-found";

/** Queries of the administration screens (users, groups, networks, news posts). No rights checks here. */

const isoOrNull = (v: unknown) => (v == null ? null : toIso(v));

// --- users --------------------------------------------------------------------------------------

export type AdminUserRow = {
  id: number;
  username: string;
  nom: string;
  prenom: string;
  email: string | null;
  admin: boolean;
  roles: string[];
  roleTest: boolean;
  actif: boolean;
  acceptcgu: boolean;
  isVisible: boolean;
  lastLoginAt: string | null;
  updatedAt: string;
  groupes: number[];
};

async function membershipsByUser(db: Db, idUsers?: number[]): Promise<Map<number, number[]>> {
  const q = db("utilisateur_groupe").select("idUser", "idGroupe").orderBy("idGroupe");
  if (idUsers) q.whereIn("idUser", idUsers);
  const out = new Map<number, number[]>();
  for (const r of await q) out.set(r.idUser, [...(out.get(r.idUser) ?? []), r.idGroupe]);
  return out;
}

function toAdminUser(r: Record<string, unknown>, groupes: number[]): AdminUserRow {
  const roles = parseJson<string[]>(r.roles, []);
  return {
    id: r.id as number,
    username: r.username as string,
    nom: r.nom as string,
    prenom: r.prenom as string,
    email: (r.email as string | null) ?? null,
    admin: bool(r.admin),
    roles,
    roleTest: roles.includes(ROLE_TEST),
    actif: bool(r.actif),
    acceptcgu: bool(r.acceptcgu),
    isVisible: bool(r.isVisible),
    lastLoginAt: isoOrNull(r.lastLoginAt),
    updatedAt: toIso(r.updatedAt),
    groupes,
  };
}

const USER_COLUMNS = ["id", "username", "nom", "prenom", "email", "admin", "roles", "actif", "acceptcgu", "isVisible", "lastLoginAt", "updatedAt"];

export async function listAdminUsers(db: Db): Promise<AdminUserRow[]> {
  const rows = await db("utilisateur")
    .select(USER_COLUMNS)
    .orderBy([{ column: "nom" }, { column: "prenom" }, { column: "id" }]);
  const groups = await membershipsByUser(db);
  return rows.map((r) => toAdminUser(r, groups.get(r.id) ?? []));
}

export async function findAdminUser(db: Db, id: number): Promise<AdminUserRow | undefined> {
  const r = await db("utilisateur").where({ id }).first(USER_COLUMNS);
  return r ? toAdminUser(r, (await membershipsByUser(db, [id])).get(id) ?? []) : undefined;
}

/** Another user with this username, compared without case (as sign-in does). */
export async function usernameTaken(db: Db, username: string, exceptId?: number): Promise<boolean> {
  const q = db("utilisateur").whereRaw("lower(username) = lower(?)", [username]);
  if (exceptId) q.whereNot({ id: exceptId });
  return !!(await q.first("id"));
}

export type UserWrite = { username: string; nom: string; prenom: string; email: string | null; admin: boolean; roles: string[] };

export function insertUser(db: Db, u: UserWrite & { passwordHash: string }): Promise<number> {
  return insertId(db, "utilisateur", { ...u, roles: JSON.stringify(u.roles), acceptcgu: false, isVisible: false, actif: true });
}

export async function updateUser(db: Db, id: number, patch: Partial<UserWrite & { passwordHash: string; actif: boolean }>): Promise<void> {
  const { roles, ...rest } = patch;
  await db("utilisateur")
    .where({ id })
    .update({ ...rest, ...(roles ? { roles: JSON.stringify(roles) } : {}), updatedAt: new Date() });
}

/** Writes the admin's user form unless the user changed since it was loaded (server/db/stale.ts). */
export async function editUser(db: Db, token: Token, u: UserWrite): Promise<void> {
  await updateIfUnchanged(db, "utilisateur", token, { ...u, roles: JSON.stringify(u.roles) }, { notFound: NOT_FOUND });
}

/** Signs a user out everywhere: their browser sessions and API tokens are deleted. */
export async function endUserSessions(db: Db, idUser: number): Promise<void> {
  await db("api_token").where({ idUser }).delete();
  await db("session").where({ idUser }).delete();
}

export async function setUserGroupes(db: Db, idUser: number, idGroupes: number[]): Promise<void> {
  await db("utilisateur_groupe")
    .where({ idUser })
    .whereNotIn("idGroupe", idGroupes.length ? idGroupes : [0])
    .delete();
  const existing = new Set((await db("utilisateur_groupe").where({ idUser }).select("idGroupe")).map((r) => r.idGroupe as number));
  const added = idGroupes.filter((g) => !existing.has(g));
  if (added.length) await db("utilisateur_groupe").insert(added.map((idGroupe) => ({ idUser, idGroupe })));
}

// --- groups -------------------------------------------------------------------------------------

export type GroupeRow = { id: number; nomGroupe: string; updatedAt: string; membres: number[] };

async function membersByGroupe(db: Db, idGroupes?: number[]): Promise<Map<number, number[]>> {
  const q = db("utilisateur_groupe").select("idUser", "idGroupe").orderBy("idUser");
  if (idGroupes) q.whereIn("idGroupe", idGroupes);
  const out = new Map<number, number[]>();
  for (const r of await q) out.set(r.idGroupe, [...(out.get(r.idGroupe) ?? []), r.idUser]);
  return out;
}

export async function listGroupes(db: Db): Promise<GroupeRow[]> {
  const rows = await db("groupe_utilisateur")
    .select("id", "nomGroupe", "updatedAt")
    .orderBy([{ column: "nomGroupe" }, { column: "id" }]);
  const members = await membersByGroupe(db);
  return rows.map((r) => ({ id: r.id, nomGroupe: r.nomGroupe, updatedAt: toIso(r.updatedAt), membres: members.get(r.id) ?? [] }));
}

export async function findGroupe(db: Db, id: number): Promise<GroupeRow | undefined> {
  const r = await db("groupe_utilisateur").where({ id }).first("id", "nomGroupe", "updatedAt");
  return r ? { id: r.id, nomGroupe: r.nomGroupe, updatedAt: toIso(r.updatedAt), membres: (await membersByGroupe(db, [id])).get(id) ?? [] } : undefined;
}

export async function groupeNameTaken(db: Db, nomGroupe: string, exceptId?: number): Promise<boolean> {
  const q = db("groupe_utilisateur").whereRaw("lower(nom_groupe) = lower(?)", [nomGroupe]);
  if (exceptId) q.whereNot({ id: exceptId });
  return !!(await q.first("id"));
}

export function insertGroupe(db: Db, nomGroupe: string): Promise<number> {
  return insertId(db, "groupe_utilisateur", { nomGroupe });
}

export async function updateGroupe(db: Db, token: Token, nomGroupe: string): Promise<void> {
  await updateIfUnchanged(db, "groupe_utilisateur", token, { nomGroupe }, { notFound: NOT_FOUND });
}

export async function setGroupeMembres(db: Db, idGroupe: number, idUsers: number[]): Promise<void> {
  await db("utilisateur_groupe")
    .where({ idGroupe })
    .whereNotIn("idUser", idUsers.length ? idUsers : [0])
    .delete();
  const existing = new Set((await db("utilisateur_groupe").where({ idGroupe }).select("idUser")).map((r) => r.idUser as number));
  const added = idUsers.filter((u) => !existing.has(u));
  if (added.length) await db("utilisateur_groupe").insert(added.map((idUser) => ({ idUser, idGroupe })));
}

export async function deleteGroupe(db: Db, id: number): Promise<void> {
  await db("utilisateur_groupe").where({ idGroupe: id }).delete();
  await db("groupe_utilisateur").where({ id }).delete();
}

/** The ids among these that are existing users (or groups), to refuse unknown ids. */
export async function existingIds(db: Db, table: "utilisateur" | "groupe_utilisateur", ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db(table).whereIn("id", ids).select("id")).map((r) => r.id as number);
}

// --- networks -----------------------------------------------------------------------------------

export type OadRow = {
  id: number;
  libelle: string;
  libelleLong: string | null;
  international: boolean;
  emailAcces: string | null;
  updatedAt: string;
  dossiers: number;
};

export async function listOads(db: Db): Promise<OadRow[]> {
  const rows: Record<string, unknown>[] = await db("oad as o")
    .leftJoin("dossier as d", "d.idOad", "o.id")
    .groupBy("o.id", "o.libelle", "o.libelleLong", "o.international", "o.emailAcces", "o.updatedAt")
    .select("o.id", "o.libelle", "o.libelleLong", "o.international", "o.emailAcces", "o.updatedAt")
    .count({ dossiers: "d.id" })
    .orderBy([{ column: "o.libelle" }, { column: "o.id" }]);
  return rows.map((r) => ({
    id: r.id as number,
    libelle: r.libelle as string,
    libelleLong: (r.libelleLong as string | null) ?? null,
    international: bool(r.international),
    emailAcces: (r.emailAcces as string | null) ?? null,
    updatedAt: toIso(r.updatedAt),
    dossiers: Number(r.dossiers),
  }));
}

export async function findOad(db: Db, id: number): Promise<OadRow | undefined> {
  return (await listOads(db)).find((o) => o.id === id);
}

export type OadWrite = { libelle: string; libelleLong: string | null; international: boolean; emailAcces: string | null };

export function insertOad(db: Db, o: OadWrite): Promise<number> {
  return insertId(db, "oad", o);
}

export async function updateOad(db: Db, token: Token, o: OadWrite): Promise<void> {
  await updateIfUnchanged(db, "oad", token, o, { notFound: NOT_FOUND });
}

export async function deleteOad(db: Db, id: number): Promise<void> {
  await db("oad").where({ id }).delete();
}

// --- news posts ---------------------------------------------------------------------------------

export type AdminPostRow = { id: number; title: string; content: string; postCategory: string; creationDate: string; updatedAt: string };

const POST_COLUMNS = ["id", "title", "content", "postCategory", "creationDate", "updatedAt"];
const toPost = (r: Record<string, unknown>): AdminPostRow => ({
  id: r.id as number,
  title: r.title as string,
  content: r.content as string,
  postCategory: r.postCategory as string,
  creationDate: toIso(r.creationDate),
  updatedAt: toIso(r.updatedAt),
});

export async function listAdminPosts(db: Db): Promise<AdminPostRow[]> {
  return (
    await db("post")
      .select(POST_COLUMNS)
      .orderBy([
        { column: "creationDate", order: "desc" },
        { column: "id", order: "desc" },
      ])
  ).map(toPost);
}

export async function findPost(db: Db, id: number): Promise<AdminPostRow | undefined> {
  const r = await db("post").where({ id }).first(POST_COLUMNS);
  return r ? toPost(r) : undefined;
}

export type PostWrite = { title: string; content: string; postCategory: string; creationDate: Date };

export function insertPost(db: Db, p: PostWrite & { idAuteur: number }): Promise<number> {
  return insertId(db, "post", p);
}

export async function updatePost(db: Db, token: Token, p: PostWrite): Promise<void> {
  await updateIfUnchanged(db, "post", token, p, { notFound: NOT_FOUND });
}

export async function deletePost(db: Db, id: number): Promise<void> {
  await db("post").where({ id }).delete();
}
