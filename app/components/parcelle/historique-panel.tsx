import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { formatNumber } from "~/components/farm-form";
import { Field } from "~/components/field";
import { HistoriqueTreeDialog } from "./historique-tree-dialog";

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
export type HistoriqueOption = { id: number; libelle: string; surface: number | null };

/**
 * The history panel (spec 2 §2; B-HIST-01 to B-HIST-05): a multi-select of the plots of the campaign's
 * history campaign (the previous one), a summary table of the chosen plots and the history tree.
 */
export function HistoriquePanel({
  field,
  options,
  hasCampaign,
  saved,
  readOnly,
}: {
  field: Meta;
  options: readonly HistoriqueOption[];
  hasCampaign: boolean;
  saved: { id: number; libelle: string } | null;
  readOnly: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [treeOpen, setTreeOpen] = useState(false);
  const value = field.value;
  const chosen = new Set((Array.isArray(value) ? value : typeof value === "string" && value ? [value] : []).map(Number));
  const rows = options.filter((o) => chosen.has(o.id));

  return (
    <div data-testid="historique-panel">
      <fieldset disabled={readOnly}>
        {!hasCampaign ? (
          <p className="mb-3 text-stone-600">{t("parcelle.historique.no-campaign")}</p>
        ) : (
          <Field
            id={field.id}
            label={t("parcelle.historique.select")}
            errors={field.errors}
            help={options.length ? t("parcelle.historique.help") : t("parcelle.historique.no-plots")}
          >
            <select
              {...getSelectProps(field)}
              multiple
              className="field-input min-h-28"
              disabled={!options.length}
              data-testid="select-historique"
              size={Math.min(8, Math.max(3, options.length))}
            >
              {options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.surface != null ? `${o.libelle} (${formatNumber(o.surface, i18n.language)} ha)` : o.libelle}
                </option>
              ))}
            </select>
          </Field>
        )}
      </fieldset>
      <h3 className="mb-1 text-sm font-semibold">{t("parcelle.historique.summary")}</h3>
      {rows.length ? (
        <table className="mb-3 w-full text-left text-sm" data-testid="historique-summary">
          <thead>
            <tr className="border-b border-stone-200">
              <th className="py-1 pr-2">{t("parcelle.libelle")}</th>
              <th className="py-1 text-right">{t("parcelle.surface")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-b border-stone-100">
                <td className="py-1 pr-2">{r.libelle}</td>
                <td className="py-1 text-right">{formatNumber(r.surface, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="mb-3 text-sm text-stone-500" data-testid="historique-summary-empty">
          {t("parcelle.historique.none")}
        </p>
      )}
      <div className="mb-3">
        <button type="button" className="btn-secondary" disabled={!saved} onClick={() => setTreeOpen(true)} data-testid="open-historique-tree">
          {t("parcelle.historique.open-tree")}
        </button>
        {!saved ? <p className="mt-1 text-xs text-stone-500">{t("parcelle.historique.save-first")}</p> : null}
      </div>
      {saved ? <HistoriqueTreeDialog open={treeOpen} idParcelle={saved.id} libelle={saved.libelle} onClose={() => setTreeOpen(false)} /> : null}
    </div>
  );
}
