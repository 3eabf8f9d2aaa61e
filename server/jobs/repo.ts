import type { Db } from "../db/knex";

const COLONNES = ["id", "type", "etat", "progression", "total", "erreur", "resultat"] as const;

/** One job of this user, as stored (undefined for a job of another user or none). */
export async function findTacheOfUser(db: Db, idUtilisateur: number, id: number): Promise<Record<string, unknown> | undefined> {
  return db("tache")
    .where({ id, idUtilisateur })
    .first(...COLONNES);
}

/** The user's waiting and running jobs of these types, oldest first, as stored. */
export async function listTachesEnCoursOfUser(db: Db, idUtilisateur: number, types: readonly string[]): Promise<Record<string, unknown>[]> {
  return db("tache")
    .where({ idUtilisateur })
    .whereIn("etat", ["en_attente", "en_cours"])
    .whereIn("type", [...types])
    .orderBy("id")
    .select(...COLONNES);
}
