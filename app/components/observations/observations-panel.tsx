import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatNumber, numberText } from "~/components/format";
import type { GridColumnDef } from "~/components/grid/columns";
import { DataGrid } from "~/components/grid/data-grid";
import { useGridSave } from "~/components/grid/use-grid-save";
import {
  champPlacette,
  classeDensite,
  classeEfficacite,
  DossierObservationSchema,
  estSerieAdventices,
  estSerieSol,
  HorizonSchema,
  observationRowSchema,
} from "~/domain/observation";
import { lbl, type HorizonRow, type MesuresData, type ObservationRow, type SerieRow } from "./types";

type Row = ObservationRow & Record<string, unknown>;

/**
 * The observations of a series (spec 2 §2 observations table, B-OBS-33..50): the ONE grid (app/components/grid/)
 * with element, the value (one column per chosen placette in placette mode), unit, comment; a horizon column for
 * soil series, weed and stage columns in place of the unit for weed series; typed or pasted from a spreadsheet,
 * undo, Ctrl+S, saved in one transaction. Below: the row deletion, the horizons of a soil series, the folder
 * observation dialog.
 */
export function ObservationsPanel({
  data,
  row,
  readOnly,
  onPlacettes,
}: {
  data: MesuresData;
  row: SerieRow | null;
  readOnly: boolean;
  onPlacettes: () => void;
}) {
  const { t } = useTranslation();
  if (!row) {
    return (
      <section aria-labelledby="obs-title" className="rounded border border-dashed border-stone-300 p-4" data-testid="observations-after-create">
        <h2 id="obs-title" className="font-semibold">
          {t("observations.table.titre")}
        </h2>
        <p className="text-sm text-stone-600">{t("observations.table.apres-creation")}</p>
      </section>
    );
  }
  const detail = data.detail?.idSerie === row.id ? data.detail : null;
  if (!detail) return <p className="text-sm text-stone-600">{t("grid.loading")}</p>;
  return <Observations data={data} serie={row} rows={detail.observations as Row[]} horizons={detail.horizons} readOnly={readOnly} onPlacettes={onPlacettes} />;
}

function Observations({
  data,
  serie,
  rows,
  horizons,
  readOnly,
  onPlacettes,
}: {
  data: MesuresData;
  serie: SerieRow;
  rows: Row[];
  horizons: HorizonRow[];
  readOnly: boolean;
  onPlacettes: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const type = serie.dicIdTypeSerie;
  const sol = estSerieSol(type);
  const adventices = estSerieAdventices(type);
  const placettes = useMemo(
    () => (serie.isPlacetteSelected ? data.placettes.filter((p) => serie.placettes.includes(p.id)) : []),
    [serie.isPlacetteSelected, serie.placettes, data.placettes],
  );
  const onSave = useGridSave({ fields: { idSerie: String(serie.id) } });
  const [cursor, setCursor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [dossierObs, setDossierObs] = useState(false);
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(deleter.data);

  const schema = useMemo(() => observationRowSchema(placettes.map((p) => p.id)), [placettes]);
  const columns = useMemo<GridColumnDef<Row>[]>(() => {
    // The elements of the type (B-OBS-25: the type's list, the folder's own elements of that type), by label (B-OBS-40).
    const elements = data.elements.filter((e) => e.idType === type).map((e) => ({ value: e.element, label: lbl(e, lang) }));
    const value: GridColumnDef<Row>[] = placettes.length
      ? placettes.map((p) => ({
          id: champPlacette(p.id),
          kind: "number",
          title: t("observations.table.valeur-placette", { libelle: p.libelle }),
          width: 180,
          decimals: 4,
        }))
      : [{ id: "valeur", kind: "number", title: t("observations.table.valeur"), width: 110, decimals: 4 }];
    const weeds = data.adventices.map((a) => ({ value: a.id, label: lbl(a, lang) }));
    const weedStages = data.adventices.flatMap((a) => a.stades.map((s) => ({ value: s.id, label: `${lbl(a, lang)} – ${lbl(s, lang)}` })));
    const classes = [
      ...(data.adventices[0]?.densites ?? []).map((d) => ({ value: classeDensite(d.ordre), label: lbl(d, lang) })),
      ...data.efficacites.map((e) => ({ value: classeEfficacite(e.ordre), label: lbl(e, lang) })),
    ];
    return [
      { id: "element", kind: "choice", title: t("observations.table.element"), width: 240, options: elements },
      ...value,
      ...(adventices
        ? [
            { id: "classe", kind: "choice", title: t("observations.table.classe"), width: 200, options: classes } as const,
            { id: "idAdventice", kind: "choice", title: t("observations.table.adventice"), width: 180, options: weeds } as const,
            // The weed's stage replaces the unit (B-OBS-38).
            { id: "stadeAdventice", kind: "choice", title: t("observations.table.stade-adventice"), width: 220, options: weedStages } as const,
          ]
        : [{ id: "unite", kind: "text", title: t("observations.table.unite"), width: 110 } as const]),
      ...(sol
        ? [
            {
              id: "idHorizon",
              kind: "choice",
              title: t("observations.table.horizon"),
              width: 140,
              options: horizons.map((h) => ({ value: h.id, label: h.name })),
            } as const,
          ]
        : []),
      { id: "remarque", kind: "text", title: t("observations.table.remarque"), width: 220 },
    ];
  }, [data.elements, data.adventices, data.efficacites, type, placettes, adventices, sol, horizons, lang, t]);

  const newRow = useMemo(() => (readOnly ? undefined : () => ({}) as Partial<Row>), [readOnly]);
  const selected = rows.find((r) => r.id === cursor) ?? null;

  return (
    <section aria-labelledby="obs-title" className="min-w-0 space-y-2" data-testid="observations-panel">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="obs-title" className="font-semibold">
          {t("observations.table.titre")}
        </h2>
        <div className="ml-auto flex flex-wrap gap-2">
          <button type="button" className="btn-secondary" onClick={onPlacettes} data-testid="observations-placettes">
            {t("observations.placettes.bouton")}
          </button>
          <button type="button" className="btn-secondary" disabled={readOnly} onClick={() => setDossierObs(true)} data-testid="observations-dossier-obs">
            {t("observations.dossier-obs.bouton")}
          </button>
          {/* The delete action is hidden for a reader (B-OBS-36, B-RIGHTS-08). */}
          {readOnly ? null : (
            <button type="button" className="btn-secondary" disabled={!selected} onClick={() => setConfirm(true)} data-testid="observations-delete-row">
              {t("observations.table.supprimer-ligne")}
            </button>
          )}
        </div>
      </div>
      {readOnly ? null : <p className="text-xs text-stone-600">{t("observations.table.aide")}</p>}
      <DataGrid<Row>
        tableId={`observations-${type}${placettes.length ? "-placettes" : ""}`}
        label={t("observations.table.titre")}
        columns={columns}
        rows={rows}
        rowSchema={schema}
        readOnly={readOnly}
        newRow={newRow}
        onSave={onSave}
        onSelect={setCursor}
        height={Math.min(420, 36 * (rows.length + 2) + 40)}
      />
      {rows.length === 0 ? (
        <p role="status" className="text-sm text-amber-800" data-testid="observations-required">
          {t("observations.table.requises")}
        </p>
      ) : null}
      {sol ? <HorizonsTable serie={serie} horizons={horizons} readOnly={readOnly} /> : null}
      <AppDialog
        open={confirm}
        title={t("observations.table.supprimer-ligne")}
        width={500}
        testId="observation-delete-dialog"
        onEscape={() => setConfirm(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setConfirm(false)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                setConfirm(false);
                if (selected) void deleter.submit({ intent: "deleteObservation", idSerie: String(serie.id), id: String(selected.id) }, { method: "post" });
              }}
              data-testid="observation-delete-confirm"
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("observations.table.supprimer-confirmer")}</p>
      </AppDialog>
      <DossierObservationDialog open={dossierObs} data={data} type={type} onClose={() => setDossierObs(false)} />
    </section>
  );
}

/** The horizons of a soil series (B-HOR-01..10): a table with a create/edit dialog; limits in cm. */
function HorizonsTable({ serie, horizons, readOnly }: { serie: SerieRow; horizons: HorizonRow[]; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  // An unsaved horizon is known by a client-only temporary id (B-HOR-03), never sent: each New is a fresh row.
  const [editing, setEditing] = useState<HorizonRow | { localId: string } | null>(null);
  const localIds = useRef(0);
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(deleter.data);
  return (
    <section aria-labelledby="horizons-title" className="rounded border border-stone-200 p-3" data-testid="horizons">
      <div className="mb-2 flex items-center gap-2">
        <h3 id="horizons-title" className="text-sm font-semibold">
          {t("observations.horizon.titre")}
        </h3>
        {readOnly ? null : (
          <button
            type="button"
            className="btn-secondary ml-auto"
            onClick={() => setEditing({ localId: `local-${++localIds.current}` })}
            data-testid="horizon-new"
          >
            {t("observations.horizon.nouveau")}
          </button>
        )}
      </div>
      {horizons.length === 0 ? (
        <p className="text-sm text-stone-600">{t("observations.horizon.aucun")}</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th className="py-1">{t("observations.horizon.name")}</th>
              <th>{t("observations.horizon.limite-sup")}</th>
              <th>{t("observations.horizon.limite-inf")}</th>
              <th>
                <span className="sr-only">{t("observations.horizon.modifier")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {horizons.map((h) => (
              <tr key={h.id} className="border-t border-stone-200" data-testid={`horizon-${h.id}`}>
                <td className="py-1">{h.name}</td>
                <td>{formatNumber(h.limiteSup, i18n.language, 2)}</td>
                <td>{formatNumber(h.limiteInf, i18n.language, 2)}</td>
                <td className="text-right">
                  {readOnly ? null : (
                    <>
                      <button type="button" className="btn-secondary" onClick={() => setEditing(h)}>
                        {t("observations.horizon.modifier")}
                      </button>{" "}
                      <button
                        type="button"
                        className="btn-secondary"
                        onClick={() => void deleter.submit({ intent: "deleteHorizon", idSerie: String(serie.id), id: String(h.id) }, { method: "post" })}
                      >
                        {t("observations.horizon.supprimer")}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <HorizonDialog
          key={"localId" in editing ? editing.localId : editing.id}
          serie={serie}
          localId={"localId" in editing ? editing.localId : undefined}
          horizon={"localId" in editing ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function HorizonDialog({ serie, horizon, localId, onClose }: { serie: SerieRow; horizon: HorizonRow | null; localId?: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm({
    id: `horizon-${horizon?.id ?? localId}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: {
      name: horizon?.name ?? "",
      limiteSup: numberText(horizon?.limiteSup, i18n.language) ?? "",
      limiteInf: numberText(horizon?.limiteInf, i18n.language) ?? "",
    },
    shouldValidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: HorizonSchema }) as never,
  });
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <AppDialog
      open
      title={horizon ? horizon.name : t("observations.horizon.nouveau")}
      width={500}
      testId="horizon-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          {/* Saved only when valid (B-HOR-10). */}
          <button type="submit" form={form.id} className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="horizon-save">
            {t("ui.save")}
          </button>
        </>
      }
    >
      <fetcher.Form method="post" {...getFormProps(form)} data-local-id={localId}>
        <input type="hidden" name="intent" value="saveHorizon" />
        <input type="hidden" name="idSerie" value={serie.id} />
        {horizon ? (
          <>
            <input type="hidden" name="id" value={horizon.id} />
            <input type="hidden" name="updatedAt" value={horizon.updatedAt} />
          </>
        ) : null}
        <Field id={fields.name.id} label={t("observations.horizon.name")} errors={fields.name.errors}>
          <TextInput {...getInputProps(fields.name, { type: "text" })} invalid={!!fields.name.errors} data-testid="horizon-name" />
        </Field>
        <Field id={fields.limiteSup.id} label={t("observations.horizon.limite-sup")} errors={fields.limiteSup.errors}>
          <TextInput {...getInputProps(fields.limiteSup, { type: "text" })} inputMode="decimal" invalid={!!fields.limiteSup.errors} data-testid="horizon-sup" />
        </Field>
        <Field id={fields.limiteInf.id} label={t("observations.horizon.limite-inf")} errors={fields.limiteInf.errors}>
          <TextInput {...getInputProps(fields.limiteInf, { type: "text" })} inputMode="decimal" invalid={!!fields.limiteInf.errors} data-testid="horizon-inf" />
        </Field>
      </fetcher.Form>
    </AppDialog>
  );
}

/** The add-folder-observation dialog (B-OBS-48..50): type and label required, unit and comment optional. */
function DossierObservationDialog({ open, data, type, onClose }: { open: boolean; data: MesuresData; type: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm({
    id: "dossier-observation",
    lastResult: fetcher.data?.submission as never,
    defaultValue: { dicIdTypeIntrant: String(type), libelle: "", dicLlUnite: "", remarque: "" },
    shouldValidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DossierObservationSchema }) as never,
  });
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <AppDialog
      open={open}
      title={t("observations.dossier-obs.titre")}
      width={500}
      testId="dossier-obs-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button type="submit" form={form.id} className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="dossier-obs-save">
            {t("ui.add")}
          </button>
        </>
      }
    >
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="saveDossierObservation" />
        <Field id={fields.dicIdTypeIntrant.id} label={t("observations.dossier-obs.type")} errors={fields.dicIdTypeIntrant.errors}>
          <select
            id={fields.dicIdTypeIntrant.id}
            name={fields.dicIdTypeIntrant.name}
            defaultValue={String(type)}
            className="field-input"
            data-testid="dossier-obs-type"
          >
            <option value="">{t("context.choose")}</option>
            {data.types.map((x) => (
              <option key={x.id} value={x.id}>
                {lbl(x, i18n.language)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={fields.libelle.id} label={t("observations.dossier-obs.libelle")} errors={fields.libelle.errors}>
          <TextInput {...getInputProps(fields.libelle, { type: "text" })} invalid={!!fields.libelle.errors} data-testid="dossier-obs-libelle" />
        </Field>
        <Field id={fields.dicLlUnite.id} label={t("observations.dossier-obs.unite")} errors={fields.dicLlUnite.errors}>
          <TextInput {...getInputProps(fields.dicLlUnite, { type: "text" })} data-testid="dossier-obs-unite" />
        </Field>
        <Field id={fields.remarque.id} label={t("observations.dossier-obs.remarque")} errors={fields.remarque.errors}>
          <TextInput {...getInputProps(fields.remarque, { type: "text" })} data-testid="dossier-obs-remarque" />
        </Field>
      </fetcher.Form>
    </AppDialog>
  );
}
