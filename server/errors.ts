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
