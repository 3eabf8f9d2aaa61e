import { getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { FormCard, formatNumber, numberText, ScreenTitle } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatEuro } from "~/components/format";
import { useControlledForm } from "~/components/form-controller";
import { submitForm, useFormDirty } from "~/components/form-kit";
import type { FormTexts } from "~/components/stale-form";
import { StaleFormPanel, useStaleForm } from "~/components/stale-form-panel";
import { ScreenFrame } from "~/components/screen-frame";
import {
  ADMIN_FIELDS,
  COMMON_FIELDS,
  caracteristiquesSchema,
  CaracteristiquesAdminSchema,
  IVAN_MAX,
  IVAN_MIN,
  LONG_TERME_DUREE_MAX,
  LONG_TERME_DUREE_MIN,
  TAUX_MAX,
  TAUX_MIN,
} from "~/domain/caracteristiques-economiques";
import { CARACTERISTIQUES_LOAD_ERROR, getCaracteristiques, saveCaracteristiques } from "#server/exploitation-description/service.server";
import { formIntent, screenAction, screenLoader, rowTokenField } from "#server/http/route.server";
import type { Route } from "./+types/caracteristiques-economiques";

/** Economic characteristics of the campaign (spec 2 §2, §3, §5, §6, §9; B-ECO-01 to B-ECO-13). */
export const loader = screenLoader(({ scope }) => getCaracteristiques(scope), { loadError: CARACTERISTIQUES_LOAD_ERROR });

export const action = screenAction(
  {
    save: formIntent(
      // Administrators get the admin-only cards; for others those fields are dropped (the stored values stay).
      ({ user }) => caracteristiquesSchema(user.admin),
      async ({ scope }, value, { updatedAt }) => {
        const saved = await saveCaracteristiques(scope, value, updatedAt);
        return { notice: saved.created ? "ui.create-confirmation" : "ui.update-confirmation" };
      },
      { fields: { updatedAt: rowTokenField } },
    ),
  },
  { gate: "campaign" },
);

type Data = Extract<Route.ComponentProps["loaderData"], { ok: true }>;
type FieldName = (typeof COMMON_FIELDS)[number] | (typeof ADMIN_FIELDS)[number];
type Fields = ReturnType<typeof useForm<z.input<typeof CaracteristiquesAdminSchema>>>[1];

function NumberField({
  field,
  label,
  unit,
  help,
}: {
  field: FieldMetadata<unknown, Record<string, unknown>, string[]>;
  label: string;
  unit?: string;
  help?: ReactNode;
}) {
  return (
    <Field id={field.id} label={unit ? `${label} (${unit})` : label} errors={field.errors} help={help}>
      <TextInput {...getInputProps(field, { type: "text" })} inputMode="decimal" invalid={!!field.errors} describedBy={`${field.id}-error`} />
    </Field>
  );
}

function CaracteristiquesForm({ data }: { data: Data }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  const { dirty, setDirty } = useFormDirty(fetcher);
  useActionFeedback(fetcher.data);
  const row = data.caracteristique as (Partial<Record<FieldName, number | string | null>> & { updatedAt: string; remarqueAnnuelle: string | null }) | null;
  const canWrite = data.canWrite;
  // Typed as the full schema for conform; non-administrators get the one without the admin-only fields.
  const schema = caracteristiquesSchema(data.isAdmin) as typeof CaracteristiquesAdminSchema;

  const shownFields = [...COMMON_FIELDS, ...(data.isAdmin ? ADMIN_FIELDS : [])];
  /** The row as the form's inputs hold it (the default value, and theirs beside the typed values after a stale refusal). */
  const values = (r: typeof row) => {
    const texts: Record<string, string | undefined> = {};
    for (const f of shownFields) {
      const v = r?.[f];
      texts[f] = typeof v === "number" ? numberText(v, lang) : (v ?? undefined);
    }
    return texts;
  };
  const defaultValue = values(row);
  // Saved after someone else changed the row, the typed values stay beside theirs (decision 0136); the form starts
  // again from the stored row (its id names the updatedAt its values come from) after a save or "take theirs".
  const stale = useStaleForm({ row, answer: fetcher.data, dirty, values, markClean: () => setDirty(false) });
  const [form, rawFields] = useForm<z.input<typeof CaracteristiquesAdminSchema>>({
    id: `caracteristiques-${data.idCampagne}-${row ? stale.shown : "new"}-${data.isAdmin ? "admin" : "user"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const fields = rawFields as Fields;

  const submit = () => submitForm(form.id);
  useControlledForm("caracteristiques-economiques", { dirty: dirty && canWrite, valid: form.valid, save: submit, discard: () => setDirty(false) });

  const d = data.defaults;
  const bounds = (min: number, max: number) => t("caracteristiquesEconomiques.bounds", { min, max });
  const norme = (n: number | null) =>
    n != null ? t("caracteristiquesEconomiques.norme", { montant: formatEuro(n, lang) }) : t("caracteristiquesEconomiques.norme-none");
  const chargesDiversesHelp =
    t("caracteristiquesEconomiques.charges-diverses-default", {
      forfait: formatEuro(d.chargesDiversesForfait, lang),
      parHa: formatEuro(d.chargesDiversesParHa, lang),
    }) +
    (d.chargesDiverses != null && d.surfaceHa != null
      ? ` ${t("caracteristiquesEconomiques.charges-diverses-computed", { montant: formatEuro(d.chargesDiverses, lang), surface: formatNumber(d.surfaceHa, lang) })}`
      : "");

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={() => setDirty(true)} className="space-y-4">
      {/* "" tells the server the form saw no row yet: the first save creates it. */}
      <input type="hidden" name="updatedAt" value={(row && stale.token) ?? ""} />
      <fieldset disabled={!canWrite} className="space-y-4" data-testid="caracteristiques-form">
        <FormCard title={t("caracteristiquesEconomiques.charges-card")} testId="eco-card-charges">
          <div className="grid gap-x-4 sm:grid-cols-2">
            <NumberField field={fields.cotisationMsa} label={t("caracteristiquesEconomiques.cotisationMsa")} unit="€" />
            <NumberField field={fields.aidesDecouplees} label={t("caracteristiquesEconomiques.aidesDecouplees")} unit="€" />
            <NumberField
              field={fields.fermageMoyen}
              label={t("caracteristiquesEconomiques.fermageMoyen")}
              unit="€/ha"
              help={t("caracteristiquesEconomiques.fermage-default", { montant: formatEuro(d.fermageMoyen, lang) })}
            />
            <NumberField field={fields.chargesDiverses} label={t("caracteristiquesEconomiques.chargesDiverses")} unit="€" help={chargesDiversesHelp} />
            <NumberField
              field={fields.prixFioul}
              label={t("caracteristiquesEconomiques.prixFioul")}
              unit="€/L"
              help={d.prixFioul != null ? t("caracteristiquesEconomiques.prix-fioul-reference", { prix: formatNumber(d.prixFioul, lang, 4) }) : undefined}
            />
          </div>
        </FormCard>

        <FormCard title={t("caracteristiquesEconomiques.main-oeuvre-card")} testId="eco-card-main-oeuvre">
          <div className="grid gap-x-4 sm:grid-cols-3">
            <NumberField
              field={fields.chargesMainOeuvreSalarialePermanente}
              label={t("caracteristiquesEconomiques.chargesMainOeuvreSalarialePermanente")}
              unit="€"
              help={norme(data.normes.normeChargesMainOeuvreSalarialePermanente)}
            />
            <NumberField
              field={fields.chargesMainOeuvreSalarialeOccasionnel}
              label={t("caracteristiquesEconomiques.chargesMainOeuvreSalarialeOccasionnel")}
              unit="€"
              help={norme(data.normes.normeChargesMainOeuvreSalarialeOccasionnel)}
            />
            <NumberField
              field={fields.chargesMainOeuvreFamiliale}
              label={t("caracteristiquesEconomiques.chargesMainOeuvreFamiliale")}
              unit="€"
              help={norme(data.normes.normeChargesMainOeuvreFamiliale)}
            />
          </div>
        </FormCard>

        <FormCard title={t("caracteristiquesEconomiques.court-terme-card")} testId="eco-card-court-terme">
          <div className="grid gap-x-4 sm:grid-cols-2">
            <NumberField field={fields.courtTermeSomme} label={t("caracteristiquesEconomiques.courtTermeSomme")} unit="€" />
          </div>
        </FormCard>

        {/* Administrators only: seen, edited and required by them alone (spec 2 §2, §5, §6). */}
        {data.isAdmin ? (
          <>
            <FormCard title={t("caracteristiquesEconomiques.court-terme-taux-card")} testId="eco-card-court-terme-taux" aside={<AdminBadge />}>
              <div className="grid gap-x-4 sm:grid-cols-2">
                <NumberField field={fields.courtTermeTaux} label={t("caracteristiquesEconomiques.courtTermeTaux")} unit="%" help={bounds(TAUX_MIN, TAUX_MAX)} />
                <NumberField field={fields.courtTermeDuree} label={t("caracteristiquesEconomiques.courtTermeDuree")} />
              </div>
            </FormCard>
            <FormCard title={t("caracteristiquesEconomiques.long-terme-card")} testId="eco-card-long-terme" aside={<AdminBadge />}>
              <div className="grid gap-x-4 sm:grid-cols-3">
                <NumberField field={fields.longTermeTaux} label={t("caracteristiquesEconomiques.longTermeTaux")} unit="%" help={bounds(TAUX_MIN, TAUX_MAX)} />
                <NumberField
                  field={fields.longTermeDuree}
                  label={t("caracteristiquesEconomiques.longTermeDuree")}
                  unit={t("caracteristiquesEconomiques.years")}
                  help={bounds(LONG_TERME_DUREE_MIN, LONG_TERME_DUREE_MAX)}
                />
                <NumberField field={fields.longTermeIvan} label={t("caracteristiquesEconomiques.longTermeIvan")} unit="%" help={bounds(IVAN_MIN, IVAN_MAX)} />
              </div>
            </FormCard>
            <FormCard title={t("caracteristiquesEconomiques.capitaux-propres-card")} testId="eco-card-capitaux-propres" aside={<AdminBadge />}>
              <div className="grid gap-x-4 sm:grid-cols-2">
                <NumberField
                  field={fields.remunerationCapitauxPropreTaux}
                  label={t("caracteristiquesEconomiques.remunerationCapitauxPropreTaux")}
                  unit="%"
                  help={bounds(TAUX_MIN, TAUX_MAX)}
                />
                <NumberField
                  field={fields.remunerationCapitauxPropreIvan}
                  label={t("caracteristiquesEconomiques.remunerationCapitauxPropreIvan")}
                  unit="%"
                  help={bounds(IVAN_MIN, IVAN_MAX)}
                />
              </div>
            </FormCard>
          </>
        ) : null}

        <FormCard title={t("caracteristiquesEconomiques.remarque-card")}>
          <Field id={fields.remarqueAnnuelle.id} label={t("caracteristiquesEconomiques.remarqueAnnuelle")} errors={fields.remarqueAnnuelle.errors}>
            <textarea {...getTextareaProps(fields.remarqueAnnuelle)} className="field-input" rows={3} />
          </Field>
        </FormCard>
      </fieldset>
      <StaleFormPanel
        stale={stale}
        mine={(form.value ?? {}) as FormTexts}
        labels={shownFields.map((name) => ({ name, label: t(`caracteristiquesEconomiques.${name}`) }))}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-stone-600" data-testid="annee-prix">
          {data.anneeprix != null ? t("caracteristiquesEconomiques.anneeprix", { annee: data.anneeprix }) : ""}
        </p>
        {canWrite ? (
          <button type="submit" className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="save-caracteristiques">
            {t("ui.save")}
          </button>
        ) : null}
      </div>
    </fetcher.Form>
  );
}

function AdminBadge() {
  const { t } = useTranslation();
  return <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">{t("caracteristiquesEconomiques.admin-only")}</span>;
}

export default function CaracteristiquesEconomiques({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.caracteristiques_economiques")} name="screen-caracteristiques_economiques" width="4xl">
      {(data) => (
        <div className="mx-auto max-w-4xl space-y-4" data-testid="screen-caracteristiques_economiques">
          <ScreenTitle title={t("screen.caracteristiques_economiques")} readOnly={!data.canWrite} />
          <CaracteristiquesForm data={data} />
        </div>
      )}
    </ScreenFrame>
  );
}
