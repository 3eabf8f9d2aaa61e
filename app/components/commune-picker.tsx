import type { SelectHTMLAttributes } from "react";
import { useEffect, useRef, useState, type RefObject } from "react";
import { useTranslation } from "~/use-translation";
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
  return num ? (departements.find((d) => d.numDept === num) ?? null) : null;
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
  departements,
  value,
  optionValue = (d) => d.numDept,
  onChoose,
  label,
  errors,
  selectProps,
  testId = "select-departement",
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
        {departements.map((d) => (
          <option key={d.numDept} value={optionValue(d)}>{`${d.numDept} - ${d.lbl}`}</option>
        ))}
      </select>
    </Field>
  );
}

/**
 * The commune picker of the chosen department; its value is the INSEE code. The select is controlled: it
 * keeps the stored commune while the department's communes load and takes it among them once they
 * arrive (issue 10, defect 9: an uncontrolled select fell back to "Choose" when its options changed, and
 * the next save wrote no commune). A disabled picker still sends its value through a hidden input.
 */
export function CommuneSelect({
  departement,
  communes,
  loading,
  value,
  storedLabel,
  onChoose,
  label,
  errors,
  selectProps,
  testId = "select-commune",
}: {
  departement: DepartementOption | null;
  communes: readonly CommuneOption[];
  loading: boolean;
  /** The INSEE code chosen (controlled when given; otherwise `selectProps.defaultValue` is the start). */
  value?: string;
  /** The stored commune's name, to keep it shown while its department's list loads. */
  storedLabel?: string | null;
  onChoose: (c: CommuneOption | null) => void;
  label: string;
  errors?: string[];
  selectProps: SelectProps & { key?: string | null };
  testId?: string;
}) {
  const { t } = useTranslation();
  const { key, defaultValue, ...props } = selectProps;
  const ref = useRef<HTMLSelectElement>(null);
  const current = useFollowedValue(value ?? (typeof defaultValue === "string" ? defaultValue : ""), ref, key);
  const listed = communes.some((c) => c.ci === current.value);
  const disabled = props.disabled || !departement || (!communes.length && !current.value);
  return (
    <Field
      id={props.id}
      label={label}
      errors={errors}
      help={!departement ? t("coordonnees.choose-departement-first") : loading ? t("ui.loading") : !communes.length ? t("coordonnees.no-communes") : undefined}
    >
      <select
        key={key ?? undefined}
        ref={ref}
        {...props}
        value={current.value}
        className="field-input"
        disabled={disabled}
        aria-busy={loading || undefined}
        aria-invalid={!!errors?.length || undefined}
        onChange={(e) => {
          current.set(e.target.value);
          onChoose(communes.find((c) => c.ci === e.target.value) ?? null);
        }}
        data-testid={testId}
      >
        <option value="">{t("context.choose")}</option>
        {current.value && !listed ? <option value={current.value}>{storedLabel ?? current.value}</option> : null}
        {communes.map((c) => (
          <option key={c.ci} value={c.ci}>
            {c.codesPostaux.length > 1 ? c.lbl : `${c.lbl} (${c.cp})`}
          </option>
        ))}
      </select>
      {disabled && !props.disabled && props.name && current.value ? <input type="hidden" name={props.name} value={current.value} /> : null}
    </Field>
  );
}

/**
 * A value chosen here that follows its source: a new `source` (a form reset, a cleared commune) replaces
 * the local choice, which otherwise stays until the source catches up. A value that conform writes into
 * the element itself (`form.update`, which marks the element with a new `data-conform`) is taken too.
 */
function useFollowedValue(source: string, ref: RefObject<HTMLSelectElement | null>, elementKey: unknown) {
  const [state, setState] = useState({ source, value: source });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new MutationObserver(() => setState((s) => (s.value === element.value ? s : { ...s, value: element.value })));
    observer.observe(element, { attributes: true, attributeFilter: ["data-conform"] });
    return () => observer.disconnect();
  }, [ref, elementKey]);
  if (state.source !== source) {
    setState({ source, value: source });
    return { value: source, set: (value: string) => setState({ source, value }) };
  }
  return { value: state.value, set: (value: string) => setState({ source, value }) };
}
