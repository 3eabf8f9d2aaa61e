import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { AppDialog, mountedOnceOpened } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { MajDatesCampagneSchema, MajDatesSchema } from "~/domain/parcelle";

type Answer = { ok: boolean; moved?: number; notice?: string; error?: string; submission?: unknown };

/**
 * Other menu "update intervention dates" (spec 2 §2, §5; PATCH parcelles/{id}/maj_dates_actions): the
 * interventions of the initial harvest year of the ticked plots move to the final year.
 */
function MajDatesDialogContent({
  open,
  ids,
  anneeCampagne,
  onClose,
}: {
  open: boolean;
  ids: readonly (string | number)[];
  anneeCampagne: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // The ticked plots (PATCH parcelles/{id}/maj_dates_actions) or the whole campaign (PATCH campagnes/{id}/maj_dates_actions, C-DATE-06).
  const [campagne, setCampagne] = useState(false);
  return (
    <AppDialog open={open} title={t("parcelle.maj-dates.title")} width={500} testId="maj-dates-dialog" onEscape={onClose}>
      {/* A tall row: leaving the focused year field shows its error and the centred dialog moves up by half a line
          between the press and the release; the press and the release still land on this label. */}
      <label className="mb-1 flex min-h-10 items-center gap-2">
        <input type="checkbox" checked={campagne} onChange={(e) => setCampagne(e.currentTarget.checked)} data-testid="maj-dates-campagne" />{" "}
        {t("parcelle.maj-dates.campagne")}
      </label>
      {campagne ? (
        <MajDatesCampagneForm anneeCampagne={anneeCampagne} onClose={onClose} />
      ) : (
        <MajDatesForm ids={ids} anneeCampagne={anneeCampagne} onClose={onClose} />
      )}
    </AppDialog>
  );
}

/** The whole campaign's date update: the target harvest year (anneeRecolteCible). */
function MajDatesCampagneForm({ anneeCampagne, onClose }: { anneeCampagne: number; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<Answer>();
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm<z.input<typeof MajDatesCampagneSchema>>({
    id: "campagne-maj-dates",
    lastResult: fetcher.data?.submission as never,
    defaultValue: { anneeRecolteCible: String(anneeCampagne) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MajDatesCampagneSchema }),
  });
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) close();
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-2">
      <input type="hidden" name="intent" value="majDatesCampagne" />
      <p className="text-stone-600">{t("parcelle.maj-dates.campagne-help")}</p>
      <Field id={fields.anneeRecolteCible.id} label={t("parcelle.maj-dates.anneeRecolteCible")} errors={fields.anneeRecolteCible.errors}>
        <TextInput
          {...getInputProps(fields.anneeRecolteCible, { type: "text" })}
          inputMode="numeric"
          invalid={!!fields.anneeRecolteCible.errors}
          describedBy={`${fields.anneeRecolteCible.id}-error`}
        />
      </Field>
      <div className="-mx-5 -mb-4 mt-2 flex justify-end gap-2 border-t border-stone-200 px-5 py-3">
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t("ui.cancel")}
        </button>
        <button type="submit" className="btn-primary" disabled={fetcher.state !== "idle"} data-testid="maj-dates-campagne-submit">
          {t("parcelle.maj-dates.submit")}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** Mounted at each opening of the dialog: a fresh form and fetcher. */
function MajDatesForm({ ids, anneeCampagne, onClose }: { ids: readonly (string | number)[]; anneeCampagne: number; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<Answer>();
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm<z.input<typeof MajDatesSchema>>({
    id: "parcelle-maj-dates",
    lastResult: fetcher.data?.submission as never,
    defaultValue: { anneeFinale: String(anneeCampagne) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MajDatesSchema }),
  });
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) close(); // once per successful answer
  }, [fetcher.state, fetcher.data]);

  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="space-y-2">
      <input type="hidden" name="intent" value="majDates" />
      {ids.map((id) => (
        <input key={id} type="hidden" name="ids" value={id} />
      ))}
      <p className="text-stone-600">{t("parcelle.maj-dates.help")}</p>
      <p data-testid="maj-dates-selection" className={ids.length ? "" : "field-error"}>
        {ids.length ? t("parcelle.maj-dates.selection", { count: ids.length }) : t("parcelle.maj-dates.no-selection")}
      </p>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id={fields.anneeInitiale.id} label={t("parcelle.maj-dates.anneeInitiale")} errors={fields.anneeInitiale.errors}>
          <TextInput
            {...getInputProps(fields.anneeInitiale, { type: "text" })}
            inputMode="numeric"
            autoFocus
            invalid={!!fields.anneeInitiale.errors}
            describedBy={`${fields.anneeInitiale.id}-error`}
          />
        </Field>
        <Field id={fields.anneeFinale.id} label={t("parcelle.maj-dates.anneeFinale")} errors={fields.anneeFinale.errors}>
          <TextInput
            {...getInputProps(fields.anneeFinale, { type: "text" })}
            inputMode="numeric"
            invalid={!!fields.anneeFinale.errors}
            describedBy={`${fields.anneeFinale.id}-error`}
          />
        </Field>
      </div>
      <div className="-mx-5 -mb-4 mt-2 flex justify-end gap-2 border-t border-stone-200 px-5 py-3">
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t("ui.cancel")}
        </button>
        <button type="submit" className="btn-primary" disabled={!ids.length || fetcher.state !== "idle"} data-testid="maj-dates-submit">
          {t("parcelle.maj-dates.submit")}
        </button>
      </div>
    </fetcher.Form>
  );
}

export const MajDatesDialog = mountedOnceOpened(MajDatesDialogContent);
