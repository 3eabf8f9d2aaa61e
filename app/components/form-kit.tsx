import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { Field, TextInput } from "./field";
import { useOnSaved } from "./list-screen";

/**
 * The form kit: one dirty-state hook and a few conform-aware pieces shared by the forms
 * (docs/architecture.md, "Forms").
 */

/**
 * A form's "unsaved changes" state: edits mark it (markDirty, or setDirty(true)), a successful answer of the
 * form's fetcher clears it once, when it arrives; an edit typed while the screen reloads after the save stays
 * unsaved. (The effect it replaces cleared it again each time the fetcher came back to idle with the same answer,
 * and lost that edit.) `onSaved` runs once per successful answer, after the reload (a list selects the new row).
 */
export function useFormDirty(fetcher: { state: string; data?: unknown }, onSaved?: (id: number | undefined) => void) {
  const [dirty, setDirty] = useState(false);
  useOnSaved(fetcher, (id) => onSaved?.(id), () => setDirty(false));
  return { dirty, setDirty, markDirty: () => setDirty(true), markClean: () => setDirty(false) };
}

/** A group of fields under a legend (a card of a long form). */
export function FormSection({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <fieldset className="min-w-0 rounded border border-stone-200 p-3" data-testid={testId}>
      <legend className="px-1 text-sm font-semibold text-sillon-800">{title}</legend>
      {children}
    </fieldset>
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field of any form
type AnyField = FieldMetadata<any, any, string[]>;

/** A conform text field (numbers included: decimal keyboard, French comma accepted by the schemas), label, help and error. */
export function TextField({ field, label, help, decimal, disabled, required }: { field: AnyField; label: ReactNode; help?: ReactNode; decimal?: boolean; disabled?: boolean; required?: boolean }) {
  return (
    <Field id={field.id} label={label} errors={field.errors} help={help}>
      <TextInput {...getInputProps(field, { type: "text" })} inputMode={decimal ? "decimal" : undefined} disabled={disabled} aria-required={required || undefined}
        invalid={!!field.errors} describedBy={`${field.id}-error`} />
    </Field>
  );
}

/** A conform select with its options (value, label), an optional empty choice, label, help and error. */
export function SelectField({ field, label, options, empty, help, disabled, testId, onChange }: {
  field: AnyField; label: ReactNode; options: readonly { value: string; label: string }[]; empty?: string; help?: ReactNode; disabled?: boolean; testId?: string;
  onChange?: (value: string) => void;
}) {
  return (
    <Field id={field.id} label={label} errors={field.errors} help={help}>
      <select {...getSelectProps(field)} className="field-input" disabled={disabled} data-testid={testId} onChange={onChange ? (e) => onChange(e.target.value) : undefined}>
        {empty !== undefined ? <option value="">{empty}</option> : null}
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </Field>
  );
}
