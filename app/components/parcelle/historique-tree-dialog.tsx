import { useEffect } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { AppDialog } from "~/components/dialog";
import type { HistoriqueNode, HistoriqueTree } from "~/domain/parcelle";

/** Width of the history tree modal (spec 2 §9). */
export const HISTORY_DIALOG_WIDTH = 1000;

function PlotCard({ node }: { node: HistoriqueNode }) {
  const { t } = useTranslation();
  return (
    <li className="rounded border border-stone-200 bg-stone-50 px-2 py-1" data-testid="historique-node">
      <span className="font-medium">{node.libelle}</span>
      {node.anneeRecolte ? <span className="ml-1 text-xs text-stone-600">{t("parcelle.historique.annee", { annee: node.anneeRecolte })}</span> : null}
    </li>
  );
}

/** The history of a saved plot: one column per generation, N then N-1, N-2 and so on (B-HIST-04, B-HIST-05). */
export function HistoriqueTreeDialog({ open, idParcelle, libelle, onClose }: { open: boolean; idParcelle: number; libelle: string; onClose: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher<{ arbre: HistoriqueTree | null }>();
  const { load } = fetcher;
  useEffect(() => {
    if (open) void load(`${location.pathname}?arbre=${idParcelle}`);
  }, [open, idParcelle, load, location.pathname]);
  const tree = fetcher.state === "idle" ? fetcher.data?.arbre : undefined;

  return (
    <AppDialog
      open={open}
      title={t("parcelle.historique.tree-title", { libelle })}
      width={HISTORY_DIALOG_WIDTH}
      allowWider
      testId="historique-dialog"
      onEscape={onClose}
      actions={
        <button type="button" className="btn-primary" onClick={onClose}>
          {t("ui.close")}
        </button>
      }
    >
      {tree === undefined ? (
        <p>{t("ui.loading")}</p>
      ) : !tree || !tree.generations.length ? (
        <p data-testid="historique-empty">{t("parcelle.historique.tree-empty")}</p>
      ) : (
        <div className="flex gap-4 overflow-x-auto" role="list" aria-label={t("parcelle.panels.historique")}>
          <section role="listitem" className="min-w-44" aria-labelledby="generation-0">
            <h3 id="generation-0" className="mb-1 font-semibold text-sillon-800">
              N
            </h3>
            <ul className="space-y-1">
              <PlotCard node={tree.root} />
            </ul>
          </section>
          {tree.generations.map((nodes, i) => (
            <section key={i} role="listitem" className="min-w-44" aria-labelledby={`generation-${i + 1}`} data-testid={`generation-${i + 1}`}>
              <h3 id={`generation-${i + 1}`} className="mb-1 font-semibold text-sillon-800">
                {t("parcelle.historique.generation", { n: i + 1 })}
              </h3>
              <ul className="space-y-1">
                {nodes.map((n) => (
                  <PlotCard key={n.id} node={n} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </AppDialog>
  );
}
