import type { Db } from "../db/knex";
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
    await editProfile(trx, { id: user.id, updatedAt: input.updatedAt }, {
      nom: input.nom,
      prenom: input.prenom,
      isVisible: input.isVisible === "on",
      ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
    });
  });
}
