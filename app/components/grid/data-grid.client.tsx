import "@glideapps/glide-data-grid/dist/index.css";
import {
  CompactSelection,
  DataEditor,
  GridCellKind,
  type DataEditorRef,
  type EditListItem,
  type GridCell,
  type GridColumn,
  type GridKeyEventArgs,
  type GridMouseEventArgs,
  type GridSelection,
  type Item,
  type Theme,
} from "@glideapps/glide-data-grid";
import { useCallback, useEffect, useEffectEvent, useImperativeHandle, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { useTranslation } from "~/use-translation";
import { useFeedback } from "../feedback";
import { useControlledForm } from "../form-controller";
import { ChoiceEditor, type ChoiceTextCell } from "./choice-editor";
import { displayText, editText, isEditable, rowErrors, schemaFields, type GridColumnDef } from "./columns";
import { applyEdits, canRedo, canUndo, cellValue, currentValues, dirtyCount, emptyBuffer, isCellChanged, redo, toPatches, undo, type CellEdit, type EditBuffer, type RowKey, type Values } from "./patches";
import { parseTsv, pasteBlock, readCell } from "./paste";
import { isTextEntry, useEditorTypeAhead } from "./type-ahead";
import { loadGridPrefs, moveColumn, orderedIds, saveGridPrefs, withWidth, type GridPrefs } from "./preferences";
import { DEFAULT_GRID_HEIGHT, GRID_STATUS_HEIGHT, GRID_TOOLBAR_HEIGHT, type DataGridProps, type GridRow } from "./types";

/**
 * The grid in the browser (Glide Data Grid; data-grid.tsx loads it). The logic lives in the pure modules beside
 * it: columns.ts (kinds, texts, checks), patches.ts (edit buffer, undo/redo, patches), paste.ts (TSV and values),
 * preferences.ts (widths and order). This module wires them to Glide, the keyboard and the save.
 */

const DEFAULT_WIDTH = 140;
const CHANGED_BG = "#fdf6d8";
const INVALID_BG = "#fde2e2";
const INVALID_TEXT = "#8f1d1d";
const NOTE_BG = "#fdebd3";
const COMPUTED_BG = "#f3f2f0";
const changedTheme: Partial<Theme> = { bgCell: CHANGED_BG };
const invalidTheme: Partial<Theme> = { bgCell: INVALID_BG, textDark: INVALID_TEXT };
const noteTheme: Partial<Theme> = { bgCell: NOTE_BG };
const computedTheme: Partial<Theme> = { bgCell: COMPUTED_BG };
const gridTheme: Partial<Theme> = {
  accentColor: "#336624",
  accentLight: "rgba(51, 102, 36, 0.12)",
  fontFamily: "inherit",
  textDark: "#1c1917",
  textMedium: "#44403c",
  textHeader: "#292524",
  bgHeader: "#f5f5f4",
};

const isModified = (e: { ctrlKey: boolean; metaKey: boolean }) => e.ctrlKey || e.metaKey;
/** Keys typed in an editor (the overlay, the choice list) belong to it, not to the grid's shortcuts. */
const inEditor = (target: EventTarget | null) => target instanceof HTMLElement && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);

/** `patches.3` or `patches.3.values.uta` → the patch index and the field ("" for the row). */
function parseErrorPath(path: string): { index: number; field: string } | undefined {
  const m = /^patches[.[](\d+)\]?(?:\.values\.(\w+))?(?:\.(\w+))?$/.exec(path);
  return m ? { index: Number(m[1]), field: m[2] ?? m[3] ?? "" } : undefined;
}

export default function DataGridClient<R extends GridRow>({
  tableId,
  label,
  columns,
  rows,
  rowSchema,
  readOnly = false,
  newRow,
  onSave,
  onSelect,
  onRowsSelected,
  saveOnlyWhenValid = false,
  height = DEFAULT_GRID_HEIGHT,
  ref,
}: DataGridProps<R>) {
  const { t, i18n } = useTranslation();
  const { showError, notify } = useFeedback();
  const language = i18n.language;
  const editorRef = useRef<DataEditorRef>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);

  // --- preferences: widths and order, per table -------------------------------------------------
  const [prefs, setPrefs] = useState<GridPrefs>(() => loadGridPrefs(tableId));
  const shown = useMemo(() => {
    const byId = new Map(columns.map((c) => [c.id, c]));
    return orderedIds(columns.map((c) => c.id), prefs.order).map((id) => byId.get(id)!);
  }, [columns, prefs.order]);
  const updatePrefs = useCallback(
    (next: GridPrefs) => {
      setPrefs(next);
      saveGridPrefs(tableId, next);
    },
    [tableId],
  );
  const gridColumns = useMemo<GridColumn[]>(
    () => shown.map((c) => ({ id: c.id, title: c.title, width: prefs.widths[c.id] ?? c.width ?? DEFAULT_WIDTH })),
    [shown, prefs.widths],
  );

  // --- rows and the edit buffer -------------------------------------------------------------------
  const [buffer, setBuffer] = useState<EditBuffer>(emptyBuffer);
  const bufferRef = useRef(buffer);
  bufferRef.current = buffer;
  const commit = useCallback((next: EditBuffer) => {
    bufferRef.current = next;
    setBuffer(next);
  }, []);
  const rowById = useMemo(() => new Map<number, R>(rows.map((r) => [r.id, r])), [rows]);
  const base = useCallback((key: RowKey) => rowById.get(key) as Values | undefined, [rowById]);
  const keys = useMemo(() => (buffer.appended.length ? [...rows.map((r) => r.id), ...buffer.appended] : rows.map((r) => r.id)), [rows, buffer.appended]);
  const fields = useMemo(() => schemaFields(rowSchema), [rowSchema]);

  /** Errors the server answered for the last save, by row then field; an edit of the row clears them. */
  const [serverErrors, setServerErrors] = useState<ReadonlyMap<RowKey, Record<string, string>>>(new Map());
  /** The rows' own errors: only changed rows are checked (a loaded row is as the server keeps it). */
  const errors = useMemo(() => {
    const out = new Map<RowKey, Record<string, string>>();
    for (const [key] of buffer.changed) {
      const e = rowErrors(rowSchema, columns, currentValues(buffer, key, buffer.loaded.get(key) ?? base(key)) as Record<string, unknown>);
      if (Object.keys(e).length) out.set(key, e);
    }
    for (const [key, e] of serverErrors) out.set(key, { ...e, ...out.get(key) });
    return out;
  }, [buffer, rowSchema, columns, base, serverErrors]);

  const edit = useCallback(
    (edits: CellEdit[], append: Values[] = []) => {
      const { buffer: next, appendedKeys } = applyEdits(bufferRef.current, base, edits, append);
      if (next !== bufferRef.current) {
        commit(next);
        if (serverErrors.size) {
          const touched = new Set(edits.map((e) => e.key));
          setServerErrors((m) => new Map([...m].filter(([k]) => !touched.has(k))));
        }
      }
      return appendedKeys;
    },
    [base, commit, serverErrors.size],
  );

  // --- cells ---------------------------------------------------------------------------------------
  const getCellContent = useCallback(
    ([col, row]: Item): GridCell => {
      const column = shown[col];
      const key = keys[row];
      const loaded = base(key);
      const value = column.kind === "computed" ? column.value(currentValues(buffer, key, loaded) as R) : cellValue(buffer, key, column.id, loaded);
      const editable = isEditable(column, readOnly);
      const error = errors.get(key)?.[column.id];
      const note = !error && column.note && !readOnly ? column.note(value) : undefined;
      const themeOverride = error ? invalidTheme : note ? noteTheme : isCellChanged(buffer, key, column.id) ? changedTheme : column.kind === "computed" ? computedTheme : undefined;
      if (column.kind === "boolean") {
        return { kind: GridCellKind.Boolean, data: value === true, allowOverlay: false, readonly: !editable, themeOverride, copyData: value === true ? "1" : "0" };
      }
      const text = editText(column, value, language);
      const cell: ChoiceTextCell = {
        kind: GridCellKind.Text,
        data: text,
        displayData: displayText(column, value, language),
        copyData: text,
        allowOverlay: editable,
        readonly: !editable,
        contentAlign: column.kind === "number" || (column.kind === "computed" && typeof value === "number") ? "right" : undefined,
        themeOverride,
      };
      if (column.kind === "choice" && editable) cell.choice = column;
      return cell;
    },
    [shown, keys, base, buffer, readOnly, errors, language],
  );

  const provideEditor = useCallback((cell: GridCell) => {
    if (cell.kind === GridCellKind.Text && (cell as ChoiceTextCell).choice) return { editor: ChoiceEditor, disablePadding: true } as never;
    return undefined;
  }, []);

  /** Ctrl+S was pressed in a cell's editor: the page saves once Glide has committed that editor (see below). */
  const saveAfterCommit = useRef(false);
  const [saveRequest, setSaveRequest] = useState(0);
  const onCellsEdited = useCallback(
    (items: readonly EditListItem[]) => {
      if (readOnly) return true;
      const edits: CellEdit[] = [];
      for (const { location, value } of items) {
        const column = shown[location[0]];
        const key = keys[location[1]];
        if (!column || key === undefined || !isEditable(column)) continue;
        const v = value.kind === GridCellKind.Boolean ? value.data === true : value.kind === GridCellKind.Text ? readCell(column, value.data, language) : undefined;
        edits.push({ key, field: column.id, value: v });
      }
      edit(edits);
      if (saveAfterCommit.current) {
        saveAfterCommit.current = false;
        setSaveRequest((n) => n + 1);
      }
      return true;
    },
    [readOnly, shown, keys, language, edit],
  );

  // --- selection -------------------------------------------------------------------------------------
  const [selection, setSelection] = useState<GridSelection>({ columns: CompactSelection.empty(), rows: CompactSelection.empty() });
  const cursor = selection.current?.cell;
  const cursorKey = cursor ? keys[cursor[1]] : undefined;
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  useEffect(() => onSelectRef.current?.(cursorKey ?? null), [cursorKey]);
  const selectedKeys = useMemo(() => {
    const ticked = selection.rows.toArray();
    const range = selection.current?.range;
    const indexes = ticked.length ? ticked : range ? Array.from({ length: range.height }, (_, i) => range.y + i) : [];
    return indexes.map((i) => keys[i]).filter((k): k is RowKey => k !== undefined);
  }, [selection, keys]);
  const selectedSignature = selectedKeys.join(",");
  // The parent hears of a new set of selected rows, not of each new array of the same keys.
  const rowsSelected = useEffectEvent(() => onRowsSelected?.(selectedKeys));
  useEffect(() => rowsSelected(), [selectedSignature]);
  // Rows removed (an undone paste, a cancel): the selection stays within the rows, so the grid keeps the focus.
  useEffect(() => {
    const current = selection.current;
    if (!current) return;
    const last = keys.length - 1;
    if (last < 0) {
      setSelection({ columns: CompactSelection.empty(), rows: CompactSelection.empty() });
      return;
    }
    if (current.cell[1] <= last && current.range.y + current.range.height - 1 <= last) return;
    const row = Math.min(current.cell[1], last);
    const y = Math.min(current.range.y, last);
    setSelection({ ...selection, current: { ...current, cell: [current.cell[0], row], range: { ...current.range, y, height: Math.min(current.range.height, last - y + 1) }, rangeStack: [] } });
  }, [keys.length, selection]);
  const selectCell = useCallback((col: number, row: number) => {
    setSelection({ columns: CompactSelection.empty(), rows: CompactSelection.empty(), current: { cell: [col, row], range: { x: col, y: row, width: 1, height: 1 }, rangeStack: [] } });
    editorRef.current?.scrollTo(col, row);
    editorRef.current?.focus();
  }, []);

  // --- actions ---------------------------------------------------------------------------------------
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const firstEditable = Math.max(0, shown.findIndex((c) => isEditable(c, readOnly)));

  const addRow = useCallback(() => {
    if (readOnly || !newRow) return;
    const [key] = edit([], [newRow() as Values]);
    const row = rows.length + bufferRef.current.appended.indexOf(key);
    requestAnimationFrame(() => selectCell(firstEditable, row));
  }, [readOnly, newRow, edit, rows.length, selectCell, firstEditable]);

  const rowNumber = useCallback((key: RowKey) => keys.indexOf(key) + 1, [keys]);

  const invalidRows = useCallback(() => [...errors.keys()].filter((k) => bufferRef.current.changed.has(k)), [errors]);

  const save = useCallback(async () => {
    if (readOnly || !onSave || saving) return;
    const current = bufferRef.current;
    if (dirtyCount(current) === 0) return;
    const invalid = invalidRows();
    if (invalid.length) {
      setMessage(t("grid.invalid-rows", { count: invalid.length, rows: invalid.map(rowNumber).sort((a, b) => a - b).join(", ") }));
      const first = Math.min(...invalid.map(rowNumber)) - 1;
      const field = Object.keys(errors.get(keys[first]) ?? {})[0];
      selectCell(Math.max(0, shown.findIndex((c) => c.id === field)), first);
      return;
    }
    const patches = toPatches(current, (k) => rowById.get(k), fields);
    setSaving(true);
    setMessage(t("grid.saving"));
    try {
      const answer = await onSave(patches);
      if (answer.ok) {
        commit(emptyBuffer());
        setServerErrors(new Map());
        setMessage(t("grid.saved", { count: patches.length }));
        notify("ui.update-confirmation");
        return;
      }
      // The refusal names rows: mark them, and say which rows of the grid they are.
      const marked = new Map<RowKey, Record<string, string>>();
      for (const [path, messages] of Object.entries(answer.fieldErrors ?? {})) {
        const at = parseErrorPath(path);
        const patch = at ? patches[at.index] : undefined;
        if (!at || !patch) continue;
        const columnId = at.field && shown.some((c) => c.id === at.field) ? at.field : (shown.find((c) => isEditable(c))?.id ?? shown[0].id);
        marked.set(patch.id, { ...marked.get(patch.id), [columnId]: messages[0] });
      }
      setServerErrors(marked);
      const numbers = [...marked.keys()].map(rowNumber).filter((n) => n > 0).sort((a, b) => a - b).join(", ");
      const params = { ...answer.params, ...(numbers ? { rows: numbers } : {}) };
      const error = answer.error ?? "errors.save-failed";
      setMessage(t(error, params));
      showError(error, params);
    } catch {
      setMessage(t("errors.save-failed"));
      showError("errors.save-failed");
    } finally {
      setSaving(false);
    }
  }, [readOnly, onSave, saving, invalidRows, errors, t, rowNumber, keys, selectCell, shown, rowById, fields, commit, notify, showError]);

  const cancel = useCallback(() => {
    commit(emptyBuffer());
    setServerErrors(new Map());
    setMessage(null);
  }, [commit]);

  useImperativeHandle(ref, () => ({ addRow, dirtyCount: () => dirtyCount(bufferRef.current), save }), [addRow, save]);

  // Leaving the page, closing the tab and Ctrl+S know about the grid's unsaved rows, as about any form's.
  const { saveAll } = useControlledForm(`grid:${tableId}`, { dirty: !readOnly && dirtyCount(buffer) > 0, valid: invalidRows().length === 0, save, discard: cancel });

  // Ctrl+S in an open cell editor: the editor's value is committed first (as Enter does; Glide commits it a tick
  // later), then the page saves every changed form, this grid included, once that commit has been rendered and
  // registered with the page (the effects of the same render run in order: the registration above comes first).
  useEffect(() => {
    if (saveRequest) void saveAll();
  }, [saveRequest, saveAll]);

  // --- keyboard and clipboard ------------------------------------------------------------------------
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
    [save, readOnly, commit, invalidRows, typeAhead, cursorEditable],
  );

  const onGridKeyDown = useCallback((e: GridKeyEventArgs) => {
    // Glide would open the editor on Ctrl+S etc.: the shortcuts above handle them.
    if (isModified(e) && ["s", "z", "y"].includes(e.key.toLowerCase())) e.cancel();
  }, []);

  const onPaste = useCallback(
    (e: ClipboardEvent<HTMLDivElement>) => {
      if (readOnly || inEditor(e.target)) return;
      const target = selection.current?.cell;
      const text = e.clipboardData.getData("text/plain");
      if (!target || !text) return;
      e.preventDefault();
      const block = parseTsv(text);
      const { edits, appendCount } = pasteBlock(block, { row: target[1], col: target[0] }, shown, keys.length, language);
      const append = appendCount > 0 && newRow ? Array.from({ length: appendCount }, () => newRow() as Values) : [];
      const firstTemp = bufferRef.current.nextTemp;
      const keyOf = (row: number) => (row < keys.length ? keys[row] : append.length ? firstTemp - (row - keys.length) : undefined);
      const cellEdits = edits.flatMap((pe) => {
        const key = keyOf(pe.row);
        return key === undefined ? [] : [{ key, field: pe.field, value: pe.value }];
      });
      edit(cellEdits, append);
      const lastRow = target[1] + block.length - 1;
      const lastCol = target[0] + Math.max(...block.map((r) => r.length)) - 1;
      setSelection({
        columns: CompactSelection.empty(),
        rows: CompactSelection.empty(),
        current: { cell: target, range: { x: target[0], y: target[1], width: Math.min(lastCol, shown.length - 1) - target[0] + 1, height: Math.min(lastRow, keys.length + append.length - 1) - target[1] + 1 }, rangeStack: [] },
      });
    },
    [readOnly, selection, shown, keys, language, newRow, edit],
  );

  // The accessible table Glide renders for screen readers (inside its canvas, re-rendered as it scrolls) gets the
  // grid's name.
  useEffect(() => {
    const wrapper = wrapperRef.current;
    if (!wrapper) return;
    const name = () => {
      const table = wrapper.querySelector('table[role="grid"]');
      if (table && table.getAttribute("aria-label") !== label) table.setAttribute("aria-label", label);
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(wrapper, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [label]);

  // --- what the hovered and the cursor's cells say ---------------------------------------------------
  /** The reason of the invalid cell under the mouse, shown beside it (the cursor's cell says it below the grid). */
  const [tip, setTip] = useState<{ x: number; y: number; text: string } | null>(null);
  const onItemHovered = useCallback(
    (args: GridMouseEventArgs) => {
      const reason = args.kind === "cell" ? errors.get(keys[args.location[1]])?.[shown[args.location[0]]?.id ?? ""] : undefined;
      setTip(reason && args.kind === "cell" ? { x: args.bounds.x, y: args.bounds.y + args.bounds.height, text: t(reason) } : null);
    },
    [errors, keys, shown, t],
  );

  const focusedError = cursorKey !== undefined && cursor ? errors.get(cursorKey)?.[shown[cursor[0]]?.id ?? ""] : undefined;
  const focusedColumn = cursor ? shown[cursor[0]] : undefined;
  const focusedNote = !focusedError && !readOnly && cursorKey !== undefined && focusedColumn?.note && focusedColumn.kind !== "computed"
    ? focusedColumn.note(cellValue(buffer, cursorKey, focusedColumn.id, base(cursorKey)))
    : undefined;
  const count = dirtyCount(buffer);
  const invalidCount = [...errors.keys()].filter((k) => buffer.changed.has(k) || serverErrors.has(k)).length;

  return (
    <div ref={wrapperRef} role="region" aria-label={label} data-testid="data-grid" data-dirty={count} onKeyDownCapture={onKeyDownCapture} onPaste={onPaste}>
      <div className="flex items-center gap-2" style={{ height: GRID_TOOLBAR_HEIGHT }}>
        {readOnly ? (
          <span className="text-sm text-stone-600">{t("grid.read-only")}</span>
        ) : (
          <>
            <button type="button" className="btn-primary" disabled={count === 0 || saving || !onSave || (saveOnlyWhenValid && invalidCount > 0)} onClick={() => void save()} data-testid="grid-save">
              {t("grid.save")}
            </button>
            <button type="button" className="btn-secondary" disabled={count === 0 || saving} onClick={cancel} data-testid="grid-cancel">
              {t("grid.cancel")}
            </button>
            <button type="button" className="btn-secondary" disabled={!canUndo(buffer) || saving} onClick={() => commit(undo(bufferRef.current))} aria-keyshortcuts="Control+Z">
              {t("grid.undo")}
            </button>
            <button type="button" className="btn-secondary" disabled={!canRedo(buffer) || saving} onClick={() => commit(redo(bufferRef.current))} aria-keyshortcuts="Control+Y">
              {t("grid.redo")}
            </button>
            {newRow ? (
              <button type="button" className="btn-secondary" disabled={saving} onClick={addRow} data-testid="grid-add-row">
                {t("grid.add-row")}
              </button>
            ) : null}
            <span className="ml-auto text-sm text-stone-700" data-testid="grid-dirty-count">
              {count ? t("grid.dirty", { count }) : t("grid.clean")}
            </span>
          </>
        )}
      </div>
      <DataEditor
        ref={editorRef}
        width="100%"
        height={height}
        theme={gridTheme}
        columns={gridColumns}
        rows={keys.length}
        getCellContent={getCellContent}
        getCellsForSelection={true}
        onCellsEdited={readOnly ? undefined : onCellsEdited}
        provideEditor={provideEditor}
        gridSelection={selection}
        onGridSelectionChange={setSelection}
        onKeyDown={onGridKeyDown}
        onItemHovered={onItemHovered}
        rowMarkers="number"
        rangeSelect="rect"
        columnSelect="none"
        rowSelect="multi"
        editOnType={!readOnly}
        onPaste={false}
        onDelete={readOnly ? () => false : undefined}
        keybindings={{ paste: false, downFill: !readOnly, rightFill: !readOnly, clear: true, search: false }}
        onColumnResize={(column, size) => setPrefs((p) => withWidth(p, String(column.id), size))}
        onColumnResizeEnd={(column, size) => updatePrefs(withWidth(prefs, String(column.id), size))}
        onColumnMoved={(from, to) => updatePrefs({ ...prefs, order: moveColumn(shown.map((c) => c.id), from, to) })}
      />
      {tip ? (
        <div role="tooltip" className="pointer-events-none fixed z-50 rounded bg-red-800 px-2 py-1 text-xs text-white shadow" style={{ left: tip.x, top: tip.y + 2 }} data-testid="grid-tooltip">
          {tip.text}
        </div>
      ) : null}
      <p className="truncate text-sm" style={{ height: GRID_STATUS_HEIGHT, lineHeight: `${GRID_STATUS_HEIGHT}px` }} role="status" aria-live="polite" data-testid="grid-message">
        {focusedError && cursor ? (
          <span className="text-red-800">{t("grid.cell-error", { row: cursor[1] + 1, column: shown[cursor[0]].title, message: t(focusedError) })}</span>
        ) : focusedNote && cursor ? (
          <span className="text-amber-900">{t("grid.cell-error", { row: cursor[1] + 1, column: shown[cursor[0]].title, message: t(focusedNote) })}</span>
        ) : invalidCount && !readOnly ? (
          <span className="text-red-800">{t("grid.invalid-count", { count: invalidCount })}</span>
        ) : (
          message
        )}
      </p>
    </div>
  );
}

export type { DataGridProps };
export type { GridColumnDef };
