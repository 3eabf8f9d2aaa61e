import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useFetcher, useRevalidator } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { pourcentage, type TacheEtat } from "~/components/tache/barre-progression";
import type { ControleSerie } from "~/domain/calc/serie";
import { ControleDialog, type ControleCampagne } from "./controle-dialog";
import { ProgressionSerie } from "./progression-serie";

export type CampagneACalculer = { idCampagne: number; exploitation: string; campagne: string };
type Reponse = { ok: boolean; error?: string; idTache?: number };
/** What GET resultats/calcul/lancement/:idTache answers (server/calcul-serie/lancement.ts EtatLancement). */
type EtatLancement = {
  tache: TacheEtat & { resultat: { controles: { idCampagne: number; controle: ControleSerie }[]; lance: boolean } | null };
  series: { id: number; idCampagne: number }[];
};

const finie = (t: TacheEtat | undefined) => t?.etat === "terminee" || t?.etat === "echec";

/**
 * The series-calculation dialog (spec 3 §2.11, §4.7; C-CALC-07..10, 25; issue 30): opened with campaigns, it asks for
 * the launch, which answers at once with its job; the job checks first (its bar: "checking the data"), and when
 * something is missing ends with the checks, shown as the pre-check dialog (its confirm launches again, confirmed);
 * otherwise the job creates the series and runs them, and the dialog follows each new series' progress until it ends.
 */
export function SerieCalculDialog({ campagnes, onClose }: { campagnes: CampagneACalculer[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<Reponse>();
  const suivi = useFetcher<EtatLancement>();
  const revalidator = useRevalidator();
  const [idTache, setIdTache] = useState<number | null>(null);
  const [controles, setControles] = useState<ControleCampagne[] | null>(null);
  const [terminees, setTerminees] = useState<number[]>([]);
  const demande = useRef(false);
  useActionFeedback(fetcher.data);
  const ids = JSON.stringify((campagnes ?? []).map((c) => c.idCampagne));

  // `controle`: the job whose checks the user confirmed (the confirmed job takes them when the data did not change).
  const envoyer = (confirme: boolean, controle?: number) => {
    demande.current = true;
    setIdTache(null);
    const confirmation = confirme ? { confirme: "true", ...(controle ? { controle: String(controle) } : {}) } : {};
    void fetcher.submit({ intent: "lancer", campagnes: ids, ...confirmation }, { method: "post", action: "/home/resultats/calcul" });
  };
  // Opening launches: the check is the job's first step (C-CALC-09).
  const ouvrir = useEffectEvent(() => {
    setControles(null);
    setTerminees([]);
    setIdTache(null);
    if (campagnes?.length) envoyer(false);
  });
  useEffect(() => ouvrir(), [campagnes]);
  // The launch's answer: its job.
  const repondre = useEffectEvent(() => {
    const d = fetcher.data;
    if (fetcher.state !== "idle" || !d || !demande.current) return;
    demande.current = false;
    if (!d.ok || !d.idTache) return onClose();
    setIdTache(d.idTache);
  });
  useEffect(() => repondre(), [fetcher.state, fetcher.data]);

  // Polls the job every half second until it ends.
  const etat = suivi.data && idTache !== null && suivi.data.tache?.id === idTache ? suivi.data : undefined;
  const demanderEtat = useEffectEvent(() => {
    if (idTache !== null) suivi.load(`/home/resultats/calcul/lancement/${idTache}`);
  });
  useEffect(() => {
    if (idTache === null || finie(etat?.tache)) return;
    const timer = setTimeout(() => demanderEtat(), etat ? 500 : 0);
    return () => clearTimeout(timer);
  }, [etat, idTache]);
  // The job refused (an error, or warnings not confirmed yet): its checks become the pre-check dialog (C-CHECK-23, 24).
  const conclure = useEffectEvent(() => {
    const r = etat?.tache.etat === "terminee" ? etat.tache.resultat : null;
    if (!r || r.lance) return;
    setControles(r.controles.map((c) => ({ ...c, libelle: libelleComplet(c.idCampagne) })));
  });
  useEffect(() => conclure(), [etat?.tache.etat]);

  const libelle = (idCampagne: number) => campagnes?.find((c) => c.idCampagne === idCampagne) ?? { exploitation: "", campagne: "" };
  const libelleComplet = (idCampagne: number) => `${libelle(idCampagne).exploitation} ${libelle(idCampagne).campagne}`.trim();
  const series = etat?.series.length ? etat.series : null;
  const finies = series !== null && etat?.tache.etat === "terminee" && series.every((s) => terminees.includes(s.id));
  const fermer = () => {
    revalidator.revalidate();
    onClose();
  };
  if (!campagnes) return null;
  if (controles) {
    return (
      <ControleDialog
        resultats={controles}
        onFermer={onClose}
        onConfirmer={() => {
          setControles(null);
          envoyer(true, idTache ?? undefined);
        }}
      />
    );
  }
  const enControle = t("calcul-serie.controle-en-cours");
  return (
    <AppDialog
      open
      title={t("calcul-serie.serie-calcul")}
      width={700}
      testId="serie-calcul-dialog"
      onEscape={fermer}
      actions={
        <button type="button" className="btn-primary" onClick={fermer} data-testid="serie-calcul-fermer">
          {t("calcul-serie.fermer")}
        </button>
      }
    >
      {etat?.tache.etat === "echec" ? (
        <p role="alert" className="text-red-800" data-testid="calcul-echec">
          {t(etat.tache.erreur ?? "errors.unexpected")}
        </p>
      ) : series === null ? (
        <div className="space-y-2">
          <p role="status">{enControle}</p>
          <div
            role="progressbar"
            aria-label={enControle}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pourcentage(etat?.tache)}
            className="h-2 w-full overflow-hidden rounded bg-stone-200"
            data-testid="controle-progression"
          >
            <div className="h-2 bg-sillon-600 transition-all" style={{ width: `${pourcentage(etat?.tache)}%` }} />
          </div>
        </div>
      ) : (
        <ul className="space-y-3">
          {series.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-3">
              <span className="font-semibold">
                {libelle(s.idCampagne).exploitation} {libelle(s.idCampagne).campagne}
              </span>
              <ProgressionSerie idSerie={s.id} libelle={libelle(s.idCampagne)} onTerminee={() => setTerminees((x) => [...x, s.id])} />
              {terminees.includes(s.id) ? (
                <Link className="text-sillon-700 underline" to={`/home/resultats/calcul/${s.id}`} onClick={onClose}>
                  {t("calcul-serie.ouvrir", libelle(s.idCampagne))}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {finies ? (
        <p role="status" className="mt-3 font-semibold text-sillon-800" data-testid="calcul-termine">
          {t("calcul-serie.calcul-termine")}
        </p>
      ) : null}
    </AppDialog>
  );
}
