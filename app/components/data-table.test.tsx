import i18next, { type i18n as I18n } from "i18next";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { beforeAll, describe, expect, test } from "vitest";
import { fallbackLng, resources } from "~/locales";
import {
  DataTable,
  TableAccessProvider,
  resolveReadOnly,
  sameId,
  toggleAllChecked,
  toggleChecked,
  type DataTableColumn,
  type DataTableProps,
} from "./data-table";
import { formatDate, formatEuro } from "./format";

type Machine = { id: number; nom: string; achat: string; prix: number | null; remarque: string };

const machines: Machine[] = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  nom: `Tracteur ${i + 1}`,
  achat: `2024-03-${String(i + 1).padStart(2, "0")}T12:00:00`,
  prix: i % 4 === 0 ? null : 1000 * (i + 1) + 0.5,
  remarque: `note ${i + 1}`,
}));

const columns: DataTableColumn<Machine>[] = [
  { id: "nom", header: "Nom", cell: (m) => m.nom, sortValue: (m) => m.nom, alwaysVisible: true },
  { id: "achat", header: "Date d'achat", cell: (m) => formatDate(m.achat), sortValue: (m) => m.achat },
  { id: "prix", header: "Prix", cell: (m) => formatEuro(m.prix, "fr"), sortValue: (m) => m.prix, align: "right" },
  { id: "remarque", header: "Remarque", cell: (m) => m.remarque, optional: true },
];

const instances: Record<string, I18n> = {};
beforeAll(async () => {
  for (const lng of ["fr", "en"]) {
    const i18n = i18next.createInstance();
    await i18n.init({ lng, resources, fallbackLng, interpolation: { escapeValue: false }, initAsync: false });
    instances[lng] = i18n;
  }
});

function html(element: ReactElement, lng = "fr"): string {
  return renderToString(<I18nextProvider i18n={instances[lng]}>{element}</I18nextProvider>);
}

function table(props: Partial<DataTableProps<Machine>> = {}, lng = "fr"): string {
  return html(<DataTable<Machine> tableId="parc_materiel" columns={columns} rows={machines} getRowId={(m) => m.id} {...props} />, lng);
}

/** The opening tag of the element carrying data-testid="<id>". */
function tag(markup: string, testId: string): string {
  const m = markup.match(new RegExp(`<[a-z]+[^>]*data-testid="${testId}"[^>]*>`));
  if (!m) throw new Error(`no element with data-testid="${testId}"`);
  return m[0];
}

function rowCount(markup: string): number {
  return (markup.match(/data-testid="row-/g) ?? []).length;
}

describe("DataTable markup", () => {
  test("carries the test ids: table-<tableId>, row-<id>, rows-per-page, columns-menu", () => {
    const out = table();
    expect(out).toContain('data-testid="table-parc_materiel"');
    expect(out).toContain('data-testid="row-1"');
    expect(out).toContain('data-testid="row-20"');
    expect(out).toContain('data-testid="rows-per-page"');
    expect(tag(out, "columns-menu")).toMatch(/^<button/);
    expect(out).toContain("Colonnes");
  });

  test("[A-CONST-06] [B-LIST-17] the rows-per-page select offers 1, 5, 10, 15 and Tout (0)", () => {
    const out = table();
    const select = out.slice(out.indexOf('data-testid="rows-per-page"'), out.indexOf("</select>"));
    const options = [...select.matchAll(/<option[^>]*value="(\d+)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options).toEqual([
      ["1", "1"],
      ["5", "5"],
      ["10", "10"],
      ["15", "15"],
      ["0", "Tout"],
    ]);
    expect(out).toContain("Lignes par page");
    expect(table({}, "en")).toContain(">All</option>");
  });

  test("[A-CONST-07] [B-LIST-17] every row is shown by default, on one page", () => {
    const out = table();
    const selected = [...out.matchAll(/<option[^>]*selected=""[^>]*>([^<]*)<\/option>/g)].map((m) => m[0]);
    expect(selected).toHaveLength(1);
    expect(selected[0]).toContain('value="0"');
    expect(selected[0]).toContain(">Tout<");
    expect(rowCount(out)).toBe(20);
    expect(out).toContain("1–20 sur 20");
    expect(tag(out, "page-previous")).toContain("disabled");
    expect(tag(out, "page-next")).toContain("disabled");
    expect(out).toContain('aria-label="Page précédente"');
    expect(out).toContain('aria-label="Page suivante"');
  });

  test("optional columns are hidden until shown; the others are shown", () => {
    const out = table();
    expect(out).toContain(">Nom<");
    expect(out).toContain("Date d&#x27;achat");
    expect(out).toContain(">Prix<");
    expect(out).not.toContain("Remarque");
    expect(out).not.toContain("note 1");
  });

  test("sortable headers carry aria-sort and a sort button; other headers do not", () => {
    const out = table({ columns: [...columns, { id: "etat", header: "État", cell: () => "ok" }] });
    expect(out.match(/aria-sort="none"/g)).toHaveLength(3);
    expect(out).toContain('data-testid="sort-nom"');
    expect(out).toContain('title="Tri croissant"');
    expect(out).toMatch(/<th scope="col" class="[^"]*">État<\/th>/);
  });

  test("[A-CONST-11] [B-CONST-09] dates in cells display as day/month/year", () => {
    const out = table();
    expect(out).toContain(">05/03/2024<");
    expect(out).toContain(">20/03/2024<");
    expect(formatDate("2023-12-31T10:00:00")).toBe("31/12/2023");
  });

  test("[A-CONST-12] amounts in cells display in euros, French style", () => {
    const euro = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
    expect(euro(formatEuro(1234.5, "fr"))).toBe("1 234,50 €");
    expect(euro(formatEuro(0, "fr"))).toBe("0,00 €");
    expect(euro(formatEuro(-12, "fr"))).toBe("-12,00 €");
    expect(formatEuro(null, "fr")).toBe("");
    expect(formatEuro(Number.NaN, "fr")).toBe("");
    expect(euro(table())).toContain(">2 000,50 €<");
  });

  test("rows are focusable; the selected row is marked", () => {
    const out = table({ selectedId: 3, onSelect: () => {} });
    expect(tag(out, "row-1")).toContain('tabindex="0"');
    expect(tag(out, "row-3")).toContain('aria-selected="true"');
    expect(tag(out, "row-3")).toContain("data-selected");
    expect(tag(out, "row-4")).toContain('aria-selected="false"');
  });

  test("a selected id given as a string matches a numeric row id (ids read from the URL)", () => {
    expect(tag(table({ selectedId: "7", onSelect: () => {} }), "row-7")).toContain('aria-selected="true"');
    expect(sameId(7, "7")).toBe(true);
    expect(sameId(null, null)).toBe(false);
  });

  test("no rows: the empty text spans the table, with a 0–0 range", () => {
    const out = table({ rows: [] });
    expect(out).toContain("Aucune donnée");
    expect(out).toContain("0–0 sur 0");
    expect(rowCount(out)).toBe(0);
    expect(table({ rows: [], emptyText: "Aucune machine" })).toContain("Aucune machine");
  });

  test("the toolbar is rendered above the table", () => {
    const out = table({
      toolbar: (
        <button type="button" data-testid="new">
          Nouveau
        </button>
      ),
    });
    expect(out.indexOf('data-testid="new"')).toBeLessThan(out.indexOf("<table"));
  });
});

describe("tick boxes", () => {
  test("checkable tables get a header box and one box per row; ticked rows are checked", () => {
    const out = table({ checkable: true, checkedIds: [2, 5], onCheckedChange: () => {} });
    expect(tag(out, "check-all")).not.toContain("checked");
    expect(tag(out, "check-2")).toContain('checked=""');
    expect(tag(out, "check-3")).not.toContain("checked");
    expect(tag(out, "check-all")).toContain('aria-label="Tout"');
  });

  test("the header box is checked when every row is ticked", () => {
    const out = table({ checkable: true, checkedIds: machines.map((m) => m.id), onCheckedChange: () => {} });
    expect(tag(out, "check-all")).toContain('checked=""');
  });

  test("the header box ticks all rows, or unticks all when all are ticked", () => {
    expect(toggleAllChecked([1, 2, 3], [])).toEqual([1, 2, 3]);
    expect(toggleAllChecked([1, 2, 3], [2])).toEqual([1, 2, 3]);
    expect(toggleAllChecked([1, 2, 3], [1, 2, 3])).toEqual([]);
    expect(toggleAllChecked([], [])).toEqual([]);
    expect(toggleChecked([1, 2], 2)).toEqual([1]);
    expect(toggleChecked([1], 3)).toEqual([1, 3]);
  });

  test("[A-RIGHTS-26] tables below a read-only access provider have disabled tick boxes", () => {
    const out = html(
      <TableAccessProvider readOnly>
        <DataTable<Machine>
          tableId="parc_materiel"
          columns={columns}
          rows={machines}
          getRowId={(m) => m.id}
          checkable
          checkedIds={[]}
          onCheckedChange={() => {}}
        />
      </TableAccessProvider>,
    );
    expect(tag(out, "check-all")).toContain("disabled");
    expect(tag(out, "check-1")).toContain("disabled");
    const writable = html(
      <TableAccessProvider readOnly={false}>
        <DataTable<Machine>
          tableId="parc_materiel"
          columns={columns}
          rows={machines}
          getRowId={(m) => m.id}
          checkable
          checkedIds={[]}
          onCheckedChange={() => {}}
        />
      </TableAccessProvider>,
    );
    expect(tag(writable, "check-1")).not.toContain("disabled");
  });

  test("[A-RIGHTS-27] a screen's explicit readOnly overrides the inherited default, both ways", () => {
    const forcedWritable = html(
      <TableAccessProvider readOnly>
        <DataTable<Machine>
          tableId="parc_materiel"
          columns={columns}
          rows={machines}
          getRowId={(m) => m.id}
          checkable
          readOnly={false}
          checkedIds={[]}
          onCheckedChange={() => {}}
        />
      </TableAccessProvider>,
    );
    expect(tag(forcedWritable, "check-1")).not.toContain("disabled");
    const forcedReadOnly = table({ checkable: true, readOnly: true, checkedIds: [1], onCheckedChange: () => {} });
    expect(tag(forcedReadOnly, "check-1")).toContain("disabled");
    expect(tag(forcedReadOnly, "check-all")).toContain("disabled");
    expect(resolveReadOnly(undefined, true)).toBe(true);
    expect(resolveReadOnly(undefined, false)).toBe(false);
    expect(resolveReadOnly(false, true)).toBe(false);
    expect(resolveReadOnly(true, false)).toBe(true);
  });

  test("read-only tables still let rows be selected (the form opens read-only)", () => {
    const out = table({ readOnly: true, selectedId: 2, onSelect: () => {} });
    expect(tag(out, "row-2")).toContain('aria-selected="true"');
    expect(tag(out, "row-2")).toContain('tabindex="0"');
  });
});
