import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { useLoaderData, useRevalidator } from "react-router";
import { formatDateTime } from "~/components/format";
import { useExportReussi } from "~/components/resultats/export-evenement";
import { ExportResultatsDialog } from "~/components/resultats/export-resultats-dialog";
import { SelectionCampagnes, useSelectionCampagnes } from "~/components/resultats/selection-campagnes";
import { SeriePerimee } from "~/components/resultats/serie-perimee";
import { SessionsExport } from "~/components/resultats/sessions-export";
import { PARAM_CAMPAGNE } from "~/domain/resultats/selection";
import { NATURE_CALCUL } from "~/domain/export-resultats";
import { ecranIndicateursPublies, type SeriePubliee } from "#server/export-resultats/service.server";
import { queryIds, screenLoader } from "#server/http/route.server";

/**
 * Published indicators (spec 1 §2 "Published-indicators screen"; A-PUB-01..09): three panels — the farms and
 * campaigns the user reads, the published calculations of the chosen campaigns with an export button (the
 * export-result dialog), and the calculation export sessions. The lists reload when the campaigns change (they are
 * in the address), after an export is submitted and on the global export-success event.
 */
export const loader = screenLoader(({ scope, query }) => ecranIndicateursPublies(scope, query.has(PARAM_CAMPAGNE) ? queryIds(query, PARAM_CAMPAGNE) : null));

export default function IndicateursPublies() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  // With no campaign in the address, the loader opened on the context's campaign.
  const [selection, choisir] = useSelectionCampagnes({ defaut: data.campagnes, videExplicite: true });
  const revalidator = useRevalidator();
  const [cochees, setCochees] = useState<number[]>([]);
  const [exporter, setExporter] = useState(false);
  // The global export-success event (A-PUB-08): the published calculations and the sessions are read again.
  const [rafraichir, setRafraichir] = useState(0);
  useExportReussi(() => {
    void revalidator.revalidate();
    setRafraichir((n) => n + 1);
  });
  const presentes = data.series.filter((s) => cochees.includes(s.id));

  return (
    <section data-testid="screen-indicateurs" className="space-y-4">
      <h1 className="text-xl font-semibold text-sillon-800">{t("indicateursPublies.titre")}</h1>
      <div className="grid gap-4 lg:grid-cols-[minmax(16rem,1fr)_2fr]">
        <SelectionCampagnes choix={data.choix} selection={selection} onChange={choisir} titre={t("indicateursPublies.selection")} />
        <div className="space-y-4">
          <section className="card" aria-labelledby="series-publiees-titre" data-testid="series-publiees">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="series-publiees-titre" className="text-lg font-semibold text-sillon-800">
                {t("indicateursPublies.calculs")}
              </h2>
              <button type="button" className="btn-primary" disabled={!presentes.length} onClick={() => setExporter(true)} data-testid="series-exporter">
                {t("indicateursPublies.exporter")}
              </button>
            </div>
            <SeriesPubliees
              series={data.series}
              vide={data.campagnes.length ? "indicateursPublies.aucun-calcul" : "indicateursPublies.aucune-campagne"}
              cochees={cochees}
              onChange={setCochees}
            />
          </section>
          <SessionsExport nature={NATURE_CALCUL} campagnes={data.campagnes} rafraichir={rafraichir} titre={t("indicateursPublies.sessions")} />
        </div>
      </div>
      <ExportResultatsDialog open={exporter} series={presentes} versionSelectable={data.versionSelectable} onClose={() => setExporter(false)} />
    </section>
  );
}

function SeriesPubliees({ series, vide, cochees, onChange }: { series: SeriePubliee[]; vide: string; cochees: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  if (!series.length)
    return (
      <p className="mt-2 text-sm text-stone-600" data-testid="series-publiees-vide">
        {t(vide)}
      </p>
    );
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-stone-200 text-stone-600">
          <tr>
            <th scope="col" className="w-8 py-1">
              <input
                type="checkbox"
                aria-label={t("indicateursPublies.exporter")}
                checked={series.every((s) => cochees.includes(s.id))}
                onChange={(e) => onChange(e.target.checked ? series.map((s) => s.id) : [])}
              />
            </th>
            <th scope="col" className="py-1 pr-3">
              {t("indicateursPublies.exploitation")}
            </th>
            <th scope="col" className="py-1 pr-3">
              {t("indicateursPublies.campagne")}
            </th>
            <th scope="col" className="py-1 pr-3">
              {t("indicateursPublies.date")}
            </th>
            <th scope="col" className="py-1 pr-3">
              {t("indicateursPublies.groupes")}
            </th>
            <th scope="col" className="py-1 pr-3">
              {t("indicateursPublies.valide")}
            </th>
            <th scope="col" className="py-1 pr-3">
              {t("indicateursPublies.remarque")}
            </th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.id} className="border-b border-stone-100" data-testid={`serie-publiee-${s.id}`}>
              <td className="py-1 pr-3">
                <input
                  type="checkbox"
                  aria-label={t("indicateursPublies.cocher", { libelle: `${s.exploitation} ${s.campagne}` })}
                  checked={cochees.includes(s.id)}
                  onChange={(e) => onChange(e.target.checked ? [...cochees, s.id] : cochees.filter((x) => x !== s.id))}
                  data-testid={`serie-cocher-${s.id}`}
                />
              </td>
              <td className="py-1 pr-3">{s.exploitation}</td>
              <td className="py-1 pr-3">{s.campagne}</td>
              <td className="py-1 pr-3 whitespace-nowrap">
                {s.dtFin ? formatDateTime(s.dtFin) : ""}
                {s.perimee ? <SeriePerimee /> : null}
              </td>
              <td className="py-1 pr-3">{s.groupes.map((g) => t(`indicateurs.groupes.${g}`)).join(", ")}</td>
              <td className="py-1 pr-3">{s.visaAnimateur ? t("exportResultats.classeur.oui") : t("exportResultats.classeur.non")}</td>
              <td className="py-1 pr-3">{s.remarque ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
