import { useEffect } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { AppDialog, mountedOnceOpened } from "~/components/dialog";
import { refLabel } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { formuleNpk } from "~/components/format";

type Categorie = { code: string; libelle: string; libelleEn: string | null; confiance: string | null };
type Ligne = {
  id: number;
  libelle: string;
  composition: Record<string, number | null> | null;
  categorieEges: string | null;
  proposee: string | null;
  motif: string;
};
export type AffectationEgesPreview = { idDossier: number; libelleDossier: string; canAssign: boolean; categories: Categorie[]; lignes: Ligne[] };
type Answer = { ok: boolean; notice?: string; error?: string; resultat?: { affectees: number; conservees: number; nonClassees: string[] } };

/**
 * Other menu "assign greenhouse-gas emissions" (spec 2 §2, §7: PATCH dossier/{id}/affectation_eges): the
 * folder's fertilisers with their category and the one the assignment gives; the animator confirms.
 */
function EgesDialogContent({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppDialog open={open} title={t("parcelle.eges.title")} width={800} testId="eges-dialog" onEscape={onClose}>
      <EgesContent onClose={onClose} />
    </AppDialog>
  );
}

/** Mounted at each opening: the preview is read afresh. */
function EgesContent({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const loader = useFetcher<{ eges: AffectationEgesPreview | null }>();
  const saver = useFetcher<Answer>();
  useActionFeedback(saver.data);
  const preview = loader.data?.eges ?? null;
  const { load } = loader;
  const url = `${location.pathname}?eges=1`;

  useEffect(() => {
    void load(url);
  }, [load, url]);
  const resultat = saver.data?.ok ? saver.data.resultat : undefined;
  useEffect(() => {
    if (saver.state === "idle" && resultat) void load(url); // show the categories now stored
  }, [saver.state, resultat, load, url]);

  const categorie = (code: string | null) => {
    const c = preview?.categories.find((x) => x.code === code);
    return c ? refLabel(c, i18n.language) : "";
  };
  const aAffecter = preview?.lignes.filter((l) => l.proposee).length ?? 0;
  const assign = () => {
    if (preview) void saver.submit({ intent: "affectationEges", idDossier: String(preview.idDossier) }, { method: "post" });
  };

  return (
    <>
      {!preview ? (
        <p>{t("ui.loading")}</p>
      ) : (
        <div className="space-y-3">
          <p className="text-stone-600">{t("parcelle.eges.help", { dossier: preview.libelleDossier })}</p>
          {!preview.canAssign ? (
            <p className="field-error" data-testid="eges-not-allowed">
              {t("parcelle.eges.not-allowed")}
            </p>
          ) : null}
          {!preview.lignes.length ? (
            <p>{t("parcelle.eges.empty")}</p>
          ) : (
            <table className="w-full text-left text-sm" data-testid="eges-table">
              <thead>
                <tr className="border-b border-stone-200">
                  <th className="py-1 pr-2">{t("parcelle.eges.engrais")}</th>
                  <th className="py-1 pr-2">{t("parcelle.eges.npk")}</th>
                  <th className="py-1 pr-2">{t("parcelle.eges.actuelle")}</th>
                  <th className="py-1">{t("parcelle.eges.proposee")}</th>
                </tr>
              </thead>
              <tbody>
                {preview.lignes.map((l) => (
                  <tr key={l.id} className="border-b border-stone-100" data-testid={`eges-row-${l.id}`}>
                    <td className="py-1 pr-2">{l.libelle}</td>
                    <td className="py-1 pr-2 tabular-nums">{l.composition ? formuleNpk(l.composition, i18n.language) : ""}</td>
                    <td className="py-1 pr-2">{categorie(l.categorieEges)}</td>
                    <td className="py-1">
                      {l.proposee ? <strong>{categorie(l.proposee)}</strong> : <span className="text-stone-600">{t(`parcelle.eges.motif.${l.motif}`)}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {resultat ? (
            <p role="status" data-testid="eges-result" className="rounded bg-sillon-50 px-3 py-2">
              {t("parcelle.eges.result", { count: resultat.affectees, conservees: resultat.conservees })}
              {resultat.nonClassees.length ? ` ${t("parcelle.eges.result-none", { libelles: resultat.nonClassees.join(", ") })}` : ""}
            </p>
          ) : null}
        </div>
      )}
      <div className="-mx-5 -mb-4 mt-4 flex justify-end gap-2 border-t border-stone-200 px-5 py-3">
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t(resultat ? "ui.close" : "ui.cancel")}
        </button>
        <button
          type="button"
          className="btn-primary"
          onClick={assign}
          disabled={!preview?.canAssign || !aAffecter || saver.state !== "idle" || loader.state !== "idle"}
          data-testid="eges-assign"
        >
          {aAffecter ? t("parcelle.eges.assign", { count: aAffecter }) : t("parcelle.eges.assign-none")}
        </button>
      </div>
    </>
  );
}

export const EgesDialog = mountedOnceOpened(EgesDialogContent);
