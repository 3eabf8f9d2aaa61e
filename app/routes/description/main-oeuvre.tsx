import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import { type DataTableColumn } from "~/components/data-table";
import { Field, TextInput } from "~/components/field";
import { formatEuro, formatNumber, numberText } from "~/components/format";
import { ListSaveButton, ListScreen, listScreenShouldRevalidate, useListForm, type ListFormControls } from "~/components/list-screen";
import { ScreenFrame } from "~/components/screen-frame";
import { StaleFormPanel } from "~/components/stale-form-panel";
import { labourNorm, labourTotals, type NormesMainOeuvre } from "~/domain/calc/main-oeuvre";
import { MainOeuvreSchema, TYPES_MAIN_OEUVRE } from "~/domain/main-oeuvre";
import { deleteIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import { getMainOeuvres, MO_LOAD_ERROR, removeMainOeuvres, saveMainOeuvre } from "#server/main-oeuvre/service.server";
import type { Route } from "./+types/main-oeuvre";

export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(({ scope }) => getMainOeuvres(scope), { loadError: MO_LOAD_ERROR });

export const action = screenAction(
  {
    save: saveIntent(MainOeuvreSchema, ({ scope }, value, edit) => saveMainOeuvre(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeMainOeuvres(scope, ids)),
  },
  { gate: "campaign" },
);

type Data = Extract<Route.ComponentProps["loaderData"], { ok: true }>;
type Row = Data["rows"][number];

/** A labour row as the form's inputs hold it. */
const mainOeuvreValues = (row: Row, lang: string) => ({
  libelle: row.libelle,
  idTypeUser: String(row.idTypeUser),
  uta: numberText(row.uta, lang),
  montant: numberText(row.montant, lang),
  remarque: row.remarque ?? undefined,
});

function MainOeuvreForm({ row, controls }: { row: Row | null; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { fetcher, form, fields, dirty, markDirty, stale } = useListForm<z.input<typeof MainOeuvreSchema>>(controls, {
    name: "main-oeuvre",
    rowId: row?.id,
    schema: MainOeuvreSchema,
    defaultValue: row ? (mainOeuvreValues(row, lang) as never) : undefined,
    // Saved meanwhile by someone else: the typed values stay, theirs beside them (decision 0115).
    stale: { row, values: (r: Row) => mainOeuvreValues(r, lang) },
  });

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty}>
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <fieldset disabled={controls.readOnly} className="grid gap-3 sm:grid-cols-2">
        <Field id={fields.libelle.id} label={t("mainOeuvre.libelle")} errors={fields.libelle.errors}>
          <TextInput {...getInputProps(fields.libelle, { type: "text" })} autoFocus invalid={!!fields.libelle.errors} />
        </Field>
        <Field id={fields.idTypeUser.id} label={t("mainOeuvre.type")} errors={fields.idTypeUser.errors}>
          <select {...getSelectProps(fields.idTypeUser)} className="field-input">
            <option value="">{t("context.choose")}</option>
            {TYPES_MAIN_OEUVRE.map((ty) => (
              <option key={ty} value={ty}>
                {t(`mainOeuvre.types.${ty}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={fields.uta.id} label={t("mainOeuvre.uta")} errors={fields.uta.errors}>
          <TextInput {...getInputProps(fields.uta, { type: "text" })} inputMode="decimal" invalid={!!fields.uta.errors} />
        </Field>
        <Field id={fields.montant.id} label={t("mainOeuvre.montant")} errors={fields.montant.errors}>
          <TextInput {...getInputProps(fields.montant, { type: "text" })} inputMode="decimal" invalid={!!fields.montant.errors} />
        </Field>
        <div className="sm:col-span-2">
          <Field id={fields.remarque.id} label={t("mainOeuvre.remarque")} errors={fields.remarque.errors}>
            <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={2} />
          </Field>
        </div>
      </fieldset>
      <StaleFormPanel
        stale={stale}
        labels={[
          { name: "libelle", label: t("mainOeuvre.libelle") },
          { name: "idTypeUser", label: t("mainOeuvre.type") },
          { name: "uta", label: t("mainOeuvre.uta") },
          { name: "montant", label: t("mainOeuvre.montant") },
          { name: "remarque", label: t("mainOeuvre.remarque") },
        ]}
        say={(name, v) => (name === "idTypeUser" && v ? t(`mainOeuvre.types.${v}`) : v)}
      />
      <div className="mt-2 flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>
          {t("ui.close")}
        </button>
        <ListSaveButton isNew={!row} valid={form.valid} dirty={dirty} busy={fetcher.state !== "idle"} readOnly={controls.readOnly} />
      </div>
    </fetcher.Form>
  );
}

function Totals({ rows, normes }: { rows: Row[]; normes: NormesMainOeuvre }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const totals = labourTotals(rows, normes);
  const fmt = (n: number) => formatNumber(n, lang, 3);
  return (
    <section className="card" aria-labelledby="mo-totals" data-testid="main-oeuvre-totals">
      <h2 id="mo-totals" className="mb-2 font-semibold">
        {t("mainOeuvre.totals")}
      </h2>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <dt className="text-stone-600">{t("mainOeuvre.total-uta")}</dt>
        <dd data-testid="total-uta">{fmt(totals.total.uta)}</dd>
        <dt className="text-stone-600">{t("mainOeuvre.total-salaries")}</dt>
        <dd>{fmt(totals.salarie.uta)}</dd>
        <dt className="text-stone-600">{t("mainOeuvre.total-famille")}</dt>
        <dd>{fmt(totals.familial.uta)}</dd>
        <dt className="text-stone-600">{t("mainOeuvre.total-montant")}</dt>
        <dd>{formatEuro(totals.total.montant, lang)}</dd>
        <dt className="text-stone-600">{t("mainOeuvre.total-norme")}</dt>
        <dd data-testid="total-norme">{formatEuro(totals.total.norme, lang)}</dd>
      </dl>
    </section>
  );
}

export default function MainOeuvreScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.main_oeuvre")} name="main-oeuvre">
      {(data) => <MainOeuvreList loaderData={data} />}
    </ScreenFrame>
  );
}

function MainOeuvreList({ loaderData }: { loaderData: Data }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("mainOeuvre.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    { id: "type", header: t("mainOeuvre.type"), cell: (r) => t(`mainOeuvre.types.${r.idTypeUser}`), sortValue: (r) => r.idTypeUser },
    { id: "uta", header: t("mainOeuvre.uta"), cell: (r) => formatNumber(r.uta, lang, 3), sortValue: (r) => r.uta, align: "right" },
    {
      id: "montant",
      header: t("mainOeuvre.montant"),
      cell: (r) => (r.montant != null ? formatEuro(r.montant, lang) : ""),
      sortValue: (r) => r.montant ?? null,
      align: "right",
    },
    {
      id: "norme",
      header: t("mainOeuvre.norme"),
      cell: (r) => {
        const n = labourNorm(r, loaderData.normes);
        return n === null ? "" : formatEuro(n, lang);
      },
      sortValue: (r) => labourNorm(r, loaderData.normes),
      align: "right",
    },
    { id: "remarque", header: t("mainOeuvre.remarque"), cell: (r) => r.remarque ?? "", optional: true },
  ];
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <ListScreen
        tableId="main_oeuvre"
        title={t("screen.main_oeuvre")}
        label={t("screen.main_oeuvre")}
        rows={loaderData.rows}
        columns={columns}
        getRowId={(r) => r.id}
        renderForm={(row, controls) => <MainOeuvreForm row={row} controls={controls} />}
      />
      <Totals rows={loaderData.rows} normes={loaderData.normes} />
    </div>
  );
}
