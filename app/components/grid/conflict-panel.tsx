import { useTranslation } from "~/use-translation";

/** One row in conflict as the panel lists it: its number in the grid, its name, and the fields that differ. */
export type ConflictLine = {
  key: number;
  row: number;
  label?: string;
  removed: boolean;
  fields: { column: string; mine: string; theirs: string }[];
};

/**
 * Below the grid after a save that set rows aside (decision 0100): each row changed by someone else with both
 * values of each field that differs, and "keep mine" / "take theirs" per row and for all. Nothing is lost until the
 * user chooses, and the page need not be reloaded.
 */
export function ConflictPanel({
  lines,
  onKeep,
  onTake,
  onKeepAll,
  onTakeAll,
}: {
  lines: readonly ConflictLine[];
  onKeep: (key: number) => void;
  onTake: (key: number) => void;
  onKeepAll: () => void;
  onTakeAll: () => void;
}) {
  const { t } = useTranslation();
  if (!lines.length) return null;
  return (
    <section className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm" aria-labelledby="grid-conflicts-title" data-testid="grid-conflicts">
      <h3 id="grid-conflicts-title" className="font-semibold text-amber-950">
        {t("conflits.title")}
      </h3>
      <p className="mt-1 text-stone-800">{t("conflits.intro")}</p>
      <ul className="mt-2 space-y-2">
        {lines.map((l) => (
          <li key={l.key} className="flex flex-wrap items-center gap-2" data-testid="grid-conflict" data-row={l.row}>
            <span className="font-medium">
              {t("conflits.row", { row: l.row })}
              {l.label ? ` (${l.label})` : ""}
            </span>
            <span className="text-stone-800">
              {l.removed ? t("conflits.removed") : l.fields.length ? l.fields.map((f) => t("conflits.field", f)).join(" ; ") : t("conflits.same")}
            </span>
            <span className="ml-auto flex gap-2">
              {l.removed ? null : (
                <button type="button" className="btn-secondary" onClick={() => onKeep(l.key)} data-testid="conflict-keep">
                  {t("conflits.keep")}
                </button>
              )}
              <button type="button" className="btn-secondary" onClick={() => onTake(l.key)} data-testid="conflict-take">
                {l.removed ? t("conflits.take-removed") : t("conflits.take")}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {lines.length > 1 ? (
        <div className="mt-2 flex gap-2">
          <button type="button" className="btn-secondary" onClick={onKeepAll} data-testid="conflict-keep-all">
            {t("conflits.keep-all")}
          </button>
          <button type="button" className="btn-secondary" onClick={onTakeAll} data-testid="conflict-take-all">
            {t("conflits.take-all")}
          </button>
        </div>
      ) : null}
    </section>
  );
}
