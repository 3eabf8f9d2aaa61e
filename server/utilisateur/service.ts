import { canListGroupMembers, ensure } from "../access/abilities";
import type { Db } from "../db/knex";
import { listGroupes, listVisibleUsersOfGroupe } from "../dossier/repo";
import { ServiceError } from "../errors";
import { hashPassword } from "../auth/password";
import type { ProfileInput } from "~/domain/utilisateur";
import { editProfile, updateUtilisateur, type Utilisateur } from "./repo";

/** Accepts the terms and records the visibility choice (spec 1 §4, PATCH utilisateurs acceptcgu, isVisible). */
export async function acceptCgu(db: Db, user: Utilisateur, isVisible: boolean): Promise<void> {
  await updateUtilisateur(db, user.id, { acceptcgu: true, isVisible });
}

/** Saves the profile (PATCH utilisateurs nom, prenom, password, isVisible); a stale form is refused. */
export async function updateProfile(db: Db, user: Utilisateur, input: ProfileInput): Promise<void> {
  await db.transaction(async (trx) => {
    await editProfile(
      trx,
      { id: user.id, updatedAt: input.updatedAt },
      {
        nom: input.nom,
        prenom: input.prenom,
        isVisible: input.isVisible === "on",
        ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
      },
    );
  });
}

/**
 * The members of a user group who accepted visibility, to grant them a right on a folder (spec 1 §7). Refused
 * (403) unless the user accepted visibility himself and may grant rights: animation on a folder, or admin
 * (decision 0019, issue 10 defect 8).
 */
export async function listGroupMembers(db: Db, user: Utilisateur, idGroupe: number): Promise<{ id: number; nom: string; prenom: string }[]> {
  ensure(user.isVisible && (await canListGroupMembers(db, user)));
  return listVisibleUsersOfGroupe(db, idGroupe);
}

/** GET utilisateurs/{id} and utilisateur_connectes/{id}: a user reads himself only (403 for anyone else). */
export function ownUser(user: Utilisateur, id: number): Utilisateur {
  ensure(id === user.id);
  return user;
}

/** The connected user (GET utilisateur_connectes/{id}); another id fails with the connected-user error of spec 1 §8 (A-ERR-14). */
export function connectedUser(user: Utilisateur, id: number): Utilisateur {
  if (id !== user.id) throw new ServiceError("errors.services.utilisateur_connectes-service-error", 403);
  return user;
}

/** The user groups (GET reference_groupes_utilisateurs), to share a folder with their members: as listGroupMembers, refused (403) unless the user may grant rights. */
export async function listGroupesUtilisateurs(db: Db, user: Utilisateur): Promise<{ idGroupe: number; nomGroupe: string }[]> {
  ensure(user.isVisible && (await canListGroupMembers(db, user)));
  return listGroupes(db);
}

export async function getGroupeUtilisateurs(db: Db, user: Utilisateur, idGroupe: number): Promise<{ idGroupe: number; nomGroupe: string }> {
  const groupe = (await listGroupesUtilisateurs(db, user)).find((g) => g.idGroupe === idGroupe);
  if (!groupe) throw new ServiceError("errors.services.reference_groupes_utilisateurs-service-error", 404);
  return groupe;
}
