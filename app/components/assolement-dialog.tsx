import { useEffect, useId, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import type { AssolementAnswer, AssolementItem } from "~/domain/contracts/assolement";
import { AppDialog, mountedOnceOpened } from "./dialog";
import { useFeedback } from "./feedback";
import { formatNumber, formatPercent } from "./format";
import { percentages, pieColour, pieSlices } from "./pie";

/** The crop-area dialog of the context bar (spec 1 §2, §9): 1000 wide, a pie chart and the total in ha to 2 decimals. */
export const ASSOLEMENT_DIALOG_WIDTH = 1000;
const SIZE = 300;
const RADIUS = 140;

type Answer = AssolementAnswer;
type Item = AssolementItem;

export function formatHectares(n: number, language: string): string {
  return formatNumber(n, language, 2, 2);
}

function useItemLabel() {
  const { t, i18n } = useTranslation();
  return (item: Item) => (item.kind === "sansMode" ? t("assolement.sans-mode") : i18n.language === "en" && item.libelleEn ? item.libelleEn : item.libelle);
}

function PieChart({ items, total }: { items: Item[]; total: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const label = useItemLabel();
  const [hovered, setHovered] = useState<number | null>(null);
  const [pinned, setPinned] = useState<number | null>(null);
  const active = hovered ?? pinned;
  const titleId = useId();
  const descId = useId();
  const slices = pieSlices(
    items.map((i) => i.surface),
    SIZE / 2,
    SIZE / 2,
    RADIUS,
  );
  const parts = percentages(items.map((i) => i.surface));
  // "73,7 %" in French, "73.7%" in English.
  const pct = (n: number) => formatPercent(n, lang);
  const ha = (n: number) => formatHectares(n, lang);

  return (
    <div className="flex flex-col items-start gap-6 md:flex-row">
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        width={SIZE}
        height={SIZE}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        className="shrink-0"
        data-testid="assolement-pie"
      >
        <title id={titleId}>{t("assolement.chart-title")}</title>
        <desc id={descId}>{t("assolement.chart-desc", { count: items.length, total: ha(total) })}</desc>
        {slices.map((s) => (
          <path
            key={items[s.index].key}
            d={s.path}
            fill={pieColour(s.index)}
            stroke="#fff"
            strokeWidth={active === s.index ? 0 : 1.5}
            opacity={active === null || active === s.index ? 1 : 0.35}
            data-testid="pie-slice"
            onMouseEnter={() => setHovered(s.index)}
            onMouseLeave={() => setHovered(null)}
          >
            <title>{t("assolement.slice-label", { libelle: label(items[s.index]), surface: ha(items[s.index].surface), part: pct(parts[s.index]) })}</title>
          </path>
        ))}
      </svg>
      <div className="min-w-0 flex-1">
        <h3 className="mb-2 text-sm font-semibold text-stone-700" id={`${titleId}-legend`}>
          {t("assolement.legend")}
        </h3>
        {/* The legend is the chart's keyboard access: each entry is a button that highlights its slice. */}
        <ul aria-labelledby={`${titleId}-legend`} className="space-y-1" data-testid="assolement-legend">
          {items.map((item, index) => (
            <li key={item.key}>
              <button
                type="button"
                aria-pressed={pinned === index}
                className="flex w-full items-center gap-3 rounded px-2 py-1 text-left hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-sillon-700 aria-pressed:bg-sillon-50"
                onClick={() => setPinned(pinned === index ? null : index)}
                onFocus={() => setHovered(index)}
                onBlur={() => setHovered(null)}
                onMouseEnter={() => setHovered(index)}
                onMouseLeave={() => setHovered(null)}
                data-testid="legend-item"
              >
                <span
                  aria-hidden="true"
                  className="inline-block h-4 w-4 shrink-0 rounded-sm border border-stone-300"
                  style={{ backgroundColor: pieColour(index) }}
                />
                <span className="min-w-0 flex-1 truncate" title={label(item)}>
                  {label(item)}
                </span>
                <span className="w-28 text-right tabular-nums">{ha(item.surface)} ha</span>
                <span className="w-16 text-right tabular-nums text-stone-600">{pct(parts[index])}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <table className="sr-only" data-testid="assolement-table">
        <caption>{t("assolement.table-caption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("assolement.culture")}</th>
            <th scope="col">{t("assolement.surface")}</th>
            <th scope="col">{t("assolement.part")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr key={item.key}>
              <th scope="row">{label(item)}</th>
              <td>{ha(item.surface)}</td>
              <td>{pct(parts[index])}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("assolement.total")}</th>
            <td>{ha(total)}</td>
            <td>{pct(100)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function AssolementDialogContent({ open, onClose, campagne }: { open: boolean; onClose: () => void; campagne: string }) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<Answer>();
  const { showError } = useFeedback();
  const { load } = fetcher;
  // Set while this opening's answer is awaited: an earlier failed answer must not close a new opening.
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!open) return;
    setAsked(true);
    void load("/home/assolement");
  }, [open, load]);
  const data = fetcher.data;
  const failed = data && !data.ok ? data.error : null;
  useEffect(() => {
    if (open && asked && fetcher.state === "idle" && failed) {
      setAsked(false);
      onClose();
      showError(failed);
    }
  }, [open, asked, fetcher.state, failed, onClose, showError]);
  const ready = fetcher.state === "idle" && data?.ok;

  return (
    <AppDialog
      open={open}
      title={t("assolement.title", { campagne })}
      width={ASSOLEMENT_DIALOG_WIDTH}
      allowWider
      onEscape={onClose}
      testId="assolement-dialog"
      actions={
        <button type="button" className="btn-primary" onClick={onClose}>
          {t("ui.close")}
        </button>
      }
    >
      {!ready ? (
        <p role="status">{t("ui.loading")}</p>
      ) : (
        <div className="space-y-4">
          {data.items.length ? <PieChart items={data.items} total={data.total} /> : <p>{t("assolement.empty")}</p>}
          <p className="text-base font-semibold" data-testid="assolement-total">
            {t("assolement.total-line", { total: formatHectares(data.total, i18n.language) })}
          </p>
          <p className="text-xs text-stone-600">{t("assolement.help")}</p>
        </div>
      )}
    </AppDialog>
  );
}

export const AssolementDialog = mountedOnceOpened(AssolementDialogContent);
