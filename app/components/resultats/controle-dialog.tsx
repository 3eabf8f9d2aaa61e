import { useTranslation } from "~/use-translation";
import { Link } from "react-router";
import { AppDialog } from "~/components/dialog";
import { formatNumber } from "~/components/format";
import { ecranCorrection, pireControle, suiteControle, type ControleSerie, type MessageSeverite } from "~/domain/calc/serie";

export type ControleCampagne = { idCampagne: number; libelle: string; controle: ControleSerie };

/**
 * The pre-check dialog (spec 3 §5 "Calculation pre-checks", §8; C-CHECK-23..25): each campaign's offending items,
 * their message with its placeholders translated and a link to the screen that fixes them. An error hides the
 * confirm button; warnings only ask for a confirmation (an all-OK check never opens it: the run starts at once).
 */
export function ControleDialog({ resultats, onConfirmer, onFermer }: { resultats: ControleCampagne[] | null; onConfirmer: () => void; onFermer: () => void }) {
  const { t, i18n } = useTranslation();
  const code = pireControle((resultats ?? []).map((r) => r.controle.codeRetour));
  const suite = suiteControle(code);
  const message = (d: MessageSeverite) =>
    t(d.code, {
      libelle: d.libelle || t("calcul-serie.sans-libelle"),
      champ: d.champ ? t(`calcul-serie.champs.${d.champ}`, { defaultValue: d.champ }) : "",
      valeur: d.valeur == null ? "" : formatNumber(d.valeur, i18n.language, 2),
    });
  return (
    <AppDialog
      open={!!resultats && suite !== "lancer"}
      title={t("calcul-serie.controle")}
      width={700}
      testId="controle-dialog"
      onEscape={onFermer}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onFermer}>
            {t("ui.cancel")}
          </button>
          {suite === "confirmer" ? (
            <button type="button" className="btn-primary" onClick={onConfirmer} data-testid="controle-confirmer">
              {t("calcul-serie.confirmer")}
            </button>
          ) : null}
        </>
      }
    >
      <p className={suite === "bloquer" ? "font-semibold text-red-800" : "text-stone-800"} data-testid="controle-resume">
        {t(suite === "bloquer" ? "calcul-serie.controle-erreur" : "calcul-serie.controle-avertissement")}
      </p>
      {(resultats ?? [])
        .filter((r) => r.controle.details.length)
        .map((r) => (
          <section key={r.idCampagne} className="mt-3">
            <h3 className="font-semibold">{r.libelle}</h3>
            <ul className="mt-1 space-y-1" data-testid={`controle-${r.idCampagne}`}>
              {r.controle.details.map((d, i) => (
                <li key={`${d.code}-${d.objet}-${d.id}-${d.champ ?? ""}-${i}`} className="flex flex-wrap items-baseline gap-2">
                  <span
                    className={d.severite === "Erreur" ? "rounded bg-red-100 px-1 text-xs text-red-900" : "rounded bg-amber-100 px-1 text-xs text-amber-900"}
                  >
                    {t(`calcul-serie.severites.${d.severite}`)}
                  </span>
                  <span data-testid="controle-message">{message(d)}</span>
                  <Link className="text-sm text-sillon-700 underline" to={ecranCorrection(d.objet)}>
                    {t("calcul-serie.corriger")}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </AppDialog>
  );
}
