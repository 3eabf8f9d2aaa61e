import { useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "~/use-translation";
import { formatDateTime, formatNumber } from "~/components/format";
import { Barres } from "~/components/resultats/graphiques-serie";
import { SeriePerimee } from "~/components/resultats/serie-perimee";
import type { EcranObjectifs, FigureObjectif, LigneObjectif, Verdict } from "~/domain/objectifs";

type Donnees = { campagneRequise: true } | ({ campagneRequise: false } & EcranObjectifs);

const COULEUR: Partial<Record<Verdict, string>> = { atteint: "#3f7d2c", manque: "#b91c1c" };

/** A verdict as a word with a sign (never the colour alone). */
export function Pastille({ verdict }: { verdict: Verdict }) {
  const { t } = useTranslation();
  const style = verdict === "atteint" ? "bg-green-100 text-green-900" : verdict === "manque" ? "bg-red-100 text-red-900" : "bg-stone-100 text-stone-700";
  const signe = verdict === "atteint" ? "✓ " : verdict === "manque" ? "✗ " : "";
  return (
    <span className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${style}`} data-testid={`verdict-${verdict}`}>
      {signe}
      {t(`objectifs.verdicts.${verdict}`)}
    </span>
  );
}

/** The objectives-against-results screen (issue 24; decision 0087). */
export function ObjectifsEcran({ data }: { data: Donnees }) {
  const { t } = useTranslation();
  if (data.campagneRequise) {
    return (
      <section data-testid="screen-objectifs" className="space-y-4">
        <h1 className="text-xl font-semibold text-sillon-800">{t("objectifs.titre")}</h1>
        <p className="card">{t("context.start-instruction")}</p>
      </section>
    );
  }
  return <AvecCampagne data={data} />;
}

function AvecCampagne({ data }: { data: EcranObjectifs }) {
  const { t, i18n } = useTranslation();
  const nom = (l: { indNom: string; indNomEn: string | null }) => (i18n.language.startsWith("en") && l.indNomEn ? l.indNomEn : l.indNom);
  const nombre = (v: number | null | undefined) => (v == null ? t("objectifs.non-calcule") : formatNumber(v, i18n.language, 2));
  const objectifTexte = (l: Pick<LigneObjectif, "objectif" | "sens">) =>
    l.objectif == null
      ? t("objectifs.sans-valeur")
      : l.sens
        ? t(`objectifs.${l.sens}`, { valeur: formatNumber(l.objectif, i18n.language, 2) })
        : formatNumber(l.objectif, i18n.language, 2);
  const atteints = data.lignes.filter((l) => l.exploitation?.verdict === "atteint").length;
  const manques = data.lignes.filter((l) => l.exploitation?.verdict === "manque").length;
  return (
    <section data-testid="screen-objectifs" className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold text-sillon-800">{t("objectifs.titre")}</h1>
        <p className="text-sm text-stone-700">
          {data.exploitation} — {data.campagne}
        </p>
        <p className="text-sm text-stone-600">{t("objectifs.intro")}</p>
      </div>
      <div className="card flex flex-wrap items-center gap-3 text-sm" data-testid="objectifs-serie">
        {data.serie ? (
          <>
            <span>{data.serie.dtFin ? t("objectifs.serie", { date: formatDateTime(data.serie.dtFin) }) : null}</span>
            {data.serie.perimee ? <SeriePerimee /> : null}
            {data.peutOuvrirSerie ? (
              <Link className="text-sillon-700 underline" to={`/home/resultats/calcul/${data.serie.id}`}>
                {t("objectifs.ouvrir-serie")}
              </Link>
            ) : null}
            {data.lignes.length ? (
              <span className="font-medium" data-testid="objectifs-resume">
                {t("objectifs.resume", { atteints, manques })}
              </span>
            ) : null}
          </>
        ) : (
          <>
            <span data-testid="objectifs-sans-serie">{t("objectifs.sans-serie")}</span>
            {data.peutOuvrirSerie ? (
              <Link className="text-sillon-700 underline" to={`/home/resultats/calcul?campagne=${data.idCampagne}`}>
                {t("objectifs.lancer-calcul")}
              </Link>
            ) : null}
          </>
        )}
      </div>
      {data.lignes.length === 0 ? (
        <p className="card" data-testid="objectifs-aucun">
          {t("objectifs.sans-objectif-protocole")}{" "}
          <Link className="text-sillon-700 underline" to="/home/description/protocole/description_systeme">
            {t("objectifs.saisir-objectifs")}
          </Link>
        </p>
      ) : (
        <>
          <TableauExploitation lignes={data.lignes} nom={nom} nombre={nombre} objectifTexte={objectifTexte} />
          <Detail lignes={data.lignes} nom={nom} nombre={nombre} objectifTexte={objectifTexte} />
          <Trajectoires data={data} nom={nom} nombre={nombre} />
        </>
      )}
    </section>
  );
}

type Aides = {
  nom: (l: { indNom: string; indNomEn: string | null }) => string;
  nombre: (v: number | null | undefined) => string;
  objectifTexte: (l: Pick<LigneObjectif, "objectif" | "sens">) => string;
};

function TableauExploitation({ lignes, nom, nombre, objectifTexte }: { lignes: LigneObjectif[] } & Aides) {
  const { t, i18n } = useTranslation();
  return (
    <div className="card relative overflow-x-auto" tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid="objectifs-exploitation">
        <caption className="mb-2 text-left text-lg font-semibold text-sillon-800">{t("objectifs.tableau-exploitation")}</caption>
        <thead className="border-b border-stone-200 text-stone-600">
          <tr>
            {(["indicateur", "objectif", "resultat", "verdict", "ecart", "completude"] as const).map((c) => (
              <th key={c} scope="col" className="py-1 pr-3">
                {t(`objectifs.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {lignes.map((l) => (
            <tr key={l.id} className="border-b border-stone-100" data-testid={`objectif-${l.indCode ?? l.id}`}>
              <th scope="row" className="py-1 pr-3 font-normal">
                {nom(l)}
                {l.unite ? <span className="text-stone-600"> ({l.unite})</span> : null}
              </th>
              <td className="py-1 pr-3 whitespace-nowrap" title={l.sens ? t(`objectifs.sens-${l.sens}`) : undefined}>
                {objectifTexte(l)}
              </td>
              <td className="py-1 pr-3 text-right">{nombre(l.exploitation?.valeur)}</td>
              <td className="py-1 pr-3">
                <Pastille verdict={l.exploitation?.verdict ?? (l.code ? "sans-resultat" : "sans-correspondance")} />
              </td>
              <td className="py-1 pr-3 text-right">{l.exploitation?.ecart == null ? "" : formatNumber(l.exploitation.ecart, i18n.language, 2)}</td>
              <td className="py-1 pr-3 text-right">
                {l.exploitation?.completude == null ? "" : `${formatNumber(l.exploitation.completude, i18n.language, 0)} %`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Per crop or per plot: one row per crop or plot, one column per objective, each figure with its verdict. */
function Detail({ lignes, nom, nombre, objectifTexte }: { lignes: LigneObjectif[] } & Aides) {
  const { t } = useTranslation();
  const [niveau, setNiveau] = useState<"cultures" | "parcelles">("parcelles");
  const jugees = lignes.filter((l) => l[niveau].length);
  const entites = new Map<string, string>();
  for (const l of jugees) for (const f of l[niveau]) entites.set(f.idEntite, f.idEntite === "null" ? t("objectifs.sans-culture") : f.libelle);
  const figure = (l: LigneObjectif, id: string): FigureObjectif | undefined => l[niveau].find((f) => f.idEntite === id);
  const libelleNiveau = t(niveau === "parcelles" ? "objectifs.par-parcelle" : "objectifs.par-culture");
  return (
    <div className="card space-y-2">
      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="sr-only">{t("objectifs.niveau")}</legend>
        {(["parcelles", "cultures"] as const).map((n) => (
          <label key={n} className="flex items-center gap-1 text-sm">
            <input type="radio" name="niveau-objectifs" checked={niveau === n} onChange={() => setNiveau(n)} data-testid={`niveau-${n}`} />
            {t(n === "parcelles" ? "objectifs.par-parcelle" : "objectifs.par-culture")}
          </label>
        ))}
      </fieldset>
      {jugees.length === 0 ? null : (
        <div className="overflow-x-auto" tabIndex={0}>
          <table className="text-sm" data-testid={`objectifs-${niveau}`}>
            <caption className="sr-only">{t("objectifs.tableau-detail", { niveau: libelleNiveau })}</caption>
            <thead className="border-b border-stone-200 text-stone-600">
              <tr>
                <th scope="col" className="py-1 pr-3 text-left">
                  {libelleNiveau}
                </th>
                {jugees.map((l) => (
                  <th key={l.id} scope="col" className="px-2 py-1 text-right">
                    {nom(l)}
                    <span className="block text-xs font-normal">{objectifTexte(l)}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...entites].map(([id, libelle]) => (
                <tr key={id} className="border-b border-stone-100">
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    {libelle}
                  </th>
                  {jugees.map((l) => {
                    const f = figure(l, id);
                    return (
                      <td key={l.id} className="px-2 py-1 text-right">
                        {f ? (
                          <span className="inline-flex items-center gap-1">
                            {nombre(f.valeur)} <Pastille verdict={f.verdict} />
                          </span>
                        ) : (
                          "—"
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The trajectory: per objective, the farm figure of each campaign as bars (the series charts' Barres, decision 0056) with the objective marked. */
function Trajectoires({ data, nom, nombre }: { data: EcranObjectifs } & Pick<Aides, "nom" | "nombre">) {
  const { t, i18n } = useTranslation();
  const avecPoints = data.trajectoires.filter((x) => x.points.length);
  return (
    <section className="card space-y-3" aria-labelledby="trajectoire-titre" data-testid="objectifs-trajectoire">
      <h2 id="trajectoire-titre" className="text-lg font-semibold text-sillon-800">
        {t("objectifs.trajectoire")}
      </h2>
      <p className="text-sm text-stone-600">{t("objectifs.trajectoire-aide")}</p>
      <div className="grid gap-3 lg:grid-cols-2">
        {avecPoints.map((x) => {
          const entites = x.points.map((p) => ({ id: String(p.idCampagne), libelle: p.campagne }));
          const point = (id: string) => x.points.find((p) => String(p.idCampagne) === id)!;
          return (
            <div key={x.idIndicateur} className="space-y-1">
              <Barres
                testId={`trajectoire-${x.idIndicateur}`}
                titre={nom(x)}
                unite={x.unite}
                entites={entites}
                valeurOf={(e) => point(e.id).valeur}
                repereOf={(e) => point(e.id).objectif}
                couleurOf={(e) => COULEUR[point(e.id).verdict] ?? null}
                nomBarre={(e, texte) =>
                  t("objectifs.barre-trajectoire", {
                    campagne: e.libelle,
                    valeur: point(e.id).valeur == null ? t("objectifs.non-calcule") : texte,
                    objectif: point(e.id).objectif == null ? t("objectifs.sans-valeur") : formatNumber(point(e.id).objectif, i18n.language, 2),
                    verdict: t(`objectifs.verdicts.${point(e.id).verdict}`),
                  })
                }
              />
              <table className="w-full text-sm">
                <caption className="sr-only">{t("objectifs.tableau-trajectoire", { indicateur: nom(x) })}</caption>
                <thead className="text-stone-600">
                  <tr>
                    <th scope="col" className="text-left">
                      {t("objectifs.campagne")}
                    </th>
                    <th scope="col" className="text-right">
                      {t("objectifs.objectif")}
                    </th>
                    <th scope="col" className="text-right">
                      {t("objectifs.resultat")}
                    </th>
                    <th scope="col" className="text-left pl-2">
                      {t("objectifs.verdict")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {x.points.map((p) => (
                    <tr key={p.idCampagne} className="border-t border-stone-100">
                      <th scope="row" className="text-left font-normal">
                        {p.idCampagne === data.idCampagne ? (
                          p.campagne
                        ) : (
                          <Link className="text-sillon-700 underline" to={`?campagne=${p.idCampagne}`}>
                            {p.campagne}
                          </Link>
                        )}
                      </th>
                      <td className="text-right">{p.objectif == null ? t("objectifs.sans-valeur") : formatNumber(p.objectif, i18n.language, 2)}</td>
                      <td className="text-right">{nombre(p.valeur)}</td>
                      <td className="pl-2">
                        <Pastille verdict={p.verdict} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        })}
      </div>
    </section>
  );
}
