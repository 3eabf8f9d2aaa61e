import { JetonPersonnelSchema, type JetonPersonnelInput } from "~/domain/jeton-api";
import { issueApiTokenRow } from "../auth/api-token";
import type { Db } from "../db/knex";
import { parse, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { countJetonsPersonnels, deleteJeton, listJetonsPersonnels } from "./repo";

/**
 * Personal access tokens (issue 26, decision 0098): a user makes tokens for his integrations (farm software, a data
 * warehouse, a script), each with a name, read-only or read-write access and an expiry; he sees their last use and
 * revokes them. A token acts as its user: it reaches only what he may reach, and a read-only one writes nothing.
 * Each user only ever sees and revokes his own.
 */
export const JETON_ERRORS = {
  notFound: "jetons-api.errors.not-found",
  tooMany: "jetons-api.errors.too-many",
} as const;

/** Personal tokens a user may hold at once. */
export const JETONS_MAX = 50;

export function getJetonsPersonnels(db: Db, user: Utilisateur) {
  return listJetonsPersonnels(db, user.id);
}

/** A new token: its clear value is answered once and never shown again. */
export async function createJetonPersonnel(db: Db, user: Utilisateur, raw: JetonPersonnelInput | Record<string, unknown>) {
  const input = parse(JetonPersonnelSchema, raw);
  if ((await countJetonsPersonnels(db, user.id)) >= JETONS_MAX) throw new ServiceError(JETON_ERRORS.tooMany, 409, undefined, { max: JETONS_MAX });
  const { token, id, expiresAt } = await issueApiTokenRow(db, user.id, {
    label: input.nom,
    nature: "personnel",
    acces: input.acces,
    days: input.joursValidite,
  });
  return { id, nom: input.nom, acces: input.acces, expiresAt: expiresAt.toISOString(), token };
}

export async function revokeJetonPersonnel(db: Db, user: Utilisateur, id: number): Promise<void> {
  if (!(await deleteJeton(db, user.id, id, "personnel"))) throw new ServiceError(JETON_ERRORS.notFound, 404);
}

/** Sign-out of an API client: the token it calls with is revoked. */
export async function revokeOwnToken(db: Db, user: Utilisateur, idToken: number): Promise<void> {
  await deleteJeton(db, user.id, idToken);
}
