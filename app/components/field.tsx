import type { InputHTMLAttributes, ReactNode } from "react";
import type { z } from "zod";
import { useTranslation } from "~/use-translation";
import { boundsMessage } from "./bounds";

/**
 * A labelled input with its error messages (translation keys) below it, wired for screen readers. Given the field's
 * schema (`bounds`), a refused bound names the bounds, as the grid does ("entre 0 et 100", bounds.ts).
 */
export function Field({
  id,
  label,
  errors,
  help,
  bounds,
  children,
}: {
  id: string;
  label: ReactNode;
  errors?: string[];
  help?: ReactNode;
  bounds?: z.ZodType;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const message = errors?.length ? boundsMessage(bounds, errors[0], i18n.language) : undefined;
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
          {message ? t(message.key, message.params) : null}
        </p>
      ) : null}
    </div>
  );
}

export function TextInput({ invalid, describedBy, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean; describedBy?: string }) {
  return <input className="field-input" aria-invalid={invalid || undefined} aria-describedby={invalid ? describedBy : undefined} {...props} />;
}
