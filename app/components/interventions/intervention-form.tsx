import { getFormProps, getInputProps, getSelectProps, useInputControl } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import { Field, TextInput } from "~/components/field";
import { formatNumber, numberText } from "~/components/format";
import { ListSaveButton, useListForm, type ListFormControls } from "~/components/list-screen";
import { debitDiffere, debitParDefaut, InterventionGrilleSchema, InterventionSchema, nombrePassages, NOUVELLE_INTERVENTION } from "~/domain/intervention";
import { defaultCampaignDate, todayInParis } from "~/domain/campaign-date";
import { toIsoDate, toNumber } from "~/domain/validation";
import { StaleFormPanel, useStaleForm } from "~/components/stale-form-panel";
import { InputsPanel } from "./inputs-panel";
import { EvaluationPanels } from "~/components/rdd/evaluation-panels";
import type { CultureChoix, InterventionRow, OperationChoix, StadeChoix } from "~/domain/contracts/interventions";

const isoToText = (iso: string | undefined) =>
  iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : (iso ?? "");

/** An intervention as the form's inputs hold it. */
const interventionTexts = (row: InterventionRow, lang: string) => ({
  idParcelle: String(row.idParcelle),
  date: isoToText(row.date),
  idOperationCulturale: row.idOperationCulturale == null ? "" : String(row.idOperationCulturale),
  idCultureConcernee: row.idCultureConcernee == null ? "" : String(row.idCultureConcernee),
  debit: numberText(row.debit, lang),
  frequence: numberText(row.frequence, lang),
  tauxSurface: numberText(row.tauxSurface, lang),
  realisee: row.realisee ? "on" : undefined,
  prevue: row.prevue ? "on" : undefined,
  // The register's fields (issue 28, decision 0125).
  idStadeCulture: row.idStadeCulture == null ? "" : String(row.idStadeCulture),
  precisionStade: row.precisionStade ?? "",
  heureDebut: row.heureDebut ?? "",
  heureFin: row.heureFin ?? "",
  siretPrestataire: row.siretPrestataire ?? "",
  rentreeAnticipee: row.rentreeAnticipee ? "on" : undefined,
  lotSemences: row.lotSemences ?? "",
});

const asNumber = (v: unknown): number | null => {
  const n = toNumber(v);
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

/**
 * The intervention form below the table (spec 3 §2.1): the details panel (date picker and text date in step,
 * operation with its work rate shown and the intervention's own rate with its warning, crop, surface rate,
 * frequency, computed passes, done and planned), the inputs-and-products table, the machinery and labour of the
 * chosen operation, and the two empty panels the spec keeps. Its schema is the grid's row schema (InterventionGrilleSchema):
 * the register's fields (BBCH stage from the same stage list, free-text stage, times, contractor's SIRET, early
 * re-entry, seed lot) are checked by the same rules in the browser and on the server (decision 0125).
 */
export function InterventionForm({
  row,
  controls,
  idParcelle,
  operations,
  cultures,
  stades = [],
  pickedDate,
  anneeRecolte,
  canEditFolderInputs = false,
}: {
  row: InterventionRow | null;
  controls: ListFormControls;
  idParcelle: number;
  operations: OperationChoix[];
  cultures: CultureChoix[];
  /** The BBCH stages of the campaign's crops' scales: the grid's stage list (issue 28). */
  stades?: StadeChoix[];
  /** The day picked before New (C-FORM-28); otherwise today, inside the campaign (defaultCampaignDate). */
  pickedDate?: string;
  /** The campaign's harvest year: a new intervention's date defaults inside its dates. */
  anneeRecolte?: number;
  /** An animator of the folder may edit its unreferenced inputs (decision 0032). */
  canEditFolderInputs?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const initialDate = row?.date ?? pickedDate ?? (anneeRecolte ? defaultCampaignDate(anneeRecolte) : todayInParis());
  const { fetcher, form, fields, dirty, markDirty, markClean } = useListForm<{ [K in keyof z.input<typeof InterventionGrilleSchema>]?: string }>(controls, {
    name: "intervention",
    rowId: row?.id,
    schema: InterventionGrilleSchema,
    resolvesStale: false,
    defaultValue: row
      ? interventionTexts(row, lang)
      : {
          idParcelle: String(idParcelle),
          date: isoToText(initialDate),
          frequence: numberText(NOUVELLE_INTERVENTION.frequence, lang),
          tauxSurface: numberText(NOUVELLE_INTERVENTION.tauxSurface, lang),
          realisee: NOUVELLE_INTERVENTION.realisee ? "on" : undefined,
        },
  });
  // Saved meanwhile by someone else: the typed values stay, theirs beside them, to keep or take (decision 0115).
  const stale = useStaleForm({ row, answer: fetcher.data, dirty, values: (r) => interventionTexts(r, lang), form: form as never, markClean });

  // The text date and the date picker are one value (C-FORM-04, 05): the text is the form's field.
  const dateControl = useInputControl(fields.date);
  const dateText = typeof dateControl.value === "string" ? dateControl.value : "";
  const pickerValue = toIsoDate(dateText.trim()) ?? "";

  const operationControl = useInputControl(fields.idOperationCulturale);
  const debitControl = useInputControl(fields.debit);
  const [operationChanged, setOperationChanged] = useState(false);
  const operation = operations.find((o) => String(o.id) === operationControl.value) ?? null;
  const debitOperation = debitParDefaut(operation);
  const debit = asNumber(debitControl.value);
  const warnDebit = debitDiffere(operationChanged, debit, debitOperation);

  const passages = nombrePassages(asNumber(fields.frequence.value), asNumber(fields.tauxSurface.value));
  const readOnly = controls.readOnly;

  return (
    <div className="space-y-4" data-testid="intervention-form">
      <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty} aria-labelledby="intervention-details-title">
        <h2 id="intervention-details-title" className="mb-2 font-semibold">
          {t("interventions.form.details")}
        </h2>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="idParcelle" value={row?.idParcelle ?? idParcelle} />
        {row ? (
          <>
            <input type="hidden" name="id" value={row.id} />
            <input type="hidden" name="updatedAt" value={stale.token} />
          </>
        ) : null}
        <fieldset disabled={readOnly} className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field id={fields.date.id} label={t("interventions.form.date-texte")} errors={fields.date.errors}>
            <TextInput
              id={fields.date.id}
              name={fields.date.name}
              value={dateText}
              inputMode="numeric"
              autoComplete="off"
              placeholder="jj/mm/aaaa"
              onChange={(e) => dateControl.change(e.target.value)}
              onBlur={dateControl.blur}
              invalid={!!fields.date.errors}
              describedBy={`${fields.date.id}-error`}
              data-testid="intervention-date-text"
            />
          </Field>
          <Field id="intervention-date-picker" label={t("interventions.form.date-calendrier")}>
            <input
              id="intervention-date-picker"
              type="date"
              className="field-input"
              value={pickerValue}
              onChange={(e) => {
                if (e.target.value) {
                  dateControl.change(isoToText(e.target.value));
                  markDirty();
                }
              }}
              data-testid="intervention-date-picker"
            />
          </Field>
          <Field
            id={fields.idOperationCulturale.id}
            label={t("interventions.form.operation")}
            errors={fields.idOperationCulturale.errors}
            help={
              <span data-testid="debit-operation">
                {debitOperation == null
                  ? t("interventions.form.debit-operation-aucun")
                  : t("interventions.form.debit-operation", { debit: formatNumber(debitOperation, lang, 3) })}
              </span>
            }
          >
            <select
              {...getSelectProps(fields.idOperationCulturale)}
              className="field-input"
              value={operationControl.value ?? ""}
              onChange={(e) => {
                operationControl.change(e.target.value);
                setOperationChanged(true);
                // A new intervention takes the new operation's work rate (C-FORM-10, 11).
                if (!row) {
                  const next = operations.find((o) => String(o.id) === e.target.value);
                  const d = debitParDefaut(next);
                  debitControl.change(d == null ? "" : (numberText(d, lang) ?? ""));
                }
              }}
              data-testid="intervention-operation"
            >
              <option value="">{t("context.choose")}</option>
              {operations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.libelle}
                </option>
              ))}
            </select>
          </Field>
          <Field id={fields.idCultureConcernee.id} label={t("interventions.form.culture")} errors={fields.idCultureConcernee.errors}>
            <select {...getSelectProps(fields.idCultureConcernee)} className="field-input" data-testid="intervention-culture">
              <option value="">{t("context.choose")}</option>
              {cultures.map((c) => (
                <option key={c.id} value={c.id}>
                  {lang === "en" && c.libelleEn ? c.libelleEn : c.libelle}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id={fields.debit.id}
            label={t("interventions.form.debit")}
            errors={fields.debit.errors}
            bounds={InterventionSchema.shape.debit}
            help={
              warnDebit ? (
                <span role="status" className="text-amber-800" data-testid="debit-warning">
                  ⚠ {t("interventions.form.debit-different", { debit: formatNumber(debit, lang, 3), debitOperation: formatNumber(debitOperation, lang, 3) })}
                </span>
              ) : undefined
            }
          >
            <TextInput
              id={fields.debit.id}
              name={fields.debit.name}
              value={typeof debitControl.value === "string" ? debitControl.value : ""}
              inputMode="decimal"
              onChange={(e) => debitControl.change(e.target.value)}
              onBlur={debitControl.blur}
              invalid={!!fields.debit.errors}
              describedBy={`${fields.debit.id}-error`}
              title={
                warnDebit
                  ? t("interventions.form.debit-different", { debit: formatNumber(debit, lang, 3), debitOperation: formatNumber(debitOperation, lang, 3) })
                  : undefined
              }
              data-testid="intervention-debit"
            />
          </Field>
          <Field
            id={fields.tauxSurface.id}
            label={t("interventions.form.taux-surface")}
            errors={fields.tauxSurface.errors}
            bounds={InterventionSchema.shape.tauxSurface}
          >
            <TextInput
              {...getInputProps(fields.tauxSurface, { type: "text" })}
              inputMode="decimal"
              invalid={!!fields.tauxSurface.errors}
              data-testid="intervention-taux-surface"
            />
          </Field>
          <Field
            id={fields.frequence.id}
            label={t("interventions.form.frequence")}
            errors={fields.frequence.errors}
            bounds={InterventionSchema.shape.frequence}
          >
            <TextInput
              {...getInputProps(fields.frequence, { type: "text" })}
              inputMode="decimal"
              invalid={!!fields.frequence.errors}
              data-testid="intervention-frequence"
            />
          </Field>
          <div className="mb-3">
            <span className="field-label" id="intervention-passages-label">
              {t("interventions.form.passages")}
            </span>
            <output aria-labelledby="intervention-passages-label" className="block py-2 font-medium" data-testid="intervention-passages">
              {passages == null ? "—" : formatNumber(passages, lang, 3)}
            </output>
          </div>
          <div className="mb-3 flex items-center gap-6 sm:col-span-2">
            <label className="flex items-center gap-2">
              <input {...getInputProps(fields.realisee, { type: "checkbox" })} data-testid="intervention-realisee" /> {t("interventions.form.realisee")}
            </label>
            <label className="flex items-center gap-2">
              <input {...getInputProps(fields.prevue, { type: "checkbox" })} data-testid="intervention-prevue" /> {t("interventions.form.prevue")}
            </label>
          </div>
        </fieldset>
        <fieldset disabled={readOnly} className="mt-2 border-t border-stone-200 pt-3" data-testid="intervention-registre">
          <legend className="mb-2 text-sm font-semibold">{t("registre.formulaire.titre")}</legend>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              id={fields.idStadeCulture.id}
              label={t("registre.grille.stade-bbch")}
              errors={fields.idStadeCulture.errors}
              help={t("registre.formulaire.stade-aide")}
            >
              <select {...getSelectProps(fields.idStadeCulture)} className="field-input" data-testid="intervention-stade">
                <option value="">{t("context.choose")}</option>
                {stades.map((st) => (
                  <option key={st.id} value={st.id}>
                    {lang === "en" && st.libelleEn ? st.libelleEn : st.libelle}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.precisionStade.id} label={t("registre.grille.stade-texte")} errors={fields.precisionStade.errors}>
              <TextInput
                {...getInputProps(fields.precisionStade, { type: "text" })}
                invalid={!!fields.precisionStade.errors}
                data-testid="intervention-stade-texte"
              />
            </Field>
            <Field
              id={fields.heureDebut.id}
              label={t("registre.grille.heure-debut")}
              errors={fields.heureDebut.errors}
              help={t("registre.formulaire.heure-aide")}
            >
              <TextInput
                {...getInputProps(fields.heureDebut, { type: "text" })}
                inputMode="numeric"
                placeholder="hh:mm"
                invalid={!!fields.heureDebut.errors}
                data-testid="intervention-heure-debut"
              />
            </Field>
            <Field id={fields.heureFin.id} label={t("registre.grille.heure-fin")} errors={fields.heureFin.errors} help={t("registre.formulaire.heure-aide")}>
              <TextInput
                {...getInputProps(fields.heureFin, { type: "text" })}
                inputMode="numeric"
                placeholder="hh:mm"
                invalid={!!fields.heureFin.errors}
                data-testid="intervention-heure-fin"
              />
            </Field>
            <Field
              id={fields.siretPrestataire.id}
              label={t("registre.grille.siret-prestataire")}
              errors={fields.siretPrestataire.errors}
              help={t("registre.formulaire.siret-aide")}
            >
              <TextInput
                {...getInputProps(fields.siretPrestataire, { type: "text" })}
                inputMode="numeric"
                autoComplete="off"
                invalid={!!fields.siretPrestataire.errors}
                data-testid="intervention-siret-prestataire"
              />
            </Field>
            <Field id={fields.lotSemences.id} label={t("registre.grille.lot-semences")} errors={fields.lotSemences.errors}>
              <TextInput
                {...getInputProps(fields.lotSemences, { type: "text" })}
                invalid={!!fields.lotSemences.errors}
                data-testid="intervention-lot-semences"
              />
            </Field>
            <div className="mb-3 flex items-center">
              <label className="flex items-center gap-2">
                <input {...getInputProps(fields.rentreeAnticipee, { type: "checkbox" })} data-testid="intervention-rentree-anticipee" />{" "}
                {t("registre.grille.rentree-anticipee")}
              </label>
            </div>
          </div>
        </fieldset>
        <StaleFormPanel
          stale={stale}
          labels={[
            { name: "date", label: t("interventions.form.date-texte") },
            { name: "idOperationCulturale", label: t("interventions.form.operation") },
            { name: "idCultureConcernee", label: t("interventions.form.culture") },
            { name: "debit", label: t("interventions.form.debit") },
            { name: "tauxSurface", label: t("interventions.form.taux-surface") },
            { name: "frequence", label: t("interventions.form.frequence") },
            { name: "realisee", label: t("interventions.form.realisee") },
            { name: "prevue", label: t("interventions.form.prevue") },
            { name: "idStadeCulture", label: t("registre.grille.stade-bbch") },
            { name: "precisionStade", label: t("registre.grille.stade-texte") },
            { name: "heureDebut", label: t("registre.grille.heure-debut") },
            { name: "heureFin", label: t("registre.grille.heure-fin") },
            { name: "siretPrestataire", label: t("registre.grille.siret-prestataire") },
            { name: "rentreeAnticipee", label: t("registre.grille.rentree-anticipee") },
            { name: "lotSemences", label: t("registre.grille.lot-semences") },
          ]}
          say={(name, v) =>
            name === "idStadeCulture"
              ? (stades.find((st) => String(st.id) === v)?.libelle ?? v)
              : name === "realisee" || name === "prevue" || name === "rentreeAnticipee"
                ? v
                  ? t("ui.yes")
                  : t("ui.no")
                : name === "idOperationCulturale"
                  ? (operations.find((o) => String(o.id) === v)?.libelle ?? v)
                  : name === "idCultureConcernee"
                    ? (cultures.find((c) => String(c.id) === v)?.libelle ?? v)
                    : v
          }
        />
        <div className="mt-2 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={controls.close}>
            {t("ui.close")}
          </button>
          <ListSaveButton isNew={!row} valid={form.valid} dirty={dirty} busy={fetcher.state !== "idle"} readOnly={readOnly} />
        </div>
      </fetcher.Form>

      <InputsPanel intervention={row} readOnly={readOnly} canEditFolderInputs={canEditFolderInputs} />

      <div className="grid gap-4 sm:grid-cols-2">
        <section aria-labelledby="op-materiel-title" data-testid="operation-materiels">
          <h3 id="op-materiel-title" className="mb-1 text-sm font-semibold">
            {t("interventions.form.materiel")}
          </h3>
          {operation?.materiels.length ? (
            <ul className="list-inside list-disc text-sm">
              {operation.materiels.map((m) => (
                <li key={m.id}>{m.libelle}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-stone-600">{t("interventions.form.aucun-materiel")}</p>
          )}
        </section>
        <section aria-labelledby="op-mo-title" data-testid="operation-main-oeuvres">
          <h3 id="op-mo-title" className="mb-1 text-sm font-semibold">
            {t("interventions.form.main-oeuvre")}
          </h3>
          {operation?.mainOeuvres.length ? (
            <ul className="list-inside list-disc text-sm">
              {operation.mainOeuvres.map((m) => (
                <li key={m.id}>{m.libelle}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-stone-600">{t("interventions.form.aucune-main-oeuvre")}</p>
          )}
        </section>
      </div>

      {/* C-FORM-01, 02: the intervention's and the plot's rule evaluations, once the intervention is saved. */}
      {row ? <EvaluationPanels idAction={row.id} /> : null}

      <div className="grid gap-4 sm:grid-cols-2">
        <section className="rounded border border-dashed border-stone-300 p-3" aria-labelledby="autres-details-title" data-testid="panel-autres-details">
          <h3 id="autres-details-title" className="text-sm font-semibold">
            {t("interventions.form.autres-details")}
          </h3>
        </section>
        <section
          className="rounded border border-dashed border-stone-300 p-3"
          aria-labelledby="observations-liees-title"
          data-testid="panel-observations-liees"
        >
          <h3 id="observations-liees-title" className="text-sm font-semibold">
            {t("interventions.form.observations-liees")}
          </h3>
        </section>
      </div>
    </div>
  );
}
