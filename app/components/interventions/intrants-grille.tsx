import { useEffect, useId, useMemo, useState } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "~/use-translation";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import type { GridColumnDef } from "~/components/grid/columns";
import { DataGrid } from "~/components/grid/data-grid";
import { useGridSave } from "~/components/grid/use-grid-save";
import { formatDate } from "~/components/format";
import { TYPE_INTRANT } from "~/domain/intrant";
import { IntrantGrilleSchema, UNITES_GRILLE } from "~/domain/intrant-grille";
import type { InterventionRow } from "~/domain/contracts/interventions";
import { useCatalogue } from "./input-dialogs";

/**
 * The inputs of the intervention selected in the interventions grid, as a grid under it (issue 29, decision 0126):
 * product (the phyto catalogue, a drop-down filtered as you type), dose, unit and main target, edited, pasted and
 * undone like any cell; a row appended is a plant-protection product. Saved by the route's `intrantsGrid` intent,
 * which builds the dialogs' input and writes it by their path; the dialogs (the form's inputs panel) stay for the
 * details. Rows, catalogue and targets come from the screen's catalogue resource (`?grille=`).
 */

type Row = { id: number; updatedAt: string } & Record<string, unknown>;
type Grille = {
  grille: { rows: Row[]; phytos: { id: number; origine: number; libelle: string; code?: string | null }[]; cibles: { id: number; libelle: string }[] };
};

export const INTRANTS_GRID_INTENT = "intrantsGrid";
/** The block of new rows added to each of several selected interventions (decision 0137). */
export const INTRANTS_GRID_ACTIONS_INTENT = "intrantsGridActions";
/** The rows selected in the inputs grid deleted, by the dialogs' delete path (decision 0137). */
export const INTRANTS_DELETE_INTENT = "deleteIntrants";

export function IntrantsGrille({
  intervention,
  selection = [],
  readOnly,
}: {
  intervention: InterventionRow | null;
  /** The interventions selected in the interventions grid: several, the grid adds its rows to each of them. */
  selection?: readonly InterventionRow[];
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  // Opened on demand (an expandable detail): closed, the screen has one grid, as before.
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const several = selection.length > 1 ? selection : null;
  const source = intervention ?? several?.[0] ?? null;
  // Loaded once per intervention; a save's revalidation reads it again (a fetcher's load is revalidated).
  const { data } = useCatalogue<Grille>(source && open ? { grille: source.id } : null);
  const onSaveOne = useGridSave({ intent: INTRANTS_GRID_INTENT, fields: { idAction: String(intervention?.id ?? "") } });
  const severalIds = JSON.stringify(several?.map((r) => r.id) ?? []);
  const onSaveSeveral = useGridSave({ intent: INTRANTS_GRID_ACTIONS_INTENT, fields: { idActions: severalIds } });
  const grille = data?.grille;
  // The stored inputs selected in the grid (rows ticked or spanned by the selected cells), for the delete button.
  const [selectedInputs, setSelectedInputs] = useState<number[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(deleter.data);
  useEffect(() => setSelectedInputs([]), [source?.id, severalIds]);

  const columns = useMemo<GridColumnDef<Row>[]>(() => {
    const produits = new Map<string, string>();
    for (const r of grille?.rows ?? []) if (typeof r.produit === "string") produits.set(r.produit, String(r.libelle));
    for (const p of grille?.phytos ?? []) {
      const key = `${p.origine}:${p.id}`;
      if (!produits.has(key)) produits.set(key, p.code ? `${p.libelle} (${p.code})` : p.libelle);
    }
    return [
      {
        id: "produit",
        kind: "choice",
        title: t("interventions.grille-intrants.produit"),
        width: 300,
        options: [...produits].map(([value, label]) => ({ value, label })),
      },
      { id: "quantite", kind: "number", title: t("interventions.grille-intrants.dose"), width: 110, decimals: 4 },
      {
        id: "dicLlUnite",
        kind: "choice",
        title: t("interventions.grille-intrants.unite"),
        width: 100,
        options: UNITES_GRILLE.map((u) => ({ value: u, label: u })),
      },
      {
        id: "cible1",
        kind: "choice",
        title: t("interventions.grille-intrants.cible"),
        width: 260,
        options: (grille?.cibles ?? []).map((c) => ({ value: c.id, label: c.libelle })),
      },
      {
        id: "type",
        kind: "computed",
        title: t("interventions.grille-intrants.type"),
        width: 120,
        value: (r) => (r.type != null ? t(`interventions.types.${String(r.type)}`) : ""),
      },
      // Water and other inputs name no catalogue product: their label (the water type, the other input's name).
      { id: "libelle", kind: "computed", title: t("interventions.grille-intrants.libelle"), width: 260, value: (r) => (r.libelle as string) ?? "" },
    ];
  }, [grille, t]);

  const newRow = useMemo(() => (readOnly ? undefined : () => ({ type: TYPE_INTRANT.PHYTO, dicLlUnite: "l/ha" }) as Partial<Row>), [readOnly]);

  if (!source) {
    return (
      <p className="card text-sm text-stone-600" data-testid="intrants-grille-vide">
        {t("interventions.grille-intrants.choisir")}
      </p>
    );
  }
  const titre = several
    ? t("interventions.grille-intrants.titre-plusieurs", { count: several.length })
    : t("interventions.grille-intrants.titre", { date: formatDate(`${source.date}T12:00:00Z`) });
  const aide = readOnly ? "aide-lecture" : several ? "aide-plusieurs" : "aide";
  return (
    <section className="card space-y-2" aria-label={titre} data-testid="intrants-grille">
      <h2 className="text-sm font-semibold">
        <button
          type="button"
          className="flex items-center gap-2 text-left hover:underline"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          data-testid="intrants-grille-ouvrir"
        >
          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
          {several ? titre : `${titre} (${source.intrants.length})`}
        </button>
      </h2>
      {open ? (
        <div id={panelId} className="space-y-2">
          <div className="flex items-start gap-2">
            <p className="flex-1 text-xs text-stone-600">{t(`interventions.grille-intrants.${aide}`)}</p>
            {several || readOnly ? null : (
              <button
                type="button"
                className="btn-secondary"
                disabled={selectedInputs.length === 0 || deleter.state !== "idle"}
                onClick={() => setConfirmDelete(true)}
                data-testid="intrants-grille-supprimer"
              >
                {selectedInputs.length
                  ? t("interventions.grille-intrants.supprimer", { count: selectedInputs.length })
                  : t("interventions.grille-intrants.supprimer-aucun")}
              </button>
            )}
          </div>
          {grille ? (
            several ? (
              // A fresh grid of new rows: pasted, checked, undone like any grid; saved to each selected intervention.
              <DataGrid<Row>
                key={`plusieurs-${severalIds}`}
                tableId="intrants-grille"
                label={titre}
                columns={columns}
                rows={[]}
                rowSchema={IntrantGrilleSchema}
                readOnly={readOnly}
                newRow={newRow}
                onSave={onSaveSeveral}
                height={180}
              />
            ) : (
              <DataGrid<Row>
                key={source.id}
                tableId="intrants-grille"
                label={titre}
                columns={columns}
                rows={grille.rows}
                rowSchema={IntrantGrilleSchema}
                readOnly={readOnly}
                newRow={newRow}
                onSave={onSaveOne}
                onRowsSelected={(ids) => setSelectedInputs(ids.filter((id) => id > 0))}
                height={180}
              />
            )
          ) : (
            <p className="text-sm text-stone-600" data-testid="intrants-grille-chargement">
              {t("grid.loading")}
            </p>
          )}
        </div>
      ) : null}
      <AppDialog
        open={confirmDelete}
        title={t("ui.delete")}
        width={500}
        testId="intrants-grille-delete-dialog"
        onEscape={() => setConfirmDelete(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setConfirmDelete(false)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                setConfirmDelete(false);
                void deleter.submit({ intent: INTRANTS_DELETE_INTENT, ids: JSON.stringify(selectedInputs) }, { method: "post" });
              }}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("interventions.grille-intrants.confirm-suppression", { count: selectedInputs.length })}</p>
      </AppDialog>
    </section>
  );
}
