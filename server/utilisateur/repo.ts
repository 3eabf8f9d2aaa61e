import type { Db } from "../db/knex";
import { bool, parseJson, toIso } from "../db/dialect";
import { updateIfUnchanged, type Token } from "../db/stale";

export type UtilisateurRow = {
  id: number;
  username: string;
  nom: string;
  prenom: string;
  email: string | null;
  passwordHash: string;
  admin: boolean;
  roles: string[];
  acceptcgu: boolean;
  isVisible: boolean;
  actif: boolean;
  updatedAt: string;
};

/** The user as the app sees it: no password hash. */
export type Utilisateur = Omit<UtilisateurRow, "passwordHash">;

function fromRow(row: Record<string, unknown>): UtilisateurRow {
  return {
    ...(row as unknown as UtilisateurRow),
    admin: bool(row.admin),
    acceptcgu: bool(row.acceptcgu),
    isVisible: bool(row.isVisible),
    actif: bool(row.actif),
    roles: parseJson<string[]>(row.roles, []),
    updatedAt: toIso(row.updatedAt),
  };
}

export function toPublic(row: UtilisateurRow): Utilisateur {
  const { passwordHash: _, ...rest } = row;
  return rest;
}

export async function findUtilisateurByUsername(db: Db, username: string): Promise<UtilisateurRow | undefined> {
  const row = await db("utilisateur").whereRaw("lower(username) = lower(?)", [username]).first();
  return row ? fromRow(row) : undefined;
}

/**
 * A session row with its user, in one query (the frame of every signed-in request, decision 0082): the session's
 * stored data and expiry, and the user its `id_user` names (undefined when there is none).
 */
export async function findSessionWithUser(
  db: Db,
  sessionId: string,
): Promise<{ data: string; expiresAt: unknown; user: UtilisateurRow | undefined } | undefined> {
  const row = await db("session as s")
    .leftJoin("utilisateur as u", "u.id", "s.idUser")
    .where("s.id", sessionId)
    .first("u.*", "s.data as sessionData", "s.expiresAt as sessionExpiresAt", "s.idUser as sessionIdUser");
  if (!row) return undefined;
  const { sessionData, sessionExpiresAt, sessionIdUser, ...user } = row as Record<string, unknown>;
  return { data: String(sessionData), expiresAt: sessionExpiresAt, user: sessionIdUser != null && user.id != null ? fromRow(user) : undefined };
}

export async function findUtilisateurById(db: Db, id: number): Promise<UtilisateurRow | undefined> {
  const row = await db("utilisateur").where({ id }).first();
  return row ? fromRow(row) : undefined;
}

export async function updateUtilisateur(
  db: Db,
  id: number,
  patch: Partial<Pick<UtilisateurRow, "nom" | "prenom" | "passwordHash" | "acceptcgu" | "isVisible" | "actif" | "email">> & { lastLoginAt?: Date },
): Promise<void> {
  await db("utilisateur")
    .where({ id })
    .update({ ...patch, updatedAt: db.fn.now() });
}

/** Writes one's profile form unless the user row changed since it was loaded (server/db/stale.ts). */
export async function editProfile(
  db: Db,
  token: Token,
  patch: Pick<UtilisateurRow, "nom" | "prenom" | "isVisible"> & { passwordHash?: string },
): Promise<void> {
  await updateIfUnchanged(db, "utilisateur", token, patch, { notFound: "errors.services.utilisateur_connectes-service-error" });
}
