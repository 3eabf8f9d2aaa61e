import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * The form kit: the dirty-state hooks, the submit by form id and the section frame shared by the forms
 * (docs/architecture.md, "Forms").
 */

/**
 * Submits the form of that id as its submit button would: conform validates it first, then its fetcher posts it
 * (what Ctrl+S, the leave confirmation and a list's row-switch confirmation call).
 */
export function submitForm(formId: string) {
  (document.getElementById(formId) as HTMLFormElement | null)?.requestSubmit();
}

/**
 * Runs `onSaved` once for each successful answer of a form's fetcher, after the screen's data is reloaded
 * (a created row must be in the list before it is selected). `markClean` runs as soon as the answer
 * arrives: an edit typed while the list reloads stays unsaved. An effect keyed on the answer alone would
 * run again at every render while that answer stays, and undo the next edit's "dirty" mark.
 */
export function useOnSaved(fetcher: { state: string; data?: unknown }, onSaved: (id: number | undefined) => void, markClean?: () => void) {
  const handled = useRef<unknown>(undefined);
  const cleaned = useRef<unknown>(undefined);
  const latest = useRef({ onSaved, markClean });
  latest.current = { onSaved, markClean };
  useEffect(() => {
    const answer = fetcher.data as { ok?: boolean; id?: number } | undefined;
    if (!answer?.ok) return;
    if (cleaned.current !== answer) {
      cleaned.current = answer;
      latest.current.markClean?.();
    }
    if (fetcher.state !== "idle" || handled.current === answer) return;
    handled.current = answer;
    latest.current.onSaved(answer.id);
  }, [fetcher.state, fetcher.data]);
}

/**
 * A form's "unsaved changes" state: edits mark it (markDirty, or setDirty(true)), a successful answer of the
 * form's fetcher clears it once, when it arrives; an edit typed while the screen reloads after the save stays
 * unsaved. (The effect it replaces cleared it again each time the fetcher came back to idle with the same answer,
 * and lost that edit.) `onSaved` runs once per successful answer, after the reload (a list selects the new row).
 */
export function useFormDirty(fetcher: { state: string; data?: unknown }, onSaved?: (id: number | undefined) => void) {
  const [dirty, setDirty] = useState(false);
  useOnSaved(
    fetcher,
    (id) => onSaved?.(id),
    () => setDirty(false),
  );
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
