import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import type { CommuneList, DepartementOption } from "~/components/commune-picker";
import { numberText, refLabel } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import { ListSaveButton, useListForm, type ListFormControls } from "~/components/list-screen";
import { StaleFormPanel, useStaleForm } from "~/components/stale-form-panel";
import { CheckField, soilDefaults, SoilFields } from "~/components/lot-amenagement-soil";
import type { MapConfig } from "~/components/map/types";
import { CHARGES, PARCELLE_LISTS, ParcelleSchema, type ParcelleFields } from "~/domain/parcelle";
import { GeodataPanel } from "./geodata-panel";
import { HistoriquePanel, type HistoriqueOption } from "./historique-panel";
import { Panel } from "./panel";

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
type Option = { id: number; libelle: string; libelleEn?: string | null };
type ListKey = keyof typeof PARCELLE_LISTS | "idTypeSolArvalis" | "idAeeTypeSol" | "idTypeSousSol" | "idAciditeSol" | "idProfondeurSol";

export type ParcelleFormRow = {
  id: number;
  libelle: string;
  updatedAt: string;
  idModeConduite: number | null;
  idLot: number | null;
  surface: number | null;
  objectifRendement: number | null;
  irrigable: boolean;
  drainee: boolean;
  jachere: boolean;
  remarque: string | null;
  codeInsee: string | null;
  codePostal: string | null;
  noIlotPac: string | null;
  surfaceReelle: number | null;
  geometrie: string | null;
  libelleCommune: string | null;
  parcellesHistorique: number[];
} & Record<(typeof CHARGES)[number] | ListKey | "profondeurSolCm" | "reserveUtileMm", number | null>;

export type ParcelleFormData = {
  /** The campaign's plots (a name used twice is pointed out, not refused). */
  rows: { id: number; libelle: string }[];
  modes: Option[];
  lots: Option[];
  lists: Record<ListKey, { id: number; libelle: string; libelleEn: string | null }[]>;
  historique: HistoriqueOption[];
  campagne: { idCampagneHistoParcelle: number | null };
  farm: { codeInsee: string | null; codePostal: string | null };
  departements: DepartementOption[];
  communes: CommuneList;
  mapConfig: MapConfig | null;
};

const undef = <T,>(v: T | null | undefined) => (v == null ? undefined : v);

function defaults(row: ParcelleFormRow | null, data: ParcelleFormData, lang: string) {
  if (!row) return { codeInsee: undef(data.farm.codeInsee), codePostal: undef(data.farm.codePostal) };
  const id = (v: number | null) => (v == null ? undefined : String(v));
  const soil = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v ?? undefined]));
  return {
    libelle: row.libelle,
    idModeConduite: id(row.idModeConduite),
    idLot: id(row.idLot),
    surface: numberText(row.surface, lang),
    objectifRendement: numberText(row.objectifRendement, lang),
    irrigable: row.irrigable ? "on" : undefined,
    drainee: row.drainee ? "on" : undefined,
    jachere: row.jachere ? "on" : undefined,
    remarque: undef(row.remarque),
    ...Object.fromEntries(CHARGES.map((c) => [c, numberText(row[c], lang)])),
    ...Object.fromEntries(Object.keys(PARCELLE_LISTS).map((k) => [k, id(row[k as keyof typeof PARCELLE_LISTS])])),
    codeInsee: undef(row.codeInsee),
    codePostal: undef(row.codePostal),
    noIlotPac: undef(row.noIlotPac),
    surfaceReelle: numberText(row.surfaceReelle, lang),
    ...soilDefaults(soil as Parameters<typeof soilDefaults>[0], lang),
    parcellesHistorique: row.parcellesHistorique.map(String),
  };
}

function Picker({ field, label, options }: { field: Meta; label: string; options: readonly Option[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      <select {...getSelectProps(field)} className="field-input">
        <option value="">{t("context.choose")}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {refLabel({ libelle: o.libelle, libelleEn: o.libelleEn ?? null }, i18n.language)}
          </option>
        ))}
      </select>
    </Field>
  );
}

function NumberField({ field, label, help, required }: { field: Meta; label: string; help?: string; required?: boolean }) {
  return (
    <Field id={field.id} label={label} errors={field.errors} help={help}>
      <TextInput
        {...getInputProps(field, { type: "text" })}
        inputMode="decimal"
        invalid={!!field.errors}
        describedBy={`${field.id}-error`}
        aria-required={required || undefined}
      />
    </Field>
  );
}

/** The plot form (spec 2 §2, §3, §5): summary, geodata, soil data and history as expansion panels. */
export function ParcelleForm({ row, data, controls }: { row: ParcelleFormRow | null; data: ParcelleFormData; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [geometrie, setGeometrie] = useState<string | null>(row?.geometrie ?? null);
  const { fetcher, form, fields, dirty, markDirty, markClean } = useListForm<z.input<typeof ParcelleFields>>(controls, {
    name: "parcelle",
    rowId: row?.id,
    schema: ParcelleSchema,
    defaultValue: defaults(row, data, lang) as never,
    resolvesStale: false,
  });
  // Saved meanwhile by someone else: the typed values stay, theirs beside them, to keep or take (decision 0115).
  const stale = useStaleForm({ row, answer: fetcher.data, dirty, values: (r) => defaults(r, data, lang), form: form as never, markClean });
  const f = fields as unknown as Record<string, Meta>;
  const update = (o: { name: string; value: string }) => {
    form.update(o);
    markDirty();
  };
  const readOnly = controls.readOnly;
  // Two plots may share a name (spec 2 leaves it free), but an adviser would rather know: said under the field.
  const nom = String(f.libelle.value ?? "")
    .trim()
    .toLocaleLowerCase("fr");
  const nomEnDouble = nom !== "" && data.rows.some((r) => r.id !== row?.id && r.libelle.trim().toLocaleLowerCase("fr") === nom);
  const soilLists = {
    typesSolArvalis: data.lists.idTypeSolArvalis,
    typesSolAee: data.lists.idAeeTypeSol,
    typesSousSol: data.lists.idTypeSousSol,
    aciditesSol: data.lists.idAciditeSol,
    profondeursSol: data.lists.idProfondeurSol,
  };

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty} onChange={markDirty} className="space-y-3" data-testid="parcelle-form">
      <input type="hidden" name="intent" value="save" />
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <Panel title={t("parcelle.panels.resume")} defaultOpen testId="panel-resume">
        <fieldset disabled={readOnly}>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
            <Field
              id={f.libelle.id}
              label={t("parcelle.libelle")}
              errors={f.libelle.errors}
              help={
                nomEnDouble ? (
                  <span className="text-amber-900" role="status" data-testid="parcelle-nom-en-double">
                    {t("parcelle.nom-en-double")}
                  </span>
                ) : undefined
              }
            >
              <TextInput
                {...getInputProps(f.libelle, { type: "text" })}
                autoFocus
                invalid={!!f.libelle.errors}
                describedBy={`${f.libelle.id}-error`}
                aria-describedby={
                  [f.libelle.errors ? `${f.libelle.id}-error` : null, nomEnDouble ? `${f.libelle.id}-help` : null].filter(Boolean).join(" ") || undefined
                }
              />
            </Field>
            <Picker field={f.idModeConduite} label={t("parcelle.idModeConduite")} options={data.modes} />
            <Picker field={f.idLot} label={t("parcelle.idLot")} options={data.lots} />
            <NumberField field={f.surface} label={t("parcelle.surface")} help={t("parcelle.surface-help")} required />
            <NumberField field={f.objectifRendement} label={t("parcelle.objectifRendement")} />
            <Picker field={f.idTypeModeConduite} label={t("parcelle.idTypeModeConduite")} options={data.lists.idTypeModeConduite} />
          </div>
          <div className="flex flex-wrap gap-x-6">
            <CheckField field={f.irrigable} label={t("parcelle.irrigable")} />
            <CheckField field={f.drainee} label={t("parcelle.drainee")} />
            <CheckField field={f.jachere} label={t("parcelle.jachere")} />
          </div>
          <h3 className="mb-2 mt-1 text-sm font-semibold">{t("parcelle.caracteristiques")}</h3>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
            <Picker field={f.idSpecificitePrairie} label={t("parcelle.idSpecificitePrairie")} options={data.lists.idSpecificitePrairie} />
            <Picker field={f.tauxLegumineuse} label={t("parcelle.tauxLegumineuse")} options={data.lists.tauxLegumineuse} />
            <Picker field={f.idGestionResidus} label={t("parcelle.idGestionResidus")} options={data.lists.idGestionResidus} />
            <Picker field={f.idResidusCultureInter} label={t("parcelle.idResidusCultureInter")} options={data.lists.idResidusCultureInter} />
          </div>
          <h3 className="mb-2 mt-1 text-sm font-semibold">{t("parcelle.charges")}</h3>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="charges">
            {CHARGES.map((c) => (
              <NumberField key={c} field={f[c]} label={t(`parcelle.${c}`)} />
            ))}
          </div>
          <Field id={f.remarque.id} label={t("parcelle.remarque")} errors={f.remarque.errors}>
            <textarea {...getTextareaProps(f.remarque)} className="field-input" rows={2} />
          </Field>
        </fieldset>
      </Panel>
      <Panel title={t("parcelle.panels.geodata")} testId="panel-geodata">
        <GeodataPanel
          fields={{ codeInsee: f.codeInsee, codePostal: f.codePostal, noIlotPac: f.noIlotPac, surfaceReelle: f.surfaceReelle, surface: f.surface }}
          departements={data.departements}
          communes={data.communes}
          initialCodeInsee={row ? row.codeInsee : data.farm.codeInsee}
          libelleCommune={row?.libelleCommune ?? null}
          geometrie={geometrie}
          onGeometrie={(g) => {
            setGeometrie(g);
            markDirty();
          }}
          update={update}
          readOnly={readOnly}
          mapConfig={data.mapConfig}
        />
      </Panel>
      <Panel title={t("parcelle.panels.sol")} testId="panel-sol">
        <fieldset disabled={readOnly}>
          <SoilFields fields={f as never} lists={soilLists} />
        </fieldset>
      </Panel>
      <Panel title={t("parcelle.panels.historique")} testId="panel-historique">
        <HistoriquePanel
          field={f.parcellesHistorique}
          options={data.historique}
          hasCampaign={data.campagne.idCampagneHistoParcelle != null}
          saved={row ? { id: row.id, libelle: row.libelle } : null}
          readOnly={readOnly}
        />
      </Panel>
      <StaleFormPanel
        stale={stale}
        labels={[
          ...(["libelle", "surface", "objectifRendement", "irrigable", "drainee", "jachere", "remarque"] as const).map((name) => ({
            name,
            label: t(`parcelle.${name}`),
          })),
          ...CHARGES.map((name) => ({ name, label: t(`parcelle.${name}`) })),
        ]}
        say={(name, v) => (name === "irrigable" || name === "drainee" || name === "jachere" ? (v ? t("ui.yes") : t("ui.no")) : v)}
      />
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>
          {t("ui.close")}
        </button>
        <ListSaveButton isNew={!row} valid={form.valid} dirty={dirty} busy={fetcher.state !== "idle"} readOnly={readOnly} />
      </div>
    </fetcher.Form>
  );
}
