import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { AppDialog, mountedOnceOpened } from "~/components/dialog";
import { refLabel } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";

export type AffectationRow = {
  idParcelle: number;
  libelle: string;
  libelleModeConduite: string | null;
  options: { id: number; libelle: string; libelleEn: string | null }[];
  idCulture: number | null;
  enregistree: boolean;
};

/**
 * Other menu "assign cost centres" (GET campagnes/{id}/parcelles/affectation_culture_cible): one target
 * crop per plot among its mode's crops, the main crop proposed by default.
 */
function AffectationsDialogContent({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const loader = useFetcher<{ affectations: AffectationRow[] | null }>();
  const saver = useFetcher<{ ok: boolean; notice?: string; error?: string }>({ key: "parcelle-affectations" });
  useActionFeedback(saver.data);
  const [choices, setChoices] = useState<Record<number, string>>({});
  const rows = loader.data?.affectations ?? null;
  const { load } = loader;

  useEffect(() => {
    if (open) void load(`${location.pathname}?affectations=1`);
  }, [open, load, location.pathname]);
  useEffect(() => {
    if (rows) setChoices(Object.fromEntries(rows.map((r) => [r.idParcelle, r.idCulture == null ? "" : String(r.idCulture)])));
  }, [rows]);
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (saver.state === "idle" && saver.data?.ok) close();
  }, [saver.state, saver.data]);

  const save = () => {
    const affectations = (rows ?? []).map((r) => ({ idParcelle: r.idParcelle, idCulture: choices[r.idParcelle] || null }));
    void saver.submit({ intent: "affectations", affectations: JSON.stringify(affectations) }, { method: "post" });
  };

  return (
    <AppDialog
      open={open}
      title={t("parcelle.affectations.title")}
      width={800}
      testId="affectations-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button type="button" className="btn-primary" onClick={save} disabled={!rows?.length || saver.state !== "idle"} data-testid="affectations-save">
            {t("ui.save")}
          </button>
        </>
      }
    >
      <p className="mb-3 text-stone-600">{t("parcelle.affectations.help")}</p>
      {!rows ? (
        <p>{t("ui.loading")}</p>
      ) : !rows.length ? (
        <p>{t("parcelle.affectations.empty")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-stone-200">
              <th className="py-1 pr-2">{t("parcelle.affectations.parcelle")}</th>
              <th className="py-1 pr-2">{t("parcelle.affectations.mode")}</th>
              <th className="py-1">{t("parcelle.affectations.culture")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.idParcelle} className="border-b border-stone-100">
                <td className="py-1 pr-2">{r.libelle}</td>
                <td className="py-1 pr-2">{r.libelleModeConduite ?? ""}</td>
                <td className="py-1">
                  {r.options.length ? (
                    <select
                      className="field-input"
                      aria-label={`${t("parcelle.affectations.culture")} – ${r.libelle}`}
                      value={choices[r.idParcelle] ?? ""}
                      onChange={(e) => setChoices((c) => ({ ...c, [r.idParcelle]: e.target.value }))}
                    >
                      <option value="">{t("context.choose")}</option>
                      {r.options.map((o) => (
                        <option key={o.id} value={o.id}>
                          {refLabel(o, i18n.language)}
                          {!r.enregistree && r.idCulture === o.id ? ` (${t("parcelle.affectations.by-default")})` : ""}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span className="text-stone-500">{t("parcelle.affectations.no-crop")}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </AppDialog>
  );
}

export const AffectationsDialog = mountedOnceOpened(AffectationsDialogContent);
