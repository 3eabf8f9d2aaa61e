import { useMemo, useState } from "react";
import { useTranslation } from "~/use-translation";
import { Form, Link } from "react-router";
import { formatDateTime, formatNumber, formatPercent } from "~/components/format";
import { useLibelleIndicateur } from "~/components/resultats/graphiques-serie";
import type { LigneComparaison } from "~/domain/calc/comparaison";
import { GROUPES_SERIE } from "~/domain/calc/serie";
import { paramId } from "#server/http/fields";
import { queryId, screenLoader } from "#server/http/route.server";
import { comparerSerie } from "#server/calcul-serie/comparaison.server";
import type { Route } from "./+types/calcul-serie-comparaison";

/**
 * Campaign against simulation (issue 14, beyond; decision 0069), opened from a series' detail: the campaign and its
 * simulation of the same harvest year side by side, indicator by indicator at farm or crop level, with the difference
 * in value and in %, its direction in words and colour, and each figure's completeness. A side without a finished
 * calculation is named with a link to the calculation screen. Same right as the detail (write right on the farm).
 */
export const loader = screenLoader(({ db, user, params, query }) => comparerSerie(db, user, paramId(params, "idSerie"), queryId(query, "avec")));

const SENS_CLASSE = { hausse: "text-sky-800", baisse: "text-amber-900", egal: "text-stone-700" } as const;
const SENS_SIGNE = { hausse: "▲", baisse: "▼", egal: "=" } as const;

export default function CalculSerieComparaison({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const libelle = useLibelleIndicateur();
  const [niveau, setNiveau] = useState("exploitation");
  const [groupe, setGroupe] = useState("");
  const [ecartsSeuls, setEcartsSeuls] = useState(false);
  const s = data.serie;
  const pret = data.base?.serie && data.simulation?.serie;

  const lignes = useMemo(() => {
    const [n, id] = niveau === "exploitation" ? ["exploitation", null] : ["culture", niveau.slice("culture:".length)];
    return data.lignes.filter(
      (l) => l.niveau === n && (id == null || l.idEntite === id) && (!groupe || String(l.idGroupe) === groupe) && (!ecartsSeuls || l.sens !== "egal"),
    );
  }, [data.lignes, niveau, groupe, ecartsSeuls]);
  const parGroupe = GROUPES_SERIE.map((g) => ({ g, lignes: lignes.filter((l) => l.idGroupe === g.id) })).filter((x) => x.lignes.length);
  const autres = lignes.filter((l) => l.idGroupe == null);
  const niveauLibelle =
    niveau === "exploitation"
      ? t("comparaison.exploitation")
      : t("comparaison.culture-option", { culture: data.cultures.find((c) => `culture:${c.id}` === niveau)?.libelle ?? "" });

  const nombre = (v: number | null | undefined) => (v == null ? t("comparaison.non-calcule") : formatNumber(v, lang, 2));
  const completude = (f: LigneComparaison["base"]) =>
    f ? (
      <>
        {t("comparaison.completude", { valeur: formatNumber(f.completude, lang, 0) })}
        {f.nbManquants > 0 ? <span className="block text-xs text-stone-700">{t("comparaison.manquants", { count: f.nbManquants })}</span> : null}
      </>
    ) : (
      ""
    );
  const ligne = (l: LigneComparaison) => (
    <tr key={`${l.niveau}-${l.idEntite}-${l.code}`} className="border-t border-stone-200" data-testid={`comparaison-${l.code}`}>
      <th scope="row" className="px-2 py-1 text-left font-normal">
        {libelle(l.code)}
      </th>
      <td className="px-2 py-1 text-stone-700">{l.base?.unite ?? l.simulation?.unite ?? ""}</td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="valeur-campagne">
        {nombre(l.base?.valeur)}
      </td>
      <td className="px-2 py-1 text-right text-sm" data-testid="completude-campagne">
        {completude(l.base)}
      </td>
      <td className="px-2 py-1 text-right tabular-nums" data-testid="valeur-simulation">
        {nombre(l.simulation?.valeur)}
      </td>
      <td className="px-2 py-1 text-right text-sm" data-testid="completude-simulation">
        {completude(l.simulation)}
      </td>
      <td className={`px-2 py-1 text-right tabular-nums ${l.sens ? SENS_CLASSE[l.sens] : ""}`} data-testid="ecart">
        {l.ecart == null ? (
          ""
        ) : (
          <>
            {l.ecart > 0 ? "+" : ""}
            {formatNumber(l.ecart, lang, 2)} <span aria-hidden="true">{SENS_SIGNE[l.sens!]}</span>{" "}
            <span className="text-xs">{t(`comparaison.sens.${l.sens!}`)}</span>
          </>
        )}
      </td>
      <td className={`px-2 py-1 text-right tabular-nums ${l.sens ? SENS_CLASSE[l.sens] : ""}`} data-testid="ecart-pct">
        {l.ecartPct == null ? (
          l.ecart == null ? (
            ""
          ) : (
            <>
              <span aria-hidden="true">–</span>
              <span className="sr-only">{t("comparaison.pct-impossible")}</span>
            </>
          )
        ) : (
          `${l.ecartPct > 0 ? "+" : ""}${formatPercent(l.ecartPct, lang, 1)}`
        )}
      </td>
    </tr>
  );

  const cote = (titre: string, c: typeof data.base, testId: string) => (
    <section className="card space-y-1" aria-labelledby={`${testId}-titre`} data-testid={testId}>
      <h2 id={`${testId}-titre`} className="text-lg font-semibold">
        {titre}
        {c ? ` : ${c.campagne}` : ""}
      </h2>
      {!c ? (
        <p className="text-sm">{t(testId === "cote-simulation" ? "comparaison.sans-simulation" : "comparaison.sans-base")}</p>
      ) : c.serie ? (
        <>
          <p className="text-sm">{t("comparaison.serie-du", { date: c.serie.dtFin ? formatDateTime(c.serie.dtFin) : "" })}</p>
          {c.serie.id !== s.id ? (
            <Link to={`/home/resultats/calcul/${c.serie.id}`} className="text-sm text-sillon-700 underline">
              {t("comparaison.ouvrir-serie")}
            </Link>
          ) : null}
        </>
      ) : (
        <>
          <p className="text-sm text-amber-900" data-testid="serie-absente">
            {t("comparaison.serie-absente", { campagne: c.campagne })}
          </p>
          <Link to={`/home/resultats/calcul?campagne=${c.idCampagne}`} className="text-sm text-sillon-700 underline" data-testid="lien-calcul">
            {t("comparaison.calculer", { campagne: c.campagne })}
          </Link>
        </>
      )}
    </section>
  );

  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-comparaison">
      <Link to={`/home/resultats/calcul/${s.id}`} className="text-sm text-sillon-700 underline">
        {t("comparaison.retour")}
      </Link>
      <h1 className="text-xl font-semibold text-sillon-800">{t("comparaison.titre", { exploitation: s.exploitation })}</h1>
      <p className="text-sm text-stone-700">{t("comparaison.intro")}</p>
      {data.candidats.length > 1 ? (
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col text-sm">
            {t("comparaison.choix-contrepartie")}
            <select
              name="avec"
              className="field-input"
              defaultValue={String((data.simulation?.idCampagne === s.idCampagne ? data.base : data.simulation)?.idCampagne ?? "")}
            >
              {data.candidats.map((c) => (
                <option key={c.idCampagne} value={c.idCampagne}>
                  {c.campagne}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn-secondary">
            {t("comparaison.valider")}
          </button>
        </Form>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {cote(t("comparaison.campagne"), data.base, "cote-campagne")}
        {cote(t("comparaison.simulation"), data.simulation, "cote-simulation")}
      </div>
      {pret ? (
        <section className="card space-y-3" aria-labelledby="comparaison-titre">
          <h2 id="comparaison-titre" className="sr-only">
            {t("comparaison.legende", { niveau: niveauLibelle, campagne: data.base!.campagne, simulation: data.simulation!.campagne })}
          </h2>
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col text-sm">
              {t("comparaison.niveau")}
              <select className="field-input" value={niveau} onChange={(e) => setNiveau(e.target.value)} data-testid="niveau">
                <option value="exploitation">{t("comparaison.exploitation")}</option>
                {data.cultures.map((c) => (
                  <option key={c.id} value={`culture:${c.id}`}>
                    {t("comparaison.culture-option", { culture: c.libelle || t("calcul-serie.sans-culture") })}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col text-sm">
              {t("comparaison.groupe")}
              <select className="field-input" value={groupe} onChange={(e) => setGroupe(e.target.value)} data-testid="groupe">
                <option value="">{t("comparaison.tous-groupes")}</option>
                {GROUPES_SERIE.map((g) => (
                  <option key={g.id} value={String(g.id)}>
                    {t(`indicateurs.groupes.${g.code}`)}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={ecartsSeuls} onChange={(e) => setEcartsSeuls(e.target.checked)} data-testid="ecarts-seuls" />
              {t("comparaison.seulement-ecarts")}
            </label>
            <span className="ml-auto text-sm text-stone-700" aria-live="polite">
              {t("comparaison.nb-lignes", { count: lignes.length })}
            </span>
          </div>
          {lignes.length === 0 ? (
            <p className="text-sm">{t("comparaison.aucune")}</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="table-comparaison">
                <caption className="pb-2 text-left font-semibold">
                  {t("comparaison.legende", { niveau: niveauLibelle, campagne: data.base!.campagne, simulation: data.simulation!.campagne })}
                </caption>
                <thead>
                  <tr className="text-left">
                    <th scope="col" className="px-2">
                      {t("comparaison.colonnes.indicateur")}
                    </th>
                    <th scope="col" className="px-2">
                      {t("comparaison.colonnes.unite")}
                    </th>
                    <th scope="col" className="px-2 text-right">
                      {t("comparaison.colonnes.campagne")}
                    </th>
                    <th scope="col" className="px-2 text-right">
                      {t("comparaison.colonnes.completude")}
                    </th>
                    <th scope="col" className="px-2 text-right">
                      {t("comparaison.colonnes.simulation")}
                    </th>
                    <th scope="col" className="px-2 text-right">
                      {t("comparaison.colonnes.completude")}
                    </th>
                    <th scope="col" className="px-2 text-right">
                      {t("comparaison.colonnes.ecart")}
                    </th>
                    <th scope="col" className="px-2 text-right">
                      {t("comparaison.colonnes.ecart-pct")}
                    </th>
                  </tr>
                </thead>
                {parGroupe.map(({ g, lignes: ls }) => (
                  <tbody key={g.id} data-testid={`comparaison-groupe-${g.id}`}>
                    <tr className="bg-stone-100">
                      <th scope="rowgroup" colSpan={8} className="px-2 py-1 text-left font-semibold">
                        {t(`indicateurs.groupes.${g.code}`)}
                      </th>
                    </tr>
                    {ls.map(ligne)}
                  </tbody>
                ))}
                {autres.length ? <tbody>{autres.map(ligne)}</tbody> : null}
              </table>
            </div>
          )}
        </section>
      ) : null}
    </div>
  );
}
