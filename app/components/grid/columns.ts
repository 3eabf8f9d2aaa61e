import type { z } from "zod";
import { boundsMessage } from "../bounds";
import { formatDate, formatNumber, numberText } from "../format";

/**
 * The column kinds of the one grid (docs/architecture.md, "A grid"): what a screen declares, and the pure
 * functions that turn a stored value into the text a cell shows, copies and edits. No browser API here.
 *
 * Values as the grid holds them: text → string; number → number; date → "yyyy-mm-dd"; choice → the option's
 * value; boolean → boolean; an empty cell → undefined. A value the user typed that could not be read (a number
 * column given "abc") stays a string, so that the row schema names what is wrong.
 */

export type ChoiceOption = { value: string | number; label: string };

type Common = {
  /** For an editable column: the field of the row schema it edits. */
  id: string;
  /** The header (already translated). */
  title: string;
  /** Default width in pixels (a user's width is kept in the browser: preferences.ts). */
  width?: number;
  /** Not editable (always so in a read-only grid). */
  readOnly?: boolean;
  /**
   * A remark on a cell that does not refuse the save (an i18n key; e.g. a sale price required in its cell but not
   * at save, spec 3 §5): the cell is tinted and the message line says it when the cursor is on it.
   */
  note?: (value: unknown) => string | undefined;
};

export type TextColumn = Common & { kind: "text" };
export type NumberColumn = Common & { kind: "number"; unit?: string; decimals?: number };
/** `year`: the year a day and month typed alone take ("15/03"), the campaign's harvest year. */
export type DateColumn = Common & { kind: "date"; year?: number };
export type ChoiceColumn = Common & { kind: "choice"; options: readonly ChoiceOption[] };
export type BooleanColumn = Common & { kind: "boolean" };
/** Read-only, a function of the row as edited (e.g. the passes from frequency × surface rate), recomputed live. */
export type ComputedColumn<R> = Common & {
  kind: "computed";
  value: (row: R) => string | number | boolean | null | undefined;
  unit?: string;
  decimals?: number;
};

export type GridColumnDef<R = Record<string, unknown>> = TextColumn | NumberColumn | DateColumn | ChoiceColumn | BooleanColumn | ComputedColumn<R>;

export type EditableKind = Exclude<GridColumnDef["kind"], "computed">;

export const isEditable = <R>(c: GridColumnDef<R>, readOnlyGrid = false): boolean => !readOnlyGrid && c.kind !== "computed" && !c.readOnly;

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** The label of a choice value; an unknown value shows as it is (so a pasted word that matched nothing stays visible). */
export function choiceLabel(column: ChoiceColumn, value: unknown): string {
  if (isBlank(value)) return "";
  const option = column.options.find((o) => o.value === value || String(o.value) === String(value));
  return option ? option.label : String(value);
}

const withUnit = (text: string, unit: string | undefined) => (text && unit ? `${text} ${unit}` : text);

/** The text a cell shows (numbers grouped in the UI language, dates day/month/year in Paris time). */
export function displayText<R>(column: GridColumnDef<R>, value: unknown, language: string): string {
  if (isBlank(value)) return "";
  switch (column.kind) {
    case "number":
    case "computed":
      if (typeof value === "number") return withUnit(formatNumber(value, language, column.decimals ?? 2), column.unit);
      if (typeof value === "boolean") return value ? "✓" : "";
      return String(value);
    case "date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(`${value}T12:00:00Z`) : String(value);
    case "choice":
      return choiceLabel(column, value);
    case "boolean":
      return value === true ? "✓" : value === false ? "" : String(value);
    default:
      return String(value);
  }
}

/**
 * The text a cell is edited and copied as: a number with the UI language's decimal sign and no grouping ("1234,5",
 * what a French spreadsheet reads back), a date dd/mm/yyyy, a choice by its label.
 */
export function editText<R>(column: GridColumnDef<R>, value: unknown, language: string): string {
  if (isBlank(value)) return "";
  switch (column.kind) {
    case "number":
    case "computed":
      return typeof value === "number" ? (numberText(value, language) ?? "") : String(value);
    case "date":
      return displayText(column, value, language);
    case "choice":
      return choiceLabel(column, value);
    case "boolean":
      return value === true ? "1" : value === false ? "0" : String(value);
    default:
      return String(value);
  }
}

/** A value that cannot be what the column holds (typed text in a number column, a label that matched no option). */
export function kindError<R>(column: GridColumnDef<R>, value: unknown): string | undefined {
  if (isBlank(value)) return undefined;
  switch (column.kind) {
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "warning.numeric";
    case "date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? undefined : "warning.date";
    case "choice":
      return column.options.some((o) => o.value === value) ? undefined : "grid.unknown-choice";
    case "boolean":
      return typeof value === "boolean" ? undefined : "warning.invalid";
    default:
      return undefined;
  }
}

/** Empty values as the schemas read them: null and "" become undefined (an optional field), the rest is kept. */
export function cleanValues(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) out[k] = v === null || v === "" ? undefined : v;
  return out;
}

/** The fields a row schema declares: what a patch carries. */
export function schemaFields(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape);
}

/**
 * The errors of one row by field (i18n keys): what the column kinds refuse first, then the row schema's own
 * verdict, the same schema the form and the server use. One message per field; form-level issues under "".
 */
export function rowErrors<R>(schema: z.ZodObject, columns: readonly GridColumnDef<R>[], values: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const c of columns) {
    if (c.kind === "computed") continue;
    const e = kindError(c, values[c.id]);
    if (e) errors[c.id] = e;
  }
  const input: Record<string, unknown> = {};
  for (const field of schemaFields(schema)) input[field] = values[field];
  const result = schema.safeParse(cleanValues(input));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path.length ? String(issue.path[0]) : "";
      errors[field] ??= issue.message;
    }
  }
  return errors;
}

/**
 * The message of a cell's error as the grid says it (an i18n key and its values): a bound refused names the
 * field's bounds, read from the row schema ("Valeur hors des bornes : entre 0 et 100", bounds.ts, the forms' too).
 */
export function errorMessage(schema: z.ZodObject, field: string, key: string, language: string): { key: string; params?: Record<string, string> } {
  return boundsMessage(schema.shape[field] as z.ZodType | undefined, key, language);
}
