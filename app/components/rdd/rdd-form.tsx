import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useState } from "react";
import type { z } from "zod";
import { useTranslation } from "~/use-translation";
import { Field, TextInput } from "~/components/field";
import { ListSaveButton, useListForm, type ListFormControls } from "~/components/list-screen";
import { StaleFormPanel } from "~/components/stale-form-panel";
import { CONDITION_TYPES, conditionFields, type Condition } from "~/domain/rdd-conditions";
import { culturesCommunes, cultureValide, MACRO_REGLE, nextModes, RddSchema } from "~/domain/rdd";

export type RddRow = {
  id: number;
  libelle: string;
  dicIdTypeRdd: number;
  idCulture: number | null;
  aModifier: boolean;
  objectif: string | null;
  evaluation: string | null;
  solution: string | null;
  macroRegle: boolean;
  modeConduite: number[];
  updatedAt: string;
  condition: Condition | null;
};
type Libelle = { id: number; libelle: string; libelleEn?: string | null };
export type RddData = {
  types: Libelle[];
  modes: { id: number; libelle: string }[];
  cultures: Libelle[];
  culturesParMode: Record<number, number[]>;
  canWrite: boolean;
};

export const labelOf = (l: Libelle, lang: string) => (lang.startsWith("en") && l.libelleEn ? l.libelleEn : l.libelle);

/**
 * The rule as the form's inputs hold it (its default value, and the other user's values beside the typed ones after a
 * stale refusal): the modes' boxes and the crop picker included, which the form keeps in React state as well.
 */
function rddValues(row: RddRow) {
  return {
    libelle: row.libelle,
    dicIdTypeRdd: String(row.dicIdTypeRdd),
    modeConduite: row.modeConduite.map(String),
    idCulture: row.idCulture == null ? "" : String(row.idCulture),
    aModifier: row.aModifier ? "on" : undefined,
    objectif: row.objectif ?? "",
    evaluation: row.evaluation ?? "",
    solution: row.solution ?? "",
    ...conditionFields(row.condition),
  };
}

/**
 * The rule form (spec 3 §2.8, §4.4): the macro-rule option is exclusive (C-RDD-09); the crops offered are those common to
 * every chosen mode (C-RDD-10); a chosen crop no longer offered is cleared (C-RDD-11). Saved after someone else changed
 * the rule, the typed values stay beside theirs (decision 0136); "take theirs" also sets the modes, crop and
 * condition kind the form keeps in React state.
 */
export function RddForm({ row, data, controls }: { row: RddRow | null; data: RddData; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [modes, setModes] = useState<number[]>(row?.modeConduite ?? []);
  const [culture, setCulture] = useState<number | undefined>(row?.idCulture ?? undefined);
  // The condition's own fields show for the chosen kind only.
  const [conditionType, setConditionType] = useState<string>(row?.condition?.type ?? "");
  const { fetcher, form, fields, dirty, markDirty, stale } = useListForm<z.input<typeof RddSchema>>(controls, {
    name: "rdd",
    rowId: row?.id,
    schema: RddSchema,
    defaultValue: row ? (rddValues(row) as never) : undefined,
    stale: { row, values: rddValues },
  });
  const takeTheirs = () => {
    stale.takeTheirs();
    if (!row) return;
    setModes(row.modeConduite);
    setCulture(row.idCulture ?? undefined);
    setConditionType(row.condition?.type ?? "");
  };

  const offered = culturesCommunes(modes, data.culturesParMode);
  const cultures = data.cultures.filter((c) => offered.includes(c.id));
  const toggle = (id: number, on: boolean) => {
    const chosen = on ? [...modes, id] : modes.filter((m) => m !== id);
    const next = nextModes(modes, chosen);
    setModes(next);
    setCulture((c) => cultureValide(c, next, data.culturesParMode));
    markDirty();
  };
  const options = [{ id: MACRO_REGLE, libelle: t("rdd.macro-regle") }, ...data.modes];

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty} data-testid="rdd-form">
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <fieldset disabled={controls.readOnly} className="grid gap-3 sm:grid-cols-2">
        <Field id={fields.libelle.id} label={t("rdd.libelle")} errors={fields.libelle.errors}>
          <TextInput {...getInputProps(fields.libelle, { type: "text" })} autoFocus invalid={!!fields.libelle.errors} />
        </Field>
        <Field id={fields.dicIdTypeRdd.id} label={t("rdd.type")} errors={fields.dicIdTypeRdd.errors}>
          <select {...getSelectProps(fields.dicIdTypeRdd)} className="field-input">
            <option value="">{t("context.choose")}</option>
            {data.types.map((ty) => (
              <option key={ty.id} value={ty.id}>
                {labelOf(ty, lang)}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="mb-3" aria-describedby={fields.modeConduite.errors ? `${fields.modeConduite.id}-error` : undefined} data-testid="rdd-modes">
          <legend className="field-label">{t("rdd.mode-conduite")}</legend>
          <div className="flex flex-col gap-1 rounded border border-stone-300 p-2">
            {options.map((m) => (
              <label key={m.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="modeConduite" value={m.id} checked={modes.includes(m.id)} onChange={(e) => toggle(m.id, e.target.checked)} />
                {m.id === MACRO_REGLE ? <em>{m.libelle}</em> : m.libelle}
              </label>
            ))}
          </div>
          {fields.modeConduite.errors?.length ? (
            <p id={`${fields.modeConduite.id}-error`} className="field-error" data-testid="rdd-modes-error">
              {t(fields.modeConduite.errors[0])}
            </p>
          ) : null}
        </fieldset>
        <div>
          <Field
            id={fields.idCulture.id}
            label={t("rdd.culture")}
            errors={fields.idCulture.errors}
            help={modes.length > 1 ? t("rdd.culture-communes") : undefined}
          >
            <select
              id={fields.idCulture.id}
              name={fields.idCulture.name}
              className="field-input"
              value={culture ?? ""}
              onChange={(e) => setCulture(e.target.value ? Number(e.target.value) : undefined)}
              data-testid="rdd-culture"
            >
              <option value="">{t("rdd.toutes-cultures")}</option>
              {cultures.map((c) => (
                <option key={c.id} value={c.id}>
                  {labelOf(c, lang)}
                </option>
              ))}
            </select>
          </Field>
          <label className="flex items-center gap-2 text-sm">
            <input {...getInputProps(fields.aModifier, { type: "checkbox" })} /> {t("rdd.a-modifier")}
          </label>
        </div>
        {(["objectif", "evaluation", "solution"] as const).map((f) => (
          <div key={f} className="sm:col-span-2">
            <Field id={fields[f].id} label={t(`rdd.${f}`)} errors={fields[f].errors}>
              <textarea {...getTextareaProps(fields[f])} className="field-input" rows={2} />
            </Field>
          </div>
        ))}
        <fieldset className="rounded border border-stone-200 p-3 sm:col-span-2" data-testid="rdd-condition">
          <legend className="px-1 text-sm font-semibold">{t("rdd.condition")}</legend>
          <p className="mb-2 text-xs text-stone-600">{t("rdd.condition-aide")}</p>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field id={fields.conditionType.id} label={t("rdd.condition-type")} errors={fields.conditionType.errors}>
              <select {...getSelectProps(fields.conditionType)} className="field-input" onChange={(e) => setConditionType(e.currentTarget.value)}>
                <option value="">{t("rdd.condition-aucune")}</option>
                {CONDITION_TYPES.map((c) => (
                  <option key={c} value={c}>
                    {t(`rdd.conditions.${c}`)}
                  </option>
                ))}
              </select>
            </Field>
            {conditionType === "produit_interdit" ? (
              <Field id={fields.conditionProduits.id} label={t("rdd.condition-produits")} errors={fields.conditionProduits.errors}>
                <TextInput {...getInputProps(fields.conditionProduits, { type: "text" })} invalid={!!fields.conditionProduits.errors} />
              </Field>
            ) : null}
            {conditionType === "delai_min" ? (
              <Field id={fields.conditionJours.id} label={t("rdd.condition-jours")} errors={fields.conditionJours.errors}>
                <TextInput {...getInputProps(fields.conditionJours, { type: "text" })} inputMode="numeric" invalid={!!fields.conditionJours.errors} />
              </Field>
            ) : null}
            {conditionType === "azote_mineral_max" || conditionType === "ift_max" ? (
              <Field
                id={fields.conditionMax.id}
                label={t(conditionType === "ift_max" ? "rdd.condition-max-ift" : "rdd.condition-max-azote")}
                errors={fields.conditionMax.errors}
              >
                <TextInput {...getInputProps(fields.conditionMax, { type: "text" })} inputMode="decimal" invalid={!!fields.conditionMax.errors} />
              </Field>
            ) : null}
            {conditionType === "realisee_avant" ? (
              <>
                <Field id={fields.conditionDate.id} label={t("rdd.condition-date")} errors={fields.conditionDate.errors}>
                  <TextInput {...getInputProps(fields.conditionDate, { type: "date" })} invalid={!!fields.conditionDate.errors} />
                </Field>
                <Field id={fields.conditionOperation.id} label={t("rdd.condition-operation")} errors={fields.conditionOperation.errors}>
                  <TextInput {...getInputProps(fields.conditionOperation, { type: "text" })} invalid={!!fields.conditionOperation.errors} />
                </Field>
              </>
            ) : null}
          </div>
        </fieldset>
      </fieldset>
      <StaleFormPanel
        stale={{ ...stale, takeTheirs }}
        labels={[
          { name: "libelle", label: t("rdd.libelle") },
          { name: "dicIdTypeRdd", label: t("rdd.type") },
          { name: "modeConduite", label: t("rdd.mode-conduite") },
          { name: "idCulture", label: t("rdd.culture") },
          { name: "aModifier", label: t("rdd.a-modifier") },
          { name: "objectif", label: t("rdd.objectif") },
          { name: "evaluation", label: t("rdd.evaluation") },
          { name: "solution", label: t("rdd.solution") },
          { name: "conditionType", label: t("rdd.condition-type") },
          { name: "conditionProduits", label: t("rdd.condition-produits") },
          { name: "conditionJours", label: t("rdd.condition-jours") },
          { name: "conditionMax", label: t("rdd.condition") },
          { name: "conditionDate", label: t("rdd.condition-date") },
          { name: "conditionOperation", label: t("rdd.condition-operation") },
        ]}
        say={(name, v) => {
          if (name === "aModifier") return t(v ? "ui.yes" : "ui.no");
          if (!v) return v;
          const named = (list: readonly Libelle[]) =>
            v
              .split(", ")
              .map((id) => {
                const l = list.find((x) => String(x.id) === id);
                return l ? labelOf(l, lang) : id;
              })
              .join(", ");
          if (name === "dicIdTypeRdd") return named(data.types);
          if (name === "modeConduite") return named(options);
          if (name === "idCulture") return named(data.cultures);
          if (name === "conditionType") return t(`rdd.conditions.${v}`);
          return v;
        }}
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
