import { useMemo, useSyncExternalStore, type Ref } from "react";
import { useTranslation } from "~/use-translation";
import type { GridColumnDef } from "~/components/grid/columns";
import { DataGrid } from "~/components/grid/data-grid";
import type { RowPatch } from "~/components/grid/patches";
import type { DataGridHandle, GridSaveAnswer } from "~/components/grid/types";
import { InterventionGrilleSchema, marqueur, NOUVELLE_INTERVENTION, nombrePassages } from "~/domain/intervention";
import { defaultCampaignDate } from "~/domain/campaign-date";
import { intrantsText } from "./toolbar";
import type { InterventionRow, InterventionsData } from "~/domain/contracts/interventions";

/**
 * The interventions grid (spec 3 §2.1, C-INT-05..08, 16, 17): the one grid (app/components/grid/) configured for the
 * interventions. Editable: date, operation, crop, done and planned, frequency and surface rate; the P/R marker and
 * the passes are recomputed from the row as edited; the inputs detail and the RDD flag are read-only. With several
 * plots shown, the plot is a column too (a new row must say its plot). The row schema is InterventionSchema, the
 * form's and the server's.
 */

type Row = InterventionRow & Record<string, unknown>;

const HEADER_PX = 36;
const ROW_PX = 34;
const MIN_PX = 240;
/** What the page keeps above and below the grid when it is scrolled to (toolbar, message line, margins). */
const AROUND_PX = 160;

/**
 * The grid's height (issue 29): its rows and three empty ones, at least MIN_PX, at most the screen's height less
 * the toolbar and message line, so that the grid fills the screen when it has many rows and leaves room for the
 * inputs detail below when it has few. The server, which knows no screen, takes 900 px.
 */
export function interventionsGridHeight(rows: number, viewport: number): number {
  return Math.max(MIN_PX, Math.min(HEADER_PX + ROW_PX * (rows + 3), viewport - AROUND_PX));
}

const subscribeResize = (fn: () => void) => {
  window.addEventListener("resize", fn);
  return () => window.removeEventListener("resize", fn);
};
const viewportHeight = () => window.innerHeight;
const serverViewport = () => 900;

const asNumber = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

export type InterventionsGridProps = {
  data: InterventionsData;
  /** The rows shown (the screen's filters applied). */
  rows: readonly InterventionRow[];
  readOnly: boolean;
  onSave?: (patches: RowPatch[]) => Promise<GridSaveAnswer>;
  onSelect?: (id: number | null) => void;
  /** The saved interventions the user selected in the grid (ticked row numbers, else the rows the selected cells span). */
  onRowsSelected?: (ids: number[]) => void;
  height?: number;
  ref?: Ref<DataGridHandle>;
};

export function InterventionsGrid({ data, rows, readOnly, onSave, onSelect, onRowsSelected, height, ref }: InterventionsGridProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const several = data.selection.length > 1;
  const viewport = useSyncExternalStore(subscribeResize, viewportHeight, serverViewport);

  const columns = useMemo<GridColumnDef<Row>[]>(() => {
    const operations = data.operations.map((o) => ({ value: o.id, label: o.libelle }));
    const cultures = data.cultures.map((c) => ({ value: c.id, label: lang === "en" && c.libelleEn ? c.libelleEn : c.libelle }));
    const parcelles = data.parcelles.map((p) => ({ value: p.id, label: p.libelle }));
    // A stage's label names its BBCH code ("2 nœuds (BBCH 32)", decision 0037).
    const stades = (data.stades ?? []).map((st) => ({ value: st.id, label: lang === "en" && st.libelleEn ? st.libelleEn : st.libelle }));
    return [
      ...(several ? [{ id: "idParcelle", kind: "choice", title: t("interventions.colonnes.parcelle"), width: 160, options: parcelles } as const] : []),
      { id: "date", kind: "date", title: t("interventions.colonnes.date"), width: 110, year: data.anneeRecolte },
      { id: "idOperationCulturale", kind: "choice", title: t("interventions.colonnes.operation"), width: 220, options: operations },
      {
        id: "marqueur",
        kind: "computed",
        title: t("interventions.colonnes.marqueur"),
        width: 60,
        value: (r) => marqueur(r.realisee === true, r.prevue === true),
      },
      { id: "realisee", kind: "boolean", title: t("interventions.form.realisee"), width: 90 },
      { id: "prevue", kind: "boolean", title: t("interventions.form.prevue"), width: 80 },
      { id: "frequence", kind: "number", title: t("interventions.form.frequence"), width: 100, decimals: 3 },
      { id: "tauxSurface", kind: "number", title: t("interventions.form.taux-surface"), width: 120, decimals: 4 },
      {
        id: "passages",
        kind: "computed",
        title: t("interventions.colonnes.passages"),
        width: 110,
        decimals: 3,
        value: (r) => nombrePassages(asNumber(r.frequence), asNumber(r.tauxSurface)),
      },
      // The inputs before the crop, visible without scrolling right (issue 29); edited in the inputs grid below (decision 0126).
      {
        id: "intrants",
        kind: "computed",
        title: t("interventions.colonnes.intrants"),
        width: 300,
        value: (r) => intrantsText(r.intrants ?? [], lang, r.recoltes ?? []),
      },
      { id: "idCultureConcernee", kind: "choice", title: t("interventions.colonnes.culture"), width: 200, options: cultures },
      { id: "rdd", kind: "computed", title: t("interventions.colonnes.rdd"), width: 90, value: (r) => (r.rdd ? t("interventions.rdd-oui") : "") },
      // The register's fields (issue 28, decision 0105): the BBCH stage from the stage list, the free text kept.
      { id: "idStadeCulture", kind: "choice", title: t("registre.grille.stade-bbch"), width: 200, options: stades },
      { id: "precisionStade", kind: "text", title: t("registre.grille.stade-texte"), width: 140 },
      { id: "heureDebut", kind: "text", title: t("registre.grille.heure-debut"), width: 90 },
      { id: "heureFin", kind: "text", title: t("registre.grille.heure-fin"), width: 90 },
      { id: "siretPrestataire", kind: "text", title: t("registre.grille.siret-prestataire"), width: 150 },
      { id: "rentreeAnticipee", kind: "boolean", title: t("registre.grille.rentree-anticipee"), width: 110 },
      { id: "lotSemences", kind: "text", title: t("registre.grille.lot-semences"), width: 140 },
    ];
  }, [data.operations, data.cultures, data.parcelles, data.stades, data.anneeRecolte, several, lang, t]);

  const newRow = useMemo(
    () =>
      readOnly
        ? undefined
        : () =>
            ({
              ...NOUVELLE_INTERVENTION,
              idParcelle: data.selection[0],
              // Inside the campaign: today when it is in it, else the same day of the harvest year (decision 0115).
              date: defaultCampaignDate(data.anneeRecolte),
              intrants: [],
              recoltes: [],
              rdd: false,
            }) as Partial<Row>,
    [readOnly, data.selection, data.anneeRecolte],
  );

  return (
    <DataGrid<Row>
      ref={ref}
      tableId="interventions"
      label={t("interventions.titre")}
      columns={columns}
      rows={rows as Row[]}
      rowSchema={InterventionGrilleSchema}
      readOnly={readOnly}
      newRow={newRow}
      onSave={onSave}
      onSelect={onSelect}
      onRowsSelected={onRowsSelected ? (ids) => onRowsSelected(ids.filter((id) => id > 0)) : undefined}
      height={height ?? interventionsGridHeight(rows.length, viewport)}
    />
  );
}
