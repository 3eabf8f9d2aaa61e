import { stripNumberSigns, toIsoDate, toNumber } from "~/domain/validation";
import type { ChoiceColumn, GridColumnDef } from "./columns";

/**
 * A block pasted from Excel or LibreOffice: the clipboard's text/plain is tab-separated, one line per row; a
 * cell holding a line break, a tab or a leading quote is written in double quotes with its quotes doubled.
 * Then each text is read as its column's kind: numbers as a spreadsheet copies them (French decimals "1,5",
 * "1 234,5" with any space as thousands separator, a currency "12,50 €" / "€12.50", a percent "15 %"), dates
 * dd/mm/yyyy and the short ones ("15/3/25", "15/03" of the column's year), choices by label whatever the case and
 * accents. A text that cannot be read is kept as it is, so that the cell shows it and
 * the row schema says what is wrong.
 */

/** Tab-separated text → rows of cells. A final line break is not an empty row; "\r\n" and "\r" end lines too. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  if (text === "") return rows;
  const n = text.length;
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let cell: string | undefined;
    if (text[i] === '"') {
      // A quoted cell only if its closing quote is followed by a tab, a line break or the end.
      let j = i + 1;
      let value = "";
      while (j < n) {
        if (text[j] === '"') {
          if (text[j + 1] !== '"') break;
          value += '"';
          j += 2;
        } else value += text[j++];
      }
      const after = text[j + 1];
      if (j < n && (after === undefined || after === "\t" || after === "\n" || after === "\r")) {
        cell = value;
        i = j + 1;
      }
    }
    if (cell === undefined) {
      let j = i;
      while (j < n && text[j] !== "\t" && text[j] !== "\n" && text[j] !== "\r") j++;
      cell = text.slice(i, j);
      i = j;
    }
    row.push(cell);
    if (i >= n) {
      rows.push(row);
      break;
    }
    if (text[i] === "\t") {
      i++;
      continue;
    }
    // A line break ("\r\n", "\n" or "\r") ends the row; a final one starts no empty row.
    i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
    rows.push(row);
    row = [];
    if (i >= n) break;
  }
  return rows;
}

/** Case, accents and spaces do not count when a label is matched ("Labour profond" = "labour  PROFOND"). */
export function normalizeLabel(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[\s\u00a0\u202f]+/g, " ")
    .trim();
}

/** The option a pasted or typed text names: by label (normalized), else by its value written out. */
export function matchChoice(column: ChoiceColumn, text: string): ChoiceColumn["options"][number] | undefined {
  const wanted = normalizeLabel(text);
  if (!wanted) return undefined;
  return column.options.find((o) => normalizeLabel(o.label) === wanted) ?? column.options.find((o) => normalizeLabel(String(o.value)) === wanted);
}

const TRUE_WORDS = new Set(["1", "true", "vrai", "oui", "yes", "x", "✓", "o", "y"]);
const FALSE_WORDS = new Set(["0", "false", "faux", "non", "no", "n"]);

/** A number as written in the UI language: French "1 234,5" / "1,5"; English "1,234.5" (commas are grouping). */
export function readNumber(text: string, language: string, unit?: string): number | string {
  let t = text.trim();
  if (unit && t.toLowerCase().endsWith(unit.toLowerCase())) t = t.slice(0, t.length - unit.length).trim();
  t = stripNumberSigns(t);
  if (language === "en" && /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, "");
  const n = toNumber(t);
  return typeof n === "number" && Number.isFinite(n) ? n : text;
}

/**
 * A date dd/mm/yyyy (also d/m/yyyy, dd-mm-yyyy, dd.mm.yyyy, a two-digit year "15/3/25") or yyyy-mm-dd →
 * "yyyy-mm-dd"; a day and month alone ("15/03") take `year` (the campaign's); else the text.
 */
export function readDate(text: string, year?: number): string {
  const t = text.trim();
  let slashed = /^\d{1,2}[.-]\d{1,2}[.-](\d{4}|\d{2})$/.test(t) ? t.replace(/[.-]/g, "/") : t;
  if (year !== undefined && /^\d{1,2}[/.-]\d{1,2}$/.test(t)) slashed = `${t.replace(/[.-]/g, "/")}/${year}`;
  return toIsoDate(slashed) ?? text;
}

/** The value a typed or pasted text gives in a column (see the module's comment); blank → undefined. */
export function readCell<R>(column: GridColumnDef<R>, text: string, language: string): unknown {
  if (text.trim() === "") return undefined;
  switch (column.kind) {
    case "number":
      return readNumber(text, language, column.unit);
    case "date":
      return readDate(text, column.year);
    case "choice":
      return matchChoice(column, text)?.value ?? text.trim();
    case "boolean": {
      const w = normalizeLabel(text);
      return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : text.trim();
    }
    case "text":
      return text;
    default:
      return undefined;
  }
}

export type PasteEdit = { row: number; field: string; value: unknown };

/**
 * Where a block lands: from the cell (row, col) of the shown columns, to the right and down. Cells over a read-only
 * or computed column are skipped; rows beyond `rowCount` are to be appended (`appendCount`).
 */
export function pasteBlock<R>(
  block: readonly (readonly string[])[],
  target: { row: number; col: number },
  columns: readonly GridColumnDef<R>[],
  rowCount: number,
  language: string,
  readOnlyGrid = false,
): { edits: PasteEdit[]; appendCount: number } {
  const edits: PasteEdit[] = [];
  let lastRow = -1;
  block.forEach((cells, r) => {
    const row = target.row + r;
    cells.forEach((text, c) => {
      const column = columns[target.col + c];
      if (!column || column.kind === "computed" || column.readOnly || readOnlyGrid) return;
      edits.push({ row, field: column.id, value: readCell(column, text, language) });
      lastRow = Math.max(lastRow, row);
    });
  });
  return { edits, appendCount: Math.max(0, lastRow + 1 - rowCount) };
}
