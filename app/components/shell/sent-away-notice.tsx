import { useTranslation } from "~/use-translation";
import { useSearchParams } from "react-router";
import { SENT_AWAY_PARAM } from "~/domain/contracts/sent-away";

const REASONS = /^shell\.refused\.[\w-]+$/;

/**
 * Says why the reader landed here when a screen he may not open sent him away (sendAway): the reason stays
 * on the page until he closes it; only the catalogued reasons are shown.
 */
export function SentAwayNotice() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const reason = params.get(SENT_AWAY_PARAM);
  if (!reason || !REASONS.test(reason)) return null;
  const close = () =>
    setParams(
      (p) => {
        p.delete(SENT_AWAY_PARAM);
        return p;
      },
      { replace: true, preventScrollReset: true },
    );
  return (
    <div
      role="status"
      data-testid="sent-away"
      className="mb-4 flex items-start gap-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="flex-1">{t(reason)}</p>
      <button type="button" className="text-amber-900 underline" onClick={close}>
        {t("shell.sent-away-close")}
      </button>
    </div>
  );
}
