import { useEffect, useEffectEvent, useRef } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";

type Etat = { id: number; statut: "en_cours" | "termine" | "erreur"; fait: number; total: number; reussies: number };

/**
 * The progress of a running series (issue 14): polls its state every half second until it ends, then calls
 * `onTerminee`. It reads the series row, so a reload of the screen shows it again where it was.
 */
export function ProgressionSerie({
  idSerie,
  libelle,
  onTerminee,
}: {
  idSerie: number;
  libelle: { exploitation: string; campagne: string };
  onTerminee: () => void;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<Etat>();
  const fini = useRef(false);
  const etat = fetcher.data;
  const terminer = useEffectEvent(onTerminee);
  const demanderEtat = useEffectEvent(() => fetcher.load(`/home/resultats/calcul/${idSerie}/etat`));
  // Polls on each answer, until the series is no longer running.
  useEffect(() => {
    if (etat && etat.statut !== "en_cours") {
      if (!fini.current) {
        fini.current = true;
        terminer();
      }
      return;
    }
    const timer = setTimeout(() => void demanderEtat(), etat ? 500 : 0);
    return () => clearTimeout(timer);
  }, [etat, idSerie]);
  const fait = etat?.fait ?? 0;
  const total = etat?.total ?? 0;
  const texte = t("calcul-serie.progression", { ...libelle, count: fait, total });
  return (
    <div className="min-w-40" data-testid={`progression-${idSerie}`}>
      <div
        role="progressbar"
        aria-label={texte}
        aria-valuemin={0}
        aria-valuemax={total || 1}
        aria-valuenow={fait}
        className="h-2 w-full overflow-hidden rounded bg-stone-200"
      >
        <div className="h-2 bg-sillon-600 transition-all" style={{ width: `${total ? Math.round((100 * fait) / total) : 0}%` }} />
      </div>
      <span className="text-xs text-stone-700">{t("calcul-serie.parcelles", { reussies: fait, total })}</span>
    </div>
  );
}
