import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "~/use-translation";

/** A labelled input with its error messages (translation keys) below it, wired for screen readers. */
export function Field({ id, label, errors, help, children }: { id: string; label: ReactNode; errors?: string[]; help?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="mb-3">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children}
      {help ? (
        <p id={`${id}-help`} className="mt-1 text-xs text-stone-500">
          {help}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-error`} className="field-error" data-testid={`${id}-error`}>
          {t(errors[0])}
        </p>
      ) : null}
    </div>
  );
}

export function TextInput({ invalid, describedBy, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean; describedBy?: string }) {
  return <input className="field-input" aria-invalid={invalid || undefined} aria-describedby={invalid ? describedBy : undefined} {...props} />;
}
