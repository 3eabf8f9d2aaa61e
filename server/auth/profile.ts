import type { ProfileInput } from "~/domain/utilisateur";
import type { Db } from "../db/knex";
import { invalidField } from "../errors";
import { updateProfile } from "../utilisateur/service";
import { findUtilisateurById, type Utilisateur } from "../utilisateur/repo";
import { verifyPassword } from "./password";
import { endOtherSessions, endSessionsBesideToken } from "./session";

/**
 * Saves one's profile (spec 1 §5). A new password needs the current one (refused on the field
 * currentPassword otherwise) and ends the user's other sessions and tokens (issue 10, defect 6);
 * the session that made the change stays open.
 */
export async function saveOwnProfile(db: Db, user: Utilisateur, input: ProfileInput, sessionId: string | undefined): Promise<void> {
  if (input.password) {
    const row = await findUtilisateurById(db, user.id);
    const ok = !!row && !!input.currentPassword && (await verifyPassword(input.currentPassword, row.passwordHash));
    if (!ok) throw invalidField("currentPassword", "profile.current-password-wrong");
  }
  await updateProfile(db, user, input);
  if (input.password) await endOtherSessions(user.id, sessionId);
}

/**
 * The profile saved through the API (PATCH utilisateurs/{id}, A-API-10): the same checks as the screen; a new
 * password ends the user's other tokens and his cookie sessions, the calling token stays.
 */
export async function saveOwnProfileApi(db: Db, user: Utilisateur, input: ProfileInput, idToken: number): Promise<void> {
  if (input.password) {
    const row = await findUtilisateurById(db, user.id);
    const ok = !!row && !!input.currentPassword && (await verifyPassword(input.currentPassword, row.passwordHash));
    if (!ok) throw invalidField("currentPassword", "profile.current-password-wrong");
  }
  await updateProfile(db, user, input);
  if (input.password) await endSessionsBesideToken(db, user.id, idToken);
}
