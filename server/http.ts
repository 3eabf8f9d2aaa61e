import { data } from "react-router";
import { isServiceError } from "./errors";

/** The one error path of actions: a ServiceError becomes { ok: false, error, fieldErrors } with its status. */
export async function runAction<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (e) {
    if (isServiceError(e)) return data({ ok: false as const, error: e.key, fieldErrors: e.fieldErrors, params: e.params }, { status: e.status });
    throw e;
  }
}

/** A form that failed validation: its field errors (conform's reply), status 400, nothing changed. */
export function invalid(submission: unknown) {
  return data({ ok: false as const, submission }, { status: 400 });
}
