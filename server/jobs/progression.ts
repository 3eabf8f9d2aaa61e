/**
 * The throttle of a job's progress writes (issue 30): a job reports after every plot, the runner writes its row at
 * most every `intervalleMs` (default 250 ms) — the first report, the last one (`fait >= total`) and any report after
 * the interval are written, the others only kept — so a 1,000-plot run writes a handful of rows, not a thousand.
 * The report kept last is written by `vider()` (the runner calls it when the job ends).
 */
export type Ecrire = (fait: number, total: number) => Promise<void>;

export type ProgressionLimitee = {
  /** Reports progress: written now, or kept until the interval is over. */
  signaler: Ecrire;
  /** Writes the report kept and not written yet, if any. */
  vider: () => Promise<void>;
};

export const INTERVALLE_PROGRESSION_MS = 250;

export function limiterProgression(ecrire: Ecrire, options: { intervalleMs?: number; maintenant?: () => number } = {}): ProgressionLimitee {
  const intervalle = options.intervalleMs ?? INTERVALLE_PROGRESSION_MS;
  const maintenant = options.maintenant ?? (() => performance.now());
  let dernier = -Infinity;
  let enAttente: [number, number] | null = null;
  const maintenantEcrire = async (fait: number, total: number) => {
    enAttente = null;
    dernier = maintenant();
    await ecrire(fait, total);
  };
  return {
    signaler: async (fait, total) => {
      if (fait >= total || maintenant() - dernier >= intervalle) return maintenantEcrire(fait, total);
      enAttente = [fait, total];
    },
    vider: async () => {
      if (enAttente) await maintenantEcrire(...enAttente);
    },
  };
}
