import type { DataEditorRef, GridKeyEventArgs, GridSelection } from "@glideapps/glide-data-grid";
import { useCallback, type KeyboardEvent, type RefObject } from "react";
import { isEditable, type GridColumnDef } from "./columns";
import { redo, undo, type EditBuffer } from "./patches";
import { isTextEntry, useEditorTypeAhead } from "./type-ahead";
import type { GridRow } from "./types";

const isModified = (e: { ctrlKey: boolean; metaKey: boolean }) => e.ctrlKey || e.metaKey;
/** Keys typed in an editor (the overlay, the choice list) belong to it, not to the grid's shortcuts. */
export const inEditor = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);

/**
 * The grid's keyboard: typing on a cell opens its editor with the key (type-ahead), Enter and Tab typed in an
 * editor are sent again after Glide's own timers, Ctrl+S in an editor commits it and then asks the page to save
 * (`saveAfterCommit`), Ctrl+S on the grid says why an invalid grid is not saved, and
 * Ctrl+Z, Ctrl+Y / Ctrl+Shift+Z undo and redo.
 */
export function useGridKeyboard<R extends GridRow>({
  readOnly,
  shown,
  selection,
  bufferRef,
  commit,
  invalidRows,
  save,
  editorRef,
  saveAfterCommit,
}: {
  readOnly: boolean;
  shown: readonly GridColumnDef<R>[];
  selection: GridSelection;
  bufferRef: RefObject<EditBuffer>;
  commit: (next: EditBuffer) => void;
  invalidRows: () => unknown[];
  save: () => Promise<void>;
  editorRef: RefObject<DataEditorRef | null>;
  /** Set on Ctrl+S in a cell's editor: the cell edit handler asks the page to save once Glide has committed it. */
  saveAfterCommit: RefObject<boolean>;
}) {
  const typeAhead = useEditorTypeAhead(!readOnly);
  const cursorEditable = useCallback(() => {
    const column = selection.current?.cell ? shown[selection.current.cell[0]] : undefined;
    return !!column && isEditable(column) && column.kind !== "boolean";
  }, [selection, shown]);

  const onKeyDownCapture = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if (!isModified(e) && typeAhead.onKey(e, cursorEditable)) return;
      if (!isModified(e)) {
        // Glide's editor acts on each key in a timer of its own, and the timer of a character typed just before
        // an Enter or a Tab, if it comes last, closes the editor without its value: the Enter or Tab is sent again
        // after the timers already set.
        if ((e.key === "Enter" || e.key === "Tab") && !e.altKey && e.nativeEvent.isTrusted && isTextEntry(e.target) && !(e.key === "Enter" && e.shiftKey)) {
          e.preventDefault();
          e.stopPropagation();
          const field = e.target;
          const again = { key: e.key, shiftKey: e.shiftKey, bubbles: true, cancelable: true };
          setTimeout(() => field.dispatchEvent(new globalThis.KeyboardEvent("keydown", again)), 0);
        }
        return;
      }
      const k = e.key.toLowerCase();
      if (inEditor(e.target)) {
        if (k !== "s" || readOnly || !isTextEntry(e.target)) return;
        e.preventDefault();
        e.stopPropagation();
        saveAfterCommit.current = true;
        const field = e.target;
        // After the timers already set (see the Enter above: the Ctrl key's timer too would close the editor).
        setTimeout(() => field.dispatchEvent(new globalThis.KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true })), 0);
        return;
      }
      if (k === "s") {
        // The page's form controller saves every changed form on Ctrl+S, this grid included (when it is valid);
        // here the browser's own save is prevented and an invalid grid says why it is not saved.
        e.preventDefault();
        if (!readOnly && invalidRows().length) void save();
      } else if (readOnly) {
        return;
      } else if (k === "z" && !e.shiftKey) {
        e.preventDefault();
        commit(undo(bufferRef.current));
        editorRef.current?.focus();
      } else if (k === "y" || (k === "z" && e.shiftKey)) {
        e.preventDefault();
        commit(redo(bufferRef.current));
        editorRef.current?.focus();
      }
    },
    [save, readOnly, commit, invalidRows, typeAhead, cursorEditable, bufferRef, editorRef, saveAfterCommit],
  );

  const onGridKeyDown = useCallback((e: GridKeyEventArgs) => {
    // Glide would open the editor on Ctrl+S etc.: the shortcuts above handle them.
    if (isModified(e) && ["s", "z", "y"].includes(e.key.toLowerCase())) e.cancel();
  }, []);

  return { onKeyDownCapture, onGridKeyDown };
}
