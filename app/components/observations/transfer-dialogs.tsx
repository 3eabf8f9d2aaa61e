import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useHref } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field } from "~/components/field";
import { CopieSeriesSchema } from "~/domain/observation";
import type { MesuresData } from "./types";

/** Export, import and copy of series (spec 2 §2, §5, §7; B-OBS-01, 02, 10, 11): dialogs 500 wide. */

export function ExportDialog({ open, ids, onClose }: { open: boolean; ids: number[]; onClose: () => void }) {
  const { t } = useTranslation();
  const href = useHref("export.json");
  const url = `${href}?${ids.map((id) => `id=${id}`).join("&")}`;
  return (
    <AppDialog
      open={open}
      title={t("observations.export.titre")}
      width={500}
      testId="export-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <a
            className={`btn-primary ${ids.length ? "" : "pointer-events-none opacity-50"}`}
            href={url}
            download="series-observations.json"
            onClick={onClose}
            data-testid="export-download"
          >
            {t("observations.export.telecharger")}
          </a>
        </>
      }
    >
      <p>{t("observations.export.texte")}</p>
    </AppDialog>
  );
}

export function ImportDialog({ open, plot, onClose }: { open: boolean; plot: { id: number; libelle: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; notice?: string; error?: string; params?: Record<string, string | number> }>();
  // B-ERR-18: a failed import opens no error dialog; the busy button stops and the dialog says why.
  useActionFeedback(fetcher.data, { suppressErrorDialog: true });
  const [chosen, setChosen] = useState(false);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <AppDialog
      open={open}
      title={t("observations.import.titre")}
      width={500}
      testId="import-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button
            type="submit"
            form="mesures-import-form"
            className="btn-primary"
            disabled={!chosen || !plot || fetcher.state !== "idle"}
            aria-busy={fetcher.state !== "idle" || undefined}
            data-testid="import-send"
          >
            {t("observations.importer")}
          </button>
        </>
      }
    >
      <fetcher.Form id="mesures-import-form" method="post" action="import" encType="multipart/form-data">
        <p className="mb-2">{t("observations.import.texte", { libelle: plot?.libelle ?? "" })}</p>
        <input type="hidden" name="idParcelle" value={plot?.id ?? ""} />
        <label htmlFor="import-file" className="field-label">
          {t("observations.import.fichier")}
        </label>
        <input
          id="import-file"
          type="file"
          name="fichier"
          accept=".json,application/json"
          onChange={(e) => setChosen(!!e.target.files?.length)}
          data-testid="import-file"
        />
        <TransferFailure state={fetcher.state} data={fetcher.data} testId="import-erreur" />
      </fetcher.Form>
    </AppDialog>
  );
}

export function CopieDialog({ open, ids, data, onClose }: { open: boolean; ids: number[]; data: MesuresData; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string; params?: Record<string, string | number> }>();
  // B-ERR-18: a failed copy opens no error dialog; the busy button stops and the dialog says why.
  useActionFeedback(fetcher.data, { suppressErrorDialog: true });
  const targets = data.cibles.filter((c) => c.id !== data.idParcelle);
  const [form, fields] = useForm({
    id: "copie-series",
    lastResult: fetcher.data?.submission as never,
    defaultValue: { idParcelle: "", eltObserve: "on", valeur: "on" },
    shouldValidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CopieSeriesSchema }) as never,
  });
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <AppDialog
      open={open}
      title={t("observations.copie.titre")}
      width={500}
      testId="copie-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button
            type="submit"
            form={form.id}
            className="btn-primary"
            disabled={!form.valid || ids.length === 0 || fetcher.state !== "idle"}
            aria-busy={fetcher.state !== "idle" || undefined}
            data-testid="copie-send"
          >
            {t("observations.copier")}
          </button>
        </>
      }
    >
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="copy" />
        <input type="hidden" name="dossierDestination" value={data.idDossier ?? ""} />
        {ids.map((id) => (
          <input key={id} type="hidden" name="seriesSource" value={id} />
        ))}
        <Field id={fields.idParcelle.id} label={t("observations.copie.cible")} errors={fields.idParcelle.errors}>
          <select id={fields.idParcelle.id} name={fields.idParcelle.name} className="field-input" defaultValue="" data-testid="copie-cible">
            <option value="">{t("context.choose")}</option>
            {targets.map((c) => (
              <option key={c.id} value={c.id}>
                {c.exploitation} – {c.libelle}
              </option>
            ))}
          </select>
        </Field>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="eltObserve" defaultChecked data-testid="copie-elements" /> {t("observations.copie.elements")}
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="valeur" defaultChecked data-testid="copie-valeurs" /> {t("observations.copie.valeurs")}
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="suppressionSeriesParcellesDst" data-testid="copie-supprimer" /> {t("observations.copie.supprimer")}
        </label>
        <TransferFailure state={fetcher.state} data={fetcher.data} testId="copie-erreur" />
      </fetcher.Form>
    </AppDialog>
  );
}

/**
 * What a failed import or copy answered (spec 2 §8, B-ERR-18: these calls only stop their loading indicator
 * instead of opening the error dialog; decision 0050): the message, written in the dialog itself.
 */
function TransferFailure({
  state,
  data,
  testId,
}: {
  state: string;
  data?: { ok: boolean; error?: string; params?: Record<string, string | number> };
  testId: string;
}) {
  const { t } = useTranslation();
  if (state !== "idle" || !data || data.ok !== false || !data.error) return null;
  return (
    <p role="alert" className="mt-2 text-sm text-red-700" data-testid={testId}>
      {t(data.error, data.params)}
    </p>
  );
}
