import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useRevalidator } from "react-router";
import { z } from "zod";
import { DataTable, type DataTableColumn } from "~/components/data-table";
import { formatDateTime } from "~/components/format";
import { useExportReussi } from "~/components/resultats/export-evenement";
import { ExportResultatsDialog } from "~/components/resultats/export-resultats-dialog";
import { ProgressionSerie } from "~/components/resultats/progression-serie";
import { ROLE_TEST } from "~/domain/access/abilities";
import { SelectionCampagnes, useSelectionCampagnes } from "~/components/resultats/selection-campagnes";
import { PARAM_CAMPAGNE } from "~/domain/resultats/selection";
import { SerieCalculDialog, type CampagneACalculer } from "~/components/resultats/serie-calcul-dialog";
import { SeriePerimee } from "~/components/resultats/serie-perimee";
import { SessionsExport } from "~/components/resultats/sessions-export";
import { NATURE_CALCUL } from "~/domain/export-resultats";
import { idField, intent, jsonField, queryIds, screenAction, screenLoader } from "#server/http/route.server";
import { choixCampagnes } from "#server/resultats/selection";
import { listerSeries, type SerieListee } from "#server/calcul-serie/service.server";
import { lancerCalcul } from "#server/calcul-serie/lancement.server";
import type { Route } from "./+types/calcul";

/**
 * The calculation screen (spec 3 §2.11; issue 14): farms and campaigns the user writes (C-RIGHTS-23) with the launch
 * button, the done calculations of the chosen campaigns, and the result-export sessions of every folder (the shared
 * sessions panel of the export screens, over every campaign offered here, not only the ticked ones: C-CALC-05).
 */
export const loader = screenLoader(async ({ scope, db, user, query, view }) => {
  const choix = await choixCampagnes(scope, "calcul");
  const offertes = new Map<number, { idCampagne: number; exploitation: string; campagne: string }>();
  for (const d of choix.dossiers)
    for (const e of d.exploitations) for (const c of e.campagnes) offertes.set(c.id, { idCampagne: c.id, exploitation: e.libelle, campagne: c.libelle });
  let choisies = queryIds(query, PARAM_CAMPAGNE).filter((id) => offertes.has(id));
  if (!query.has(PARAM_CAMPAGNE)) {
    const v = await view();
    choisies = v.campagne && offertes.has(v.campagne.id) ? [v.campagne.id] : [];
  }
  const series = await listerSeries(db, user, choisies.length ? choisies : [...offertes.keys()]);
  return { choix, campagnes: [...offertes.values()], choisies, series, versionSelectable: user.roles.includes(ROLE_TEST) };
});

const Campagnes = jsonField(z.array(idField).min(1, "calcul-serie.lancer-aide").max(50));

export const action = screenAction({
  // The launch answers at once with its job (issue 30, decision 0102): the pre-check is the job's first step, the
  // run follows in the same job; `confirme` once the user confirmed the check's warnings, `controle` the job that
  // checked (its checks are taken when the data did not change since).
  lancer: intent(
    { campagnes: Campagnes, confirme: z.literal("true").optional(), controle: idField.optional() },
    async ({ db, user }, { campagnes, confirme, controle }) => {
      const { idTache } = await lancerCalcul(db, user, campagnes, { confirme: confirme === "true", controle });
      return { ok: true as const, idTache };
    },
  ),
});

export default function Calcul({ loaderData: data }: Route.ComponentProps) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [aCalculer, setACalculer] = useState<CampagneACalculer[] | null>(null);
  // The finished series ticked for the export-result dialog (spec 3 §2.11).
  const [aExporter, setAExporter] = useState<number[]>([]);
  const [exporter, setExporter] = useState(false);
  // The sessions panel reads its list again after an export here or the global export-success event (A-PUB-08).
  const [rafraichir, setRafraichir] = useState(0);
  useExportReussi(() => setRafraichir((n) => n + 1));
  const exportables = data.series.filter((s) => s.statut === "termine");
  const cochees = exportables.filter((s) => aExporter.includes(s.id));
  // The ticked campaigns, in the address (the list of calculations follows them); none in the address is the
  // context's campaign (the loader's choice), an explicit empty selection is `?campagne=`.
  const [selection, choisir] = useSelectionCampagnes({ defaut: data.choisies, videExplicite: true });
  const choisies = selection.filter((id) => data.campagnes.some((c) => c.idCampagne === id));

  const lancer = () => {
    const liste = choisies.map((id) => data.campagnes.find((c) => c.idCampagne === id)!).filter(Boolean);
    setACalculer(liste.map((c) => ({ idCampagne: c.idCampagne, exploitation: c.exploitation, campagne: c.campagne })));
  };

  const colonnes: DataTableColumn<SerieListee>[] = [
    {
      id: "exporter",
      header: t("indicateursPublies.exporter"),
      alwaysVisible: true,
      cell: (s) =>
        s.statut === "termine" ? (
          <input
            type="checkbox"
            aria-label={t("calcul-serie.exporter-serie", { exploitation: s.exploitation, campagne: s.campagne })}
            checked={aExporter.includes(s.id)}
            onChange={(e) => setAExporter((ids) => (e.target.checked ? [...ids, s.id] : ids.filter((x) => x !== s.id)))}
            data-testid={`exporter-serie-${s.id}`}
          />
        ) : null,
    },
    { id: "exploitation", header: t("calcul-serie.colonnes.exploitation"), cell: (s) => s.exploitation, sortValue: (s) => s.exploitation },
    { id: "campagne", header: t("calcul-serie.colonnes.campagne"), cell: (s) => s.campagne, sortValue: (s) => s.campagne },
    { id: "creation", header: t("calcul-serie.colonnes.creation"), cell: (s) => formatDateTime(s.createdAt), sortValue: (s) => s.createdAt },
    { id: "fin", header: t("calcul-serie.colonnes.fin"), cell: (s) => (s.dtFin ? formatDateTime(s.dtFin) : ""), sortValue: (s) => s.dtFin ?? "" },
    {
      id: "parcelles",
      header: t("calcul-serie.colonnes.parcelles"),
      align: "right",
      cell: (s) =>
        s.statut === "en_cours" ? (
          <ProgressionSerie idSerie={s.id} libelle={{ exploitation: s.exploitation, campagne: s.campagne }} onTerminee={() => revalidator.revalidate()} />
        ) : (
          t("calcul-serie.parcelles", { reussies: s.nbParcellesTraiteesReussies, total: s.nbParcellesATraiter })
        ),
    },
    {
      id: "statut",
      header: t("calcul-serie.colonnes.etat"),
      cell: (s) => <span className={s.statut === "erreur" ? "text-red-800" : ""}>{t(`calcul-serie.statuts.${s.statut}`)}</span>,
    },
    {
      id: "etat",
      header: t("calcul-serie.colonnes.publication"),
      sortValue: (s) => s.etat,
      // A published or validated series whose campaign data changed since (decision 0072).
      cell: (s) => (
        <>
          {t(`calcul-serie.etats.${s.etat}`)}
          {s.publication && s.perimee ? <SeriePerimee /> : null}
        </>
      ),
    },
    {
      id: "ouvrir",
      header: "",
      alwaysVisible: true,
      cell: (s) =>
        s.ouvrable && s.statut === "termine" ? (
          <Link className="text-sillon-700 underline" to={`/home/resultats/calcul/${s.id}`} aria-label={t("calcul-serie.ouvrir", s)}>
            {t("calcul-serie.ouvrir-court")}
          </Link>
        ) : null,
    },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-calcul">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.calcul")}</h1>
      <SelectionCampagnes choix={data.choix} selection={choisies} onChange={choisir} titre={t("calcul-serie.selection")}>
        <button type="button" className="btn-primary" disabled={choisies.length === 0} onClick={lancer} data-testid="lancer-calcul">
          {t("calcul-serie.lancer")}
        </button>
        {choisies.length === 0 ? <span className="self-center text-sm text-stone-700">{t("calcul-serie.lancer-aide")}</span> : null}
      </SelectionCampagnes>
      <section className="space-y-2" aria-labelledby="calcul-liste">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="calcul-liste" className="text-lg font-semibold">
            {t("calcul-serie.calculs")}
          </h2>
          <button type="button" className="btn-secondary" disabled={cochees.length === 0} onClick={() => setExporter(true)} data-testid="exporter-resultats">
            {t("indicateursPublies.exporter")}
          </button>
        </div>
        <DataTable
          tableId="calculs-series"
          label={t("calcul-serie.calculs")}
          columns={colonnes}
          rows={data.series}
          getRowId={(s) => s.id}
          readOnly
          emptyText={t("calcul-serie.aucun-calcul")}
        />
      </section>
      <SessionsExport
        nature={NATURE_CALCUL}
        campagnes="calcul"
        rafraichir={rafraichir}
        titre={t("calcul-serie.sessions")}
        vide={t("calcul-serie.aucune-session")}
      />
      <SerieCalculDialog campagnes={aCalculer} onClose={() => setACalculer(null)} />
      <ExportResultatsDialog
        open={exporter}
        series={cochees}
        versionSelectable={data.versionSelectable}
        onClose={() => setExporter(false)}
        onExported={() => revalidator.revalidate()}
      />
    </div>
  );
}
