import cluster from "node:cluster";
import os from "node:os";
import PQueue from "p-queue";
import type { Knex } from "knex";
import type { Db } from "../db/knex";
import { isPostgres } from "../db/knex";
import { parseJson } from "../db/dialect";
import { isServiceError } from "../errors";
import { limiterProgression } from "./progression";
import { returnedId } from "../db/insert-id";

/**
 * The job runner (issue 14, decision 0051). A job is a row of `tache` (migrations/20261128_0017_taches.ts):
 *
 *   // a kind of job, registered once at module level (its module must be imported by the server: a route's service)
 *   definirTache<{ idSession: number }>("export-brut", async ({ db, tache, progression }) => {
 *     await progression(0, total);             // rows done of rows counted: shown by <BarreProgression>
 *     ...                                      // throw new ServiceError("key") → etat 'echec', erreur 'key'
 *     return { fichier };                      // stored as the job's resultat (JSON)
 *   });
 *   // from a service (an intent of a screen's action), answering at once with the job's id:
 *   const { id } = await lancerTache(db, { type: "export-brut", idUtilisateur: user.id, parametres: { idSession } });
 *
 * The runner (`Executeur`) is started once per container by server/start.js (the primary process); it claims
 * waiting jobs one at a time (atomically: two runners never run the same job), runs at most TACHES_CONCURRENCE of
 * them at once in a p-queue, writes a heartbeat while each runs, and looks for jobs created by other processes or
 * containers every few seconds. A job whose runner died stays 'en_cours' with an old heartbeat: any runner marks
 * it 'echec' (erreur 'taches.interrompue'), at start-up and at each poll, and in the same transaction runs the
 * `siInterrompue` of its type just after, so that what the job was writing is failed with it (an export's session, decision 0091).
 */

export type EtatTache = "en_attente" | "en_cours" | "terminee" | "echec";

export type ContexteTache<P> = {
  db: Db;
  tache: { id: number; idUtilisateur: number; parametres: P };
  /** Reports progress (also a heartbeat): the runner writes it at most every 250 ms, and the last report. */
  progression: (fait: number, total: number) => Promise<void>;
};

type Handler = (ctx: ContexteTache<unknown>) => Promise<unknown>;

/** What a kind of job leaves behind when its runner died mid-run: `idsTache` are its jobs just marked 'echec'. */
export type SiInterrompue = (db: Db, idsTache: number[]) => Promise<void>;

const registre = new Map<string, Handler>();
const interruptions = new Map<string, SiInterrompue>();

/**
 * Registers a kind of job: `handler` runs each job of this type (module-level registry); `siInterrompue` fails what
 * a job of this type was writing when its runner died (its handler never got to say so).
 */
export function definirTache<P>(type: string, handler: (ctx: ContexteTache<P>) => Promise<unknown>, options: { siInterrompue?: SiInterrompue } = {}): void {
  registre.set(type, handler as Handler);
  if (options.siInterrompue) interruptions.set(type, options.siInterrompue);
  else interruptions.delete(type);
}

/** The error key a job that ended on an interrupted runner (killed container or process) gets. */
export const TACHE_INTERROMPUE = "taches.interrompue";
/** The error key of a handler's failure that is not a ServiceError. */
export const ERREUR_INATTENDUE = "errors.unexpected";

const REVEIL = "sillon.taches.reveil";

/** Records a job 'en_attente' and wakes the runner (in this process, or the primary of this container). */
export async function lancerTache<P>(db: Db, t: { type: string; idUtilisateur: number; parametres: P }): Promise<{ id: number }> {
  const [r] = await db("tache")
    .insert({ type: t.type, etat: "en_attente", idUtilisateur: t.idUtilisateur, parametres: JSON.stringify(t.parametres ?? null) })
    .returning("id");
  const id = returnedId(r);
  // After the caller's transaction commits, if it runs in one; the poll finds the job otherwise.
  setImmediate(reveillerExecuteur);
  return { id };
}

let actif: Executeur | undefined;

function reveillerExecuteur(): void {
  if (actif) actif.reveiller();
  else if (cluster.isWorker && process.send) process.send({ type: REVEIL });
}

/** The runner's name in `tache.instance`: this host and process. */
export function nomInstance(): string {
  return `${os.hostname()}:${process.pid}`;
}

function vivant(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type OptionsExecuteur = {
  /** Jobs run at once (TACHES_CONCURRENCE). */
  concurrence: number;
  /** Default nomInstance(). */
  instance?: string;
  /** Poll for jobs of other processes, and for runners that died: default 2 s. */
  intervalleMs?: number;
  /** Heartbeat of a running job: default 5 s. */
  battementMs?: number;
  /** A running job whose heartbeat is older than this lost its runner: default 60 s. */
  seuilMs?: number;
};

type LigneTache = { id: number; type: string; idUtilisateur: number; parametres: string | null };

export class Executeur {
  private readonly queue: PQueue;
  private readonly instance: string;
  private readonly intervalleMs: number;
  private readonly battementMs: number;
  private readonly seuilMs: number;
  private timer: NodeJS.Timeout | undefined;
  private arrete = false;
  private occupes = 0;
  private remplissage: Promise<void> | undefined;
  private encore = false;
  private readonly surMessage = (_w: unknown, msg: unknown) => {
    if ((msg as { type?: string } | null)?.type === REVEIL) this.reveiller();
  };

  constructor(
    private readonly db: Db,
    private readonly options: OptionsExecuteur,
  ) {
    this.queue = new PQueue({ concurrency: options.concurrence });
    this.instance = options.instance ?? nomInstance();
    this.intervalleMs = options.intervalleMs ?? 2000;
    this.battementMs = options.battementMs ?? 5000;
    this.seuilMs = options.seuilMs ?? 60_000;
  }

  /** Marks the jobs of dead runners 'echec', then runs waiting jobs and polls. */
  async demarrer(): Promise<void> {
    await this.recupererInterrompues(true);
    // The process keeps one active runner, the one its wake-up messages reach.
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a module-level registration, not an alias
    actif ??= this;
    if (cluster.isPrimary) cluster.on("message", this.surMessage);
    this.timer = setInterval(() => void this.tour(), this.intervalleMs);
    this.timer.unref();
    this.reveiller();
  }

  /** Stops claiming, and waits for the running jobs to end. */
  async arreter(): Promise<void> {
    this.arrete = true;
    if (this.timer) clearInterval(this.timer);
    if (cluster.isPrimary) cluster.off("message", this.surMessage);
    if (actif === this) actif = undefined;
    await this.remplissage;
    await this.queue.onIdle();
  }

  /** Claims waiting jobs while a slot is free (one claim at a time in this runner). */
  reveiller(): void {
    if (this.arrete) return;
    if (this.remplissage) {
      this.encore = true;
      return;
    }
    this.remplissage = this.remplir()
      .catch((e) => console.error("[taches] claim failed", e))
      .finally(() => {
        this.remplissage = undefined;
        if (this.encore) {
          this.encore = false;
          this.reveiller();
        }
      });
  }

  private async tour(): Promise<void> {
    try {
      await this.recupererInterrompues(false);
    } catch (e) {
      console.error("[taches] recovery failed", e);
    }
    this.reveiller();
  }

  private async remplir(): Promise<void> {
    while (!this.arrete && this.occupes < this.options.concurrence) {
      const tache = await this.reclamer();
      if (!tache) return;
      this.occupes++;
      void this.queue.add(() => this.executer(tache));
    }
  }

  /** The oldest waiting job of a registered type, now 'en_cours' for this runner; or undefined. */
  async reclamer(): Promise<LigneTache | undefined> {
    const types = [...registre.keys()];
    if (!types.length) return undefined;
    const suivante = this.db("tache").select("id").where("etat", "en_attente").whereIn("type", types).orderBy("id").limit(1);
    // PostgreSQL: several runners claim at once; a locked row is skipped, not waited for. SQLite: one statement
    // of the single writer is atomic.
    if (isPostgres(this.db)) suivante.forUpdate().skipLocked();
    const rows: LigneTache[] = await this.db("tache")
      .where("id", suivante)
      .andWhere("etat", "en_attente")
      .update({ etat: "en_cours", instance: this.instance, dtDebut: this.db.fn.now(), dtBattement: this.db.fn.now() })
      .returning(["id", "type", "idUtilisateur", "parametres"]);
    return rows[0];
  }

  private async executer(t: LigneTache): Promise<void> {
    const mienne = () => this.db("tache").where({ id: t.id, etat: "en_cours", instance: this.instance });
    const battement = setInterval(() => {
      mienne()
        .update({ dtBattement: this.db.fn.now() })
        .catch((e) => console.error(`[taches] heartbeat of job ${t.id} failed`, e));
    }, this.battementMs);
    battement.unref();
    try {
      const handler = registre.get(t.type);
      if (!handler) throw new Error(`no handler for job type ${t.type}`);
      // Written at most every 250 ms, and the last report (./progression.ts; issue 30): not a row per plot.
      const progression = limiterProgression(async (fait, total) => {
        await mienne().update({ progression: Math.max(0, Math.round(fait)), total: Math.max(0, Math.round(total)), dtBattement: this.db.fn.now() });
      });
      const resultat = await handler({
        db: this.db,
        tache: { id: t.id, idUtilisateur: t.idUtilisateur, parametres: parseJson(t.parametres, null) },
        progression: progression.signaler,
      });
      await progression.vider();
      await mienne().update({ etat: "terminee", resultat: JSON.stringify(resultat ?? null), dtFin: this.db.fn.now(), dtBattement: this.db.fn.now() });
    } catch (e) {
      const erreur = isServiceError(e) ? e.key : ERREUR_INATTENDUE;
      if (!isServiceError(e)) console.warn(`[taches] job ${t.id} (${t.type}) failed`, e);
      await mienne()
        .update({ etat: "echec", erreur, dtFin: this.db.fn.now() })
        .catch((err) => console.error(`[taches] could not record the failure of job ${t.id}`, err));
    } finally {
      clearInterval(battement);
      this.occupes--;
      this.reveiller();
    }
  }

  /**
   * Marks 'echec' (taches.interrompue) the running jobs whose runner is gone: a heartbeat older than the threshold
   * (any runner, on any container); at start-up also those of this host's runners whose process is dead or is this
   * one (this container's previous life: the same host name and pid after a restart).
   */
  async recupererInterrompues(demarrage: boolean): Promise<number> {
    const seuil = isPostgres(this.db)
      ? this.db.raw("now() - (? * interval '1 millisecond')", [this.seuilMs])
      : this.db.raw("datetime('now', ?)", [`-${Math.ceil(this.seuilMs / 1000)} seconds`]);
    const fin = { etat: "echec", erreur: TACHE_INTERROMPUE, dtFin: this.db.fn.now() };
    // The jobs failed, then what they were writing. Not one transaction: on SQLite, two runners' pools on one file
    // would wait on each other's BEGIN; each hook only fails what is still "in progress", and the sessions' lists
    // read a session of a failed job as failed meanwhile.
    const echouer = async (choisir: (q: Knex.QueryBuilder) => Knex.QueryBuilder) => {
      const rows: { id: number; type: string }[] = await choisir(this.db("tache").where("etat", "en_cours")).update(fin).returning(["id", "type"]);
      const parType = new Map<string, number[]>();
      for (const r of rows) parType.set(r.type, [...(parType.get(r.type) ?? []), Number(r.id)]);
      for (const [type, ids] of parType) {
        await interruptions
          .get(type)?.(this.db, ids)
          .catch((e: unknown) => console.error(`[taches] failing what jobs ${ids.join(", ")} wrote failed`, e));
      }
      return rows.length;
    };
    let n = await echouer((q) => q.andWhere("dtBattement", "<", seuil));
    if (demarrage) {
      const hote = `${this.instance.split(":")[0]}:`;
      const rows: { id: number; instance: string }[] = await this.db("tache")
        .where("etat", "en_cours")
        .andWhere("instance", "like", `${hote}%`)
        .select("id", "instance");
      const mortes = rows
        .filter((r) => {
          const pid = Number(r.instance.slice(hote.length));
          return r.instance === this.instance || !Number.isInteger(pid) || pid === process.pid || !vivant(pid);
        })
        .map((r) => r.id);
      if (mortes.length) n += await echouer((q) => q.whereIn("id", mortes));
    }
    return n;
  }
}

/** Starts this process's runner (server/start.js, once per container). */
export async function demarrerExecuteur(db: Db, options: OptionsExecuteur): Promise<Executeur> {
  const e = new Executeur(db, options);
  await e.demarrer();
  return e;
}
