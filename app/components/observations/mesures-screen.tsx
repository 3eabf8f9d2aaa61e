import { useMemo, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useSearchParams } from "react-router";
import { formatDate } from "~/components/format";
import { ListScreen, type ListFormControls } from "~/components/list-screen";
import type { RowId } from "~/components/data-table";
import { CopieDialog, ExportDialog, ImportDialog } from "./transfer-dialogs";
import { SerieDetails } from "./serie-details";
import { lbl, type MesuresData, type SerieRow } from "./types";

/**
 * The measures screen (spec 2 §2 "Observation measures"): the plot picker (first plot selected: B-OBS-04), the
 * observation-type filter (B-OBS-08), the series list with New and Delete (B-OBS-09), Export, Import and Copy
 * (B-OBS-01, 02, 10), and the details panel of the selected series (B-OBS-12).
 */
export function MesuresScreen({ data }: { data: MesuresData }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [, setParams] = useSearchParams();
  const [type, setType] = useState<number | null>(null);
  const [dialog, setDialog] = useState<{ kind: "export" | "import" | "copie"; ids: number[] } | null>(null);
  const readOnly = !data.canWrite;
  const rows = useMemo(() => (type == null ? data.series : data.series.filter((s) => s.dicIdTypeSerie === type)), [data.series, type]);
  const typeName = (id: number) => {
    const x = data.types.find((y) => y.id === id);
    return x ? lbl(x, lang) : String(id);
  };
  const cultureName = (id: number | null) => {
    const c = data.cultures.find((y) => y.id === id);
    return c ? lbl(c, lang) : "";
  };
  const stadeName = (id: number | null) => {
    const s = data.stades.find((y) => y.id === id);
    return s ? lbl(s, lang) : "";
  };
  const plot = data.parcelles.find((p) => p.id === data.idParcelle) ?? null;

  // Another plot: its series, placettes, interventions and crops are loaded, the selected series cleared (B-OBS-05, 07).
  const choosePlot = (id: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set("parcelleId", id);
        next.delete("id");
        return next;
      },
      { preventScrollReset: true },
    );

  if (data.parcelles.length === 0) {
    return (
      <div className="mx-auto max-w-6xl space-y-4">
        <h1 className="text-xl font-semibold text-sillon-800">{t("screen.mesures")}</h1>
        <p className="card" data-testid="mesures-no-plot">
          {t("observations.aucune-parcelle")}
        </p>
      </div>
    );
  }

  const toolbar = (checked: RowId[]) => {
    const ids = checked.map(Number);
    return (
      <>
        <button
          type="button"
          className="btn-secondary"
          disabled={ids.length === 0}
          title={ids.length ? undefined : t("observations.selection-requise")}
          onClick={() => setDialog({ kind: "export", ids })}
          data-testid="mesures-export"
        >
          {t("observations.exporter")}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={readOnly || !plot}
          onClick={() => setDialog({ kind: "import", ids })}
          data-testid="mesures-import"
        >
          {t("observations.importer")}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={readOnly || ids.length === 0}
          title={ids.length ? undefined : t("observations.selection-requise")}
          onClick={() => setDialog({ kind: "copie", ids })}
          data-testid="mesures-copy"
        >
          {t("observations.copier")}
        </button>
      </>
    );
  };

  return (
    <div className="mx-auto max-w-7xl space-y-4" data-testid="mesures-screen">
      <ListScreen<SerieRow>
        tableId="mesures-series"
        title={t("screen.mesures")}
        label={t("observations.titre")}
        rows={rows}
        getRowId={(r) => r.id}
        readOnly={readOnly}
        header={
          <div className="card flex flex-wrap items-end gap-4" data-testid="mesures-toolbar">
            <div>
              <label htmlFor="mesures-parcelle" className="field-label">
                {t("observations.parcelle")}
              </label>
              <select
                id="mesures-parcelle"
                className="field-input min-w-56"
                value={data.idParcelle ?? ""}
                onChange={(e) => choosePlot(e.target.value)}
                data-testid="mesures-parcelle"
              >
                {data.parcelles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.libelle}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="mesures-type" className="field-label">
                {t("observations.type-filtre")}
              </label>
              <select
                id="mesures-type"
                className="field-input min-w-56"
                value={type ?? ""}
                onChange={(e) => setType(e.target.value ? Number(e.target.value) : null)}
                data-testid="mesures-type-filter"
              >
                <option value="">{t("observations.tous-types")}</option>
                {data.types.map((x) => (
                  <option key={x.id} value={x.id}>
                    {lbl(x, lang)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        }
        columns={[
          {
            id: "date",
            header: t("observations.colonnes.date"),
            cell: (r) => formatDate(`${r.date}T12:00:00Z`),
            sortValue: (r) => r.date,
            alwaysVisible: true,
          },
          { id: "type", header: t("observations.colonnes.type"), cell: (r) => typeName(r.dicIdTypeSerie), sortValue: (r) => typeName(r.dicIdTypeSerie) },
          { id: "nom", header: t("observations.colonnes.nom"), cell: (r) => r.nom, sortValue: (r) => r.nom, alwaysVisible: true },
          { id: "culture", header: t("observations.colonnes.culture"), cell: (r) => cultureName(r.idCulture), sortValue: (r) => cultureName(r.idCulture) },
          { id: "stade", header: t("observations.colonnes.stade"), cell: (r) => stadeName(r.idStade), optional: true },
          { id: "nb", header: t("observations.colonnes.observations"), cell: (r) => r.nbObservations, sortValue: (r) => r.nbObservations, align: "right" },
        ]}
        extraToolbar={toolbar}
        renderForm={(row: SerieRow | null, controls: ListFormControls) => <SerieDetails key={row?.id ?? "new"} data={data} row={row} controls={controls} />}
      />
      <ExportDialog open={dialog?.kind === "export"} ids={dialog?.ids ?? []} onClose={() => setDialog(null)} />
      <ImportDialog open={dialog?.kind === "import"} plot={plot} onClose={() => setDialog(null)} />
      <CopieDialog open={dialog?.kind === "copie"} ids={dialog?.ids ?? []} data={data} onClose={() => setDialog(null)} />
    </div>
  );
}
