import { useEffect, useState } from "react";
import { Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "~/use-translation";
import { formatNumber } from "~/components/format";
import type { LigneWorklist, Worklist } from "~/domain/manquants";

type Tri = "gain" | "exploitation" | "objet";

/** The missing-data worklist screen (issue 24; decision 0087). */
export function ManquantsEcran({ data }: { data: Worklist }) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [tri, setTri] = useState<Tri>("gain");
  const lecture = data.exploitations.length > 0 && data.exploitations.every((e) => !e.peutEcrire);
  const lignes = [...data.lignes].sort((a, b) =>
    tri === "exploitation"
      ? a.exploitation.localeCompare(b.exploitation) || b.gain - a.gain
      : tri === "objet"
        ? a.objet.localeCompare(b.objet) || a.champ.localeCompare(b.champ) || b.gain - a.gain
        : b.gain - a.gain,
  );
  return (
    <section data-testid="screen-manquants" className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold text-sillon-800">{t("listeManquants.titre")}</h1>
        <p className="text-sm text-stone-600">{t("listeManquants.intro")}</p>
      </div>
      {data.idDossier == null ? (
        <p className="card" data-testid="manquants-sans-dossier">
          {t("listeManquants.sans-dossier")}
        </p>
      ) : (
        <>
          <div className="card flex flex-wrap items-end gap-4">
            <label className="flex flex-col text-sm">
              {t("listeManquants.annee")}
              <select
                className="input"
                value={data.annee ?? ""}
                data-testid="manquants-annee"
                onChange={(e) =>
                  setParams((p) => {
                    const n = new URLSearchParams(p);
                    n.set("annee", e.target.value);
                    return n;
                  })
                }
              >
                {data.annees.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col text-sm">
              {t("listeManquants.tri")}
              <select className="input" value={tri} onChange={(e) => setTri(e.target.value as Tri)} data-testid="manquants-tri">
                {(["gain", "exploitation", "objet"] as const).map((x) => (
                  <option key={x} value={x}>
                    {t(`listeManquants.tris.${x}`)}
                  </option>
                ))}
              </select>
            </label>
            {lecture ? (
              <p role="note" className="text-sm text-stone-700" data-testid="manquants-lecture">
                {t("listeManquants.lecture-seule")}
              </p>
            ) : null}
          </div>
          <div className="card relative overflow-x-auto" tabIndex={0}>
            <table className="w-full text-left text-sm" data-testid="manquants-exploitations">
              <caption className="mb-2 text-left text-lg font-semibold text-sillon-800">{t("listeManquants.exploitations")}</caption>
              <thead className="border-b border-stone-200 text-stone-600">
                <tr>
                  {(["exploitation", "campagne", "completude-moyenne", "lignes", "droit"] as const).map((c) => (
                    <th key={c} scope="col" className="py-1 pr-3">
                      {t(`listeManquants.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.exploitations.map((e) => (
                  <tr key={e.id} className="border-b border-stone-100">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      {e.libelle}
                    </th>
                    <td className="py-1 pr-3">{e.campagne ?? t("listeManquants.sans-campagne", { annee: params.get("annee") ?? data.annee ?? "" })}</td>
                    <td className="py-1 pr-3 text-right">{e.completude == null ? "" : `${formatNumber(e.completude, i18n.language, 1)} %`}</td>
                    <td className="py-1 pr-3 text-right">{data.lignes.filter((l) => l.idExploitation === e.id).length}</td>
                    <td className="py-1 pr-3">{t(e.peutEcrire ? "listeManquants.ecriture" : "listeManquants.lecture")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="card relative overflow-x-auto" tabIndex={0}>
            {lignes.length === 0 ? (
              <p data-testid="manquants-aucune">{t("listeManquants.aucune")}</p>
            ) : (
              <table className="w-full text-left text-sm" data-testid="manquants-lignes">
                <caption className="mb-2 text-left text-lg font-semibold text-sillon-800">{t("listeManquants.tableau-titre")}</caption>
                <thead className="border-b border-stone-200 text-stone-600">
                  <tr>
                    {(["exploitation", "donnee", "parcelles", "figures", "gain"] as const).map((c) => (
                      <th key={c} scope="col" className={`py-1 pr-3 ${c === "figures" || c === "gain" ? "text-right" : ""}`}>
                        {t(`listeManquants.${c}`)}
                      </th>
                    ))}
                    <th scope="col" className="py-1">
                      <span className="sr-only">{t("listeManquants.corriger")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {lignes.map((l) => (
                    <Ligne
                      key={`${l.idCampagne}|${l.cle}`}
                      l={l}
                      contexte={data.idCampagneContexte}
                      peutEcrire={!!data.exploitations.find((e) => e.id === l.idExploitation)?.peutEcrire}
                    />
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function Ligne({ l, contexte, peutEcrire }: { l: LigneWorklist; contexte: number | null; peutEcrire: boolean }) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; adresse?: string }>();
  const navigate = useNavigate();
  useEffect(() => {
    if (fetcher.data?.ok && fetcher.data.adresse) void navigate(fetcher.data.adresse);
  }, [fetcher.data, navigate]);
  const donnee = t("listeManquants.donnees", {
    objet: t(`indicateurs-parcelle.objets.${l.objet}`),
    libelle: l.libelle ?? (typeof l.id === "number" ? `#${l.id}` : ""),
    champ: t(`indicateurs.champs.${l.champ}`, { defaultValue: l.champ }),
  });
  const parcelles =
    l.libellesParcelles.length > 3
      ? t("listeManquants.parcelles-plus", { premieres: l.libellesParcelles.slice(0, 3).join(", "), count: l.libellesParcelles.length - 3 })
      : l.libellesParcelles.join(", ");
  const action = t(peutEcrire ? "listeManquants.corriger" : "listeManquants.voir");
  const nom = t(peutEcrire ? "listeManquants.corriger-nom" : "listeManquants.voir-nom", { donnee, exploitation: l.exploitation });
  return (
    <tr className="border-b border-stone-100" data-testid="manquant-ligne" data-objet={l.objet} data-champ={l.champ}>
      <td className="py-1 pr-3">
        {l.exploitation}
        <span className="block text-xs text-stone-600">{l.campagne}</span>
      </td>
      <td className="py-1 pr-3">{donnee}</td>
      <td className="py-1 pr-3">{parcelles}</td>
      <td className="py-1 pr-3 text-right">{l.figures}</td>
      <td className="py-1 pr-3 text-right whitespace-nowrap" data-testid="manquant-gain">
        {t("listeManquants.gain-valeur", { valeur: formatNumber(l.gain, i18n.language, 2, 2) })}
      </td>
      <td className="py-1 whitespace-nowrap">
        {l.adresse == null ? (
          <span className="text-xs text-stone-600">{t("listeManquants.sans-ecran")}</span>
        ) : l.idCampagne === contexte ? (
          <Link className="text-sillon-700 underline" to={l.adresse} aria-label={nom} data-testid="manquant-lien">
            {action}
          </Link>
        ) : (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="ouvrir" />
            <input type="hidden" name="idCampagne" value={l.idCampagne} />
            <input type="hidden" name="adresse" value={l.adresse} />
            <button type="submit" className="text-sillon-700 underline" aria-label={nom} data-testid="manquant-lien">
              {action}
            </button>
          </fetcher.Form>
        )}
      </td>
    </tr>
  );
}
