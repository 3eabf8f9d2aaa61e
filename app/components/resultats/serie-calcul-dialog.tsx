import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useFetcher, useRevalidator } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { pireControle, suiteControle } from "~/domain/calc/serie";
import { ControleDialog, type ControleCampagne } from "./controle-dialog";
import { ProgressionSerie } from "./progression-serie";

export type CampagneACalculer = { idCampagne: number; exploitation: string; campagne: string };
type Reponse = { ok: boolean; error?: string; controles?: ControleCampagne[]; series?: { id: number; idCampagne: number }[] };

/**
 * The series-calculation dialog (spec 3 §2.11, §4.7; C-CALC-07..10, 25): opened with campaigns, it always runs the
 * check first (calculs_series/check), shows the pre-check dialog when something is missing, then launches the
 * forced run (calculs_series/calc force) and follows each new series' progress until it ends.
 */
export function SerieCalculDialog({ campagnes, onClose }: { campagnes: CampagneACalculer[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<Reponse>();
  const revalidator = useRevalidator();
  const [controles, setControles] = useState<ControleCampagne[] | null>(null);
  const [series, setSeries] = useState<{ id: number; idCampagne: number }[] | null>(null);
  const [terminees, setTerminees] = useState<number[]>([]);
  const demande = useRef<"controler" | "lancer" | null>(null);
  useActionFeedback(fetcher.data);
  const ids = JSON.stringify((campagnes ?? []).map((c) => c.idCampagne));

  const envoyer = (intent: "controler" | "lancer") => {
    demande.current = intent;
    void fetcher.submit({ intent, campagnes: ids }, { method: "post", action: "/home/resultats/calcul" });
  };
  // Opening runs the check (C-CALC-09).
  const ouvrir = useEffectEvent(() => {
    setControles(null);
    setSeries(null);
    setTerminees([]);
    if (campagnes?.length) envoyer("controler");
  });
  useEffect(() => ouvrir(), [campagnes]);
  // Reacts to each answer of the check or of the launch.
  const repondre = useEffectEvent(() => {
    const d = fetcher.data;
    if (fetcher.state !== "idle" || !d || !demande.current) return;
    const fait = demande.current;
    demande.current = null;
    if (!d.ok) return onClose();
    if (fait === "controler" && d.controles) {
      // OK goes on by itself (C-CHECK-25); otherwise the pre-check dialog decides.
      if (suiteControle(pireControle(d.controles.map((c) => c.controle.codeRetour))) === "lancer") envoyer("lancer");
      else setControles(d.controles);
    }
    if (fait === "lancer" && d.series) setSeries(d.series);
  });
  useEffect(() => repondre(), [fetcher.state, fetcher.data]);

  const libelle = (idCampagne: number) => campagnes?.find((c) => c.idCampagne === idCampagne) ?? { exploitation: "", campagne: "" };
  const finies = series !== null && series.every((s) => terminees.includes(s.id));
  const fermer = () => {
    revalidator.revalidate();
    onClose();
  };
  if (!campagnes) return null;
  if (controles && series === null) {
    return (
      <ControleDialog
        resultats={controles}
        onFermer={onClose}
        onConfirmer={() => {
          setControles(null);
          envoyer("lancer");
        }}
      />
    );
  }
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
      {series === null ? (
        <p role="status">{t("calcul-serie.controle-en-cours")}</p>
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
