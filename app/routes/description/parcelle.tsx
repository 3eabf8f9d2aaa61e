import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useHref } from "react-router";
import { type DataTableColumn } from "~/components/data-table";
import { formatNumber } from "~/components/farm-form";
import { ListScreen, listScreenShouldRevalidate } from "~/components/list-screen";
import { AffectationsDialog } from "~/components/parcelle/affectations-dialog";
import { AutresMenu, type AutreAction } from "~/components/parcelle/autres-menu";
import { EgesDialog } from "~/components/parcelle/eges-dialog";
import { ImportDialog } from "~/components/parcelle/import-dialog";
import { MajDatesDialog } from "~/components/parcelle/maj-dates-dialog";
import { ParcelleForm } from "~/components/parcelle/parcelle-form";
import { AffectationsSchema, MajDatesCampagneSchema, MajDatesSchema, ParcelleSchema } from "~/domain/parcelle";
import { mapConfig } from "#server/env.server";
import { deleteIntent, formIntent, idField, intent, jsonField, queryId, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import { affecterEges, getAffectationEges } from "#server/intrant-dossier/service.server";
import {
  getAffectations,
  getHistoriqueTree,
  getParcelles,
  majDatesActions,
  majDatesCampagne,
  removeParcelles,
  saveAffectations,
  saveParcelle,
} from "#server/parcelle/service.server";
import type { Route } from "./+types/parcelle";

export const shouldRevalidate = listScreenShouldRevalidate;

/**
 * Plots (spec 2 §2 "Plots", §3, §4, §5, §7). The loader also answers the dialogs' requests:
 * `?departement=NN` (communes), `?arbre=ID` (history tree), `?affectations=1` (cost centres), `?eges=1`
 * (greenhouse-gas categories of the folder's fertilisers).
 */
export const loader = screenLoader(async ({ scope, query }) => {
  const arbre = queryId(query, "arbre");
  return {
    ...(await getParcelles(scope, { departement: query.get("departement") })),
    mapConfig: mapConfig(),
    arbre: arbre ? await getHistoriqueTree(scope, arbre) : null,
    affectations: query.get("affectations") ? await getAffectations(scope) : null,
    eges: query.get("eges") ? await getAffectationEges(scope) : null,
  };
});

export const action = screenAction(
  {
    save: saveIntent(ParcelleSchema, ({ scope }, value, edit) => saveParcelle(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeParcelles(scope, ids)),
    majDates: formIntent(MajDatesSchema, async ({ scope }, value) => ({ moved: await majDatesActions(scope, value) }), {
      notice: "ui.update-confirmation",
      reset: true,
    }),
    majDatesCampagne: formIntent(MajDatesCampagneSchema, async ({ scope }, value) => ({ moved: await majDatesCampagne(scope, value) }), {
      notice: "ui.update-confirmation",
      reset: true,
    }),
    affectationEges: intent({ idDossier: idField }, async ({ scope }, { idDossier }) => ({
      ok: true as const,
      resultat: await affecterEges(scope, idDossier),
      notice: "ui.update-confirmation",
    })),
    affectations: intent({ affectations: jsonField(AffectationsSchema) }, async ({ scope }, { affectations }) => {
      await saveAffectations(scope, affectations);
      return { ok: true as const, notice: "ui.update-confirmation" };
    }),
  },
  { gate: "campaign", gateExcept: ["affectationEges"] },
);

type Data = Route.ComponentProps["loaderData"];
type Row = Data["rows"][number];

export default function ParcelleScreen({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState<{ action: AutreAction; ids: (string | number)[] } | null>(null);
  const [importing, setImporting] = useState(false);
  const exportHref = useHref("export.geojson");
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("parcelle.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    { id: "mode", header: t("parcelle.idModeConduite"), cell: (r) => r.libelleModeConduite ?? "", sortValue: (r) => r.libelleModeConduite ?? "" },
    { id: "lot", header: t("parcelle.idLot"), cell: (r) => r.libelleLot ?? "", sortValue: (r) => r.libelleLot ?? "" },
    { id: "surface", header: t("parcelle.surface"), cell: (r) => formatNumber(r.surface, i18n.language), sortValue: (r) => r.surface, align: "right" },
    { id: "commune", header: t("parcelle.commune"), cell: (r) => r.libelleCommune ?? "", sortValue: (r) => r.libelleCommune ?? "", optional: true },
    { id: "codePostal", header: t("parcelle.codePostal"), cell: (r) => r.codePostal ?? "", sortValue: (r) => r.codePostal ?? "", optional: true },
    { id: "codeInsee", header: t("parcelle.codeInsee"), cell: (r) => r.codeInsee ?? "", sortValue: (r) => r.codeInsee ?? "", optional: true },
    {
      id: "interventions",
      header: t("parcelle.interventions"),
      alwaysVisible: true,
      align: "center",
      cell: (r) => (
        <Link
          to={`../../au_champs/interventions?parcelleId=${r.id}`}
          relative="path"
          className="text-sillon-700 underline hover:text-sillon-900"
          aria-label={t("parcelle.interventions-of", { libelle: r.libelle })}
          onClick={(e) => e.stopPropagation()}
          data-testid={`interventions-${r.id}`}
        >
          {t("parcelle.interventions")}
        </Link>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <ListScreen
        tableId="parcelle"
        title={t("screen.parcelle")}
        label={t("screen.parcelle")}
        rows={data.rows}
        columns={columns}
        getRowId={(r) => r.id}
        extraToolbar={(checked) => (
          <>
            <button type="button" className="btn-secondary" disabled={!data.canWrite} onClick={() => setImporting(true)} data-testid="parcelle-import">
              {t("parcelle.import.button")}
            </button>
            <a href={exportHref} download className="btn-secondary" title={t("parcelle.export.title")} data-testid="parcelle-export">
              {t("parcelle.export.button")}
            </a>
            <AutresMenu disabled={!data.canWrite} onChoose={(action) => setDialog({ action, ids: checked })} />
          </>
        )}
        renderForm={(row, controls) => <ParcelleForm row={row} data={data} controls={controls} />}
      />
      <ImportDialog open={importing} mapConfig={data.mapConfig} onClose={() => setImporting(false)} />
      <AffectationsDialog open={dialog?.action === "affectations"} onClose={() => setDialog(null)} />
      <EgesDialog open={dialog?.action === "eges"} onClose={() => setDialog(null)} />
      <MajDatesDialog open={dialog?.action === "majDates"} ids={dialog?.ids ?? []} anneeCampagne={data.campagne.anneeRecolte} onClose={() => setDialog(null)} />
    </div>
  );
}
