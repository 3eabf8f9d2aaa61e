import { useState, type ReactNode } from "react";
import { useOnSaved } from "./list-screen";

/**
 * The form kit: the dirty-state hook and the section frame shared by the forms
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
