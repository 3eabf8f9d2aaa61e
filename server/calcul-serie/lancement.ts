import { pireControle, suiteControle, type ControleSerie } from "~/domain/calc/serie";
import type { InstantaneCampagne } from "~/domain/calc/indicateurs/types";
import { ensure } from "../access/abilities";
import { parseJson } from "../db/dialect";
import type { Db } from "../db/knex";
import { campaignVersions } from "../db/kept-per-version";
import { failingWith, ServiceError } from "../errors";
import { definirTache, lancerTache, type ContexteTache } from "../jobs/runner";
import { lireTache, type TacheVue } from "../jobs/service";
import { findUtilisateurById, toPublic, type Utilisateur } from "../utilisateur/repo";
import { nombresDeParcelles, seriesDeTache, tacheTerminee, versionReferentiels } from "./repo";
import { CALCUL_ERROR, controlerAvecInstantane, creerSerieAuditee, droitsCampagne, executerSerie, type DroitsSerie } from "./service";

/**
 * The launch of a calculation as one job (issue 30, decision 0102): no request does a calculation's work. The
 * screen's launch request checks the rights and records the job, and answers at once with its id; the job
 *
 *   1. runs the pre-check of each campaign (the first part of its progress bar): when the worst result is an error,
 *      or a warning the user has not confirmed yet, it ends there with the checks (`lance: false`) and the screen
 *      lists their problems (errors first, each once; its confirm button launches again with `confirme` and the
 *      check's job, whose checks are taken as they are when no change counter of the data moved since);
 *   2. otherwise creates a series per campaign (named by the job: `calcul_serie.id_tache`) and runs them one after
 *      the other (the second part of the bar; each series' own bar follows its row), the last campaign checked on
 *      the snapshot its check read.
 */
export const TACHE_LANCEMENT = "calcul-lancement";

export type ParametresLancement = { idCampagnes: number[]; confirme: boolean; controle?: number };
export type ControleLance = { idCampagne: number; controle: ControleSerie };
/** The change counters the check read (per campaign, and the reference lists'): those that make a series out of date. */
export type VersionsControle = { campagnes: Record<string, { interventions: number; donnees: number }>; referentiels: number };
export type ResultatLancement = {
  controles: ControleLance[];
  lance: boolean;
  series: { id: number; idCampagne: number }[];
  versions?: VersionsControle;
  /** The checks were those of the confirmed job `controle`, the data unchanged since. */
  controleRepris?: boolean;
};

/** The launch request (the calculation screen's `lancer` intent): write right on every campaign (C-RIGHTS-13), then the job. */
export async function lancerCalcul(
  db: Db,
  user: Utilisateur,
  idCampagnes: number[],
  options: { confirme?: boolean; controle?: number } = {},
): Promise<{ idTache: number }> {
  return failingWith(CALCUL_ERROR, async () => {
    const ids = [...new Set(idCampagnes)];
    if (!ids.length) throw new ServiceError("calcul-serie.lancer-aide", 400);
    for (const id of ids) ensure((await droitsCampagne(db, user, id)).calculer);
    const parametres: ParametresLancement = {
      idCampagnes: ids,
      confirme: options.confirme === true,
      ...(options.confirme && options.controle ? { controle: options.controle } : {}),
    };
    const { id } = await lancerTache(db, { type: TACHE_LANCEMENT, idUtilisateur: user.id, parametres });
    return { idTache: id };
  });
}

export type EtatLancement = { tache: TacheVue; series: { id: number; idCampagne: number }[] };

/** What the launch dialog polls: the job (its bar, its checks once ended) and the series it created so far. */
export async function etatLancement(db: Db, user: Utilisateur, idTache: number): Promise<EtatLancement> {
  const tache = await lireTache(db, user, idTache);
  if (tache.type !== TACHE_LANCEMENT) throw new ServiceError("errors.not-found", 404);
  return { tache, series: await seriesDeTache(db, idTache) };
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
  const lignes = await nombresDeParcelles(db, idCampagnes);
  for (const r of lignes) comptes.set(Number(r.idCampagne), Number(r.n));
  // The bar: each campaign's plots once for the check, once for the run (a campaign without plots counts one).
  const poids = (id: number) => Math.max(1, comptes.get(id) ?? 0);
  const moitie = idCampagnes.reduce((s, id) => s + poids(id), 0);
  const total = 2 * moitie;
  let fait = 0;
  await progression(0, total);
  let garde: { idCampagne: number; instantane: InstantaneCampagne } | undefined;
  // The counters first: a change made while the check reads is a change the confirmed launch sees.
  const versions = await versionsDe(db, idCampagnes);
  let controles = await controlesRepris(db, t, versions);
  const controleRepris = controles !== null;
  if (controles) {
    fait = moitie;
    await progression(fait, total);
  } else {
    controles = [];
    for (const idCampagne of idCampagnes) {
      const { controle, instantane } = await controlerAvecInstantane(db, idCampagne);
      controles.push({ idCampagne, controle });
      // One snapshot kept, not fifty: the last campaign checked is the last run.
      garde = { idCampagne, instantane };
      fait += poids(idCampagne);
      await progression(fait, total);
    }
  }
  const suite = suiteControle(pireControle(controles.map((c) => c.controle.codeRetour)));
  if (suite === "bloquer" || (suite === "confirmer" && !t.parametres.confirme)) {
    await progression(total, total);
    return { controles, lance: false, series: [], versions } satisfies ResultatLancement;
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
  // The problems were the screen's when it asked for the confirmation: a launched job keeps the verdicts only (the
  // 1,000-plot bench campaign lists 18,680 warnings).
  const verdicts = controles.map((c) => ({ idCampagne: c.idCampagne, controle: { codeRetour: c.controle.codeRetour, details: [] } }));
  return { controles: verdicts, lance: true, series, versions, controleRepris } satisfies ResultatLancement;
}

/** The counters the check's result depends on (server/calcul-serie/perimee.ts: those of a series out of date). */
async function versionsDe(db: Db, idCampagnes: number[]): Promise<VersionsControle> {
  const campagnes: VersionsControle["campagnes"] = {};
  for (const id of idCampagnes) campagnes[id] = await campaignVersions(db, id);
  return { campagnes, referentiels: await versionReferentiels(db) };
}

/**
 * The checks of the job the user confirmed (`controle`), when it is his, checked the same campaigns, stopped on
 * warnings only, and no counter moved since: the data it checked are the data this job runs on (the check is not
 * made twice for one click, decision 0102). Null otherwise: the job checks again.
 */
async function controlesRepris(db: Db, t: ContexteTache<ParametresLancement>["tache"], versions: VersionsControle): Promise<ControleLance[] | null> {
  if (!t.parametres.confirme || !t.parametres.controle) return null;
  const r = await tacheTerminee(db, { id: t.parametres.controle, idUtilisateur: t.idUtilisateur, type: TACHE_LANCEMENT });
  const avant = r ? (parseJson(r.resultat, null) as ResultatLancement | null) : null;
  if (!avant || avant.lance || !avant.versions) return null;
  const memes = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (
    !memes(
      avant.controles.map((c) => c.idCampagne),
      t.parametres.idCampagnes,
    )
  )
    return null;
  if (pireControle(avant.controles.map((c) => c.controle.codeRetour)) !== "Avertissement") return null;
  return JSON.stringify(avant.versions) === JSON.stringify(versions) ? avant.controles : null;
}

definirTache<ParametresLancement>(TACHE_LANCEMENT, ({ db, tache, progression }) => executerLancement(db, tache, progression));
