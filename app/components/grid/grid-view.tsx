import { useTranslation } from "~/use-translation";
import { GRID_STATUS_HEIGHT, GRID_TOOLBAR_HEIGHT } from "./types";

/** The buttons above the grid (save, cancel, undo, redo, add a row) and its count of changed rows; a note read-only. */
export function GridToolbar({
  readOnly,
  count,
  saving,
  canSave,
  canUndo,
  canRedo,
  onSave,
  onCancel,
  onUndo,
  onRedo,
  onAddRow,
}: {
  readOnly: boolean;
  count: number;
  saving: boolean;
  canSave: boolean;
  canUndo: boolean;
  canRedo: boolean;
  onSave: () => void;
  onCancel: () => void;
  onUndo: () => void;
  onRedo: () => void;
  /** Absent: the grid takes no new rows. */
  onAddRow?: () => void;
}) {
  const { t } = useTranslation();
  return (
    // On a phone the toolbar scrolls inside itself rather than widening the page (issue 29).
    <div className="flex items-center gap-2 overflow-x-auto [&>*]:shrink-0" style={{ height: GRID_TOOLBAR_HEIGHT }}>
      {readOnly ? (
        <span className="text-sm text-stone-600">{t("grid.read-only")}</span>
      ) : (
        <>
          <button type="button" className="btn-primary" disabled={count === 0 || saving || !canSave} onClick={onSave} data-testid="grid-save">
            {t("grid.save")}
          </button>
          <button type="button" className="btn-secondary" disabled={count === 0 || saving} onClick={onCancel} data-testid="grid-cancel">
            {t("grid.cancel")}
          </button>
          <button type="button" className="btn-secondary" disabled={!canUndo || saving} onClick={onUndo} aria-keyshortcuts="Control+Z">
            {t("grid.undo")}
          </button>
          <button type="button" className="btn-secondary" disabled={!canRedo || saving} onClick={onRedo} aria-keyshortcuts="Control+Y">
            {t("grid.redo")}
          </button>
          {onAddRow ? (
            <button type="button" className="btn-secondary" disabled={saving} onClick={onAddRow} data-testid="grid-add-row">
              {t("grid.add-row")}
            </button>
          ) : null}
          <span className="ml-auto text-sm text-stone-700" data-testid="grid-dirty-count">
            {count ? t("grid.dirty", { count }) : t("grid.clean")}
          </span>
        </>
      )}
    </div>
  );
}

/**
 * The line below the grid: the cursor's cell error or note ("row, column: reason"), else how many rows are invalid,
 * else the last message of a save.
 */
export function GridStatus({
  cell,
  error,
  note,
  invalidCount,
  message,
  say,
}: {
  /** The cursor's row (from 1) and column title. */
  cell: { row: number; column: string } | undefined;
  error: string | undefined;
  note: string | undefined;
  invalidCount: number;
  message: string | null;
  /** The message of an error key (its bounds named: columns.ts `errorMessage`); by default the key translated. */
  say?: (key: string) => string;
}) {
  const { t } = useTranslation();
  return (
    <p
      className="truncate text-sm"
      style={{ height: GRID_STATUS_HEIGHT, lineHeight: `${GRID_STATUS_HEIGHT}px` }}
      role="status"
      aria-live="polite"
      data-testid="grid-message"
    >
      {error && cell ? (
        <span className="text-red-800">{t("grid.cell-error", { ...cell, message: say ? say(error) : t(error) })}</span>
      ) : note && cell ? (
        <span className="text-amber-900">{t("grid.cell-error", { ...cell, message: t(note) })}</span>
      ) : invalidCount ? (
        <span className="text-red-800">{t("grid.invalid-count", { count: invalidCount })}</span>
      ) : (
        message
      )}
    </p>
  );
}
