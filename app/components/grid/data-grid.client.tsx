import "@glideapps/glide-data-grid/dist/index.css";
import {
  CompactSelection,
  DataEditor,
  GridCellKind,
  type DataEditorRef,
  type EditListItem,
  type FillPatternEventArgs,
  type GridCell,
  type GridMouseEventArgs,
  type GridSelection,
  type Item,
  type Theme,
} from "@glideapps/glide-data-grid";
import { useCallback, useEffect, useEffectEvent, useImperativeHandle, useMemo, useRef, useState, type ClipboardEvent } from "react";
import { useTranslation } from "~/use-translation";
import { useFeedback } from "../feedback";
import { useControlledForm } from "../form-controller";
import { ChoiceEditor, type ChoiceTextCell } from "./choice-editor";
import { displayText, editText, errorMessage, isEditable, type GridColumnDef } from "./columns";
import { afterSave, conflictFields, keepMine, resolveAll, takeTheirs, type Conflicts } from "./conflicts";
import { ConflictPanel, type ConflictLine } from "./conflict-panel";
import { fillEdits } from "./fill";
import { GridStatus, GridToolbar } from "./grid-view";
import {
  canRedo,
  canUndo,
  cellValue,
  currentValues,
  dirtyCount,
  emptyBuffer,
  isCellChanged,
  redo,
  toPatches,
  undo,
  type CellEdit,
  type RowKey,
  type Values,
} from "./patches";
import { parseTsv, pasteBlock, readCell } from "./paste";
import { refusedCells } from "./refusal";
import { DEFAULT_GRID_HEIGHT, type DataGridProps, type GridRow } from "./types";
import { useGridBuffer } from "./use-grid-buffer";
import { inEditor, useGridKeyboard } from "./use-grid-keyboard";
import { useGridPreferences } from "./use-grid-preferences";

/**
 * The grid in the browser (Glide Data Grid; data-grid.tsx loads it). The logic lives in the pure modules beside
 * it: columns.ts (kinds, texts, checks), patches.ts (edit buffer, undo/redo, patches), paste.ts (TSV and values),
 * preferences.ts (widths and order), refusal.ts (the cells a refused save names); the hooks hold their state for
 * React: use-grid-buffer.ts (the edit buffer and the rows' errors), use-grid-keyboard.ts (shortcuts and editor
 * keys), use-grid-preferences.ts; grid-view.tsx draws the toolbar and the status line. This module wires them to
 * Glide, the selection, the clipboard and the save.
 */

const CHANGED_BG = "#fdf6d8";
const INVALID_BG = "#fde2e2";
const INVALID_TEXT = "#8f1d1d";
const NOTE_BG = "#fdebd3";
const COMPUTED_BG = "#f3f2f0";
const CONFLICT_BG = "#ece3fb";
const CONFLICT_TEXT = "#3b1f6e";
const changedTheme: Partial<Theme> = { bgCell: CHANGED_BG };
const invalidTheme: Partial<Theme> = { bgCell: INVALID_BG, textDark: INVALID_TEXT };
const noteTheme: Partial<Theme> = { bgCell: NOTE_BG };
const computedTheme: Partial<Theme> = { bgCell: COMPUTED_BG };
const conflictTheme: Partial<Theme> = { bgCell: CONFLICT_BG, textDark: CONFLICT_TEXT };
const gridTheme: Partial<Theme> = {
  accentColor: "#336624",
  accentLight: "rgba(51, 102, 36, 0.12)",
  fontFamily: "inherit",
  textDark: "#1c1917",
  textMedium: "#44403c",
  textHeader: "#292524",
  bgHeader: "#f5f5f4",
};

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

  // --- preferences: widths and order, per table (use-grid-preferences.ts) ----------------------------
  const { shown, gridColumns, onColumnResize, onColumnResizeEnd, onColumnMoved } = useGridPreferences(tableId, columns);

  // --- rows and the edit buffer (use-grid-buffer.ts) ---------------------------------------------
  const { buffer, bufferRef, commit, rowById, base, keys, fields, errors, serverErrors, setServerErrors, edit, invalidRows } = useGridBuffer({
    rows,
    rowSchema,
    columns,
  });

  // --- rows a save set aside: changed by someone else meanwhile (conflicts.ts, decision 0100) ---------
  const [conflicts, setConflicts] = useState<Conflicts>(new Map());
  /** The fields of each conflicting row whose values differ (the user's against the stored ones). */
  const conflictCells = useMemo(() => {
    const out = new Map<RowKey, Set<string>>();
    for (const [key, c] of conflicts) out.set(key, new Set(c.theirs ? conflictFields(buffer, key, c, fields) : Object.keys(buffer.changed.get(key) ?? {})));
    return out;
  }, [conflicts, buffer, fields]);
  /** The message of a cell's error, its bounds named (columns.ts). */
  const say = useCallback(
    (field: string, key: string) => {
      const m = errorMessage(rowSchema, field, key, language);
      return t(m.key, m.params);
    },
    [rowSchema, language, t],
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
      const conflict = conflictCells.get(key)?.has(column.id) ? conflicts.get(key) : undefined;
      const note = !error && column.note && !readOnly ? column.note(value) : undefined;
      const themeOverride = error
        ? invalidTheme
        : conflict
          ? conflictTheme
          : note
            ? noteTheme
            : isCellChanged(buffer, key, column.id)
              ? changedTheme
              : column.kind === "computed"
                ? computedTheme
                : undefined;
      if (column.kind === "boolean") {
        return {
          kind: GridCellKind.Boolean,
          data: value === true,
          allowOverlay: false,
          readonly: !editable,
          themeOverride,
          copyData: value === true ? "1" : "0",
        };
      }
      const text = editText(column, value, language);
      const shownText = displayText(column, value, language);
      const cell: ChoiceTextCell = {
        kind: GridCellKind.Text,
        data: text,
        // A conflicting cell shows both values: the user's, then the stored one.
        displayData: conflict
          ? conflict.theirs
            ? t("conflits.cell", {
                mine: shownText || t("conflits.empty"),
                theirs: displayText(column, conflict.theirs[column.id], language) || t("conflits.empty"),
              })
            : t("conflits.cell-removed", { mine: shownText || t("conflits.empty") })
          : shownText,
        copyData: text,
        allowOverlay: editable,
        readonly: !editable,
        contentAlign: column.kind === "number" || (column.kind === "computed" && typeof value === "number") ? "right" : undefined,
        themeOverride,
      };
      if (column.kind === "choice" && editable) cell.choice = column;
      return cell;
    },
    [shown, keys, base, buffer, readOnly, errors, language, conflictCells, conflicts, t],
  );

  const provideEditor = useCallback((cell: GridCell) => {
    if (cell.kind === GridCellKind.Text && (cell as ChoiceTextCell).choice) return { editor: ChoiceEditor, disablePadding: true } as never;
    return undefined;
  }, []);

  /** Ctrl+S was pressed in a cell's editor (use-grid-keyboard.ts): the page saves once Glide has committed it (see below). */
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
        const v =
          value.kind === GridCellKind.Boolean ? value.data === true : value.kind === GridCellKind.Text ? readCell(column, value.data, language) : undefined;
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

  // The fill handle's drag and Ctrl+D / Ctrl+R: Glide names the pattern and where it goes, fill.ts makes the edits
  // (one undo step), from the values as edited rather than the cells' texts.
  const onFillPattern = useCallback(
    ({ patternSource, fillDestination, preventDefault }: FillPatternEventArgs) => {
      preventDefault();
      if (readOnly) return;
      const current = bufferRef.current;
      edit(
        fillEdits({
          source: patternSource,
          destination: fillDestination,
          columns: shown,
          keys,
          valueAt: (key, field) => cellValue(current, key, field, base(key)),
          language,
        }),
      );
    },
    [readOnly, bufferRef, edit, shown, keys, base, language],
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
    setSelection({
      ...selection,
      current: {
        ...current,
        cell: [current.cell[0], row],
        range: { ...current.range, y, height: Math.min(current.range.height, last - y + 1) },
        rangeStack: [],
      },
    });
  }, [keys.length, selection]);
  const selectCell = useCallback((col: number, row: number) => {
    setSelection({
      columns: CompactSelection.empty(),
      rows: CompactSelection.empty(),
      current: { cell: [col, row], range: { x: col, y: row, width: 1, height: 1 }, rangeStack: [] },
    });
    editorRef.current?.scrollTo(col, row);
    editorRef.current?.focus();
  }, []);

  // --- actions ---------------------------------------------------------------------------------------
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const firstEditable = Math.max(
    0,
    shown.findIndex((c) => isEditable(c, readOnly)),
  );

  const addRow = useCallback(() => {
    if (readOnly || !newRow) return;
    const [key] = edit([], [newRow() as Values]);
    const row = rows.length + bufferRef.current.appended.indexOf(key);
    requestAnimationFrame(() => selectCell(firstEditable, row));
  }, [readOnly, newRow, edit, rows.length, selectCell, firstEditable, bufferRef]);

  const rowNumber = useCallback((key: RowKey) => keys.indexOf(key) + 1, [keys]);

  const save = useCallback(async () => {
    if (readOnly || !onSave || saving) return;
    const current = bufferRef.current;
    if (dirtyCount(current) === 0) return;
    const invalid = invalidRows();
    if (invalid.length) {
      setMessage(
        t("grid.invalid-rows", {
          count: invalid.length,
          rows: invalid
            .map(rowNumber)
            .sort((a, b) => a - b)
            .join(", "),
        }),
      );
      const first = Math.min(...invalid.map(rowNumber)) - 1;
      const field = Object.keys(errors.get(keys[first]) ?? {})[0];
      selectCell(
        Math.max(
          0,
          shown.findIndex((c) => c.id === field),
        ),
        first,
      );
      return;
    }
    const patches = toPatches(current, (k) => rowById.get(k), fields);
    setSaving(true);
    setMessage(t("grid.saving"));
    try {
      const answer = await onSave(patches);
      if (answer.ok) {
        setServerErrors(new Map());
        const sent = answer.conflicts ?? [];
        if (sent.length) {
          // The other rows are saved; these keep their edits, the stored version beside them (decision 0100).
          const next = afterSave(current, patches, sent);
          commit(next.buffer);
          setConflicts(next.conflicts);
          const savedCount = patches.length - next.conflicts.size;
          setMessage(
            [savedCount ? t("grid.saved", { count: savedCount }) : "", t("conflits.pending", { count: next.conflicts.size })].filter(Boolean).join(" · "),
          );
          if (savedCount) notify("ui.update-confirmation");
          return;
        }
        commit(emptyBuffer());
        setConflicts(new Map());
        setMessage(t("grid.saved", { count: patches.length }));
        notify("ui.update-confirmation");
        return;
      }
      // The refusal names rows: mark them, and say which rows of the grid they are.
      const marked = refusedCells(
        answer.fieldErrors ?? {},
        patches,
        shown.map((c) => c.id),
        shown.find((c) => isEditable(c))?.id ?? shown[0].id,
      );
      setServerErrors(marked);
      const numbers = [...marked.keys()]
        .map(rowNumber)
        .filter((n) => n > 0)
        .sort((a, b) => a - b)
        .join(", ");
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
  }, [
    readOnly,
    onSave,
    saving,
    invalidRows,
    errors,
    t,
    rowNumber,
    keys,
    selectCell,
    shown,
    rowById,
    fields,
    commit,
    notify,
    showError,
    bufferRef,
    setServerErrors,
  ]);

  const cancel = useCallback(() => {
    commit(emptyBuffer());
    setServerErrors(new Map());
    setConflicts(new Map());
    setMessage(null);
  }, [commit, setServerErrors]);

  // "Keep mine" / "take theirs", per row and for all (conflicts.ts).
  const resolve = useCallback(
    (key: RowKey | "all", way: "mine" | "theirs") => {
      if (key === "all") {
        const next = resolveAll(bufferRef.current, conflicts, way);
        commit(next.buffer);
        setConflicts(next.conflicts);
      } else {
        const c = conflicts.get(key);
        if (!c) return;
        commit(way === "mine" ? keepMine(bufferRef.current, key, c) : takeTheirs(bufferRef.current, key));
        setConflicts((m) => new Map([...m].filter(([k]) => k !== key)));
      }
      if (way === "mine") setMessage(t("conflits.kept"));
    },
    [conflicts, commit, bufferRef, t],
  );
  const conflictLines = useMemo<ConflictLine[]>(
    () =>
      [...conflicts].map(([key, c]) => ({
        key,
        row: keys.indexOf(key) + 1,
        label: c.label,
        removed: !c.theirs,
        fields: shown
          .filter((col) => col.kind !== "computed" && conflictCells.get(key)?.has(col.id))
          .map((col) => ({
            column: col.title,
            mine: displayText(col, cellValue(buffer, key, col.id, base(key)), language) || t("conflits.empty"),
            theirs: displayText(col, c.theirs?.[col.id], language) || t("conflits.empty"),
          })),
      })),
    [conflicts, keys, shown, conflictCells, buffer, base, language, t],
  );

  useImperativeHandle(ref, () => ({ addRow, dirtyCount: () => dirtyCount(bufferRef.current), save }), [addRow, save, bufferRef]);

  // Leaving the page, closing the tab and Ctrl+S know about the grid's unsaved rows, as about any form's.
  const { saveAll } = useControlledForm(`grid:${tableId}`, {
    dirty: !readOnly && dirtyCount(buffer) > 0,
    valid: invalidRows().length === 0,
    save,
    discard: cancel,
  });

  // Ctrl+S in an open cell editor: the editor's value is committed first (as Enter does; Glide commits it a tick
  // later), then the page saves every changed form, this grid included, once that commit has been rendered and
  // registered with the page (the effects of the same render run in order: the registration above comes first).
  useEffect(() => {
    if (saveRequest) void saveAll();
  }, [saveRequest, saveAll]);

  // --- keyboard (use-grid-keyboard.ts) and clipboard -----------------------------------------------
  const { onKeyDownCapture, onGridKeyDown } = useGridKeyboard({ readOnly, shown, selection, bufferRef, commit, invalidRows, save, editorRef, saveAfterCommit });

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
        current: {
          cell: target,
          range: {
            x: target[0],
            y: target[1],
            width: Math.min(lastCol, shown.length - 1) - target[0] + 1,
            height: Math.min(lastRow, keys.length + append.length - 1) - target[1] + 1,
          },
          rangeStack: [],
        },
      });
    },
    [readOnly, selection, shown, keys, language, newRow, edit, bufferRef],
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
      setTip(
        reason && args.kind === "cell" ? { x: args.bounds.x, y: args.bounds.y + args.bounds.height, text: say(shown[args.location[0]].id, reason) } : null,
      );
    },
    [errors, keys, shown, say],
  );

  const focusedError = cursorKey !== undefined && cursor ? errors.get(cursorKey)?.[shown[cursor[0]]?.id ?? ""] : undefined;
  const focusedColumn = cursor ? shown[cursor[0]] : undefined;
  const focusedNote =
    !focusedError && !readOnly && cursorKey !== undefined && focusedColumn?.note && focusedColumn.kind !== "computed"
      ? focusedColumn.note(cellValue(buffer, cursorKey, focusedColumn.id, base(cursorKey)))
      : undefined;
  const count = dirtyCount(buffer);
  const invalidCount = [...errors.keys()].filter((k) => buffer.changed.has(k) || serverErrors.has(k)).length;

  return (
    <div ref={wrapperRef} role="region" aria-label={label} data-testid="data-grid" data-dirty={count} onKeyDownCapture={onKeyDownCapture} onPaste={onPaste}>
      <GridToolbar
        readOnly={readOnly}
        count={count}
        saving={saving}
        canSave={!!onSave && !(saveOnlyWhenValid && invalidCount > 0)}
        canUndo={canUndo(buffer)}
        canRedo={canRedo(buffer)}
        onSave={() => void save()}
        onCancel={cancel}
        onUndo={() => commit(undo(bufferRef.current))}
        onRedo={() => commit(redo(bufferRef.current))}
        onAddRow={newRow ? addRow : undefined}
      />
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
        fillHandle={!readOnly}
        onFillPattern={onFillPattern}
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
        onColumnResize={onColumnResize}
        onColumnResizeEnd={onColumnResizeEnd}
        onColumnMoved={onColumnMoved}
      />
      {tip ? (
        <div
          role="tooltip"
          className="pointer-events-none fixed z-50 rounded bg-red-800 px-2 py-1 text-xs text-white shadow"
          style={{ left: tip.x, top: tip.y + 2 }}
          data-testid="grid-tooltip"
        >
          {tip.text}
        </div>
      ) : null}
      <GridStatus
        cell={cursor ? { row: cursor[1] + 1, column: shown[cursor[0]].title } : undefined}
        error={focusedError}
        note={focusedNote}
        invalidCount={readOnly ? 0 : invalidCount}
        message={message}
        say={(key) => say(focusedColumn?.id ?? "", key)}
      />
      <ConflictPanel
        lines={conflictLines}
        onKeep={(key) => resolve(key, "mine")}
        onTake={(key) => resolve(key, "theirs")}
        onKeepAll={() => resolve("all", "mine")}
        onTakeAll={() => resolve("all", "theirs")}
      />
    </div>
  );
}

export type { DataGridProps };
export type { GridColumnDef };
