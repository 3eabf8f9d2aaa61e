import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { AppDialog } from "./dialog";

export const SNACKBAR_TIMEOUT_MS = 2000;
export const ERROR_DIALOG_MAX_WIDTH = 500;

type Snack = { id: number; key: string; color: "success" | "error" | "info" };
type Feedback = {
  /** The global error dialog (spec 1 §8): a translation key or a "status statusText" message. */
  showError: (message: string, params?: Record<string, string | number>) => void;
  /** A success notice shown for 2000 ms. */
  notify: (key: string, color?: Snack["color"]) => void;
};

const FeedbackContext = createContext<Feedback>({ showError: () => {}, notify: () => {} });

export function useFeedback(): Feedback {
  return useContext(FeedbackContext);
}

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<{ message: string; params?: Record<string, string | number> } | null>(null);
  const [snack, setSnack] = useState<Snack | null>(null);
  const seq = useRef(0);

  const notify = useCallback((key: string, color: Snack["color"] = "success") => setSnack({ id: ++seq.current, key, color }), []);
  const showError = useCallback((message: string, params?: Record<string, string | number>) => setError({ message, params }), []);
  const value = useMemo(() => ({ showError, notify }), [notify, showError]);

  useEffect(() => {
    if (!snack) return;
    const timer = setTimeout(() => setSnack(null), SNACKBAR_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [snack]);

  return (
    <FeedbackContext.Provider value={value}>
      {children}
      <AppDialog
        open={error !== null}
        title={t("errors.api-error")}
        width={ERROR_DIALOG_MAX_WIDTH}
        testId="error-dialog"
        onEscape={() => setError(null)}
        actions={
          <button type="button" className="btn-primary" onClick={() => setError(null)} autoFocus>
            {t("ui.ok")}
          </button>
        }
      >
        {/* A message that is not a translation key is the server's own words (A-ERR-06): introduce it (C-ERR-28). */}
        {error && !i18n.exists(error.message) ? (
          <p className="mb-1 text-sm text-stone-600" data-testid="error-dialog-intro">
            {t("errors.error-encountered")}. {t("errors.message-is")}
          </p>
        ) : null}
        <p role="alert">{error ? t(error.message, error.params ?? {}) : null}</p>
      </AppDialog>
      <div aria-live="polite" className="pointer-events-none fixed bottom-6 left-1/2 z-[60] -translate-x-1/2">
        {snack ? (
          <div
            key={snack.id}
            role="status"
            data-testid="snackbar"
            data-color={snack.color}
            className={`pointer-events-auto rounded px-4 py-2 text-sm text-white shadow-lg ${
              snack.color === "success" ? "bg-sillon-700" : snack.color === "error" ? "bg-red-700" : "bg-stone-700"
            }`}
          >
            {t(snack.key)}
          </div>
        ) : null}
      </div>
    </FeedbackContext.Provider>
  );
}

/** The one result shape of every action: field errors, a service error key, or a notice. */
export type ActionResult =
  | { ok: true; notice?: string }
  | { ok: false; error: string; status?: number; fieldErrors?: Record<string, string[]>; params?: Record<string, string | number> };

const shownAnswers = new WeakSet<object>();

type FeedbackRequest = { notice: string } | { error: string; params?: Record<string, string | number> };

/**
 * What an action's answer asks the user to see, once per answer: `seen` holds the last answer looked at, so
 * the same answer asks nothing a second time, and a new answer (a new object) asks again.
 */
export function feedbackOnce(seen: { current: unknown }, result: unknown, suppressErrorDialog = false): FeedbackRequest | null {
  if (result === seen.current) return null;
  seen.current = result;
  if (!result || typeof result !== "object") return null;
  // A form remounted by the answer's own revalidation (keyed on the row's updatedAt) reads the same answer from a
  // keyed fetcher: shown once in all, whichever instance sees it first.
  if (shownAnswers.has(result)) return null;
  shownAnswers.add(result);
  const r = result as Partial<ActionResult> & { error?: string; notice?: string; fieldErrors?: unknown; params?: Record<string, string | number> };
  if (r.ok === true && r.notice) return { notice: r.notice };
  if (r.ok === false && r.error && !r.fieldErrors && !suppressErrorDialog) return { error: r.error, params: r.params };
  return null;
}

/**
 * Shows what an action answered: its notice in the snackbar, its service error in the error dialog.
 * `suppressErrorDialog` is the spec's per-call option (spec 1 §8): the caller shows the error itself.
 *
 * The effect runs after every commit and a ref remembers the answer already shown, rather than an effect
 * keyed on the answer. React Router writes a fetcher's answer into a shared map at once but renders the
 * fetcher's new state later (in a transition), so a render of the form in between sees the answer early.
 * When that render changed none of the form's props, state or context, React keeps its hooks (the effect's
 * dependencies, answer included) but drops its effects: an effect keyed on the answer then never ran for
 * it, and the notice ("Création effectuée" after a create) was lost.
 */
export function useActionFeedback(result: unknown, options: { suppressErrorDialog?: boolean } = {}) {
  const { suppressErrorDialog = false } = options;
  const { showError, notify } = useFeedback();
  const seen = useRef<unknown>(undefined);
  useEffect(() => {
    const request = feedbackOnce(seen, result, suppressErrorDialog);
    if (request && "notice" in request) notify(request.notice);
    else if (request) showError(request.error, request.params);
  });
}
