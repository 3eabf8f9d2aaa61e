import { useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "../dialog";
import { useActionFeedback } from "../feedback";

/** The confirmation dialogs' width (spec 3 §9). */
export const CONFIRMATION_WIDTH = 500;
export const DELETE_UNUSED_INTENT = "deleteUnused";

/**
 * 'Delete unused products' (spec 3 §4.3; C-PAPPRO-20..23, C-PVENTE-08..11): a confirmation, then the screen's action
 * deletes the campaign's rows no intervention uses; the loader reloads the list. `onDeleting` tells the screen while
 * the deletion runs, so its rows show the deleting indicator. Disabled for a reader (C-RIGHTS-06).
 */
export function DeleteUnused({ disabled, unusedCount, onDeleting }: { disabled: boolean; unusedCount: number; onDeleting: (deleting: boolean) => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  const [open, setOpen] = useState(false);
  const deleting = fetcher.state !== "idle";
  useActionFeedback(fetcher.data);
  useEffect(() => onDeleting(deleting), [deleting, onDeleting]);
  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        disabled={disabled || deleting}
        onClick={() => setOpen(true)}
        data-testid="delete-unused"
        aria-busy={deleting}
      >
        {deleting ? t("prix.suppression-en-cours") : t("prix.supprimer-inutilises")}
        {!deleting && unusedCount ? ` (${unusedCount})` : ""}
      </button>
      <AppDialog
        open={open}
        title={t("prix.supprimer-inutilises")}
        width={CONFIRMATION_WIDTH}
        testId="delete-unused-dialog"
        onEscape={() => setOpen(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-primary"
              autoFocus
              onClick={() => {
                setOpen(false);
                void fetcher.submit({ intent: DELETE_UNUSED_INTENT }, { method: "post" });
              }}
            >
              {t("ui.ok")}
            </button>
          </>
        }
      >
        <p>{t("interventions.confirm-delete-unused-products-intrant")}</p>
      </AppDialog>
    </>
  );
}
