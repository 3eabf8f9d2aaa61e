import type { Ref } from "react";
import type { z } from "zod";
import type { RowConflict } from "~/domain/grid-patches";
import type { GridColumnDef } from "./columns";
import type { RowPatch } from "./patches";

/** A row the grid shows: its id and the updatedAt token it was loaded with, then its fields. */
export type GridRow = { id: number; updatedAt: string } & Record<string, unknown>;

/** What the screen's save answers (the route action's answer, server/db/row-patches.ts behind it). */
export type GridSaveAnswer = {
  ok: boolean;
  /** The refusal's message key and its values (grid.stale-rows, warning.invalid-form, a service error...). */
  error?: string;
  params?: Record<string, string | number>;
  /** Per-row errors keyed `patches.<index>` or `patches.<index>.values.<field>`. */
  fieldErrors?: Record<string, string[]>;
  /** A save answered ok: the rows it set aside, changed or removed by someone else meanwhile (decision 0100). */
  conflicts?: RowConflict[];
};

/** What a screen can ask of its grid. */
export type DataGridHandle = {
  /** Appends a row (the screen's `newRow()` defaults) and puts the cursor on it. */
  addRow: () => void;
  /** The rows changed and not saved. */
  dirtyCount: () => number;
  /** Saves the changes (as Ctrl+S does). */
  save: () => Promise<void>;
};

export type DataGridProps<R extends GridRow = GridRow> = {
  /** Names the table's preferences in the browser (widths, order: C-CONST-17). */
  tableId: string;
  /** The grid's accessible name. */
  label: string;
  columns: readonly GridColumnDef<R>[];
  rows: readonly R[];
  /** The row's zod schema: the form's and the server's. Each edited row is checked with it, cell by cell. */
  rowSchema: z.ZodObject;
  /** A reader: no editing, no paste, no save; selection, copy and the keyboard still work. */
  readOnly?: boolean;
  /** The values of an appended row (without it, no row can be appended). */
  newRow?: () => Partial<R>;
  /** Sends the patches (one request, one transaction on the server); the loader's rows come back fresh after it. */
  onSave?: (patches: RowPatch[]) => Promise<GridSaveAnswer>;
  /** The save button stays disabled while a changed row is invalid (spec 3 §5 Prices: "save enabled only if all modified rows are valid"). */
  saveOnlyWhenValid?: boolean;
  /** The row the cursor is on (a loaded id, a negative id for an appended row, null when none), e.g. to open its form. */
  onSelect?: (rowId: number | null) => void;
  /**
   * The rows the user selected: those ticked by their row numbers, else the rows the selected cells span (ids as
   * for onSelect), e.g. for an action on "the selection".
   */
  onRowsSelected?: (rowIds: number[]) => void;
  /** Height of the grid itself, in pixels (the toolbar and the message line come on top). */
  height?: number;
  ref?: Ref<DataGridHandle>;
};

export const DEFAULT_GRID_HEIGHT = 480;
/** The toolbar above the grid and the message line below it, kept by the placeholder so nothing moves on load. */
export const GRID_TOOLBAR_HEIGHT = 44;
export const GRID_STATUS_HEIGHT = 28;
