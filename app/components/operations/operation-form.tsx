import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useEffect, useEffectEvent, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import type { z } from "zod";
import { AppDialog } from "~/components/dialog";
import { formatNumber, numberText, refLabel } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import { FormSection } from "~/components/form-kit";
import { ListSaveButton, useListForm, type ListFormControls } from "~/components/list-screen";
import { StaleFormPanel } from "~/components/stale-form-panel";
import { suffixedLibelle, type TypePropriete } from "~/domain/calc/materiel";
import { DECIMALES, UNITES_OPERATION, calculatedWorkRate, canComputeFuelReference, effectiveWorkRate, roundFuel, roundOrNull } from "~/domain/calc/operation";
import {
  OperationCulturaleSchema,
  type OperationCulturaleInput,
  appliesToType,
  irrigationFlowFromTowed,
  newOperationDefaults,
  resetsOnTypeChange,
  towedChoices,
  tractorChoices,
  workforceAfterSwitch,
} from "~/domain/operation-culturale";
import { formNumber } from "~/domain/parc-materiel";
import { ChangedWarning, CostsTable, dash, EquipmentTable, fuelText, ids, Output, percentText } from "./operation-parts";
import type { FuelAnswer, OperationRow, OperationsData } from "./types";

type ActionData = { ok: boolean; id?: number; submission?: unknown; notice?: string; error?: string };
/** The form's values as conform holds them: text, and lists of ids for the multiple choices. */
type FormShape = Omit<z.input<typeof OperationCulturaleSchema>, "materielTractes" | "mainOeuvre"> & { materielTractes?: string[]; mainOeuvre?: string[] };

/** An operation as the form's inputs hold it. */
function operationValues(row: OperationRow, lang: string) {
  return {
    idTypeAction: String(row.idTypeAction),
    libelle: row.libelle,
    remarque: row.remarque ?? undefined,
    materielTractant: row.materielTractant != null ? String(row.materielTractant) : undefined,
    materielTractes: row.materielTractes.map(String),
    eta: row.eta ? "on" : undefined,
    mainOeuvre: row.mainOeuvre.map(String),
    debitReel: numberText(row.debitReel, lang),
    consoCarburantReelle: numberText(row.consoCarburantReelle, lang),
    profondeurTravail: String(row.profondeurTravail),
    debitIrrigation: numberText(row.debitIrrigation, lang),
    volumeBouillie: numberText(row.volumeBouillie, lang),
    proportionSurfaceTravaillee: percentText(row.proportionSurfaceTravaillee, lang),
  };
}

/**
 * The cultural operation form (spec 2 §4 form rules, §5 validation; B-OPS): type, name, equipment and workforce,
 * work rate and fuel use (reference and actual), parameters, and the calculated costs of the saved operation.
 */
export function OperationForm({ row, data, controls }: { row: OperationRow | null; data: OperationsData; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const location = useLocation();
  const fuel = useFetcher<FuelAnswer>();
  const [askRepercut, setAskRepercut] = useState(false);
  const decision = useRef<"true" | "false" | null>(null);
  const repercutInput = useRef<HTMLInputElement>(null);

  const defaults = newOperationDefaults();
  const {
    fetcher,
    form,
    fields,
    dirty,
    markDirty,
    save: submit,
    stale,
  } = useListForm<FormShape, OperationCulturaleInput, ActionData>(controls, {
    name: "operation-culturale",
    rowId: row?.id,
    schema: OperationCulturaleSchema,
    defaultValue: row
      ? operationValues(row, lang)
      : {
          // A new operation: depth 0, share of surface 100 % (B-OPS-11); the spray volume waits for a spraying type.
          profondeurTravail: String(defaults.profondeurTravail),
          proportionSurfaceTravaillee: percentText(defaults.proportionSurfaceTravaillee, lang),
        },
    // Saved meanwhile by someone else: the typed values stay, theirs beside them (decision 0115).
    stale: { row, values: (r: OperationRow) => operationValues(r, lang) },
  });

  // ---- The live values the rules read. A read-only form's inputs are disabled, so they are not part of the
  // form's data: it shows the stored operation instead.
  const frozen = controls.readOnly && row !== null ? row : null;
  const idType = frozen ? frozen.idTypeAction : formNumber(fields.idTypeAction.value);
  const type = data.typesAction.find((ty) => ty.id === idType) ?? null;
  const applies = appliesToType(type);
  const idTractant = frozen ? frozen.materielTractant : formNumber(fields.materielTractant.value);
  const tractant = data.machines.find((m) => m.id === idTractant) ?? null;
  const tractors = tractorChoices(data.machines);
  const towedOffered = towedChoices(data.machines, idTractant);
  const towedIds = frozen ? frozen.materielTractes : ids(fields.materielTractes.value);
  const tractes = towedOffered.filter((m) => towedIds.includes(m.id));
  const eta = frozen ? frozen.eta : fields.eta.value === "on";
  // Calculated work rate: minimum rule, null for irrigation (B-OPS-18, B-OPS-19).
  const debitCalcule = roundOrNull(calculatedWorkRate(type, tractant, tractes), 3);
  const debitReel = frozen ? frozen.debitReel : formNumber(fields.debitReel.value);
  const debit = effectiveWorkRate({ debitReel, debitCalcule });
  const profondeur = type ? (applies.profondeurTravail ? (frozen ? frozen.profondeurTravail : formNumber(fields.profondeurTravail.value)) : 0) : null;
  const puissance = tractant?.puissance ?? null;

  // ---- Fuel-use reference (B-OPS-20 to B-OPS-24): fetched only when type, tractor power and depth are set,
  // again whenever the type, tractor, depth, actual rate or calculated rate changes.
  const fuelUrl = canComputeFuelReference({ idTypeAction: idType, puissance, profondeurTravail: profondeur })
    ? `${location.pathname}?${new URLSearchParams({
        conso_carburant: "",
        id_type_action: String(idType),
        debit: debit == null ? "" : String(debit),
        puissance: String(puissance),
        profondeur_travail: String(profondeur),
      })}`
    : null;
  const loadedConso = row ? roundFuel(row.consoCarburantCalculee) : null;
  const [consoRef, setConsoRef] = useState<number | null>(loadedConso);
  const currentFuelUrl = useRef(fuelUrl);
  currentFuelUrl.current = fuelUrl;
  const loadFuel = useEffectEvent((url: string) => fuel.load(url));
  useEffect(() => {
    if (fuelUrl) void loadFuel(fuelUrl);
    else setConsoRef(null);
  }, [fuelUrl, idTractant]);
  useEffect(() => {
    if (fuel.state === "idle" && fuel.data?.kind === "conso_carburant" && currentFuelUrl.current) setConsoRef(roundFuel(fuel.data.consoCarburant));
  }, [fuel.state, fuel.data]);
  const consoChanged = row !== null && consoRef !== loadedConso;

  // A reference value appearing or going away changes whether the actual value is required: recheck a field already in error.
  const recheck = useEffectEvent((name: "consoCarburantReelle" | "debitReel") => {
    if (fields[name].errors) form.validate({ name: fields[name].name });
  });
  useEffect(() => recheck("consoCarburantReelle"), [consoRef]);
  useEffect(() => recheck("debitReel"), [debitCalcule]);

  // ---- Form rules (spec 2 §4)
  /**
   * Choosing the type prefills the name of a new operation (B-OPS-12); any type change resets depth, flow and
   * spray volume (B-OPS-13): the 1000 L/ha spray volume only on a spraying type, empty on the others.
   */
  function onType(value: string) {
    const chosen = data.typesAction.find((ty) => ty.id === Number(value));
    if (!row && chosen) form.update({ name: fields.libelle.name, value: refLabel(chosen, lang) });
    const reset = resetsOnTypeChange();
    form.update({ name: fields.profondeurTravail.name, value: String(reset.profondeurTravail) });
    form.update({ name: fields.debitIrrigation.name, value: "" });
    form.update({ name: fields.volumeBouillie.name, value: appliesToType(chosen ?? null).volumeBouillie ? String(reset.volumeBouillie) : "" });
  }

  /** On an irrigation type, the first chosen towed item's flow becomes the irrigation flow (B-OPS-15). */
  function onTowed(e: ChangeEvent<HTMLInputElement>) {
    const formEl = e.currentTarget.form;
    if (!formEl) return;
    const checked = [...formEl.querySelectorAll<HTMLInputElement>(`input[name="${fields.materielTractes.name}"]:checked`)].map((i) => Number(i.value));
    const flow = irrigationFlowFromTowed(
      type,
      towedOffered.filter((m) => checked.includes(m.id)),
    );
    if (flow !== undefined) form.update({ name: fields.debitIrrigation.name, value: numberText(flow, lang) ?? "" });
  }

  /** Switching the workforce flag clears the workforce list (B-OPS-14). */
  function onEta() {
    form.update({ name: fields.mainOeuvre.name, value: workforceAfterSwitch().map(String) });
  }

  // ---- Saving: on edit, a changed effective work rate asks whether to propagate it (B-OPS-25, B-OPS-26).
  const loadedRate = row ? roundOrNull(effectiveWorkRate(row), 3) : null;
  const rateChanged = row !== null && roundOrNull(debit, 3) !== loadedRate;
  const formProps = getFormProps(form);
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    formProps.onSubmit(e);
    if (e.defaultPrevented) return;
    if (rateChanged && decision.current === null) {
      e.preventDefault();
      setAskRepercut(true);
      return;
    }
    if (repercutInput.current) repercutInput.current.value = decision.current ?? "false";
    decision.current = null;
  }
  function answer(propagate: boolean) {
    decision.current = propagate ? "true" : "false";
    setAskRepercut(false);
    submit();
  }

  const num = (v: number | null | undefined, digits: number) => (v == null ? dash : formatNumber(v, lang, digits));
  const input = (
    name: "debitReel" | "consoCarburantReelle" | "debitIrrigation" | "volumeBouillie" | "proportionSurfaceTravaillee",
    disabled = false,
    required = false,
  ) => {
    const f = fields[name];
    return (
      <TextInput
        {...getInputProps(f, { type: "text" })}
        inputMode="decimal"
        disabled={disabled}
        aria-required={required || undefined}
        invalid={!!f.errors}
        describedBy={`${f.id}-error`}
      />
    );
  };
  const depthOptions = [...data.profondeurs];
  const storedDepth = frozen ? frozen.profondeurTravail : formNumber(fields.profondeurTravail.value);
  if (storedDepth !== null && !depthOptions.some((p) => p.valeur === storedDepth))
    depthOptions.push({ id: -1, libelle: `${storedDepth} cm`, libelleEn: null, valeur: storedDepth });

  return (
    <fetcher.Form method="post" {...formProps} onSubmit={onSubmit} onInput={markDirty} className="space-y-3" data-testid="operation-form">
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <input type="hidden" name={fields.debitCalcule.name} value={debitCalcule ?? ""} />
      <input type="hidden" name={fields.consoCarburantCalculee.name} value={consoRef ?? ""} />
      <input type="hidden" name={fields.repercutAction.name} defaultValue="false" ref={repercutInput} />
      <fieldset disabled={controls.readOnly} className="space-y-3">
        <FormSection title={t("operation.card-identification")}>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id={fields.idTypeAction.id} label={t("operation.idTypeAction")} errors={fields.idTypeAction.errors}>
              <select
                {...getSelectProps(fields.idTypeAction)}
                className="field-input"
                autoFocus
                onChange={(e) => onType(e.target.value)}
                data-testid="select-type"
              >
                <option value="">{t("context.choose")}</option>
                {data.typesAction.map((ty) => (
                  <option key={ty.id} value={ty.id}>
                    {refLabel(ty, lang)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.libelle.id} label={t("operation.libelle")} errors={fields.libelle.errors}>
              <TextInput {...getInputProps(fields.libelle, { type: "text" })} invalid={!!fields.libelle.errors} describedBy={`${fields.libelle.id}-error`} />
            </Field>
            <div className="sm:col-span-2">
              <Field id={fields.remarque.id} label={t("operation.remarque")} errors={fields.remarque.errors}>
                <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={2} />
              </Field>
            </div>
          </div>
        </FormSection>

        <FormSection title={t("operation.card-materiel")}>
          <div className="grid gap-x-6 md:grid-cols-2">
            <div>
              <Field
                id={fields.materielTractant.id}
                label={t("operation.materielTractant")}
                errors={fields.materielTractant.errors}
                help={t("operation.materielTractant-help")}
              >
                <select {...getSelectProps(fields.materielTractant)} className="field-input" data-testid="select-tractant">
                  <option value="">{t("operation.materielTractant-none")}</option>
                  {tractors.map((m) => (
                    <option
                      key={m.id}
                      value={m.id}
                    >{`${suffixedLibelle(m.libelle, m.typePropriete as TypePropriete, eta)} (${formatNumber(m.puissance, lang, 0)} ${t("operation.unit-ch")})`}</option>
                  ))}
                </select>
              </Field>
              <fieldset
                className="mb-3"
                aria-describedby={fields.materielTractes.errors ? `${fields.materielTractes.id}-error` : undefined}
                data-testid="materiel-tractes"
              >
                <legend className="field-label">{t("operation.materielTractes")}</legend>
                {towedOffered.length ? (
                  <div className="mt-1 max-h-48 space-y-1 overflow-y-auto rounded border border-stone-200 p-2 text-sm">
                    {getCollectionProps(fields.materielTractes, { type: "checkbox", options: towedOffered.map((m) => String(m.id)) }).map(({ key, ...p }) => {
                      const m = towedOffered.find((x) => String(x.id) === p.value)!;
                      return (
                        <label key={key} className="flex items-center gap-2">
                          <input {...p} onChange={onTowed} />
                          <span>{suffixedLibelle(m.libelle, m.typePropriete as TypePropriete, eta)}</span>
                          {m.debit != null ? <span className="text-xs text-stone-500">{formatNumber(m.debit, lang, 3)}</span> : null}
                        </label>
                      );
                    })}
                  </div>
                ) : (
                  <p className="mt-1 text-sm text-stone-600">{t("operation.materielTractes-none")}</p>
                )}
                {fields.materielTractes.errors ? (
                  <p id={`${fields.materielTractes.id}-error`} className="field-error">
                    {t(fields.materielTractes.errors[0])}
                  </p>
                ) : null}
              </fieldset>
            </div>
            <div>
              <div className="mb-3 flex items-center gap-2">
                <input
                  {...getInputProps(fields.eta, { type: "checkbox" })}
                  role="switch"
                  className="h-4 w-8 cursor-pointer appearance-none rounded-full bg-stone-300 transition before:block before:h-4 before:w-4 before:rounded-full before:bg-white before:shadow before:transition checked:bg-sillon-700 checked:before:translate-x-4 disabled:cursor-not-allowed disabled:opacity-60"
                  onChange={onEta}
                  data-testid="switch-eta"
                />
                <label htmlFor={fields.eta.id} className="text-sm font-medium text-stone-700">
                  {t("operation.eta")}
                </label>
              </div>
              {!eta ? (
                <fieldset className="mb-3" data-testid="main-oeuvre-list">
                  <legend className="field-label">{t("operation.mainOeuvre")}</legend>
                  {data.mainOeuvres.length ? (
                    <div className="mt-1 max-h-48 space-y-1 overflow-y-auto rounded border border-stone-200 p-2 text-sm">
                      {getCollectionProps(fields.mainOeuvre, { type: "checkbox", options: data.mainOeuvres.map((w) => String(w.id)) }).map(({ key, ...p }) => (
                        <label key={key} className="flex items-center gap-2">
                          <input {...p} />
                          {data.mainOeuvres.find((w) => String(w.id) === p.value)!.libelle}
                        </label>
                      ))}
                    </div>
                  ) : (
                    <p className="mt-1 text-sm text-stone-600">{t("operation.mainOeuvre-none")}</p>
                  )}
                  {fields.mainOeuvre.errors ? <p className="field-error">{t(fields.mainOeuvre.errors[0])}</p> : null}
                </fieldset>
              ) : null}
            </div>
          </div>
          <EquipmentTable tractant={tractant} tractes={tractes} eta={eta} debit={debit} />
        </FormSection>

        <FormSection title={t("operation.card-debit-carburant")}>
          <div className="grid gap-x-6 md:grid-cols-2">
            <div className="grid gap-x-3 sm:grid-cols-2" role="group" aria-label={t("operation.debit", { unite: UNITES_OPERATION.debit })}>
              <Output
                id="oc-debit-calcule"
                label={t("operation.debitCalcule", { unite: UNITES_OPERATION.debit })}
                value={num(debitCalcule, DECIMALES.debit)}
                help={t("operation.debit-reference-help")}
                testId="debit-calcule"
              />
              <Field
                id={fields.debitReel.id}
                label={t("operation.debitReel", { unite: UNITES_OPERATION.debit })}
                errors={fields.debitReel.errors}
                help={debitCalcule == null ? t("operation.debitReel-required") : t("operation.debitReel-optional")}
              >
                {input("debitReel", false, debitCalcule == null)}
              </Field>
            </div>
            <div className="grid gap-x-3 sm:grid-cols-2" role="group" aria-label={t("operation.consoCarburant", { unite: UNITES_OPERATION.carburant })}>
              <Output
                id="oc-conso-calculee"
                label={t("operation.consoCarburantCalculee", { unite: UNITES_OPERATION.carburant })}
                value={fuelUrl && fuel.state !== "idle" ? t("operation.conso-loading") : consoRef == null ? dash : fuelText(consoRef, lang)}
                help={t("operation.conso-reference-help")}
                testId="conso-calculee"
                aside={
                  consoChanged ? (
                    <ChangedWarning text={t("operation.conso-changed", { valeur: loadedConso == null ? dash : fuelText(loadedConso, lang) })} />
                  ) : null
                }
              />
              <Field
                id={fields.consoCarburantReelle.id}
                label={t("operation.consoCarburantReelle", { unite: UNITES_OPERATION.carburant })}
                errors={fields.consoCarburantReelle.errors}
                help={consoRef == null ? t("operation.consoCarburantReelle-required") : t("operation.consoCarburantReelle-optional")}
              >
                {input("consoCarburantReelle", false, consoRef == null)}
              </Field>
            </div>
          </div>
        </FormSection>

        <FormSection title={t("operation.card-parametres")}>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              id={fields.profondeurTravail.id}
              label={t("operation.profondeurTravail")}
              errors={fields.profondeurTravail.errors}
              help={type && !applies.profondeurTravail ? t("operation.sans-objet") : undefined}
            >
              <select
                {...getSelectProps(fields.profondeurTravail)}
                className="field-input"
                disabled={!!type && !applies.profondeurTravail}
                data-testid="select-profondeur"
              >
                {depthOptions.map((p) => (
                  <option key={p.valeur} value={String(p.valeur)}>
                    {refLabel(p, lang)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.debitIrrigation.id}
              label={t("operation.debitIrrigation", { unite: UNITES_OPERATION.debitIrrigation })}
              errors={fields.debitIrrigation.errors}
              help={type && !applies.debitIrrigation ? t("operation.sans-objet") : undefined}
            >
              {input("debitIrrigation", !!type && !applies.debitIrrigation)}
            </Field>
            <Field
              id={fields.volumeBouillie.id}
              label={t("operation.volumeBouillie", { unite: UNITES_OPERATION.volumeBouillie })}
              errors={fields.volumeBouillie.errors}
              help={type && !applies.volumeBouillie ? t("operation.sans-objet") : undefined}
            >
              {input("volumeBouillie", !!type && !applies.volumeBouillie)}
            </Field>
            <Field
              id={fields.proportionSurfaceTravaillee.id}
              label={t("operation.proportionSurfaceTravaillee", { unite: "%" })}
              errors={fields.proportionSurfaceTravaillee.errors}
              help={t("operation.proportionSurfaceTravaillee-help")}
            >
              {input("proportionSurfaceTravaillee")}
            </Field>
          </div>
        </FormSection>
      </fieldset>

      <CostsTable calcul={row?.calcul ?? null} />

      <StaleFormPanel
        stale={stale}
        labels={[
          { name: "libelle", label: t("operation.libelle") },
          { name: "debitReel", label: t("operation.debitReel", { unite: UNITES_OPERATION.debit }) },
          { name: "consoCarburantReelle", label: t("operation.consoCarburantReelle", { unite: UNITES_OPERATION.carburant }) },
          { name: "debitIrrigation", label: t("operation.debitIrrigation", { unite: UNITES_OPERATION.debitIrrigation }) },
          { name: "volumeBouillie", label: t("operation.volumeBouillie", { unite: UNITES_OPERATION.volumeBouillie }) },
          { name: "proportionSurfaceTravaillee", label: t("operation.proportionSurfaceTravaillee", { unite: "%" }) },
          { name: "remarque", label: t("operation.remarque") },
        ]}
      />

      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>
          {t("ui.close")}
        </button>
        {!controls.readOnly ? (
          <ListSaveButton isNew={!row} valid={form.valid} dirty={dirty} busy={fetcher.state !== "idle"} readOnly={controls.readOnly} />
        ) : null}
      </div>

      <AppDialog
        open={askRepercut}
        title={t("operation.repercut-title")}
        width={500}
        testId="repercut-dialog"
        onEscape={() => setAskRepercut(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => answer(false)} data-testid="repercut-no">
              {t("ui.no")}
            </button>
            <button type="button" className="btn-primary" onClick={() => answer(true)} data-testid="repercut-yes">
              {t("ui.yes")}
            </button>
          </>
        }
      >
        <p>{t("operation.repercut-text", { avant: num(loadedRate, DECIMALES.debit), apres: num(debit, DECIMALES.debit) })}</p>
      </AppDialog>
    </fetcher.Form>
  );
}
