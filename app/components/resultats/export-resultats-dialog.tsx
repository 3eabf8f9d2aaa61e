import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field } from "~/components/field";
import { GROUPES_INDICATEURS } from "~/domain/calc/indicateurs/catalogue";
import { ExportResultatsSchema, NATURE_CALCUL, NIVEAUX_EXPORT, OPTIONS_CONTENU, valeursInitialesExport } from "~/domain/export-resultats";
import { signalerExportReussi } from "./export-evenement";

/** Where the dialog posts (app/routes/resultats/export-resultats.ts). */
export const ACTION_EXPORT_RESULTATS = "/home/resultats/indicateurs/export";

export type SerieAExporter = { id: number; exploitation: string; campagne: string };

type Reponse = { ok: boolean; id?: number; notice?: string; error?: string; submission?: unknown; params?: Record<string, string | number> };

/**
 * The export-result dialog (spec 3 §2.11, §3.15, §9; C-REXP-01..08, A-PUB-04): the ticked series, the file name,
 * the version (test role only, spec 1 §6), what to write, the levels and the indicator groups — every option ticked,
 * nature 1, version 2 at first. The English flag goes with the English locale (spec 3 §7). Once the server has
 * recorded the session, the dialog closes, says the export started and sends the global export-success event (the
 * session lists refresh on it).
 *
 * Used by the calculation screen and the published-indicators screen:
 *   <ExportResultatsDialog open={open} series={ticked} versionSelectable={abilities.hasRoleTest} onClose={() => setOpen(false)} />
 */
export function ExportResultatsDialog({
  open,
  series,
  versionSelectable,
  onClose,
  onExported,
}: {
  open: boolean;
  series: SerieAExporter[];
  versionSelectable: boolean;
  onClose: () => void;
  onExported?: (id: number) => void;
}) {
  return open ? <Contenu series={series} versionSelectable={versionSelectable} onClose={onClose} onExported={onExported} /> : null;
}

function Contenu({
  series,
  versionSelectable,
  onClose,
  onExported,
}: {
  series: SerieAExporter[];
  versionSelectable: boolean;
  onClose: () => void;
  onExported?: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<Reponse>();
  useActionFeedback(fetcher.data);
  const initiales = valeursInitialesExport(series.map((s) => s.id));
  const [form, fields] = useForm<Record<string, string | string[]>>({
    id: "export-resultats",
    lastResult: fetcher.state === "idle" ? (fetcher.data?.submission as never) : undefined,
    defaultValue: {
      ...Object.fromEntries([...OPTIONS_CONTENU, ...NIVEAUX_EXPORT].map((k) => [k, initiales[k] ? "on" : ""])),
      groupes: [...initiales.groupes],
      version: String(initiales.version),
    },
    shouldValidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ExportResultatsSchema }) as never,
  });
  const envoi = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.id != null) {
      signalerExportReussi({ nature: NATURE_CALCUL, id: fetcher.data.id });
      onExported?.(fetcher.data.id);
      onClose();
    }
  }, [fetcher.state, fetcher.data, onClose, onExported]);
  const erreurs = (nom: string) => fields[nom as keyof typeof fields]?.errors;
  const case_ = (nom: string, libelle: string) => (
    <label key={nom} className="flex items-center gap-2 py-0.5">
      <input type="checkbox" name={nom} defaultChecked={initiales[nom as "prevu"]} data-testid={`export-${nom}`} />
      {libelle}
    </label>
  );
  return (
    <AppDialog
      open
      title={t("exportResultats.titre")}
      width={700}
      testId="export-resultats-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("exportResultats.annuler")}
          </button>
          <button
            type="submit"
            form={form.id}
            className="btn-primary"
            disabled={envoi || series.length === 0}
            aria-busy={envoi || undefined}
            data-testid="export-resultats-lancer"
          >
            {t("exportResultats.lancer")}
          </button>
        </>
      }
    >
      <fetcher.Form method="post" action={ACTION_EXPORT_RESULTATS} {...getFormProps(form)}>
        <input type="hidden" name="nature" value={NATURE_CALCUL} />
        {i18n.language === "en" ? <input type="hidden" name="anglais" value="on" /> : null}
        {series.map((s) => (
          <input key={s.id} type="hidden" name="calculsSeries" value={s.id} />
        ))}
        <p className="mb-1 font-medium">{t("exportResultats.series")}</p>
        <ul className="mb-3 list-disc pl-5" data-testid="export-resultats-series">
          {series.map((s) => (
            <li key={s.id}>
              {s.exploitation} — {s.campagne}
            </li>
          ))}
        </ul>
        {erreurs("calculsSeries")?.length ? (
          <p role="alert" className="field-error mb-2">
            {t(erreurs("calculsSeries")![0])}
          </p>
        ) : null}
        <Field id={fields.libelle.id} label={t("exportResultats.libelle")} help={t("exportResultats.libelle-aide")} errors={fields.libelle.errors}>
          <input id={fields.libelle.id} name={fields.libelle.name} className="field-input" maxLength={100} data-testid="export-libelle" />
        </Field>
        {versionSelectable ? (
          <Field id={fields.version.id} label={t("exportResultats.version")} errors={fields.version.errors}>
            <select id={fields.version.id} name={fields.version.name} className="field-input" defaultValue="2" data-testid="export-version">
              <option value="1">{t("exportResultats.version-1")}</option>
              <option value="2">{t("exportResultats.version-2")}</option>
            </select>
          </Field>
        ) : (
          <input type="hidden" name="version" value="2" />
        )}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <fieldset>
            <legend className="field-label">{t("exportResultats.contenu")}</legend>
            {OPTIONS_CONTENU.map((k) => case_(k, t(`exportResultats.${k}`)))}
            {erreurs("realise")?.length ? <p className="field-error">{t(erreurs("realise")![0])}</p> : null}
          </fieldset>
          <fieldset>
            <legend className="field-label">{t("exportResultats.niveaux")}</legend>
            {NIVEAUX_EXPORT.map((k) => case_(k, t(`exportResultats.${k}`)))}
            {erreurs("exploitation")?.length ? <p className="field-error">{t(erreurs("exploitation")![0])}</p> : null}
          </fieldset>
          <fieldset>
            <legend className="field-label">{t("exportResultats.groupes")}</legend>
            {GROUPES_INDICATEURS.map((g) => (
              <label key={g} className="flex items-center gap-2 py-0.5">
                <input type="checkbox" name="groupes" value={g} defaultChecked data-testid={`export-groupe-${g}`} />
                {t(`indicateurs.groupes.${g}`)}
              </label>
            ))}
            {fields.groupes.errors?.length ? (
              <p className="field-error" data-testid="export-groupes-error">
                {t(fields.groupes.errors[0])}
              </p>
            ) : null}
          </fieldset>
        </div>
      </fetcher.Form>
    </AppDialog>
  );
}
