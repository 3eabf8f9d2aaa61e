import { Link } from "react-router";
import { useTranslation } from "~/use-translation";
import { adresseCorrection, correction } from "~/domain/manquants";
import { decrireIndicateur } from "~/domain/calc/indicateurs/catalogue";
import type { Manquant } from "~/domain/calc/indicateurs/types";
import { formatNumber } from "~/components/format";
import { decimalesIndicateur } from "~/domain/calc/indicateurs/arrondi";
import type { IndicateursParcelle } from "~/domain/contracts/indicateurs";

/**
 * The plot's indicators beside the interventions grid (issue 14): IFT, mineral N, work time, fuel and gross margin
 * of the first chosen plot, each with its completeness and, in a disclosure, the data it misses. Loaded by its own
 * request (interventions/indicateurs, decision 0076), which a save revalidates, so the new figures show at once.
 */
export function IndicateursParcellePanel({ data }: { data: IndicateursParcelle }) {
  const { t, i18n } = useTranslation();
  const manquant = (m: Manquant) =>
    t("indicateurs-parcelle.manquant", {
      objet: t(`indicateurs-parcelle.objets.${m.objet}`),
      libelle: m.libelle ?? String(m.id),
      champ: t(`indicateurs.champs.${m.champ}`, { defaultValue: m.champ }),
    });
  return (
    <section className="card space-y-2" aria-labelledby="indicateurs-parcelle-titre" data-testid="indicateurs-parcelle">
      <h2 id="indicateurs-parcelle-titre" className="text-lg font-semibold">
        {t("indicateurs-parcelle.titre", { libelle: data.libelle })}
      </h2>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {data.indicateurs.map((ind) => {
          const d = decrireIndicateur(ind.code);
          const unite = ind.code.startsWith("ift.") ? "" : ` ${ind.unite}`;
          return (
            <li key={ind.code} className="rounded border border-stone-300 p-2" data-testid={`indicateur-${ind.code}`}>
              <div className="text-sm text-stone-700">{d ? t(d.libelle) : ind.code}</div>
              <div className="text-xl font-semibold" data-testid="valeur">
                {ind.valeur == null
                  ? t("indicateurs-parcelle.non-calcule")
                  : `${formatNumber(ind.valeur, i18n.language, decimalesIndicateur(ind.unite))}${unite}`}
              </div>
              <div className="text-sm text-stone-700" data-testid="completude">
                {t("indicateurs-parcelle.completude", { valeur: formatNumber(ind.completude, i18n.language, 0) })}
              </div>
              {ind.manquants.length > 0 && (
                <details className="text-sm">
                  <summary className="cursor-pointer">{t("indicateurs-parcelle.manquants", { count: ind.manquants.length })}</summary>
                  <ul className="list-disc pl-5">
                    {ind.manquants.map((m, i) => {
                      // The screen and row that fix it (the worklist's rule); a reference factor has none.
                      const c = correction(m, { idParcelle: data.idParcelle });
                      return (
                        <li key={`${m.objet}-${m.id}-${m.champ}-${i}`}>
                          {c ? (
                            <Link className="text-sillon-700 underline" to={adresseCorrection(c)} data-testid="manquant-correction">
                              {manquant(m)}
                            </Link>
                          ) : (
                            manquant(m)
                          )}
                        </li>
                      );
                    })}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
