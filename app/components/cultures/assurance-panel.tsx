import { getInputProps, useInputControl, type FieldMetadata } from "@conform-to/react";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { AppDialog } from "~/components/dialog";
import { formatNumber } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { PendingOption } from "~/components/pending-option";
import { Tooltip } from "~/components/tooltip";
import { indemniteCalculee, rendementNonIndemnisable, type EstimationAssurance } from "~/domain/calc/assurance";
import { toNumber } from "~/domain/validation";
import { CultureOptions, type CultureOption, type LibelleOption } from "./crop-rows";

export type TypeSortieOption = LibelleOption & { unite: string };
export type AssuranceStored = {
  idCulture: number | null;
  idTypeSortie: number | null;
  rendementReelMoyen: number | null;
  rendementNonIndemnisable: number | null;
  mtIndemniteCalculee: number | null;
};
type AssuranceFields = {
  idCulture?: string;
  idTypeSortie?: string;
  mtCotisationAssurance?: string;
  mtIndemniteSaisie?: string;
  rendementAssure?: string;
  mtPrixAssure?: string;
  txFranchise?: string;
};

const asNumber = (v: string | undefined): number | null => {
  const n = toNumber(v);
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

/**
 * The crop insurance panel (B-INS-01 to B-INS-08). Choosing the insured crop clears the output type and
 * reloads the crop's output types; an empty list shows the no-type-sortie tooltip in error colour. The
 * estimate (real average yield, calculated indemnity) is requested when the output type changes, only when
 * crop, output type and mode are all set and the form is valid; the calculated figures then follow the
 * typed insured yield, franchise and price. Deleting the insurance asks first.
 */
export function AssurancePanel({
  field,
  idModeConduite,
  stored,
  cultures,
  formValid,
  readOnly,
  canDelete,
  onChange,
}: {
  field: FieldMetadata<AssuranceFields | undefined>;
  idModeConduite: number | null;
  stored: AssuranceStored | null;
  cultures: readonly CultureOption[];
  /** The whole form passes its schema (checked by the caller on the current values). */
  formValid: () => boolean;
  readOnly: boolean;
  canDelete: boolean;
  onChange: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const location = useLocation();
  const f = field.getFieldset();
  const culture = useInputControl(f.idCulture);
  const typeSortie = useInputControl(f.idTypeSortie);
  const types = useFetcher<{ typesSorties: TypeSortieOption[] | null }>();
  const estimator = useFetcher<{ ok: boolean; estimation?: EstimationAssurance; error?: string }>();
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(estimator.data);
  useActionFeedback(deleter.data);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const idCulture = culture.value ?? "";
  const idTypeSortie = typeSortie.value ?? "";

  const loadTypes = useEffectEvent((id: string) => types.load(`${location.pathname}?typesSorties=${encodeURIComponent(id)}`));
  useEffect(() => {
    if (idCulture) void loadTypes(idCulture);
  }, [idCulture]);

  // The estimate follows the output type (B-INS-05) once crop, output type and mode are set (B-INS-06).
  const requested = useRef<string | null>(null);
  const estimate = useEffectEvent(() => {
    if (!idCulture || !idTypeSortie || !idModeConduite || !formValid()) return;
    const key = `${idModeConduite}-${idCulture}-${idTypeSortie}`;
    if (requested.current === key) return;
    requested.current = key;
    void estimator.submit({ intent: "estimate", idModeConduite: String(idModeConduite), idCulture, idTypeSortie }, { method: "post" });
  });
  useEffect(() => estimate(), [idCulture, idTypeSortie, idModeConduite]);

  const options = idCulture ? (types.data?.typesSorties ?? null) : [];
  const loadingTypes = idCulture !== "" && (types.state !== "idle" || options === null);
  const noType = idCulture !== "" && !loadingTypes && options !== null && options.length === 0;
  const type = options?.find((o) => String(o.id) === idTypeSortie) ?? null;
  const unite = type?.unite ?? t("assurance.unite");
  const uniteQuantite = unite.replace(/\/ha$/, "");

  const estimation = idCulture && idTypeSortie && estimator.data?.ok ? (estimator.data.estimation ?? null) : null;
  const sameAsStored = stored && String(stored.idCulture ?? "") === idCulture && String(stored.idTypeSortie ?? "") === idTypeSortie;
  const reelMoyen = estimation ? estimation.rendementReelMoyen : sameAsStored ? stored.rendementReelMoyen : null;
  // Read-only, the inputs are disabled and the form holds no value: the stored ones are used.
  const typed = (name: "rendementAssure" | "txFranchise" | "mtPrixAssure") => asNumber(readOnly ? (f[name].initialValue as string | undefined) : f[name].value);
  const rendementAssure = typed("rendementAssure");
  const txFranchise = typed("txFranchise");
  const nonIndemnisable = rendementNonIndemnisable(rendementAssure, txFranchise);
  const indemnite = estimation
    ? indemniteCalculee({
        rendementAssure,
        txFranchise,
        mtPrixAssure: typed("mtPrixAssure"),
        rendementConstate: estimation.rendementCampagne ?? estimation.rendementReelMoyen,
      })
    : sameAsStored
      ? stored.mtIndemniteCalculee
      : null;

  function onCulture(value: string) {
    culture.change(value);
    typeSortie.change("");
    requested.current = null;
    onChange();
  }

  const input = (name: "mtCotisationAssurance" | "mtIndemniteSaisie" | "rendementAssure" | "mtPrixAssure" | "txFranchise", label: string) => (
    <Field id={f[name].id} label={label} errors={f[name].errors}>
      <TextInput {...getInputProps(f[name], { type: "text" })} inputMode="decimal" invalid={!!f[name].errors} describedBy={`${f[name].id}-error`} />
    </Field>
  );
  const calc = (id: string, label: string, value: number | null, digits: number, suffix = "") => (
    <div className="flex justify-between gap-2 border-b border-sillon-100 py-0.5">
      <dt className="text-stone-600">{label}</dt>
      <dd className="text-right font-medium tabular-nums" data-testid={`assurance-${id}`}>
        {value === null ? "—" : `${formatNumber(value, lang, digits)}${suffix}`}
      </dd>
    </div>
  );

  return (
    <fieldset className="rounded border border-stone-200 p-3" data-testid="assurance-panel">
      <legend className="px-1 text-sm font-semibold text-sillon-800">{t("assurance.title")}</legend>
      <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field id={f.idCulture.id} label={t("assurance.idCulture")} errors={f.idCulture.errors}>
          <select
            id={f.idCulture.id}
            name={f.idCulture.name}
            className="field-input"
            value={idCulture}
            onChange={(e) => onCulture(e.target.value)}
            aria-invalid={f.idCulture.errors ? true : undefined}
            aria-describedby={f.idCulture.errors ? `${f.idCulture.id}-error` : undefined}
          >
            <option value="">{t("context.choose")}</option>
            <CultureOptions cultures={cultures} />
          </select>
        </Field>
        <Field
          id={f.idTypeSortie.id}
          label={
            <span className="inline-flex items-center gap-1">
              {t("assurance.idTypeSortie")}
              {noType ? (
                <Tooltip text={t("assurance.no-type-sortie")} tone="error">
                  <span
                    tabIndex={0}
                    role="img"
                    aria-label={t("assurance.no-type-sortie")}
                    className="inline-flex h-4 w-4 items-center justify-center rounded-full bg-red-700 text-[10px] font-bold text-white"
                    data-testid="no-type-sortie"
                  >
                    !
                  </span>
                </Tooltip>
              ) : null}
            </span>
          }
          errors={f.idTypeSortie.errors}
        >
          <select
            id={f.idTypeSortie.id}
            name={f.idTypeSortie.name}
            className="field-input"
            value={idTypeSortie}
            aria-busy={loadingTypes || undefined}
            onChange={(e) => {
              typeSortie.change(e.target.value);
              onChange();
            }}
            aria-invalid={f.idTypeSortie.errors ? true : undefined}
            aria-describedby={f.idTypeSortie.errors ? `${f.idTypeSortie.id}-error` : undefined}
          >
            <option value="">{loadingTypes ? t("ui.loading") : t("context.choose")}</option>
            {loadingTypes ? <PendingOption value={idTypeSortie} offered={options} label={t("ui.loading")} /> : null}
            {(options ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {lang === "en" && o.libelleEn ? o.libelleEn : o.libelle} ({o.unite})
              </option>
            ))}
          </select>
        </Field>
        {input("rendementAssure", t("assurance.rendementAssure", { unite }))}
        {input("mtPrixAssure", t("assurance.mtPrixAssure", { unite: uniteQuantite }))}
        {input("txFranchise", t("assurance.txFranchise"))}
        {input("mtCotisationAssurance", t("assurance.mtCotisationAssurance"))}
        {input("mtIndemniteSaisie", t("assurance.mtIndemniteSaisie"))}
      </div>
      <section
        className="mt-1 rounded border border-stone-200 bg-sillon-50 p-3"
        aria-labelledby="assurance-calc-title"
        aria-busy={estimator.state !== "idle" || undefined}
      >
        <h4 id="assurance-calc-title" className="mb-1 text-sm font-semibold text-sillon-800">
          {t("assurance.calculees")}
        </h4>
        <dl className="grid grid-cols-1 gap-x-6 text-sm sm:grid-cols-3">
          {calc("rendementReelMoyen", t("assurance.rendementReelMoyen", { unite }), reelMoyen, 3)}
          {calc("rendementNonIndemnisable", t("assurance.rendementNonIndemnisable", { unite }), nonIndemnisable, 3)}
          {calc("mtIndemniteCalculee", t("assurance.mtIndemniteCalculee"), indemnite, 2, " €")}
        </dl>
        <p className="mt-1 text-xs text-stone-600" data-testid="assurance-help">
          {estimator.state !== "idle"
            ? t("assurance.estimate-loading")
            : estimation && estimation.annees.length
              ? t("assurance.annees-help", { count: estimation.annees.length, annees: estimation.annees.map((a) => a.anneeRecolte).join(", ") })
              : estimation
                ? t("assurance.sans-historique")
                : t("assurance.estimate-help")}
          {estimation?.rendementCampagne != null
            ? ` ${t("assurance.rendement-campagne", { valeur: formatNumber(estimation.rendementCampagne, lang, 3), unite })}`
            : ""}
        </p>
      </section>
      {canDelete && !readOnly ? (
        <div className="mt-2 flex justify-end">
          <button type="button" className="btn-secondary" onClick={() => setConfirmDelete(true)} data-testid="assurance-delete">
            {t("assurance.delete")}
          </button>
        </div>
      ) : null}
      <AppDialog
        open={confirmDelete}
        title={t("assurance.delete-title")}
        width={500}
        testId="assurance-delete-dialog"
        onEscape={() => setConfirmDelete(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setConfirmDelete(false)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                setConfirmDelete(false);
                void deleter.submit({ intent: "deleteAssurance", id: String(idModeConduite) }, { method: "post" });
              }}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("assurance.delete-confirm")}</p>
      </AppDialog>
    </fieldset>
  );
}
