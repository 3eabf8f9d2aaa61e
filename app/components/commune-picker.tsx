import type { SelectHTMLAttributes } from "react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLocation } from "react-router";
import { departementOfInsee } from "~/domain/parcelle";
import { Field } from "./field";

/**
 * The department → commune pickers of the farm coordinates and the plot geodata (spec 2 §3 Department
 * {numDept, lbl}, Commune {ci, cp, lbl, lat, lon}; §4): choosing a department clears the commune and
 * loads its communes (the screen's loader answers `?departement=NN`); choosing a commune gives its
 * INSEE and postal codes (and its centre, when known).
 */
export type DepartementOption = { numDept: string; lbl: string };
export type CommuneOption = { ci: string; cp: string; codesPostaux: string[]; lbl: string; lat?: number | null; lon?: number | null };
export type CommuneList = { numDept: string; rows: CommuneOption[] } | null;

/** The department of a commune's INSEE code (B-MAP-07), as an option of the list. */
export function departementOf(departements: readonly DepartementOption[], codeInsee: string | null | undefined): DepartementOption | null {
  const num = departementOfInsee(codeInsee);
  return num ? departements.find((d) => d.numDept === num) ?? null : null;
}

/**
 * The communes of `numDept`: those the page loaded, or else fetched from the screen's loader
 * (`?departement=`); `loading` while they come.
 */
export function useCommunes(numDept: string | null, loaded: CommuneList): { rows: CommuneOption[]; loading: boolean } {
  const location = useLocation();
  const fetcher = useFetcher<{ communes: CommuneList }>();
  const fetched = fetcher.data?.communes ?? null;
  const list = loaded?.numDept === numDept ? loaded : fetched?.numDept === numDept ? fetched : null;
  const { load, state } = fetcher;
  useEffect(() => {
    if (numDept && !list && state === "idle") void load(`${location.pathname}?departement=${encodeURIComponent(numDept)}`);
  }, [numDept, list, state, load, location.pathname]);
  return { rows: list?.rows ?? [], loading: !!numDept && !list };
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { id: string };

/** The department picker; `optionValue` says what the option value is (the label on the farm, the number on a plot). */
export function DepartementSelect({
  departements, value, optionValue = (d) => d.numDept, onChoose, label, errors, selectProps, testId = "select-departement",
}: {
  departements: readonly DepartementOption[];
  /** Controlled value (omit when `selectProps` carries a default value). */
  value?: string;
  optionValue?: (d: DepartementOption) => string;
  onChoose: (d: DepartementOption | null) => void;
  label: string;
  errors?: string[];
  selectProps: SelectProps;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field id={selectProps.id} label={label} errors={errors}>
      <select
        {...selectProps}
        {...(value !== undefined ? { value, defaultValue: undefined } : {})}
        className="field-input"
        onChange={(e) => onChoose(departements.find((d) => optionValue(d) === e.target.value) ?? null)}
        data-testid={testId}
      >
        <option value="">{t("context.choose")}</option>
        {departements.map((d) => <option key={d.numDept} value={optionValue(d)}>{`${d.numDept} - ${d.lbl}`}</option>)}
      </select>
    </Field>
  );
}

/** The commune picker of the chosen department; its value is the INSEE code. */
export function CommuneSelect({
  departement, communes, loading, value, storedLabel, onChoose, label, errors, selectProps, testId = "select-commune",
}: {
  departement: DepartementOption | null;
  communes: readonly CommuneOption[];
  loading: boolean;
  /** The INSEE code chosen (controlled when given). */
  value?: string;
  /** The stored commune's name, to keep it shown while its department's list loads. */
  storedLabel?: string | null;
  onChoose: (c: CommuneOption | null) => void;
  label: string;
  errors?: string[];
  selectProps: SelectProps;
  testId?: string;
}) {
  const { t } = useTranslation();
  const current = value ?? (typeof selectProps.defaultValue === "string" ? selectProps.defaultValue : "");
  return (
    <Field
      id={selectProps.id}
      label={label}
      errors={errors}
      help={!departement ? t("coordonnees.choose-departement-first") : loading ? t("ui.loading") : !communes.length ? t("coordonnees.no-communes") : undefined}
    >
      <select
        {...selectProps}
        {...(value !== undefined ? { value, defaultValue: undefined } : {})}
        className="field-input"
        disabled={selectProps.disabled || !departement || loading || !communes.length}
        aria-invalid={!!errors?.length || undefined}
        onChange={(e) => onChoose(communes.find((c) => c.ci === e.target.value) ?? null)}
        data-testid={testId}
      >
        <option value="">{t("context.choose")}</option>
        {loading && current ? <option value={current}>{storedLabel ?? current}</option> : null}
        {communes.map((c) => <option key={c.ci} value={c.ci}>{c.codesPostaux.length > 1 ? c.lbl : `${c.lbl} (${c.cp})`}</option>)}
      </select>
    </Field>
  );
}
