import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useSearchParams } from "react-router";
import { formatNumber } from "~/components/format";
import { QUANTITE_DECIMALES, type IntrantDetail } from "~/domain/intrant";
import type { RecolteDetail } from "~/domain/recolte";
import { AffectationsDialog } from "~/components/parcelle/affectations-dialog";
import { MajDatesDialog } from "~/components/parcelle/maj-dates-dialog";
import { CopieDialog, type CopieMode } from "./copie-dialogs";
import type { InterventionRow, InterventionsData } from "~/domain/contracts/interventions";

export type Filters = { sansOperation: boolean; recherche: string };

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

/** The inputs detail of a row (C-INT-06): "Ammonitrate 33,5 200 kg/ha ; Eau 30 mm", then its harvests (decision 0031). */
export function intrantsText(intrants: IntrantDetail[], lang: string, recoltes: RecolteDetail[] = []): string {
  return [
    ...intrants.map((i) => ({ libelle: i.libelle, quantite: i.quantite, unite: i.unite })),
    ...recoltes.map((r) => ({ libelle: r.libelle, quantite: r.rendement, unite: r.unite })),
  ]
    .map((i) => [i.libelle, formatNumber(i.quantite, lang, QUANTITE_DECIMALES), i.unite ?? ""].filter(Boolean).join(" "))
    .join(" ; ");
}

/** The row filters of §2.1 that need no reload: without an operation (C-INT-11), a search over inputs (C-INT-12). */
export function matchesFilters(row: InterventionRow, f: Filters): boolean {
  if (f.sansOperation && row.idOperationCulturale != null) return false;
  const q = fold(f.recherche.trim());
  if (q && !row.intrants.some((i) => fold(i.libelle).includes(q)) && !(row.recoltes ?? []).some((r) => fold(r.libelle).includes(q))) return false;
  return true;
}

/**
 * Above the table (spec 3 §2.1): the plot filter (several plots, kept in the address as parcelleId), the
 * read-only irrigable box of the plot, the two row filters, and the Other menu and copy selection, disabled
 * without the descriptive-write right (C-RIGHTS-01, 02).
 */
export function InterventionsToolbar({
  data,
  filters,
  onFilters,
  readOnly,
  selectedIds = [],
}: {
  data: InterventionsData;
  filters: Filters;
  onFilters: (f: Filters) => void;
  readOnly: boolean;
  /** The interventions selected in the grid: "Copier la sélection" exports them (the export dialog with them ticked). */
  selectedIds?: number[];
}) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  // The ticked plots show at once; the address (and the rows) follow.
  const [optimistic, setOptimistic] = useState<number[] | null>(null);
  useEffect(() => setOptimistic(null), [data.selection]);
  const selection = optimistic ?? data.selection;
  const chosen = new Set(selection);
  const irrigable = data.selection.length > 0 && data.selection.every((id) => data.parcelles.find((p) => p.id === id)?.irrigable);

  // The plot list closes on a click elsewhere or Escape, as a drop-down does.
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (e: Event) => {
      const d = details.current;
      if (!d?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !d.contains(e.target as Node)) d.open = false;
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  const choose = (ids: number[]) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete("parcelleId");
        next.delete("id");
        // One value, ids joined by "_", which addresses carry unescaped (server/http/fields.ts, queryIds).
        next.set("parcelleId", ids.join("_"));
        return next;
      },
      { preventScrollReset: true },
    );
  const toggle = (id: number) => {
    const next = chosen.has(id) ? selection.filter((x) => x !== id) : [...selection, id];
    if (!next.length) return;
    setOptimistic(next);
    choose(next);
  };

  const otherEntries = ["export-selection", "import-parcelle", "duplication", "maj-affectation", "maj-dates"] as const;
  const [dialog, setDialog] = useState<(typeof otherEntries)[number] | "copie-selection" | null>(null);

  return (
    <div className="card flex flex-wrap items-end gap-4" data-testid="interventions-toolbar">
      <fieldset className="min-w-56">
        <legend className="field-label">{t("interventions.parcelles")}</legend>
        <details ref={details} className="relative" data-testid="plot-filter">
          <summary className="field-input cursor-pointer list-none" data-testid="plot-filter-summary">
            {selection.length === 1
              ? data.parcelles.find((p) => p.id === selection[0])?.libelle
              : t("interventions.parcelles-choisies", { count: selection.length })}
          </summary>
          <ul className="absolute z-20 mt-1 max-h-72 w-72 overflow-auto rounded border border-stone-300 bg-white p-2 shadow-lg">
            {data.parcelles.map((p) => (
              <li key={p.id}>
                <label className="flex items-center gap-2 py-1">
                  <input type="checkbox" checked={chosen.has(p.id)} onChange={() => toggle(p.id)} data-testid={`plot-filter-${p.id}`} />
                  {p.libelle}
                </label>
              </li>
            ))}
          </ul>
        </details>
      </fieldset>
      <label className="flex items-center gap-2 pb-2">
        <input type="checkbox" checked={irrigable} readOnly aria-readonly="true" onClick={(e) => e.preventDefault()} data-testid="plot-irrigable" />
        {t("interventions.irrigable")}
      </label>
      <label className="flex items-center gap-2 pb-2">
        <input
          type="checkbox"
          checked={filters.sansOperation}
          onChange={(e) => onFilters({ ...filters, sansOperation: e.target.checked })}
          data-testid="filter-sans-operation"
        />
        {t("interventions.sans-operation")}
      </label>
      <div>
        <label htmlFor="interventions-recherche" className="field-label">
          {t("interventions.recherche")}
        </label>
        <input
          id="interventions-recherche"
          type="search"
          className="field-input"
          value={filters.recherche}
          onChange={(e) => onFilters({ ...filters, recherche: e.target.value })}
          data-testid="filter-recherche"
        />
      </div>
      <div className="ml-auto flex items-center gap-2 pb-1">
        <Menu as="div" className="relative">
          <MenuButton className="btn-secondary" disabled={readOnly} data-testid="interventions-other">
            {t("interventions.autre")} ▾
          </MenuButton>
          <MenuItems anchor="bottom end" className="z-30 w-80 rounded border border-stone-300 bg-white p-1 shadow-lg focus:outline-none">
            {otherEntries.map((key) => (
              <MenuItem key={key}>
                <button
                  type="button"
                  className="block w-full rounded px-3 py-2 text-left text-sm data-[focus]:bg-stone-100"
                  onClick={() => setDialog(key)}
                  data-testid={`other-${key}`}
                >
                  {key === "duplication" ? t("copie.duplication") : t(`interventions.${key}`)}
                </button>
              </MenuItem>
            ))}
          </MenuItems>
        </Menu>
        <button
          type="button"
          className="btn-secondary"
          disabled={readOnly || selectedIds.length === 0}
          onClick={() => setDialog("copie-selection")}
          data-testid="interventions-copy"
          title={selectedIds.length === 0 ? t("interventions.copie-selection-vide") : undefined}
        >
          {t("interventions.copie-selection")}
        </button>
      </div>
      {dialog === "export-selection" || dialog === "import-parcelle" || dialog === "duplication" ? (
        <CopieDialog mode={dialog as CopieMode} data={data} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === "copie-selection" ? <CopieDialog mode="export-selection" data={data} cochees={selectedIds} onClose={() => setDialog(null)} /> : null}
      <MajDatesDialog open={dialog === "maj-dates"} ids={data.selection} anneeCampagne={data.anneeRecolte} onClose={() => setDialog(null)} />
      <AffectationsDialog open={dialog === "maj-affectation"} onClose={() => setDialog(null)} />
    </div>
  );
}
