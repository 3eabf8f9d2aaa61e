import { useMemo } from "react";
import { useTranslation } from "~/use-translation";
import type { GridColumnDef } from "~/components/grid/columns";
import { DataGrid } from "~/components/grid/data-grid";
import type { RowPatch } from "~/components/grid/patches";
import type { GridSaveAnswer } from "~/components/grid/types";
import { FILTRE_SANS_PRIX, PrixApproSchema, PRIX_DECIMALES, unitePrix } from "~/domain/prix";
import type { Libelle, PrixApproRow } from "~/domain/contracts/prix";

/**
 * The supply price grid (spec 3 §2.4, §3.7; C-PAPPRO-02, 03, 07..10, 15, 16, 23, 24): the one grid configured for the
 * prices. Only the price is editable; the fuel row comes first; the price unit is € per the unit's part before the
 * slash; the state column shows the deleting indicator on the unused rows while 'delete unused products' runs.
 */

type Row = PrixApproRow & Record<string, unknown>;

/** A little lower than the default, so that the proposed prices panel below shows on a laptop screen. */
const GRID_HEIGHT = 400;

export const labelOf = (l: Libelle | undefined, lang: string) => (l ? (lang === "en" && l.libelleEn ? l.libelleEn : l.libelle) : "");

/** The rows a filter keeps: a type, or the rows without a price; the fuel row with 'all' (and when unpriced). */
export function filterAppro(rows: readonly PrixApproRow[], filtre: string): PrixApproRow[] {
  if (filtre === "") return [...rows];
  if (filtre === FILTRE_SANS_PRIX) return rows.filter((r) => r.prixAchat == null);
  return rows.filter((r) => !r.fioul && String(r.idTypeIntrant) === filtre);
}

export function PrixApproGrid({
  rows,
  types,
  readOnly,
  deleting,
  onSave,
  onSelect,
}: {
  rows: readonly PrixApproRow[];
  types: Libelle[];
  readOnly: boolean;
  deleting: boolean;
  onSave: (patches: RowPatch[]) => Promise<GridSaveAnswer>;
  onSelect: (id: number | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const columns = useMemo<GridColumnDef<Row>[]>(() => {
    const typeById = new Map(types.map((ty) => [ty.id, ty]));
    return [
      {
        id: "type",
        kind: "computed",
        title: t("prix.colonnes.type"),
        width: 150,
        value: (r) => (r.fioul ? t("prix.carburant") : labelOf(typeById.get(r.idTypeIntrant ?? 0), lang)),
      },
      { id: "libelle", kind: "computed", title: t("prix.colonnes.libelle"), width: 320, value: (r) => (r.fioul ? t("prix.fioul") : r.libelleIntrantConcat) },
      { id: "prixAchat", kind: "number", title: t("prix.colonnes.prix-achat"), width: 130, decimals: PRIX_DECIMALES },
      { id: "unitePrix", kind: "computed", title: t("prix.colonnes.unite-prix"), width: 100, value: (r) => unitePrix(r.unite) },
      { id: "unite", kind: "computed", title: t("prix.colonnes.unite"), width: 110, value: (r) => r.unite ?? "" },
      {
        id: "etat",
        kind: "computed",
        title: t("prix.colonnes.etat"),
        width: 160,
        value: (r) => (r.utilise ? "" : deleting ? t("prix.suppression-ligne") : t("prix.inutilise")),
      },
    ];
  }, [types, lang, t, deleting]);

  return (
    <DataGrid<Row>
      tableId="prix-appro"
      label={t("prix.appro.grille")}
      columns={columns}
      rows={rows as Row[]}
      rowSchema={PrixApproSchema}
      readOnly={readOnly}
      onSave={onSave}
      onSelect={onSelect}
      saveOnlyWhenValid
      height={GRID_HEIGHT}
    />
  );
}
