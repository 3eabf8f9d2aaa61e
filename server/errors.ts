import type { z } from "zod";
import { validate } from "~/domain/validation";

/** A refusal or failure a user can understand: a translation key (errors.*, warning.*) and an HTTP status. */
export class ServiceError extends Error {
  constructor(
    public key: string,
    public status = 400,
    public fieldErrors?: Record<string, string[]>,
    /** Values for the message's placeholders, e.g. { annee: 2025 }. */
    public params?: Record<string, string | number>,
  ) {
    super(key);
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

/** An unexpected failure (database, bug) of a service call becomes its catalogued error key (500); refusals pass through. */
export async function failingWith<T>(key: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isServiceError(e)) throw e;
    console.warn(`[${key}]`, e);
    throw new ServiceError(key, 500);
  }
}

/** Refuses the schema's failures with their field errors (the services accept typed or form values). */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = validate(schema, input);
  if (!r.success) throw new ServiceError("warning.invalid-form", 400, r.fieldErrors);
  return r.data;
}

/** The same with a strict schema, an unknown field named by itself (as the API adapter names them). */
export function parseStrict<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = validate(schema, input);
  if (r.success) return r.data;
  const errors = { ...r.fieldErrors };
  const raw = schema.safeParse(input);
  if (!raw.success)
    for (const issue of raw.error.issues)
      if (issue.code === "unrecognized_keys") {
        delete errors.form;
        delete errors[""];
        for (const key of issue.keys) errors[key] = ["warning.invalid"];
      }
  throw new ServiceError("warning.invalid-form", 400, errors);
}

/** A refused form whose one field carries the message `key`. */
export const invalidField = (field: string, key = "warning.invalid") => new ServiceError("warning.invalid-form", 400, { [field]: [key] });
