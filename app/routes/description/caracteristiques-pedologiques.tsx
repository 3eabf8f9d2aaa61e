import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { AppDialog } from "~/components/dialog";
import { FormCard, numberText, refLabel, ScreenTitle } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { useControlledForm } from "~/components/form-controller";
import { submitForm, useFormDirty } from "~/components/form-kit";
import type { FormTexts } from "~/components/stale-form";
import { StaleFormPanel, useStaleForm } from "~/components/stale-form-panel";
import { REPLICATION, REPLICATIONS, SoilSchema, type Replication } from "~/domain/caracteristiques-pedologiques";
import { getSoil, saveSoil } from "#server/exploitation-description/service.server";
import { formIntent, screenAction, screenLoader, tokenField } from "#server/http/route.server";
import type { Route } from "./+types/caracteristiques-pedologiques";

/** Soil characteristics of the farm with the replication dialog (spec 2 §2; B-SOIL-01 to B-SOIL-04). */
export const loader = screenLoader(({ scope }) => getSoil(scope));

export const action = screenAction(
  {
    save: formIntent(SoilSchema, async ({ scope }, value, { updatedAt }) => ({ result: await saveSoil(scope, value, updatedAt) }), {
      fields: { updatedAt: tokenField },
      notice: "ui.update-confirmation",
    }),
  },
  { gate: "campaign" },
);

type Data = Route.ComponentProps["loaderData"];
type ActionData = {
  ok: boolean;
  submission?: unknown;
  notice?: string;
  error?: string;
  result?: { replicationCampagnesIds: number[]; skipped: number[]; tables: string[]; rows: Record<string, number> };
};
type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

function ListField({ field, label, options }: { field: Meta; label: string; options: Data["lists"]["typesSolAee"] }) {
  const { t, i18n } = useTranslation();
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      <select {...getSelectProps(field)} className="field-input">
        <option value="">{t("context.choose")}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {refLabel(o, i18n.language)}
          </option>
        ))}
      </select>
    </Field>
  );
}

function ReplicationDialog({ open, data, onCancel, onConfirm }: { open: boolean; data: Data; onCancel: () => void; onConfirm: (r: Replication) => void }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<Replication>(REPLICATION.EXPLOITATION);
  useEffect(() => {
    if (open) setChoice(REPLICATION.EXPLOITATION);
  }, [open]);
  const locked = data.campagnes.filter((c) => c.locked);
  const current = data.campagnes.find((c) => c.id === data.idCampagne);
  return (
    <AppDialog
      open={open}
      title={t("caracteristiquesPedologiques.replication-title")}
      width={500}
      onEscape={onCancel}
      testId="replication-dialog"
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            {t("ui.cancel")}
          </button>
          <button type="button" className="btn-primary" onClick={() => onConfirm(choice)} data-testid="replication-confirm">
            {t("ui.save")}
          </button>
        </>
      }
    >
      <fieldset>
        <legend className="mb-2">{t("caracteristiquesPedologiques.replication-question")}</legend>
        {REPLICATIONS.map((r) => (
          <label key={r} className="flex items-start gap-2 py-1">
            <input type="radio" name="replication-choice" className="mt-1" checked={choice === r} onChange={() => setChoice(r)} value={r} />
            <span>
              {t(`caracteristiquesPedologiques.replication-${r}`)}
              {r === REPLICATION.CAMPAGNE_COURANTE && current ? <span className="text-stone-500"> ({current.libelle})</span> : null}
              {r === REPLICATION.TOUTES_CAMPAGNES ? <span className="text-stone-500"> ({data.campagnes.map((c) => c.libelle).join(", ")})</span> : null}
            </span>
          </label>
        ))}
      </fieldset>
      <p className="mt-2 text-xs text-stone-600">{t("caracteristiquesPedologiques.replication-help")}</p>
      {choice === REPLICATION.TOUTES_CAMPAGNES && locked.length ? (
        <p className="mt-2 text-xs text-amber-800" data-testid="replication-locked">
          {t("caracteristiquesPedologiques.replication-locked", { campagnes: locked.map((c) => c.libelle).join(", ") })}
        </p>
      ) : null}
    </AppDialog>
  );
}

/** What the last save copied, said in words (B-SOIL-04): the campaigns, the rows changed, the locked campaigns left out. */
function ReplicationOutcome({ data, result }: { data: Data; result: NonNullable<ActionData["result"]> }) {
  const { t } = useTranslation();
  const names = (ids: number[]) => ids.map((id) => data.campagnes.find((c) => c.id === id)?.libelle ?? String(id)).join(", ");
  if (!result.replicationCampagnesIds.length && !result.skipped.length) return null;
  const rows = (["parcelle", "lot_parcelle", "amenagement"] as const).map((table) =>
    t(`caracteristiquesPedologiques.rows-${table}`, { count: result.rows[table] ?? 0 }),
  );
  const sentences: { key: string; text: string; warn?: boolean }[] = [];
  if (result.replicationCampagnesIds.length) {
    sentences.push({
      key: "replicated",
      text: t("caracteristiquesPedologiques.replicated", { count: result.replicationCampagnesIds.length, campagnes: names(result.replicationCampagnesIds) }),
    });
    sentences.push({ key: "rows", text: t("caracteristiquesPedologiques.replicated-rows", { detail: rows.join(", ") }) });
  }
  if (result.skipped.length)
    sentences.push({ key: "skipped", text: t("caracteristiquesPedologiques.replication-skipped", { campagnes: names(result.skipped) }), warn: true });
  return (
    <div role="status" className="card space-y-1 border-sillon-200 bg-sillon-50 text-sm" data-testid="replication-outcome">
      {/* One sentence per line; the spaces keep the sentences apart in the text read aloud or copied. */}
      {sentences.map((s, i) => (
        <p key={s.key} data-testid={`replication-outcome-${s.key}`} className={s.warn ? "text-amber-800" : undefined}>
          {s.text}
          {i < sentences.length - 1 ? " " : null}
        </p>
      ))}
    </div>
  );
}

/** The farm's soil as the form's inputs hold it. */
function soilValues(f: Route.ComponentProps["loaderData"]["farm"], lang: string) {
  return {
    idTypeSolArvalis: f.idTypeSolArvalis != null ? String(f.idTypeSolArvalis) : undefined,
    idAeeTypeSol: f.idAeeTypeSol != null ? String(f.idAeeTypeSol) : undefined,
    profondeurSolCm: numberText(f.profondeurSolCm, lang),
    reserveUtileMm: numberText(f.reserveUtileMm, lang),
    idTypeSousSol: f.idTypeSousSol != null ? String(f.idTypeSousSol) : undefined,
    idAciditeSol: f.idAciditeSol != null ? String(f.idAciditeSol) : undefined,
    idProfondeurSol: f.idProfondeurSol != null ? String(f.idProfondeurSol) : undefined,
  };
}

/** The fields the stale panel compares, with the reference list a picker's id is named from. */
type SoilList = "typesSolArvalis" | "typesSolAee" | "typesSousSol" | "aciditesSol" | "profondeursSol";
const SOIL_FIELDS: readonly { name: string; list?: SoilList }[] = [
  { name: "idTypeSolArvalis", list: "typesSolArvalis" },
  { name: "idAeeTypeSol", list: "typesSolAee" },
  { name: "idTypeSousSol", list: "typesSousSol" },
  { name: "idAciditeSol", list: "aciditesSol" },
  { name: "profondeurSolCm" },
  { name: "idProfondeurSol", list: "profondeursSol" },
  { name: "reserveUtileMm" },
];

export default function CaracteristiquesPedologiques({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fetcher = useFetcher<ActionData>();
  const { dirty, setDirty } = useFormDirty(fetcher);
  const [dialogOpen, setDialogOpen] = useState(false);
  const replicationInput = useRef<HTMLInputElement>(null);
  useActionFeedback(fetcher.data);
  const farm = data.farm;
  const canWrite = data.canWrite;

  // Saved after someone else changed the farm, the typed values stay beside theirs (decision 0136); the form starts
  // again from the stored farm (its id names the updatedAt its values come from) after a save or "take theirs".
  const stale = useStaleForm({ row: farm, answer: fetcher.data, dirty, values: (f: typeof farm) => soilValues(f, lang), markClean: () => setDirty(false) });
  const [form, fields] = useForm<z.input<typeof SoilSchema>>({
    id: `sol-${farm.id}-${stale.shown}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: soilValues(farm, lang),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SoilSchema }),
  });

  const submitWith = (replication: Replication) => {
    if (replicationInput.current) replicationInput.current.value = String(replication);
    submitForm(form.id);
  };
  // Ctrl+S and the leave confirmation save the farm only: they cannot wait for the dialog's answer.
  useControlledForm("caracteristiques-pedologiques", {
    dirty: dirty && canWrite,
    valid: form.valid,
    save: () => submitWith(REPLICATION.EXPLOITATION),
    discard: () => setDirty(false),
  });

  return (
    <div className="mx-auto max-w-4xl space-y-4" data-testid="screen-caracteristiques_pedologiques">
      <ScreenTitle title={t("screen.caracteristiques_pedologiques")} readOnly={!canWrite} />
      <fetcher.Form method="post" {...getFormProps(form)} onInput={() => setDirty(true)} className="space-y-4">
        <input type="hidden" name="updatedAt" value={stale.token} />
        <input type="hidden" name="replication" defaultValue={REPLICATION.EXPLOITATION} ref={replicationInput} />
        <fieldset disabled={!canWrite} data-testid="sol-form">
          <FormCard title={t("caracteristiquesPedologiques.card")}>
            <div className="grid gap-x-4 sm:grid-cols-2">
              <ListField field={fields.idTypeSolArvalis} label={t("caracteristiquesPedologiques.idTypeSolArvalis")} options={data.lists.typesSolArvalis} />
              <ListField field={fields.idAeeTypeSol} label={t("caracteristiquesPedologiques.idAeeTypeSol")} options={data.lists.typesSolAee} />
              <ListField field={fields.idTypeSousSol} label={t("caracteristiquesPedologiques.idTypeSousSol")} options={data.lists.typesSousSol} />
              <ListField field={fields.idAciditeSol} label={t("caracteristiquesPedologiques.idAciditeSol")} options={data.lists.aciditesSol} />
              <Field id={fields.profondeurSolCm.id} label={`${t("caracteristiquesPedologiques.profondeurSolCm")} (cm)`} errors={fields.profondeurSolCm.errors}>
                <TextInput {...getInputProps(fields.profondeurSolCm, { type: "text" })} inputMode="numeric" invalid={!!fields.profondeurSolCm.errors} />
              </Field>
              <ListField field={fields.idProfondeurSol} label={t("caracteristiquesPedologiques.idProfondeurSol")} options={data.lists.profondeursSol} />
              <Field id={fields.reserveUtileMm.id} label={`${t("caracteristiquesPedologiques.reserveUtileMm")} (mm)`} errors={fields.reserveUtileMm.errors}>
                <TextInput {...getInputProps(fields.reserveUtileMm, { type: "text" })} inputMode="decimal" invalid={!!fields.reserveUtileMm.errors} />
              </Field>
            </div>
          </FormCard>
        </fieldset>
        <StaleFormPanel
          stale={stale}
          mine={(form.value ?? {}) as FormTexts}
          labels={SOIL_FIELDS.map(({ name }) => ({ name, label: t(`caracteristiquesPedologiques.${name}`) }))}
          say={(name, v) => {
            const list = SOIL_FIELDS.find((f) => f.name === name)?.list;
            const o = list && v ? data.lists[list].find((x) => String(x.id) === v) : undefined;
            return o ? refLabel(o, lang) : v;
          }}
        />
        {canWrite ? (
          <div className="flex justify-end">
            {/* Saving asks where the soil values go (spec 2 §2): the dialog then submits. */}
            <button
              type="button"
              className="btn-primary"
              disabled={!form.valid || fetcher.state !== "idle"}
              onClick={() => setDialogOpen(true)}
              data-testid="save-sol"
            >
              {t("ui.save")}
            </button>
          </div>
        ) : null}
      </fetcher.Form>
      {fetcher.state === "idle" && fetcher.data?.ok && fetcher.data.result ? <ReplicationOutcome data={data} result={fetcher.data.result} /> : null}
      <ReplicationDialog
        open={dialogOpen}
        data={data}
        onCancel={() => setDialogOpen(false)}
        onConfirm={(r) => {
          setDialogOpen(false);
          submitWith(r);
        }}
      />
    </div>
  );
}
