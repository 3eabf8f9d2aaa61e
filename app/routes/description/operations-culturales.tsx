import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLocation } from "react-router";
import type { z } from "zod";
import { type DataTableColumn } from "~/components/data-table";
import { AppDialog } from "~/components/dialog";
import { formatNumber, numberText, refLabel } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { useControlledForm } from "~/components/form-controller";
import { ListSaveButton, ListScreen, listScreenShouldRevalidate, useListFormDirty, type ListFormControls } from "~/components/list-screen";
import { isSelfPropelled, suffixedLibelle, type TypePropriete } from "~/domain/calc/materiel";
import {
  DECIMALES, UNITES_OPERATION, calculatedWorkRate, canComputeFuelReference, effectiveWorkRate, roundFuel, roundOrNull, type CoutsOperation,
} from "~/domain/calc/operation";
import {
  OperationCulturaleSchema, type OperationCulturaleInput, appliesToType, irrigationFlowFromTowed, newOperationDefaults, resetsOnTypeChange, towedChoices, tractorChoices,
  workforceAfterSwitch,
} from "~/domain/operation-culturale";
import { formNumber } from "~/domain/parc-materiel";
import { deleteIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import { getConsoCarburantReference, getOperationsCulturales, removeOperationsCulturales, saveOperationCulturale } from "#server/operation-culturale/service.server";
import type { Route } from "./+types/operations-culturales";

/**
 * Cultural operations (spec 2 §2 "Cultural operations", §3 Cultural operation, §4 form rules, §5, §6, §7;
 * B-OPS). The loader also answers the fuel-use reference: with ?conso_carburant&id_type_action=&debit=
 * &puissance=&profondeur_travail= it gives only { consoCarburant } (the spec's GET
 * calculs/indicateurs/conso_carburant, B-OPS-22), computed on the server from reference_conso_carburant.
 */
/** Selecting a row changes only ?id=: the screen's data are not loaded again. */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(async ({ db, user, query }) => {
  if (query.has("conso_carburant")) {
    const n = (name: string) => {
      const v = query.get(name);
      if (v === null || v.trim() === "") return null;
      const x = Number(v);
      return Number.isFinite(x) ? x : null;
    };
    const entree = { idTypeAction: n("id_type_action"), debit: n("debit"), puissance: n("puissance"), profondeurTravail: n("profondeur_travail") };
    return { kind: "conso_carburant" as const, ...(await getConsoCarburantReference(db, user, entree)) };
  }
  return { kind: "screen" as const, ...(await getOperationsCulturales(db, user)) };
});

export const action = screenAction(
  {
    save: saveIntent(OperationCulturaleSchema, ({ db, user }, value, edit) => saveOperationCulturale(db, user, value, edit)),
    delete: deleteIntent(({ db, user }, ids) => removeOperationsCulturales(db, user, ids)),
  },
  { gate: "campaign" },
);

type LoaderData = Route.ComponentProps["loaderData"];
type Data = Extract<LoaderData, { kind: "screen" }>;
type Row = Data["rows"][number];
type Machine = Data["machines"][number];
type ActionData = { ok: boolean; id?: number; submission?: unknown; notice?: string; error?: string };
/** The form's values as conform holds them: text, and lists of ids for the multiple choices. */
type FormShape = Omit<z.input<typeof OperationCulturaleSchema>, "materielTractes" | "mainOeuvre"> & { materielTractes?: string[]; mainOeuvre?: string[] };

const dash = "—";
/** Fuel use is shown to 2 decimals (B-OPS-23): "20,50", not "20,5". */
const fuelText = (v: number | null | undefined, lang: string) =>
  formatNumber(v, lang, DECIMALES.carburant, DECIMALES.carburant);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v : v == null || v === "" ? [] : [v]).map(Number).filter((n) => Number.isInteger(n) && n > 0);

function Card({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <fieldset className="min-w-0 rounded border border-stone-200 p-3" data-testid={testId}>
      <legend className="px-1 text-sm font-semibold text-sillon-800">{title}</legend>
      {children}
    </fieldset>
  );
}

/** A read-only figure of the form (reference values): label, value and an optional note. */
function Output({ id, label, value, help, testId, aside }: { id: string; label: ReactNode; value: ReactNode; help?: ReactNode; testId: string; aside?: ReactNode }) {
  return (
    <div className="mb-3">
      <span className="field-label" id={`${id}-label`}>{label}</span>
      <div className="mt-1 flex min-h-[2.125rem] items-center gap-2 rounded border border-dashed border-stone-300 bg-stone-50 px-2 py-1.5 text-sm">
        <output aria-labelledby={`${id}-label`} className="font-medium tabular-nums" data-testid={testId}>{value}</output>
        {aside}
      </div>
      {help ? <p className="mt-1 text-xs text-stone-500">{help}</p> : null}
    </div>
  );
}

/** The red warning of B-OPS-24: a focusable icon whose tooltip says the reference changed since the load. */
function ChangedWarning({ text }: { text: string }) {
  return (
    <span className="group relative ml-auto inline-flex" data-testid="conso-changed">
      <span tabIndex={0} role="img" aria-label={text} className="inline-flex h-5 w-5 cursor-help items-center justify-center rounded-full bg-red-700 text-xs font-bold text-white outline-none focus-visible:ring-2 focus-visible:ring-red-400">!</span>
      <span role="tooltip" className="pointer-events-none invisible absolute right-0 bottom-full z-20 mb-1 w-64 rounded bg-red-700 px-2 py-1 text-xs text-white shadow group-hover:visible group-focus-within:visible">
        {text}
      </span>
    </span>
  );
}

/** The read-only calculated costs of the saved operation (B-OPS-07), refreshed after each save (B-OPS-10). */
function CostsTable({ calcul }: { calcul: CoutsOperation | null }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const lines: [keyof CoutsOperation, string, number][] = [
    ["chargesMecaTotales", UNITES_OPERATION.charges, DECIMALES.euros],
    ["chargesFixes", UNITES_OPERATION.charges, DECIMALES.euros],
    ["chargesEntretienLocation", UNITES_OPERATION.charges, DECIMALES.euros],
    ["chargesCarburant", UNITES_OPERATION.charges, DECIMALES.euros],
    ["consoNRJPrimaireCarburant", UNITES_OPERATION.energie, DECIMALES.energie],
    ["EGESCarburant", UNITES_OPERATION.ges, DECIMALES.ges],
  ];
  const missing = calcul?.manquants.map((m) => {
    const [kind, name, field] = m.split(":");
    return kind === "materiel" ? `${name} (${t(`operation.missing.${field}`)})` : t(`operation.missing.${kind}`);
  });
  return (
    <section className="rounded border border-sillon-100 bg-sillon-50 p-3" aria-labelledby="oc-costs-title" data-testid="operation-costs">
      <h3 id="oc-costs-title" className="mb-2 text-sm font-semibold text-sillon-800">{t("operation.costs-title")}</h3>
      {calcul ? (
        <table className="w-full text-sm">
          <thead className="sr-only">
            <tr><th scope="col">{t("operation.costs-title")}</th><th scope="col">{t("operation.costs-value")}</th><th scope="col">{t("operation.costs-unit")}</th></tr>
          </thead>
          <tbody>
            {lines.map(([key, unit, digits]) => {
              const sub = key === "chargesFixes" || key === "chargesEntretienLocation" || key === "chargesCarburant";
              return (
                <tr key={key} className="border-b border-sillon-100 last:border-b-0">
                  <th scope="row" className={`py-1 text-left font-normal ${sub ? "pl-4 text-stone-600" : "text-stone-800"}`}>{t(`operation.costs.${key}`)}</th>
                  <td className="py-1 text-right font-medium tabular-nums" data-testid={`cost-${key}`}>{formatNumber(calcul[key] as number, lang, digits)}</td>
                  <td className="w-32 py-1 pl-2 text-stone-600">{unit}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-stone-600">{t("operation.costs-after-save")}</p>
      )}
      {missing?.length ? <p className="mt-2 text-xs text-amber-800" data-testid="costs-missing">{t("operation.costs-missing", { champs: missing.join(", ") })}</p> : null}
    </section>
  );
}

/**
 * The chosen tractor and towed equipment (B-OPS-08), with their cost per hour and their charges per hectare at
 * the operation's effective work rate (the whole chain works at that rate, D-OP-4).
 */
function EquipmentTable({ tractant, tractes, eta, debit }: { tractant: Machine | null; tractes: Machine[]; eta: boolean; debit: number | null }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows: [string, Machine][] = [
    ...(tractant ? [[isSelfPropelled(tractant) ? "automoteur" : "tracteur", tractant] as [string, Machine]] : []),
    ...tractes.map((m) => ["tracte", m] as [string, Machine]),
  ];
  return (
    <section aria-labelledby="oc-equipment-title" data-testid="operation-equipment">
      <h3 id="oc-equipment-title" className="mb-2 text-sm font-semibold text-sillon-800">{t("operation.equipment-title")}</h3>
      {rows.length ? (
        <div className="overflow-x-auto rounded border border-stone-200">
          <table className="w-full text-sm">
            <thead className="bg-stone-50 text-stone-700">
              <tr>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">{t("operation.equipment-role")}</th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">{t("operation.equipment-libelle")}</th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">{t("operation.equipment-propriete")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("operation.equipment-puissance")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("operation.equipment-debit")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("operation.equipment-cout-horaire")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("operation.equipment-charges")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([role, m]) => (
                <tr key={`${role}-${m.id}`} className="border-t border-stone-200" data-testid={`equipment-${m.id}`}>
                  <td className="px-2 py-1">{t(`operation.equipment-${role}`)}</td>
                  <td className="px-2 py-1">{suffixedLibelle(m.libelle, m.typePropriete as TypePropriete, eta)}</td>
                  <td className="whitespace-nowrap px-2 py-1">{t(`operation.proprietes.${m.typePropriete}`)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.puissance ? formatNumber(m.puissance, lang, 0) : dash}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.debit != null ? formatNumber(m.debit, lang, 3) : dash}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.coutHoraire != null ? formatNumber(m.coutHoraire, lang, 2) : dash}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.coutHoraire != null && debit ? formatNumber(m.coutHoraire / debit, lang, 2) : dash}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-stone-600">{t("operation.equipment-none")}</p>
      )}
    </section>
  );
}

function OperationForm({ row, data, controls }: { row: Row | null; data: Data; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const location = useLocation();
  const fetcher = useFetcher<ActionData>({ key: controls.fetcherKey });
  const fuel = useFetcher<LoaderData>();
  const [askRepercut, setAskRepercut] = useState(false);
  const decision = useRef<"true" | "false" | null>(null);
  const repercutInput = useRef<HTMLInputElement>(null);
  useActionFeedback(fetcher.data);

  const defaults = newOperationDefaults();
  const [form, fields] = useForm<FormShape, OperationCulturaleInput>({
    id: `operation-culturale-${row?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: row
      ? {
          idTypeAction: String(row.idTypeAction), libelle: row.libelle, remarque: row.remarque ?? undefined,
          materielTractant: row.materielTractant != null ? String(row.materielTractant) : undefined,
          materielTractes: row.materielTractes.map(String), eta: row.eta ? "on" : undefined, mainOeuvre: row.mainOeuvre.map(String),
          debitReel: numberText(row.debitReel, lang), consoCarburantReelle: numberText(row.consoCarburantReelle, lang),
          profondeurTravail: String(row.profondeurTravail), debitIrrigation: numberText(row.debitIrrigation, lang),
          volumeBouillie: numberText(row.volumeBouillie, lang), proportionSurfaceTravaillee: numberText(row.proportionSurfaceTravaillee, lang),
        }
      : {
          // A new operation: depth 0, spray volume 1000 L/ha, share of surface 1 (B-OPS-11).
          profondeurTravail: String(defaults.profondeurTravail), volumeBouillie: String(defaults.volumeBouillie),
          proportionSurfaceTravaillee: numberText(defaults.proportionSurfaceTravaillee, lang),
        },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OperationCulturaleSchema }),
  });
  const submit = () => (document.getElementById(form.id) as HTMLFormElement | null)?.requestSubmit();
  const { dirty, markDirty, markClean } = useListFormDirty(controls, fetcher, !row);
  useEffect(() => controls.registerSave(submit));
  useControlledForm("operation-culturale", { dirty, valid: form.valid, save: submit, discard: markClean });

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
        conso_carburant: "", id_type_action: String(idType), debit: debit == null ? "" : String(debit), puissance: String(puissance), profondeur_travail: String(profondeur),
      })}`
    : null;
  const loadedConso = row ? roundFuel(row.consoCarburantCalculee) : null;
  const [consoRef, setConsoRef] = useState<number | null>(loadedConso);
  const currentFuelUrl = useRef(fuelUrl);
  currentFuelUrl.current = fuelUrl;
  useEffect(() => {
    if (fuelUrl) void fuel.load(fuelUrl);
    else setConsoRef(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fuelUrl, idTractant]);
  useEffect(() => {
    if (fuel.state === "idle" && fuel.data?.kind === "conso_carburant" && currentFuelUrl.current) setConsoRef(roundFuel(fuel.data.consoCarburant));
  }, [fuel.state, fuel.data]);
  const consoChanged = row !== null && consoRef !== loadedConso;

  // A reference value appearing or going away changes whether the actual value is required: recheck a field already in error.
  useEffect(() => {
    if (fields.consoCarburantReelle.errors) form.validate({ name: fields.consoCarburantReelle.name });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [consoRef]);
  useEffect(() => {
    if (fields.debitReel.errors) form.validate({ name: fields.debitReel.name });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debitCalcule]);

  // ---- Form rules (spec 2 §4)
  /** Choosing the type prefills the name of a new operation (B-OPS-12); any type change resets depth, flow and spray volume (B-OPS-13). */
  function onType(value: string) {
    const chosen = data.typesAction.find((ty) => ty.id === Number(value));
    if (!row && chosen) form.update({ name: fields.libelle.name, value: refLabel(chosen, lang) });
    const reset = resetsOnTypeChange();
    form.update({ name: fields.profondeurTravail.name, value: String(reset.profondeurTravail) });
    form.update({ name: fields.debitIrrigation.name, value: "" });
    form.update({ name: fields.volumeBouillie.name, value: String(reset.volumeBouillie) });
  }

  /** On an irrigation type, the first chosen towed item's flow becomes the irrigation flow (B-OPS-15). */
  function onTowed(e: ChangeEvent<HTMLInputElement>) {
    const formEl = e.currentTarget.form;
    if (!formEl) return;
    const checked = [...formEl.querySelectorAll<HTMLInputElement>(`input[name="${fields.materielTractes.name}"]:checked`)].map((i) => Number(i.value));
    const flow = irrigationFlowFromTowed(type, towedOffered.filter((m) => checked.includes(m.id)));
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
  const input = (name: "debitReel" | "consoCarburantReelle" | "debitIrrigation" | "volumeBouillie" | "proportionSurfaceTravaillee", disabled = false) => {
    const f = fields[name];
    return <TextInput {...getInputProps(f, { type: "text" })} inputMode="decimal" disabled={disabled} invalid={!!f.errors} describedBy={`${f.id}-error`} />;
  };
  const depthOptions = [...data.profondeurs];
  const storedDepth = frozen ? frozen.profondeurTravail : formNumber(fields.profondeurTravail.value);
  if (storedDepth !== null && !depthOptions.some((p) => p.valeur === storedDepth)) depthOptions.push({ id: -1, libelle: `${storedDepth} cm`, libelleEn: null, valeur: storedDepth });

  return (
    <fetcher.Form method="post" {...formProps} onSubmit={onSubmit} onInput={markDirty} className="space-y-3" data-testid="operation-form">
      {row ? <><input type="hidden" name="id" value={row.id} /><input type="hidden" name="updatedAt" value={row.updatedAt} /></> : null}
      <input type="hidden" name={fields.debitCalcule.name} value={debitCalcule ?? ""} />
      <input type="hidden" name={fields.consoCarburantCalculee.name} value={consoRef ?? ""} />
      <input type="hidden" name={fields.repercutAction.name} defaultValue="false" ref={repercutInput} />
      <fieldset disabled={controls.readOnly} className="space-y-3">
        <Card title={t("operation.card-identification")}>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id={fields.idTypeAction.id} label={t("operation.idTypeAction")} errors={fields.idTypeAction.errors}>
              <select {...getSelectProps(fields.idTypeAction)} className="field-input" autoFocus onChange={(e) => onType(e.target.value)} data-testid="select-type">
                <option value="">{t("context.choose")}</option>
                {data.typesAction.map((ty) => <option key={ty.id} value={ty.id}>{refLabel(ty, lang)}</option>)}
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
        </Card>

        <Card title={t("operation.card-materiel")}>
          <div className="grid gap-x-6 md:grid-cols-2">
            <div>
              <Field id={fields.materielTractant.id} label={t("operation.materielTractant")} errors={fields.materielTractant.errors} help={t("operation.materielTractant-help")}>
                <select {...getSelectProps(fields.materielTractant)} className="field-input" data-testid="select-tractant">
                  <option value="">{t("operation.materielTractant-none")}</option>
                  {tractors.map((m) => <option key={m.id} value={m.id}>{`${suffixedLibelle(m.libelle, m.typePropriete as TypePropriete, eta)} (${formatNumber(m.puissance, lang, 0)} ${t("operation.unit-ch")})`}</option>)}
                </select>
              </Field>
              <fieldset className="mb-3" aria-describedby={fields.materielTractes.errors ? `${fields.materielTractes.id}-error` : undefined} data-testid="materiel-tractes">
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
                {fields.materielTractes.errors ? <p id={`${fields.materielTractes.id}-error`} className="field-error">{t(fields.materielTractes.errors[0])}</p> : null}
              </fieldset>
            </div>
            <div>
              <div className="mb-3 flex items-center gap-2">
                <input {...getInputProps(fields.eta, { type: "checkbox" })} role="switch" className="h-4 w-8 cursor-pointer appearance-none rounded-full bg-stone-300 transition before:block before:h-4 before:w-4 before:rounded-full before:bg-white before:shadow before:transition checked:bg-sillon-700 checked:before:translate-x-4 disabled:cursor-not-allowed disabled:opacity-60" onChange={onEta} data-testid="switch-eta" />
                <label htmlFor={fields.eta.id} className="text-sm font-medium text-stone-700">{t("operation.eta")}</label>
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
        </Card>

        <Card title={t("operation.card-debit-carburant")}>
          <div className="grid gap-x-6 md:grid-cols-2">
            <div className="grid gap-x-3 sm:grid-cols-2" role="group" aria-label={t("operation.debit", { unite: UNITES_OPERATION.debit })}>
              <Output id="oc-debit-calcule" label={t("operation.debitCalcule", { unite: UNITES_OPERATION.debit })} value={num(debitCalcule, DECIMALES.debit)}
                help={t("operation.debit-reference-help")} testId="debit-calcule" />
              <Field id={fields.debitReel.id} label={t("operation.debitReel", { unite: UNITES_OPERATION.debit })} errors={fields.debitReel.errors}>
                {input("debitReel")}
              </Field>
            </div>
            <div className="grid gap-x-3 sm:grid-cols-2" role="group" aria-label={t("operation.consoCarburant", { unite: UNITES_OPERATION.carburant })}>
              <Output id="oc-conso-calculee" label={t("operation.consoCarburantCalculee", { unite: UNITES_OPERATION.carburant })}
                value={fuelUrl && fuel.state !== "idle" ? t("operation.conso-loading") : consoRef == null ? dash : fuelText(consoRef, lang)}
                help={t("operation.conso-reference-help")} testId="conso-calculee"
                aside={consoChanged ? <ChangedWarning text={t("operation.conso-changed", { valeur: loadedConso == null ? dash : fuelText(loadedConso, lang) })} /> : null} />
              <Field id={fields.consoCarburantReelle.id} label={t("operation.consoCarburantReelle", { unite: UNITES_OPERATION.carburant })} errors={fields.consoCarburantReelle.errors}>
                {input("consoCarburantReelle")}
              </Field>
            </div>
          </div>
        </Card>

        <Card title={t("operation.card-parametres")}>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field id={fields.profondeurTravail.id} label={t("operation.profondeurTravail")} errors={fields.profondeurTravail.errors}
              help={type && !applies.profondeurTravail ? t("operation.sans-objet") : undefined}>
              <select {...getSelectProps(fields.profondeurTravail)} className="field-input" disabled={!!type && !applies.profondeurTravail} data-testid="select-profondeur">
                {depthOptions.map((p) => <option key={p.valeur} value={String(p.valeur)}>{refLabel(p, lang)}</option>)}
              </select>
            </Field>
            <Field id={fields.debitIrrigation.id} label={t("operation.debitIrrigation", { unite: UNITES_OPERATION.debitIrrigation })} errors={fields.debitIrrigation.errors}
              help={type && !applies.debitIrrigation ? t("operation.sans-objet") : undefined}>
              {input("debitIrrigation", !!type && !applies.debitIrrigation)}
            </Field>
            <Field id={fields.volumeBouillie.id} label={t("operation.volumeBouillie", { unite: UNITES_OPERATION.volumeBouillie })} errors={fields.volumeBouillie.errors}
              help={type && !applies.volumeBouillie ? t("operation.sans-objet") : undefined}>
              {input("volumeBouillie", !!type && !applies.volumeBouillie)}
            </Field>
            <Field id={fields.proportionSurfaceTravaillee.id} label={t("operation.proportionSurfaceTravaillee")} errors={fields.proportionSurfaceTravaillee.errors}>
              {input("proportionSurfaceTravaillee")}
            </Field>
          </div>
        </Card>
      </fieldset>

      <CostsTable calcul={row?.calcul ?? null} />

      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>{t("ui.close")}</button>
        {!controls.readOnly ? (
          <ListSaveButton isNew={!row} valid={form.valid} dirty={dirty} busy={fetcher.state !== "idle"} readOnly={controls.readOnly} />
        ) : null}
      </div>

      <AppDialog open={askRepercut} title={t("operation.repercut-title")} width={500} testId="repercut-dialog" onEscape={() => setAskRepercut(false)}
        actions={<>
          <button type="button" className="btn-secondary" onClick={() => answer(false)} data-testid="repercut-no">{t("ui.no")}</button>
          <button type="button" className="btn-primary" onClick={() => answer(true)} data-testid="repercut-yes">{t("ui.yes")}</button>
        </>}>
        <p>{t("operation.repercut-text", { avant: num(loadedRate, DECIMALES.debit), apres: num(debit, DECIMALES.debit) })}</p>
      </AppDialog>
    </fetcher.Form>
  );
}

function Screen({ data }: { data: Data }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const types = new Map(data.typesAction.map((ty) => [ty.id, ty]));
  const n = (v: number | null | undefined, digits: number) => (v == null ? "" : formatNumber(v, lang, digits));
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("operation.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    { id: "type", header: t("operation.idTypeAction"), cell: (r) => { const ty = types.get(r.idTypeAction); return ty ? refLabel(ty, lang) : ""; }, sortValue: (r) => r.idTypeAction, alwaysVisible: true },
    { id: "chargesMecaTotales", header: `${t("operation.costs.chargesMecaTotales")} (${UNITES_OPERATION.charges})`, cell: (r) => n(r.calcul.chargesMecaTotales, DECIMALES.euros), sortValue: (r) => r.calcul.chargesMecaTotales, align: "right" },
    { id: "consoCarburantReelle", header: t("operation.consoCarburantReelle", { unite: UNITES_OPERATION.carburant }), cell: (r) => fuelText(r.consoCarburantReelle, lang), sortValue: (r) => r.consoCarburantReelle, align: "right" },
    { id: "consoCarburantCalculee", header: t("operation.consoCarburantCalculee", { unite: UNITES_OPERATION.carburant }), cell: (r) => fuelText(roundFuel(r.consoCarburantCalculee), lang), sortValue: (r) => r.consoCarburantCalculee, align: "right" },
    { id: "debitIrrigation", header: t("operation.debitIrrigation", { unite: UNITES_OPERATION.debitIrrigation }), cell: (r) => n(r.debitIrrigation, 2), sortValue: (r) => r.debitIrrigation, align: "right", optional: true },
    { id: "debitReel", header: t("operation.debitReel", { unite: UNITES_OPERATION.debit }), cell: (r) => n(r.debitReel, DECIMALES.debit), sortValue: (r) => r.debitReel, align: "right" },
    { id: "debitCalcule", header: t("operation.debitCalcule", { unite: UNITES_OPERATION.debit }), cell: (r) => n(r.debitCalcule, DECIMALES.debit), sortValue: (r) => r.debitCalcule, align: "right" },
    { id: "eta", header: t("operation.workforce"), cell: (r) => (r.eta ? t("operation.workforce-externe") : t("operation.workforce-exploitation")), sortValue: (r) => (r.eta ? 1 : 0) },
    { id: "profondeurTravail", header: t("operation.profondeurTravail"), cell: (r) => n(r.profondeurTravail, 2), sortValue: (r) => r.profondeurTravail, align: "right", optional: true },
    { id: "proportionSurfaceTravaillee", header: t("operation.proportionSurfaceTravaillee"), cell: (r) => n(r.proportionSurfaceTravaillee, 4), sortValue: (r) => r.proportionSurfaceTravaillee, align: "right", optional: true },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <ListScreen
        tableId="operations_culturales"
        title={t("screen.operations_culturales")}
        label={t("screen.operations_culturales")}
        rows={data.rows}
        columns={columns}
        getRowId={(r) => r.id}
        renderForm={(row, controls) => <OperationForm row={row} data={data} controls={controls} />}
      />
    </div>
  );
}

export default function OperationsCulturalesScreen({ loaderData }: Route.ComponentProps) {
  return loaderData.kind === "screen" ? <Screen data={loaderData} /> : null;
}
