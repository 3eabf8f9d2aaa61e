import { useEffect, useRef } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { formatDate, formatNumber } from "../format";
import { PRIX_DECIMALES, PRIX_PROPOSE_DECIMALES, unitePrix } from "~/domain/prix";
import type { PrixPropose, StatistiquesPrix } from "~/domain/contracts/prix";

/**
 * The expandable panel of proposed prices (spec 3 §2.4, §3.7, §4.3; C-PAPPRO-06, 11..14, 18, 19): for the selected
 * product row (never the fuel row, nor a row not stored yet), the statistics of its prices in the other campaigns
 * the user reads and in those of this harvest year, and the reference-source price of a product of origin 773.
 * Read from the screen's resource `…/prix_approvisionnement/proposes?id=`.
 */
export function PrixProposePanel({ id }: { id: number | null }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const location = useLocation();
  const fetcher = useFetcher<PrixPropose | { ok: false; error: string }>();
  const loaded = useRef<number | null>(null);
  const { load } = fetcher;
  useEffect(() => {
    if (id === null || loaded.current === id) return;
    loaded.current = id;
    void load(`${location.pathname.replace(/\/+$/, "")}/proposes?id=${id}`);
  }, [id, load, location.pathname]);

  const answer = id !== null && loaded.current === id ? fetcher.data : undefined;
  const data = answer && "toutes" in answer ? answer : null;
  const gone = answer !== undefined && !data;
  const unit = data ? unitePrix(data.unite) : "";
  const n = (v: number | null, decimals = PRIX_DECIMALES) => (v == null ? "—" : formatNumber(v, lang, decimals));

  const stats = (title: string, s: StatistiquesPrix, testId: string) => (
    <table className="w-full text-sm" data-testid={testId}>
      <caption className="pb-1 text-left font-medium">{title}</caption>
      <tbody>
        {(
          [
            ["count", s.count === 0 ? "0" : String(s.count)],
            ["min", `${n(s.min)} ${s.min == null ? "" : unit}`],
            ["max", `${n(s.max)} ${s.max == null ? "" : unit}`],
            ["mean", `${n(s.mean)} ${s.mean == null ? "" : unit}`],
            ["median", `${n(s.median)} ${s.median == null ? "" : unit}`],
            ["cv", s.cv == null ? "—" : `${formatNumber(s.cv, lang, 2)} %`],
          ] as const
        ).map(([k, v]) => (
          <tr key={k} className="border-t border-stone-100">
            <th scope="row" className="py-0.5 pr-2 text-left font-normal text-stone-700">
              {t(`prix.propose.${k}`)}
            </th>
            <td className="py-0.5 text-right tabular-nums" data-testid={`${testId}-${k}`}>
              {v}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );

  return (
    <details className="card" open data-testid="prix-proposes">
      <summary className="cursor-pointer font-semibold text-sillon-800">{t("prix.propose.titre")}</summary>
      <div className="mt-3">
        {id === null || gone ? (
          <p className="text-sm text-stone-700" data-testid="prix-proposes-vide">
            {t("prix.propose.choisir")}
          </p>
        ) : !data ? (
          <p className="text-sm text-stone-700" aria-busy="true">
            {t("prix.propose.chargement")}
          </p>
        ) : (
          <div className="grid gap-4 md:grid-cols-3">
            {stats(t("prix.propose.toutes"), data.toutes, "prix-proposes-toutes")}
            {stats(t("prix.propose.annee", { annee: data.anneeRecolte }), data.annee, "prix-proposes-annee")}
            <div data-testid="prix-proposes-reference">
              <p className="pb-1 font-medium">{t("prix.propose.reference")}</p>
              {!data.referenceApplicable ? (
                <p className="text-sm text-stone-700">{t("prix.propose.reference-non-applicable")}</p>
              ) : data.reference ? (
                <dl className="text-sm">
                  <dt className="text-stone-700">{data.reference.libelle ?? t("prix.propose.reference")}</dt>
                  <dd className="font-medium tabular-nums">
                    {formatNumber(data.reference.prixPhytcom, lang, PRIX_PROPOSE_DECIMALES, PRIX_PROPOSE_DECIMALES)} {data.reference.unite ?? ""}
                  </dd>
                  {data.reference.datePhytcom ? (
                    <dd className="text-stone-700">{t("prix.propose.date", { date: formatDate(`${data.reference.datePhytcom}T12:00:00Z`) })}</dd>
                  ) : null}
                  {data.reference.source ? (
                    <dd className="text-stone-700" data-testid="prix-proposes-reference-source">
                      {t("prix.propose.source", { source: data.reference.source })}
                    </dd>
                  ) : null}
                </dl>
              ) : (
                <p className="text-sm text-stone-700">{t("prix.propose.reference-aucune")}</p>
              )}
            </div>
          </div>
        )}
        <p className="mt-2 text-xs text-stone-600">{t("prix.propose.note")}</p>
      </div>
    </details>
  );
}
