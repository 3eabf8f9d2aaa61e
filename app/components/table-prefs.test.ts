import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  DEFAULT_ROWS_PER_PAGE,
  ROWS_PER_PAGE_OPTIONS,
  isRowsPerPage,
  loadTablePrefs,
  nextSort,
  normalizePrefs,
  pageOfIndex,
  paginate,
  parseTablePrefs,
  saveTablePrefs,
  sortRows,
  tablePrefsKey,
  toggleColumn,
  updateTablePrefs,
  visibleColumnIds,
  type PrefColumn,
  type PrefsStorage,
} from "./table-prefs";

/** A localStorage stand-in: a Map behind getItem/setItem. */
class MemoryStorage implements PrefsStorage {
  data = new Map<string, string>();
  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, String(value));
  }
}

const g = globalThis as { localStorage?: unknown };
let storage: MemoryStorage;
let previous: unknown;
beforeEach(() => {
  previous = g.localStorage;
  storage = new MemoryStorage();
  g.localStorage = storage;
});
afterEach(() => {
  if (previous === undefined) delete g.localStorage;
  else g.localStorage = previous;
});

type Row = { id: number; nom: string | null; surface: number | null };
const columns: PrefColumn<Row>[] = [
  { id: "nom", alwaysVisible: true, sortValue: (r) => r.nom },
  { id: "type" },
  { id: "surface", optional: true, sortValue: (r) => r.surface },
  { id: "remarque", optional: true },
];

describe("rows per page", () => {
  test("[A-CONST-06] [B-LIST-17] [C-CONST-18] the options are 1, 5, 10, 15 and all (0)", () => {
    expect([...ROWS_PER_PAGE_OPTIONS]).toEqual([1, 5, 10, 15, 0]);
    for (const n of [1, 5, 10, 15, 0]) expect(isRowsPerPage(n)).toBe(true);
    for (const n of [2, 20, 25, -1, "5", null]) expect(isRowsPerPage(n)).toBe(false);
  });

  test("[A-CONST-07] [B-LIST-17] [C-CONST-19] the default is all rows (0), and 0 shows every row on one page", () => {
    expect(DEFAULT_ROWS_PER_PAGE).toBe(0);
    expect(loadTablePrefs("parcelle").rowsPerPage).toBe(0);
    const rows = Array.from({ length: 37 }, (_, i) => i);
    const page = paginate(rows, 0, DEFAULT_ROWS_PER_PAGE);
    expect(page.rows).toHaveLength(37);
    expect(page).toMatchObject({ page: 0, pageCount: 1, from: 1, to: 37, total: 37 });
  });
});

describe("paginate", () => {
  const rows = Array.from({ length: 12 }, (_, i) => i + 1);

  test("cuts pages and reports the 1-based range", () => {
    expect(paginate(rows, 0, 5)).toEqual({ rows: [1, 2, 3, 4, 5], page: 0, pageCount: 3, from: 1, to: 5, total: 12 });
    expect(paginate(rows, 2, 5)).toEqual({ rows: [11, 12], page: 2, pageCount: 3, from: 11, to: 12, total: 12 });
    expect(paginate(rows, 3, 1).rows).toEqual([4]);
  });

  test("clamps a page out of range (rows removed, page size grown)", () => {
    expect(paginate(rows, 9, 5).page).toBe(2);
    expect(paginate(rows, -3, 5).page).toBe(0);
    expect(paginate(rows, Number.NaN, 5).page).toBe(0);
  });

  test("no rows: one empty page, range 0–0", () => {
    expect(paginate([], 4, 10)).toEqual({ rows: [], page: 0, pageCount: 1, from: 0, to: 0, total: 0 });
    expect(paginate([], 0, 0)).toEqual({ rows: [], page: 0, pageCount: 1, from: 0, to: 0, total: 0 });
  });

  test("[B-LIST-13] pageOfIndex finds the page of a row (to show the reselected row)", () => {
    expect(pageOfIndex(0, 5)).toBe(0);
    expect(pageOfIndex(4, 5)).toBe(0);
    expect(pageOfIndex(5, 5)).toBe(1);
    expect(pageOfIndex(11, 5)).toBe(2);
    expect(pageOfIndex(11, 0)).toBe(0);
    expect(pageOfIndex(-1, 5)).toBe(0);
  });
});

describe("sortRows", () => {
  const rows: Row[] = [
    { id: 1, nom: "Parcelle 10", surface: 3.5 },
    { id: 2, nom: "érable", surface: null },
    { id: 3, nom: "Parcelle 2", surface: 12 },
    { id: 4, nom: null, surface: 0 },
    { id: 5, nom: "Ecole", surface: 2 },
    { id: 6, nom: "", surface: 3.5 },
    { id: 7, nom: "zéro", surface: -1 },
  ];
  const ids = (list: Row[]) => list.map((r) => r.id);

  test("strings use French collation: accents sort with their letter and numbers inside text are numeric", () => {
    expect(ids(sortRows(rows, columns, { column: "nom", direction: "asc" }))).toEqual([5, 2, 3, 1, 7, 4, 6]);
  });

  test("descending reverses the values but keeps empty values last", () => {
    expect(ids(sortRows(rows, columns, { column: "nom", direction: "desc" }))).toEqual([7, 1, 3, 2, 5, 4, 6]);
  });

  test("numbers sort numerically, null last in both directions, ties keep their order", () => {
    expect(ids(sortRows(rows, columns, { column: "surface", direction: "asc" }))).toEqual([7, 4, 5, 1, 6, 3, 2]);
    expect(ids(sortRows(rows, columns, { column: "surface", direction: "desc" }))).toEqual([3, 1, 6, 5, 4, 7, 2]);
  });

  test("no sort, an unknown column or an unsortable column leave the order; the input is not changed", () => {
    const before = ids(rows);
    expect(ids(sortRows(rows, columns, null))).toEqual(before);
    expect(ids(sortRows(rows, columns, { column: "gone", direction: "asc" }))).toEqual(before);
    expect(ids(sortRows(rows, columns, { column: "type", direction: "desc" }))).toEqual(before);
    sortRows(rows, columns, { column: "nom", direction: "asc" });
    expect(ids(rows)).toEqual(before);
  });

  test("a header click sorts ascending, the next click descending, then ascending again", () => {
    expect(nextSort(null, "nom")).toEqual({ column: "nom", direction: "asc" });
    expect(nextSort({ column: "nom", direction: "asc" }, "nom")).toEqual({ column: "nom", direction: "desc" });
    expect(nextSort({ column: "nom", direction: "desc" }, "nom")).toEqual({ column: "nom", direction: "asc" });
    expect(nextSort({ column: "nom", direction: "desc" }, "surface")).toEqual({ column: "surface", direction: "asc" });
  });
});

describe("visible columns", () => {
  test("by default every column but the optional ones is visible", () => {
    expect(visibleColumnIds(columns, null)).toEqual(["nom", "type"]);
  });

  test("a stored list is followed, in column order; always-visible columns are always shown", () => {
    expect(visibleColumnIds(columns, ["remarque", "surface"])).toEqual(["nom", "surface", "remarque"]);
    expect(visibleColumnIds(columns, [])).toEqual(["nom"]);
  });

  test("toggling shows an optional column, hides a default one, and ignores always-visible and unknown columns", () => {
    expect(toggleColumn(columns, null, "surface")).toEqual(["nom", "type", "surface"]);
    expect(toggleColumn(columns, null, "type")).toEqual(["nom"]);
    expect(toggleColumn(columns, null, "nom")).toEqual(["nom", "type"]);
    expect(toggleColumn(columns, null, "gone")).toEqual(["nom", "type"]);
  });

  test("unknown stored columns and sorts on unknown or unsortable columns are dropped", () => {
    expect(normalizePrefs({ visibleColumns: ["gone", "surface"], rowsPerPage: 5, sort: { column: "gone", direction: "asc" } }, columns)).toEqual({
      visibleColumns: ["surface"],
      rowsPerPage: 5,
      sort: null,
    });
    expect(normalizePrefs({ visibleColumns: null, rowsPerPage: 0, sort: { column: "type", direction: "desc" } }, columns).sort).toBeNull();
    expect(normalizePrefs({ visibleColumns: null, rowsPerPage: 0, sort: { column: "surface", direction: "desc" } }, columns).sort).toEqual({
      column: "surface",
      direction: "desc",
    });
  });
});

describe("stored preferences", () => {
  test('the key is "sillon.table.<tableId>"', () => {
    expect(tablePrefsKey("parcelle")).toBe("sillon.table.parcelle");
  });

  test("[A-CONST-08] visible columns are stored per table in the browser", () => {
    updateTablePrefs("parcelle", { visibleColumns: ["nom", "surface"] });
    expect(JSON.parse(storage.getItem("sillon.table.parcelle")!).visibleColumns).toEqual(["nom", "surface"]);
    expect(loadTablePrefs("parcelle").visibleColumns).toEqual(["nom", "surface"]);
    expect(loadTablePrefs("lot_parcelle").visibleColumns).toBeNull();
  });

  test("[A-CONST-09] the page size is stored per table in the browser", () => {
    updateTablePrefs("parcelle", { rowsPerPage: 15 });
    expect(JSON.parse(storage.getItem("sillon.table.parcelle")!).rowsPerPage).toBe(15);
    expect(loadTablePrefs("parcelle").rowsPerPage).toBe(15);
    expect(loadTablePrefs("amenagements").rowsPerPage).toBe(0);
  });

  test("[A-CONST-10] the sort is stored per table in the browser", () => {
    updateTablePrefs("cultures", { sort: { column: "nom", direction: "desc" } });
    expect(JSON.parse(storage.getItem("sillon.table.cultures")!).sort).toEqual({ column: "nom", direction: "desc" });
    expect(loadTablePrefs("cultures").sort).toEqual({ column: "nom", direction: "desc" });
    expect(loadTablePrefs("parcelle").sort).toBeNull();
  });

  test("[B-LIST-16] columns, rows per page and sort are kept together and independently per table", () => {
    updateTablePrefs("parcelle", { visibleColumns: ["nom"] });
    updateTablePrefs("parcelle", { rowsPerPage: 5 });
    updateTablePrefs("parcelle", { sort: { column: "surface", direction: "asc" } });
    updateTablePrefs("main_oeuvre", { rowsPerPage: 10 });
    expect(loadTablePrefs("parcelle")).toEqual({ visibleColumns: ["nom"], rowsPerPage: 5, sort: { column: "surface", direction: "asc" } });
    expect(loadTablePrefs("main_oeuvre")).toEqual({ visibleColumns: null, rowsPerPage: 10, sort: null });
    saveTablePrefs("main_oeuvre", { visibleColumns: null, rowsPerPage: 1, sort: null });
    expect(loadTablePrefs("parcelle").rowsPerPage).toBe(5);
  });

  test("missing or corrupt entries give the defaults, field by field", () => {
    const defaults = { visibleColumns: null, rowsPerPage: 0, sort: null };
    for (const raw of [null, "", "{", "null", "42", "[1,2]", '"text"']) expect(parseTablePrefs(raw)).toEqual(defaults);
    expect(parseTablePrefs('{"visibleColumns":"nom","rowsPerPage":7,"sort":{"column":"nom","direction":"up"}}')).toEqual(defaults);
    expect(parseTablePrefs('{"visibleColumns":["nom",3,null],"rowsPerPage":"5","sort":{"column":"","direction":"asc"}}')).toEqual({
      ...defaults,
      visibleColumns: ["nom"],
    });
    expect(parseTablePrefs('{"rowsPerPage":10,"sort":{"column":"nom","direction":"desc","extra":1}}')).toEqual({
      visibleColumns: null,
      rowsPerPage: 10,
      sort: { column: "nom", direction: "desc" },
    });
    storage.setItem("sillon.table.parcelle", "not json");
    expect(loadTablePrefs("parcelle")).toEqual(defaults);
  });

  test("no storage, or a storage that throws, is tolerated", () => {
    delete g.localStorage;
    expect(loadTablePrefs("parcelle")).toEqual({ visibleColumns: null, rowsPerPage: 0, sort: null });
    expect(() => saveTablePrefs("parcelle", { visibleColumns: null, rowsPerPage: 5, sort: null })).not.toThrow();
    const broken: PrefsStorage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(loadTablePrefs("parcelle", broken).rowsPerPage).toBe(0);
    expect(() => updateTablePrefs("parcelle", { rowsPerPage: 5 }, broken)).not.toThrow();
  });
});
