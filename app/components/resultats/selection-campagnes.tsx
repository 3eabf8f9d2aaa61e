import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useSearchParams } from "react-router";
import { PARAM_CAMPAGNE, type ChoixCampagnes } from "~/domain/resultats/selection";

/**
 * The selected campaigns of a resultats screen, kept in the address (`?campagne=1&campagne=2`): a reload or a link
 * keeps them, and the screen's loader reads them to list its series and sessions (they refresh when they change,
 * A-EXPORT-14, C-REXP-14). Changing them replaces the history entry; the boxes follow at once, before the loader
 * has answered.
 *
 * Options (the calculation screen): `defaut`, the selection shown while the address names none (its loader then
 * takes the context's campaign); `videExplicite`, an empty selection written as `?campagne=` so that the loader
 * tells it from no selection at all.
 */
export function useSelectionCampagnes(options: { defaut?: readonly number[]; videExplicite?: boolean } = {}): [number[], (ids: number[]) => void] {
  const { defaut, videExplicite = false } = options;
  const [params, setParams] = useSearchParams();
  const present = params.has(PARAM_CAMPAGNE);
  const raw = params.getAll(PARAM_CAMPAGNE).filter(Boolean).join(",");
  const cleDefaut = (defaut ?? []).join(",");
  const adresse = useMemo(
    () => (present ? (raw ? raw.split(",") : []) : cleDefaut ? cleDefaut.split(",") : []).map(Number).filter((n) => Number.isInteger(n) && n > 0),
    [present, raw, cleDefaut],
  );
  // The boxes ticked, until the address has followed.
  const [enAttente, setEnAttente] = useState<number[] | null>(null);
  useEffect(() => setEnAttente(null), [present, raw]);
  const choisir = useCallback(
    (ids: number[]) => {
      const uniques = [...new Set(ids)].sort((a, b) => a - b);
      setEnAttente(uniques);
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(PARAM_CAMPAGNE);
          for (const id of uniques) next.append(PARAM_CAMPAGNE, String(id));
          if (!uniques.length && videExplicite) next.set(PARAM_CAMPAGNE, "");
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [setParams, videExplicite],
  );
  return [enAttente ?? adresse, choisir];
}

type Props = {
  choix: ChoixCampagnes;
  selection: readonly number[];
  onChange: (ids: number[]) => void;
  /** The panel's heading (the screen names it). */
  titre?: string;
  /** Buttons below the tree (e.g. the launch-calculation button of the calculation screen). */
  children?: React.ReactNode;
};

/**
 * Panel 1 of the resultats screens: folders › farms › campaigns with check boxes (spec 1 §2 "selection of farms and
 * campaigns"). Ticking a farm ticks all its campaigns; a farm partly ticked shows as mixed. Native check boxes and
 * disclosures: usable with the keyboard. Only what `choix` offers (the server checked the rights) can be ticked.
 */
export function SelectionCampagnes({ choix, selection, onChange, titre, children }: Props) {
  const { t } = useTranslation();
  const [filtre, setFiltre] = useState("");
  const choisies = useMemo(() => new Set(selection), [selection]);
  const bascule = (ids: number[], coche: boolean) => {
    const next = new Set(choisies);
    for (const id of ids) {
      if (coche) next.add(id);
      else next.delete(id);
    }
    onChange([...next]);
  };
  const motif = filtre.trim().toLocaleLowerCase("fr");
  const dossiers = choix.dossiers
    .map((d) => ({ ...d, exploitations: motif ? d.exploitations.filter((e) => e.libelle.toLocaleLowerCase("fr").includes(motif)) : d.exploitations }))
    .filter((d) => d.exploitations.length);
  const total = choix.dossiers.reduce((n, d) => n + d.exploitations.reduce((m, e) => m + e.campagnes.length, 0), 0);

  return (
    <section className="card" aria-labelledby="selection-campagnes-titre" data-testid="selection-campagnes">
      <h2 id="selection-campagnes-titre" className="text-lg font-semibold text-sillon-800">
        {titre ?? t("selectionCampagnes.titre")}
      </h2>
      {total === 0 ? (
        <p className="mt-2 text-sm text-stone-600" data-testid="selection-campagnes-vide">
          {t("selectionCampagnes.aucune")}
        </p>
      ) : (
        <>
          <label className="mt-2 block">
            <span className="field-label">{t("selectionCampagnes.filtre")}</span>
            <input type="search" className="field-input" value={filtre} onChange={(e) => setFiltre(e.target.value)} data-testid="selection-campagnes-filtre" />
          </label>
          <div className="mt-3 max-h-96 space-y-2 overflow-y-auto pr-1">
            {dossiers.map((d) => (
              <details
                key={d.id}
                open={d.id === choix.idDossierCourant || dossiers.length === 1 || !!motif}
                className="rounded border border-stone-200"
                data-testid={`selection-dossier-${d.id}`}
              >
                <summary className="cursor-pointer px-2 py-1 font-medium text-stone-800 hover:bg-stone-50">{d.libelle}</summary>
                <ul className="space-y-1 border-t border-stone-200 px-2 py-2">
                  {d.exploitations.map((e) => {
                    const ids = e.campagnes.map((c) => c.id);
                    const n = ids.filter((id) => choisies.has(id)).length;
                    return (
                      <li key={e.id} data-testid={`selection-exploitation-${e.id}`}>
                        <label className="flex items-center gap-2 font-medium">
                          <CaseMixte
                            checked={n > 0 && n === ids.length}
                            mixed={n > 0 && n < ids.length}
                            disabled={!ids.length}
                            onChange={(coche) => bascule(ids, coche)}
                          />
                          {e.libelle}
                        </label>
                        <ul className="ml-6 mt-1 space-y-0.5">
                          {e.campagnes.map((c) => (
                            <li key={c.id}>
                              <label className="flex items-center gap-2 text-sm">
                                <input
                                  type="checkbox"
                                  checked={choisies.has(c.id)}
                                  onChange={(ev) => bascule([c.id], ev.target.checked)}
                                  data-testid={`selection-campagne-${c.id}`}
                                />
                                {/* A campaign stored without prefix nor label still has a name: its harvest year. */}
                                {c.libelle.trim() || String(c.anneeRecolte)}
                                {c.simulation && <span className="rounded bg-amber-100 px-1 text-xs text-amber-900">{t("selectionCampagnes.simulation")}</span>}
                              </label>
                            </li>
                          ))}
                        </ul>
                      </li>
                    );
                  })}
                </ul>
              </details>
            ))}
          </div>
          <p className="mt-2 text-sm text-stone-600" aria-live="polite" data-testid="selection-campagnes-compte">
            {t("selectionCampagnes.compte", { count: selection.length })}
          </p>
        </>
      )}
      {children && <div className="mt-3 flex flex-wrap gap-2">{children}</div>}
    </section>
  );
}

/** A check box that can show the mixed state (some campaigns of the farm ticked). */
function CaseMixte({ checked, mixed, disabled, onChange }: { checked: boolean; mixed: boolean; disabled: boolean; onChange: (coche: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={checked}
      disabled={disabled}
      aria-checked={mixed ? "mixed" : checked}
      onChange={(e) => onChange(mixed ? true : e.target.checked)}
    />
  );
}
