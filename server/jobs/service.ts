import type { Db } from "../db/knex";
import { parseJson } from "../db/dialect";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { findTacheOfUser, listTachesEnCoursOfUser } from "./repo";
import type { EtatTache } from "./runner";

export { definirTache, lancerTache, type ContexteTache, type EtatTache } from "./runner";

/** A job as its owner's screen sees it (GET /home/taches/:id, the progress bar). */
export type TacheVue = {
  id: number;
  type: string;
  etat: EtatTache;
  progression: number;
  total: number;
  /** The error key of a failed job (translated by the screen). */
  erreur: string | null;
  resultat: unknown;
};

function vue(r: Record<string, unknown>): TacheVue {
  return {
    id: Number(r.id),
    type: String(r.type),
    etat: r.etat as EtatTache,
    progression: Number(r.progression ?? 0),
    total: Number(r.total ?? 0),
    erreur: (r.erreur as string | null) ?? null,
    resultat: parseJson(r.resultat, null),
  };
}

/** One job of the user (404 for a job that is not his, as for one that does not exist). */
export async function lireTache(db: Db, user: Utilisateur, id: number): Promise<TacheVue> {
  const r = await findTacheOfUser(db, user.id, id);
  if (!r) throw new ServiceError("errors.not-found", 404);
  return vue(r);
}

/** The user's waiting and running jobs of these types, oldest first: a reloaded screen shows their progress bars again. */
export async function listerTachesEnCours(db: Db, user: Utilisateur, types: readonly string[]): Promise<TacheVue[]> {
  const rows = await listTachesEnCoursOfUser(db, user.id, types);
  return rows.map(vue);
}
