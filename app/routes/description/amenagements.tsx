import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import { type DataTableColumn } from "~/components/data-table";
import { formatNumber, FormCard, numberText } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import { ListScreen, listScreenShouldRevalidate, type ListFormControls, useListForm } from "~/components/list-screen";
import { CheckField, soilDefaults, SoilFields } from "~/components/lot-amenagement-soil";
import { ScreenFrame } from "~/components/screen-frame";
import { StaleFormPanel } from "~/components/stale-form-panel";
import { AmenagementSchema, UNITES_SURFACE, type UniteSurface } from "~/domain/amenagement";
import { AMENAGEMENT_LOAD_ERROR, getAmenagements, removeAmenagements, saveAmenagement } from "#server/amenagement/service.server";
import { deleteIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import type { Route } from "./+types/amenagements";

/** Landscape features of the campaign (spec 2 §2, §3, §5, §7, §8; B-AMEN-01 to B-AMEN-06). */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(({ scope }) => getAmenagements(scope), { loadError: AMENAGEMENT_LOAD_ERROR });

export const action = screenAction(
  {
    save: saveIntent(AmenagementSchema, ({ scope }, value, edit) => saveAmenagement(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeAmenagements(scope, ids)),
  },
  { gate: "campaign" },
);

type Data = Extract<Route.ComponentProps["loaderData"], { ok: true }>;
type Row = Data["rows"][number];
type TypeAmenagement = Data["types"][number];

const isUnite = (u: string): u is UniteSurface => (UNITES_SURFACE as readonly string[]).includes(u);

function typeLabel(ty: TypeAmenagement | undefined, language: string): string {
  if (!ty) return "";
  return language === "en" && ty.iaeNomEn ? ty.iaeNomEn : ty.iaeNom;
}

/** A landscape feature as the form's inputs hold it. */
function amenagementValues(row: Row, lang: string) {
  return {
    libelle: row.libelle,
    idTypeAmenagement: String(row.idTypeAmenagement),
    idParcelleAdjacente: row.idParcelleAdjacente != null ? String(row.idParcelleAdjacente) : undefined,
    surface: numberText(row.surface, lang),
    remarque: row.remarque,
    noIlotPac: row.noIlotPac,
    irrigable: row.irrigable ? "on" : undefined,
    drainee: row.drainee ? "on" : undefined,
    ...soilDefaults(row, lang),
  };
}

function AmenagementForm({ row, data, controls }: { row: Row | null; data: Data; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [idType, setIdType] = useState(row ? String(row.idTypeAmenagement) : "");
  const { fetcher, form, fields, markDirty, stale } = useListForm<z.input<typeof AmenagementSchema>>(controls, {
    name: "amenagement",
    rowId: row?.id,
    schema: AmenagementSchema,
    defaultValue: row ? (amenagementValues(row, lang) as never) : undefined,
    // Saved meanwhile by someone else: the typed values stay, theirs beside them (decision 0115).
    stale: { row, values: (r: Row) => amenagementValues(r, lang) },
  });

  // The unit of the chosen type shows next to the surface field (B-AMEN-03).
  // The form's value first: "take theirs" (after a stale save) puts a type in without a change event.
  const chosen = data.types.find((ty) => String(ty.id) === String(fields.idTypeAmenagement.value ?? idType));
  const unite = chosen && isUnite(chosen.uniteSurface) ? chosen.uniteSurface : null;
  const unitId = `${fields.surface.id}-unit`;

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty} className="space-y-3" data-testid="amenagement-form">
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <fieldset disabled={controls.readOnly} className="space-y-3">
        <FormCard title={t("amenagement.card-resume")}>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id={fields.libelle.id} label={t("amenagement.libelle")} errors={fields.libelle.errors}>
              <TextInput
                {...getInputProps(fields.libelle, { type: "text" })}
                autoFocus
                invalid={!!fields.libelle.errors}
                describedBy={`${fields.libelle.id}-error`}
              />
            </Field>
            <Field id={fields.idTypeAmenagement.id} label={t("amenagement.type")} errors={fields.idTypeAmenagement.errors}>
              <select
                {...getSelectProps(fields.idTypeAmenagement)}
                className="field-input"
                aria-invalid={!!fields.idTypeAmenagement.errors || undefined}
                onChange={(e) => setIdType(e.target.value)}
              >
                <option value="">{t("context.choose")}</option>
                {data.types.map((ty) => (
                  <option key={ty.id} value={ty.id}>
                    {typeLabel(ty, lang)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.surface.id} label={t("amenagement.surface")} errors={fields.surface.errors}>
              <div className="flex items-center gap-2">
                <TextInput
                  {...getInputProps(fields.surface, { type: "text" })}
                  inputMode="decimal"
                  invalid={!!fields.surface.errors}
                  aria-describedby={[unite ? unitId : "", fields.surface.errors ? `${fields.surface.id}-error` : ""].filter(Boolean).join(" ") || undefined}
                />
                <span
                  id={unitId}
                  className="min-w-10 text-sm text-stone-600"
                  data-testid="surface-unit"
                  title={unite ? t(`amenagement.unites-long.${unite}`) : undefined}
                >
                  {unite ? t(`amenagement.unites.${unite}`) : ""}
                </span>
              </div>
            </Field>
            <Field
              id={fields.idParcelleAdjacente.id}
              label={t("amenagement.parcelleAdjacente")}
              errors={fields.idParcelleAdjacente.errors}
              help={data.parcelles.length ? undefined : t("amenagement.no-parcelle")}
            >
              <select {...getSelectProps(fields.idParcelleAdjacente)} className="field-input" disabled={!data.parcelles.length}>
                <option value="">{t("amenagement.none")}</option>
                {data.parcelles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.libelle}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.noIlotPac.id} label={t("amenagement.noIlotPac")} errors={fields.noIlotPac.errors}>
              <TextInput
                {...getInputProps(fields.noIlotPac, { type: "text" })}
                invalid={!!fields.noIlotPac.errors}
                describedBy={`${fields.noIlotPac.id}-error`}
              />
            </Field>
            <div className="grid grid-cols-2">
              <CheckField field={fields.irrigable} label={t("amenagement.irrigable")} />
              <CheckField field={fields.drainee} label={t("amenagement.drainee")} />
            </div>
            <div className="sm:col-span-2">
              <Field id={fields.remarque.id} label={t("amenagement.remarque")} errors={fields.remarque.errors}>
                <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={2} />
              </Field>
            </div>
          </div>
        </FormCard>
        <FormCard title={t("amenagement.card-sol")}>
          <SoilFields fields={fields} lists={data.lists} />
        </FormCard>
      </fieldset>
      <StaleFormPanel
        stale={stale}
        labels={(["libelle", "surface", "noIlotPac", "irrigable", "drainee", "remarque"] as const).map((name) => ({ name, label: t(`amenagement.${name}`) }))}
        say={(name, v) => (name === "irrigable" || name === "drainee" ? (v ? t("ui.yes") : t("ui.no")) : v)}
      />
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
    </fetcher.Form>
  );
}

function Screen({ data }: { data: Data }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const types = new Map(data.types.map((ty) => [ty.id, ty]));
  const parcelles = new Map(data.parcelles.map((p) => [p.id, p.libelle]));
  const surface = (r: Row) => {
    if (r.surface == null) return "";
    const unite = types.get(r.idTypeAmenagement)?.uniteSurface;
    return `${formatNumber(r.surface, lang, 3)}${unite && isUnite(unite) ? ` ${t(`amenagement.unites.${unite}`)}` : ""}`;
  };
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("amenagement.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    {
      id: "type",
      header: t("amenagement.type"),
      cell: (r) => typeLabel(types.get(r.idTypeAmenagement), lang),
      sortValue: (r) => types.get(r.idTypeAmenagement)?.iaeNoOrdre ?? null,
      alwaysVisible: true,
    },
    {
      id: "parcelleAdjacente",
      header: t("amenagement.parcelleAdjacente"),
      cell: (r) => (r.idParcelleAdjacente != null ? (parcelles.get(r.idParcelleAdjacente) ?? "") : ""),
      sortValue: (r) => (r.idParcelleAdjacente != null ? (parcelles.get(r.idParcelleAdjacente) ?? null) : null),
      alwaysVisible: true,
    },
    { id: "surface", header: t("amenagement.surface"), cell: surface, sortValue: (r) => r.surface ?? null, align: "right" },
    { id: "remarque", header: t("amenagement.remarque"), cell: (r) => r.remarque ?? "", optional: true },
  ];
  return (
    <ListScreen
      tableId="amenagement"
      title={t("screen.amenagements")}
      label={t("screen.amenagements")}
      rows={data.rows}
      columns={columns}
      getRowId={(r) => r.id}
      readOnly={!data.canWrite}
      renderForm={(row, controls) => <AmenagementForm row={row} data={data} controls={controls} />}
    />
  );
}

export default function AmenagementsScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.amenagements")} name="screen-amenagements">
      {(data) => (
        <div className="mx-auto max-w-5xl space-y-4" data-testid="screen-amenagements">
          <Screen data={data} />
        </div>
      )}
    </ScreenFrame>
  );
}
