import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import { type DataTableColumn } from "~/components/data-table";
import { AppDialog } from "~/components/dialog";
import { FormCard } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import { ListScreen, listScreenShouldRevalidate, type ListFormControls, useListForm } from "~/components/list-screen";
import { CheckField, soilDefaults, SoilFields } from "~/components/lot-amenagement-soil";
import { ScreenFrame } from "~/components/screen-frame";
import { StaleFormPanel } from "~/components/stale-form-panel";
import { LotParcelleSchema } from "~/domain/lot-parcelle";
import { deleteIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import { getLotsParcelle, LOT_LOAD_ERROR, removeLotsParcelle, saveLotParcelle } from "#server/lot-parcelle/service.server";
import type { Route } from "./+types/lot-parcelle";

/** Plot groups of the campaign (spec 2 §2 "Plot groups", §3, §4, §5, §7, §8; B-LOT-01 to B-LOT-07). */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(({ scope }) => getLotsParcelle(scope), { loadError: LOT_LOAD_ERROR });

export const action = screenAction(
  {
    save: saveIntent(LotParcelleSchema, async ({ scope }, value, edit) => {
      const saved = await saveLotParcelle(scope, value, edit);
      return { id: saved.id, replicated: edit && value.replicate ? saved.replicated : undefined };
    }),
    delete: deleteIntent(({ scope }, ids) => removeLotsParcelle(scope, ids)),
  },
  { gate: "campaign" },
);

type Data = Extract<Route.ComponentProps["loaderData"], { ok: true }>;
type Row = Data["rows"][number];
type ActionData = { ok: boolean; id?: number; replicated?: number; submission?: unknown; notice?: string; error?: string };

/** A plot group as the form's inputs hold it. */
function lotValues(row: Row, lang: string) {
  return {
    libelle: row.libelle,
    noIlotPac: row.noIlotPac,
    irrigable: row.irrigable ? "on" : undefined,
    drainee: row.drainee ? "on" : undefined,
    remarque: row.remarque,
    ...soilDefaults(row, lang),
  };
}

function LotForm({ row, data, controls }: { row: Row | null; data: Data; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const [askReplicate, setAskReplicate] = useState(false);
  const decision = useRef<"true" | "false" | null>(null);
  const replicateInput = useRef<HTMLInputElement>(null);
  const {
    fetcher,
    form,
    fields,
    markDirty,
    save: submit,
    stale,
  } = useListForm<z.input<typeof LotParcelleSchema>, z.input<typeof LotParcelleSchema>, ActionData>(controls, {
    name: "lot-parcelle",
    rowId: row?.id,
    schema: LotParcelleSchema,
    defaultValue: row ? (lotValues(row, i18n.language) as never) : undefined,
    // Saved meanwhile by someone else: the typed values stay, theirs beside them (decision 0115).
    stale: { row, values: (r: Row) => lotValues(r, i18n.language) },
  });

  // Saving an existing group first asks whether to propagate its values to its plots (B-LOT-06).
  const formProps = getFormProps(form);
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    formProps.onSubmit(e);
    if (e.defaultPrevented) return;
    if (row && decision.current === null) {
      e.preventDefault();
      setAskReplicate(true);
      return;
    }
    if (replicateInput.current) replicateInput.current.value = decision.current ?? "false";
    decision.current = null;
  }
  function answer(replicate: boolean) {
    decision.current = replicate ? "true" : "false";
    setAskReplicate(false);
    submit();
  }

  return (
    <fetcher.Form method="post" {...formProps} onSubmit={onSubmit} onInput={markDirty} className="space-y-3" data-testid="lot-form">
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <input type="hidden" name={fields.replicate.name} defaultValue="false" ref={replicateInput} />
      <fieldset disabled={controls.readOnly} className="space-y-3">
        <FormCard title={t("lotParcelle.card-resume")} testId="lot-card-resume">
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id={fields.libelle.id} label={t("lotParcelle.libelle")} errors={fields.libelle.errors}>
              <TextInput
                {...getInputProps(fields.libelle, { type: "text" })}
                autoFocus
                invalid={!!fields.libelle.errors}
                describedBy={`${fields.libelle.id}-error`}
              />
            </Field>
            <Field id={fields.noIlotPac.id} label={t("lotParcelle.noIlotPac")} errors={fields.noIlotPac.errors}>
              <TextInput
                {...getInputProps(fields.noIlotPac, { type: "text" })}
                invalid={!!fields.noIlotPac.errors}
                describedBy={`${fields.noIlotPac.id}-error`}
              />
            </Field>
            <CheckField field={fields.irrigable} label={t("lotParcelle.irrigable")} />
            <CheckField field={fields.drainee} label={t("lotParcelle.drainee")} />
            <div className="sm:col-span-2">
              <Field id={fields.remarque.id} label={t("lotParcelle.remarque")} errors={fields.remarque.errors}>
                <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={2} />
              </Field>
            </div>
          </div>
        </FormCard>
        <FormCard title={t("lotParcelle.card-sol")} testId="lot-card-sol">
          <SoilFields fields={fields} lists={data.lists} />
        </FormCard>
      </fieldset>
      <StaleFormPanel
        stale={stale}
        labels={(["libelle", "noIlotPac", "irrigable", "drainee", "remarque"] as const).map((name) => ({ name, label: t(`lotParcelle.${name}`) }))}
        say={(name, v) => (name === "irrigable" || name === "drainee" ? (v ? t("ui.yes") : t("ui.no")) : v)}
      />
      {fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.replicated !== undefined ? (
        <p role="status" className="text-sm text-sillon-800" data-testid="lot-replicated">
          {t("lotParcelle.replicated", { count: fetcher.data.replicated })}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>
          {t("ui.close")}
        </button>
        {!controls.readOnly ? (
          <button type="submit" className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="list-save">
            {row ? t("ui.save") : t("ui.add")}
          </button>
        ) : null}
      </div>
      <AppDialog
        open={askReplicate}
        title={t("lotParcelle.replicate-title")}
        width={500}
        testId="replicate-dialog"
        onEscape={() => setAskReplicate(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setAskReplicate(false)}>
              {t("ui.cancel")}
            </button>
            <button type="button" className="btn-secondary" onClick={() => answer(false)} data-testid="replicate-no">
              {t("lotParcelle.no")}
            </button>
            <button type="button" className="btn-primary" onClick={() => answer(true)} data-testid="replicate-yes">
              {t("lotParcelle.yes")}
            </button>
          </>
        }
      >
        <p>{t("lotParcelle.replicate-text", { count: row?.nbParcelles ?? 0 })}</p>
        <p className="mt-2 text-xs text-stone-600">{t("lotParcelle.replicate-help")}</p>
      </AppDialog>
    </fetcher.Form>
  );
}

function Screen({ data }: { data: Data }) {
  const { t } = useTranslation();
  const yesNo = (b: boolean) => (b ? t("ui.yes") : t("ui.no"));
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("lotParcelle.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    { id: "noIlotPac", header: t("lotParcelle.noIlotPac"), cell: (r) => r.noIlotPac ?? "", sortValue: (r) => r.noIlotPac ?? null },
    { id: "irrigable", header: t("lotParcelle.irrigable"), cell: (r) => yesNo(r.irrigable), sortValue: (r) => Number(r.irrigable) },
    { id: "drainee", header: t("lotParcelle.drainee"), cell: (r) => yesNo(r.drainee), sortValue: (r) => Number(r.drainee) },
    { id: "nbParcelles", header: t("lotParcelle.nbParcelles"), cell: (r) => r.nbParcelles, sortValue: (r) => r.nbParcelles, align: "right" },
    { id: "remarque", header: t("lotParcelle.remarque"), cell: (r) => r.remarque ?? "", optional: true },
  ];
  // The deletion modal's note (B-LOT-04): the plots of a deleted group stay, without a group.
  const deleteNote = (
    <p className="mt-2 text-xs text-stone-600" role="note" data-testid="delete-note">
      {t("lotParcelle.delete-note")}
    </p>
  );
  return (
    <ListScreen
      deleteNote={deleteNote}
      tableId="lot_parcelle"
      title={t("screen.lot_parcelle")}
      label={t("screen.lot_parcelle")}
      rows={data.rows}
      columns={columns}
      getRowId={(r) => r.id}
      readOnly={!data.canWrite}
      renderForm={(row, controls) => <LotForm row={row} data={data} controls={controls} />}
    />
  );
}

export default function LotParcelleScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.lot_parcelle")} name="screen-lot_parcelle">
      {(data) => (
        <div className="mx-auto max-w-5xl space-y-4" data-testid="screen-lot_parcelle">
          <Screen data={data} />
        </div>
      )}
    </ScreenFrame>
  );
}
