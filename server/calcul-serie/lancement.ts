import { pireControle, suiteControle, type ControleSerie } from "~/domain/calc/serie";
import type { InstantaneCampagne } from "~/domain/calc/indicateurs/types";
import { ensure } from "../access/abilities";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import { definirTache, lancerTache, type ContexteTache } from "../jobs/runner";
import { lireTache, type TacheVue } from "../jobs/service";
import { findUtilisateurById, toPublic, type Utilisateur } from "../utilisateur/repo";
import { CALCUL_ERROR, controlerAvecInstantane, creerSerieAuditee, droitsCampagne, executerSerie, type DroitsSerie } from "./service";

/**
 * The launch of a calculation as one job (issue 30, decision 0102): no request does a calculation's work. The
 * screen's launch request checks the rights and records the job, and answers at once with its id; the job
 *
 *   1. runs the pre-check of each campaign (the first part of its progress bar): when the worst result is an error,
 *      or a warning the user has not confirmed yet, it ends there with the checks (`lance: false`) and the screen
 *      lists their problems (errors first, each once; its confirm button launches again with `confirme`);
 *   2. otherwise creates a series per campaign (named by the job: `calcul_serie.id_tache`) and runs them one after
 *      the other (the second part of the bar; each series' own bar follows its row), the last campaign checked on
 *      the snapshot its check read.
 */
export const TACHE_LANCEMENT = "calcul-lancement";

export type ParametresLancement = { idCampagnes: number[]; confirme: boolean };
export type ControleLance = { idCampagne: number; controle: ControleSerie };
export type ResultatLancement = { controles: ControleLance[]; lance: boolean; series: { id: number; idCampagne: number }[] };

/** The launch request (the calculation screen's `lancer` intent): write right on every campaign (C-RIGHTS-13), then the job. */
export async function lancerCalcul(db: Db, user: Utilisateur, idCampagnes: number[], options: { confirme?: boolean } = {}): Promise<{ idTache: number }> {
  return failingWith(CALCUL_ERROR, async () => {
    const ids = [...new Set(idCampagnes)];
    if (!ids.length) throw new ServiceError("calcul-serie.lancer-aide", 400);
    for (const id of ids) ensure((await droitsCampagne(db, user, id)).calculer);
    const parametres: ParametresLancement = { idCampagnes: ids, confirme: options.confirme === true };
    const { id } = await lancerTache(db, { type: TACHE_LANCEMENT, idUtilisateur: user.id, parametres });
    return { idTache: id };
  });
}

export type EtatLancement = { tache: TacheVue; series: { id: number; idCampagne: number }[] };

/** What the launch dialog polls: the job (its bar, its checks once ended) and the series it created so far. */
export async function etatLancement(db: Db, user: Utilisateur, idTache: number): Promise<EtatLancement> {
  const tache = await lireTache(db, user, idTache);
  if (tache.type !== TACHE_LANCEMENT) throw new ServiceError("errors.not-found", 404);
  const rows = await db("calcul_serie").where({ idTache }).orderBy("id").select("id", "idCampagne");
  return { tache, series: rows.map((r) => ({ id: Number(r.id), idCampagne: Number(r.idCampagne) })) };
}

/** The job's body (registered below; the service test and the bench call it through the runner). */
export async function executerLancement(db: Db, t: ContexteTache<ParametresLancement>["tache"], progression: ContexteTache<unknown>["progression"]) {
  const row = await findUtilisateurById(db, t.idUtilisateur);
  if (!row) throw new ServiceError("errors.forbidden", 403);
  const user = toPublic(row);
  const idCampagnes = t.parametres.idCampagnes;
  // The rights again: they may have changed since the request.
  const droits = new Map<number, DroitsSerie>();
  for (const id of idCampagnes) {
    const d = await droitsCampagne(db, user, id);
    ensure(d.calculer);
    droits.set(id, d);
  }
  const comptes = new Map<number, number>(idCampagnes.map((id) => [id, 0]));
  const lignes: { idCampagne: number; n: number | string }[] = await db("parcelle")
    .whereIn("idCampagne", idCampagnes)
    .groupBy("idCampagne")
    .select("idCampagne", db.raw("count(*) as n"));
  for (const r of lignes) comptes.set(Number(r.idCampagne), Number(r.n));
  // The bar: each campaign's plots once for the check, once for the run (a campaign without plots counts one).
  const poids = (id: number) => Math.max(1, comptes.get(id) ?? 0);
  const moitie = idCampagnes.reduce((s, id) => s + poids(id), 0);
  const total = 2 * moitie;
  let fait = 0;
  await progression(0, total);
  const controles: ControleLance[] = [];
  let garde: { idCampagne: number; instantane: InstantaneCampagne } | undefined;
  for (const idCampagne of idCampagnes) {
    const { controle, instantane } = await controlerAvecInstantane(db, idCampagne);
    controles.push({ idCampagne, controle });
    // One snapshot kept, not fifty: the last campaign checked is the last run.
    garde = { idCampagne, instantane };
    fait += poids(idCampagne);
    await progression(fait, total);
  }
  const suite = suiteControle(pireControle(controles.map((c) => c.controle.codeRetour)));
  if (suite === "bloquer" || (suite === "confirmer" && !t.parametres.confirme)) {
    await progression(total, total);
    return { controles, lance: false, series: [] } satisfies ResultatLancement;
  }
  const series: ResultatLancement["series"] = [];
  for (const idCampagne of idCampagnes) series.push({ id: await creerSerieAuditee(db, user, droits.get(idCampagne)!, idCampagne, t.id), idCampagne });
  // The series run last to first would keep the snapshot useful; in order is what the user ticked: the last reuses it.
  for (const s of series) {
    const base = fait;
    const instantane = garde?.idCampagne === s.idCampagne ? garde.instantane : undefined;
    if (instantane) garde = undefined;
    await executerSerie(db, s.id, (f, n) => progression(base + (n ? (f * poids(s.idCampagne)) / n : 0), total), undefined, { instantane });
    fait = base + poids(s.idCampagne);
  }
  await progression(total, total);
  return { controles, lance: true, series } satisfies ResultatLancement;
}

definirTache<ParametresLancement>(TACHE_LANCEMENT, ({ db, tache, progression }) => executerLancement(db, tache, progression));
