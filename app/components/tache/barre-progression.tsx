import { useEffect, useRef } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";

/**
 * The progress of a job (server/tache, issue 14). The job's id comes from the server (the action that started it,
 * or the loader's list of the user's running jobs), so a reloaded page shows the bar again.
 *
 *   const { tache } = useTache(idTache);                 // polls GET /home/taches/:id until 'terminee' or 'echec'
 *   <BarreProgression idTache={id} onTerminee={() => revalidator.revalidate()} onEchec={(t) => showError(t.erreur)} />
 */

export type EtatTache = "en_attente" | "en_cours" | "terminee" | "echec";
/** What GET /home/taches/:id answers (server/jobs/service.ts TacheVue). */
export type TacheEtat = { id: number; type: string; etat: EtatTache; progression: number; total: number; erreur: string | null; resultat: unknown };

const INTERVALLE_MS = 1000;
const finie = (t: TacheEtat | undefined) => t?.etat === "terminee" || t?.etat === "echec";

/** The job's state, polled every second while it waits or runs. */
export function useTache(id: number | null | undefined): { tache: TacheEtat | undefined } {
  const fetcher = useFetcher<TacheEtat>({ key: id ? `tache-${id}` : undefined });
  const data = fetcher.data && typeof fetcher.data === "object" && "etat" in fetcher.data && fetcher.data.id === id ? fetcher.data : undefined;
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  const stop = finie(data);
  useEffect(() => {
    if (!id || stop) return;
    void load.current(`/home/taches/${id}`);
    const timer = setInterval(() => void load.current(`/home/taches/${id}`), INTERVALLE_MS);
    return () => clearInterval(timer);
  }, [id, stop]);
  return { tache: data };
}

/** The percentage shown (0 while nothing is counted yet). */
export function pourcentage(t: Pick<TacheEtat, "progression" | "total" | "etat"> | undefined): number {
  if (!t) return 0;
  if (t.etat === "terminee") return 100;
  if (!t.total) return 0;
  return Math.max(0, Math.min(100, Math.floor((t.progression * 100) / t.total)));
}

export function BarreProgression({
  idTache,
  label,
  onTerminee,
  onEchec,
}: {
  idTache: number;
  /** The accessible name; default "Progression de la tâche". */
  label?: string;
  onTerminee?: (t: TacheEtat) => void;
  onEchec?: (t: TacheEtat) => void;
}) {
  const { t } = useTranslation();
  const { tache } = useTache(idTache);
  const signalee = useRef<number | null>(null);
  const callbacks = useRef({ onTerminee, onEchec });
  callbacks.current = { onTerminee, onEchec };
  useEffect(() => {
    if (!tache || !finie(tache) || signalee.current === tache.id) return;
    signalee.current = tache.id;
    if (tache.etat === "terminee") callbacks.current.onTerminee?.(tache);
    else callbacks.current.onEchec?.(tache);
  }, [tache]);
  const pct = pourcentage(tache);
  const texte =
    !tache || tache.etat === "en_attente"
      ? t("taches.en-attente")
      : tache.etat === "en_cours"
        ? t("taches.en-cours", { pourcent: pct })
        : tache.etat === "terminee"
          ? t("taches.terminee")
          : t("taches.echec");
  return (
    <div className="flex items-center gap-2 text-sm" data-tache={idTache}>
      <div
        role="progressbar"
        aria-label={label ?? t("taches.progression")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={texte}
        className="h-2 w-48 overflow-hidden rounded bg-gray-200"
      >
        <div className={`h-full ${tache?.etat === "echec" ? "bg-red-600" : "bg-green-700"} transition-[width]`} style={{ width: `${pct}%` }} />
      </div>
      <span className="text-gray-700">{texte}</span>
    </div>
  );
}
