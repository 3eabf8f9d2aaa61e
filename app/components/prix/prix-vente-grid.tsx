import { useMemo } from "react";
import { useTranslation } from "~/use-translation";
import type { GridColumnDef } from "~/components/grid/columns";
import { DataGrid } from "~/components/grid/data-grid";
import type { RowPatch } from "~/components/grid/patches";
import type { GridSaveAnswer } from "~/components/grid/types";
import { FILTRE_SANS_PRIX, PRIX_DECIMALES, PRIX_VENTE_MANQUANT, PrixVenteSchema } from "~/domain/prix";
import { labelOf } from "./prix-appro-grid";
import type { PrixVenteData, PrixVenteRow } from "~/domain/contracts/prix";

/**
 * The sale price grid (spec 3 §2.5, §3.8; C-PVENTE-01, 02, 05..07, 11..14): driving mode, crop, output type,
 * qualifier, and the sale price (€/t), the only editable cell. The save asks the price to be numeric only (an
 * emptied price is saved empty); an empty price cell is tinted and says it is required (a note, spec 3 §5).
 */

type Row = PrixVenteRow & Record<string, unknown>;

/** The rows a filter keeps: a driving mode ("0": no mode), or the rows without a price. */
export function filterVente(rows: readonly PrixVenteRow[], filtre: string): PrixVenteRow[] {
  if (filtre === "") return [...rows];
  if (filtre === FILTRE_SANS_PRIX) return rows.filter((r) => r.prixVente == null);
  return rows.filter((r) => String(r.idModeConduite ?? 0) === filtre);
}

export function PrixVenteGrid({
  data,
  rows,
  readOnly,
  deleting,
  onSave,
}: {
  data: PrixVenteData;
  rows: readonly PrixVenteRow[];
  readOnly: boolean;
  deleting: boolean;
  onSave: (patches: RowPatch[]) => Promise<GridSaveAnswer>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const columns = useMemo<GridColumnDef<Row>[]>(() => {
    const modes = new Map(data.modes.map((m) => [m.id, m]));
    const cultures = new Map(data.cultures.map((m) => [m.id, m]));
    const sorties = new Map(data.typesSortie.map((m) => [m.id, m]));
    const qualifiants = new Map(data.qualifiants.map((m) => [m.id, m]));
    return [
      {
        id: "mode",
        kind: "computed",
        title: t("prix.colonnes.mode"),
        width: 200,
        value: (r) => (r.idModeConduite == null ? t("prix.sans-mode") : labelOf(modes.get(r.idModeConduite), lang)),
      },
      { id: "culture", kind: "computed", title: t("prix.colonnes.culture"), width: 190, value: (r) => labelOf(cultures.get(r.idCulture), lang) },
      { id: "sortie", kind: "computed", title: t("prix.colonnes.type-sortie"), width: 150, value: (r) => labelOf(sorties.get(r.idTypeSortie), lang) },
      {
        id: "qualifiant",
        kind: "computed",
        title: t("prix.colonnes.qualifiant"),
        width: 130,
        value: (r) => (r.idQualifiantRecolte == null ? "" : labelOf(qualifiants.get(r.idQualifiantRecolte), lang) || `#${r.idQualifiantRecolte}`),
      },
      {
        id: "prixVente",
        kind: "number",
        title: t("prix.colonnes.prix-vente"),
        width: 150,
        decimals: PRIX_DECIMALES,
        unit: "€/t",
        note: (v) => (v == null || v === "" ? PRIX_VENTE_MANQUANT : undefined),
      },
      {
        id: "etat",
        kind: "computed",
        title: t("prix.colonnes.etat"),
        width: 160,
        value: (r) => (r.utilise ? "" : deleting ? t("prix.suppression-ligne") : t("prix.inutilise")),
      },
    ];
  }, [data, lang, t, deleting]);

  return (
    <DataGrid<Row>
      tableId="prix-vente"
      label={t("prix.vente.grille")}
      columns={columns}
      rows={rows as Row[]}
      rowSchema={PrixVenteSchema}
      readOnly={readOnly}
      onSave={onSave}
      saveOnlyWhenValid
    />
  );
}
