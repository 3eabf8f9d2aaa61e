import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import { useFetcher } from "react-router";
import { historyReferenceOptions, isSimulationYear, NewCampagneSchema, NewExploitationSchema, DossierSchema } from "~/domain/partage";
import type { ContextView } from "~/domain/contracts/contexte";
import { campagneLabel } from "./campagne-label";
import { AppDialog, mountedOnceOpened } from "./dialog";
import { useActionFeedback } from "./feedback";
import { Field, TextInput } from "./field";

type Result = { ok: boolean; submission?: unknown; notice?: string; error?: string } | undefined;

/** Posts a dialog's form to the context actions, closes it on success and shows the notice or the error. */
function useContextAction(onDone: () => void) {
  const fetcher = useFetcher<Result>();
  useActionFeedback(fetcher.data);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);
  return fetcher;
}

/**
 * Counts the openings of a dialog. A form id that changes with it makes each opening start afresh: the dialog
 * stays mounted while closed, so its form would otherwise keep the values and errors of the last opening.
 */
export function useOpening(open: boolean): number {
  const [count, setCount] = useState(open ? 1 : 0);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setCount((c) => c + 1);
  }
  return count;
}

function DialogButtons({ onCancel, disabled, label }: { onCancel: () => void; disabled?: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 flex justify-end gap-2">
      <button type="button" className="btn-secondary" onClick={onCancel}>
        {t("ui.cancel")}
      </button>
      <button type="submit" className="btn-primary" disabled={disabled}>
        {label}
      </button>
    </div>
  );
}

function NewDossierDialogContent({ open, onClose, oads, idOad }: { open: boolean; onClose: () => void; oads: ContextView["oads"]; idOad: number | null }) {
  const { t } = useTranslation();
  const fetcher = useContextAction(onClose);
  const opening = useOpening(open);
  const [form, fields] = useForm<z.input<typeof DossierSchema>>({
    id: `new-dossier-${opening}`,
    lastResult: open ? (fetcher.data?.submission as never) : undefined,
    defaultValue: { idOad: idOad ? String(idOad) : undefined },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DossierSchema }),
  });
  return (
    <AppDialog open={open} title={t("dossier.new")} onEscape={onClose} testId="new-dossier-dialog">
      <fetcher.Form method="post" action="/home/partage" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="createDossier" />
        <Field id={fields.libelle.id} label={t("dossier.libelle")} errors={fields.libelle.errors}>
          <TextInput {...getInputProps(fields.libelle, { type: "text" })} autoFocus invalid={!!fields.libelle.errors} />
        </Field>
        <Field id={fields.idOad.id} label={t("dossier.oad")} errors={fields.idOad.errors}>
          <select {...getSelectProps(fields.idOad)} className="field-input">
            <option value="">{t("context.choose")}</option>
            {oads.map((o) => (
              <option key={o.id} value={o.id}>
                {o.libelle}
              </option>
            ))}
          </select>
        </Field>
        <Field id={fields.remarque.id} label={t("dossier.remarque")} errors={fields.remarque.errors}>
          <textarea name={fields.remarque.name} id={fields.remarque.id} className="field-input" rows={3} />
        </Field>
        <DialogButtons onCancel={onClose} disabled={fetcher.state !== "idle"} label={t("ui.add")} />
      </fetcher.Form>
    </AppDialog>
  );
}

function NewExploitationDialogContent({
  open,
  onClose,
  types,
}: {
  open: boolean;
  onClose: () => void;
  types: { id: number; libelle: string; libelleEn: string | null }[];
}) {
  const { t, i18n } = useTranslation();
  const fetcher = useContextAction(onClose);
  const opening = useOpening(open);
  const [form, fields] = useForm<z.input<typeof NewExploitationSchema>>({
    id: `new-exploitation-${opening}`,
    lastResult: open ? (fetcher.data?.submission as never) : undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewExploitationSchema }),
  });
  return (
    <AppDialog open={open} title={t("exploitation.new")} onEscape={onClose} testId="new-exploitation-dialog">
      <fetcher.Form method="post" action="/home/partage" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="createExploitation" />
        <Field id={fields.libelle.id} label={t("exploitation.libelle")} errors={fields.libelle.errors}>
          <TextInput {...getInputProps(fields.libelle, { type: "text" })} autoFocus invalid={!!fields.libelle.errors} />
        </Field>
        <Field id={fields.idTypeExploitation.id} label={t("exploitation.type")} errors={fields.idTypeExploitation.errors}>
          <select {...getSelectProps(fields.idTypeExploitation)} className="field-input">
            <option value="">{t("context.choose")}</option>
            {types.map((ty) => (
              <option key={ty.id} value={ty.id}>
                {i18n.language === "en" && ty.libelleEn ? ty.libelleEn : ty.libelle}
              </option>
            ))}
          </select>
        </Field>
        <DialogButtons onCancel={onClose} disabled={fetcher.state !== "idle"} label={t("ui.add")} />
      </fetcher.Form>
    </AppDialog>
  );
}

type CampagneOption = ContextView["campagnes"][number];

function NewCampagneDialogContent({
  open,
  onClose,
  campagnes,
  idExploitation,
}: {
  open: boolean;
  onClose: () => void;
  campagnes: CampagneOption[];
  idExploitation: number;
}) {
  const { t } = useTranslation();
  const fetcher = useContextAction(onClose);
  const own = campagnes.filter((c) => c.idExploitation === idExploitation);
  const opening = useOpening(open);
  const [form, fields] = useForm<z.input<typeof NewCampagneSchema>>({
    id: `new-campagne-${idExploitation}-${opening}`,
    lastResult: open ? (fetcher.data?.submission as never) : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewCampagneSchema }),
  });
  const yearText = String(fields.anneeRecolte.value ?? "");
  const year = yearText && /^\d{4}$/.test(yearText) ? Number(yearText) : undefined;
  const simulation = isSimulationYear(
    own.map((c) => c.anneeRecolte),
    year,
  );
  const source = own.find((c) => String(c.id) === fields.campagneSource.value);
  const histo = historyReferenceOptions(own, year, source, simulation);
  const [inter, setInter] = useState(false);
  const [obs, setObs] = useState(false);
  // Each opening starts with no option ticked (the boxes are controlled: they and their sub-options agree).
  useEffect(() => {
    setInter(false);
    setObs(false);
  }, [opening]);

  return (
    <AppDialog open={open} title={t("campagne.new")} onEscape={onClose} testId="new-campagne-dialog">
      <fetcher.Form method="post" action="/home/partage" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="createCampagne" />
        <input type="hidden" name="idExploitation" value={idExploitation} />
        <div className="grid grid-cols-2 gap-3">
          <Field id={fields.anneeRecolte.id} label={t("campagne.annee-recolte")} errors={fields.anneeRecolte.errors}>
            <TextInput {...getInputProps(fields.anneeRecolte, { type: "text" })} inputMode="numeric" autoFocus invalid={!!fields.anneeRecolte.errors} />
          </Field>
          <Field id={fields.apiLibelle.id} label={t("campagne.libelle")} errors={fields.apiLibelle.errors}>
            <TextInput {...getInputProps(fields.apiLibelle, { type: "text" })} />
          </Field>
        </div>
        <label className="mb-3 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={simulation} readOnly disabled data-testid="campagne-simulation" />
          {t("campagne.simulation")}
        </label>
        {own.length ? (
          <Field id={fields.campagneSource.id} label={t("campagne.source")} errors={fields.campagneSource.errors}>
            <select {...getSelectProps(fields.campagneSource)} className="field-input" data-testid="campagne-source">
              <option value="">{t("campagne.no-source")}</option>
              {own.map((c) => (
                <option key={c.id} value={c.id}>
                  {campagneLabel(c)}
                  {c.simulation ? ` (${t("context.simulation")})` : ""}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {histo.automatic ? (
          <p className="mb-3 text-sm text-stone-700" data-testid="histo-automatic">
            {t("campagne.histo-automatic", { libelle: campagneLabel(histo.automatic) })}
          </p>
        ) : year !== undefined ? (
          <Field id={fields.campagneHistoParcelle.id} label={t("campagne.histo-parcelle")} errors={fields.campagneHistoParcelle.errors}>
            <select {...getSelectProps(fields.campagneHistoParcelle)} className="field-input" data-testid="campagne-histo">
              <option value="">—</option>
              {histo.options.map((c) => (
                <option key={c.id} value={c.id}>
                  {campagneLabel(c)}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {source ? (
          <fieldset className="space-y-1 rounded border border-stone-200 p-3 text-sm" data-testid="duplication-options">
            <label className="flex items-center gap-2">
              <input type="checkbox" name="inter" checked={inter} onChange={(e) => setInter(e.target.checked)} />
              {t("campagne.inter")}
            </label>
            {inter ? (
              <label className="ml-6 flex items-center gap-2">
                <input type="checkbox" name="majDtInter" />
                {t("campagne.maj-dt-inter")}
              </label>
            ) : null}
            <label className="flex items-center gap-2">
              <input type="checkbox" name="obs" checked={obs} onChange={(e) => setObs(e.target.checked)} />
              {t("campagne.obs")}
            </label>
            {obs ? (
              <>
                <label className="ml-6 flex items-center gap-2">
                  <input type="checkbox" name="eltObserve" />
                  {t("campagne.elt-observe")}
                </label>
                <label className="ml-6 flex items-center gap-2">
                  <input type="checkbox" name="valeur" />
                  {t("campagne.valeur")}
                </label>
              </>
            ) : null}
            <label className="flex items-center gap-2">
              <input type="checkbox" name="prix" />
              {t("campagne.prix")}
            </label>
          </fieldset>
        ) : null}
        <DialogButtons onCancel={onClose} disabled={fetcher.state !== "idle"} label={t("ui.add")} />
      </fetcher.Form>
    </AppDialog>
  );
}

function UnlockCampagneDialogContent({ open, onClose, published }: { open: boolean; onClose: () => void; published: boolean }) {
  const { t } = useTranslation();
  const fetcher = useContextAction(onClose);
  return (
    <AppDialog open={open} title={t("campagne.unlock")} onEscape={onClose} testId="unlock-dialog">
      <fetcher.Form method="post" action="/home/partage">
        <input type="hidden" name="intent" value="unlockCampagne" />
        <p role="alert" className="rounded bg-amber-50 p-3 text-amber-900">
          {published ? t("campagne.unlock-warning") : t("campagne.unlock-warning-generic")}
        </p>
        <DialogButtons onCancel={onClose} disabled={fetcher.state !== "idle"} label={t("ui.confirm")} />
      </fetcher.Form>
    </AppDialog>
  );
}

export const NewDossierDialog = mountedOnceOpened(NewDossierDialogContent);

export const NewExploitationDialog = mountedOnceOpened(NewExploitationDialogContent);

export const NewCampagneDialog = mountedOnceOpened(NewCampagneDialogContent);

export const UnlockCampagneDialog = mountedOnceOpened(UnlockCampagneDialogContent);
