import { useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useHref } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { formatDateTime } from "~/components/format";
import { EXTENSIONS_FICHIER } from "~/domain/observation";
import type { FichierRow, MesuresData, SerieRow } from "./types";

/**
 * The attached files of a series (spec 2 §2, B-FILE-02..07): upload (multipart: file and idObservationSerie), the
 * list with name, date and author, download under the stored name, delete for the file's author only (B-RIGHTS-13).
 */
export function FichiersDialog({
  open,
  data,
  serie,
  readOnly,
  onClose,
}: {
  open: boolean;
  data: MesuresData;
  serie: SerieRow;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const uploader = useFetcher<{ ok: boolean; notice?: string; error?: string; params?: Record<string, string | number> }>();
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(uploader.data);
  useActionFeedback(deleter.data);
  const base = useHref("fichiers/");
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState(false);
  const fichiers: FichierRow[] = data.detail?.idSerie === serie.id ? data.detail.fichiers : [];
  const accept = EXTENSIONS_FICHIER.map((e) => `.${e}`).join(",");
  return (
    <AppDialog
      open={open}
      title={t("observations.fichiers.titre")}
      width={800}
      testId="fichiers-dialog"
      onEscape={onClose}
      actions={
        <button type="button" className="btn-primary" onClick={onClose}>
          {t("ui.close")}
        </button>
      }
    >
      {readOnly ? null : (
        <uploader.Form
          method="post"
          action="fichiers"
          encType="multipart/form-data"
          className="mb-4 space-y-2"
          data-testid="fichier-upload"
          onSubmit={() =>
            setTimeout(() => {
              if (input.current) input.current.value = "";
              setChosen(false);
            }, 0)
          }
        >
          <input type="hidden" name="idObservationSerie" value={serie.id} />
          <label htmlFor="fichier-input" className="field-label">
            {t("observations.fichiers.ajouter")}
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id="fichier-input"
              ref={input}
              type="file"
              name="file"
              accept={accept}
              className="text-sm"
              onChange={(e) => setChosen(!!e.target.files?.length)}
              data-testid="fichier-input"
            />
            <button type="submit" className="btn-primary" disabled={!chosen || uploader.state !== "idle"} data-testid="fichier-send">
              {t("observations.fichiers.envoyer")}
            </button>
          </div>
          <p className="text-xs text-stone-600">{t("observations.fichiers.formats", { max: data.maxMo })}</p>
          {uploader.state === "idle" && uploader.data && !uploader.data.ok && uploader.data.error ? (
            <p role="alert" className="text-sm text-red-800" data-testid="fichier-error">
              {t(uploader.data.error, { max: data.maxMo, ...(uploader.data.params ?? {}) })}
            </p>
          ) : null}
        </uploader.Form>
      )}
      {fichiers.length === 0 ? (
        <p className="text-sm text-stone-600" data-testid="fichiers-empty">
          {t("observations.fichiers.aucun")}
        </p>
      ) : (
        <table className="w-full text-sm" data-testid="fichiers-table">
          <thead>
            <tr className="text-left">
              <th className="py-1">{t("observations.fichiers.nom")}</th>
              <th>{t("observations.fichiers.date")}</th>
              <th>{t("observations.fichiers.auteur")}</th>
              <th>
                <span className="sr-only">{t("observations.fichiers.telecharger")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fichiers.map((f) => (
              <tr key={f.id} className="border-t border-stone-200" data-testid={`fichier-${f.id}`}>
                <td className="py-1">{f.nom}</td>
                <td>{formatDateTime(f.date)}</td>
                <td>{f.creePar.nom}</td>
                <td className="space-x-2 text-right">
                  <a className="btn-secondary" href={`${base}${f.id}`} download={f.nom} data-testid={`fichier-download-${f.id}`}>
                    {t("observations.fichiers.telecharger")}
                  </a>
                  {/* Delete: the author only (B-RIGHTS-13). */}
                  {!readOnly && f.creePar.id === data.idUser ? (
                    <button
                      type="button"
                      className="btn-secondary"
                      onClick={() => void deleter.submit({ intent: "deleteFichier", id: String(f.id) }, { method: "post" })}
                      data-testid={`fichier-delete-${f.id}`}
                    >
                      {t("observations.fichiers.supprimer")}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </AppDialog>
  );
}
