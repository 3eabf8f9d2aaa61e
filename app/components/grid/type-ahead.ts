import { useCallback, useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from "react";

/**
 * Keys typed while a cell's editor is opening. The first printable key on a cell opens Glide's editor with that
 * key; the editor takes the focus a frame later, and every key typed in between would open the editor again with
 * only itself (typing "0,5" quickly gave "5"). These keys wait here and are typed into the editor when it takes
 * the focus; an Enter or Tab among them then commits it as it would have.
 */

/** How long after the opening key the editor may take to appear; after that, keys go to the grid again. */
const OPENING_MS = 1500;

type Waiting = { since: number; keys: string[] };

export const isTextEntry = (target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;

const isPrintable = (e: ReactKeyboardEvent) => e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;

/** Applies waiting keys to a text: characters are appended, Backspace removes the last one. */
export function typeKeys(text: string, keys: readonly string[]): { text: string; finish?: string } {
  let out = text;
  for (const key of keys) {
    if (key === "Enter" || key === "Tab") return { text: out, finish: key };
    out = key === "Backspace" ? out.slice(0, -1) : out + key;
  }
  return { text: out };
}

/** Sets a React-controlled field's value as typing does (the native setter, then an input event). */
function typeInto(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set;
  setter?.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.setSelectionRange(value.length, value.length);
}

export function useEditorTypeAhead(enabled: boolean) {
  const waiting = useRef<Waiting | null>(null);

  /** Called first on every key in the grid (with whether the cursor's cell opens an editor on typing); true when the key was kept for the opening editor. */
  const onKey = useCallback(
    (e: ReactKeyboardEvent<HTMLElement>, cursorEditable: () => boolean): boolean => {
      if (!enabled || isTextEntry(e.target)) {
        waiting.current = null;
        return false;
      }
      const open = waiting.current && Date.now() - waiting.current.since < OPENING_MS ? waiting.current : null;
      if (!open) {
        waiting.current = isPrintable(e) && cursorEditable() ? { since: Date.now(), keys: [] } : null;
        return false;
      }
      if (isPrintable(e) || e.key === "Backspace" || e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        e.stopPropagation();
        open.keys.push(e.shiftKey && e.key === "Tab" ? "Tab" : e.key);
        return true;
      }
      if (e.key === "Escape") waiting.current = null;
      return false;
    },
    [enabled],
  );

  // The editor took the focus: the waiting keys are typed into it. Glide's editor lives in a portal outside the
  // grid's element, so the focus is watched on the document.
  useEffect(() => {
    if (!enabled) return;
    const onFocus = (e: FocusEvent) => {
      // Glide focuses its accessible cell first, then the editor's field.
      const field = e.target;
      if (!isTextEntry(field)) return;
      const open = waiting.current;
      waiting.current = null;
      if (!open?.keys.length) return;
      // Glide focuses its editor while React commits: typed then, the value would reach React's state late
      // (an early Enter would commit the editor without it), so it is typed right after, before any next key.
      queueMicrotask(() => {
        const { text, finish } = typeKeys(field.value, open.keys);
        typeInto(field, text);
        // The editor commits with the value it holds once the input event has been rendered.
        if (finish) setTimeout(() => field.dispatchEvent(new KeyboardEvent("keydown", { key: finish, bubbles: true, cancelable: true })), 0);
      });
    };
    document.addEventListener("focusin", onFocus, true);
    return () => document.removeEventListener("focusin", onFocus, true);
  }, [enabled]);

  return { onKey };
}
