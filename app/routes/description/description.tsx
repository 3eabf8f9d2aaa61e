import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useFetcher } from "react-router";
import type { z } from "zod";
import { AppDialog } from "~/components/dialog";
import { FormCard, formatNumber, refLabel, ScreenTitle, type Labelled } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { useControlledForm } from "~/components/form-controller";
import { submitForm, useFormDirty } from "~/components/form-kit";
import { DescriptionExploitationSchema } from "~/domain/description-exploitation";
import { useHomeData } from "~/routes/home";
import { getDescription, saveDescription } from "#server/exploitation-description/service.server";
import { formIntent, rowTokenField, screenAction, screenLoader, tokenField } from "#server/http/route.server";
import type { Route } from "./+types/description";

/** Farm description (spec 2 §2 "Farm description"; B-DESC-01 to B-DESC-03). */
export const loader = screenLoader(({ scope }) => getDescription(scope));

export const action = screenAction(
  {
    save: formIntent(
      DescriptionExploitationSchema,
      ({ scope }, value, { updatedAt, caracteristiqueUpdatedAt }) =>
        saveDescription(scope, value, { farm: updatedAt, caracteristique: caracteristiqueUpdatedAt }),
      { fields: { updatedAt: tokenField, caracteristiqueUpdatedAt: rowTokenField }, notice: "ui.update-confirmation" },
    ),
  },
  { gate: "campaign" },
);

type Data = Route.ComponentProps["loaderData"];

/** A pick list of a reference region level; a free text while the level's list is empty (none seeded). */
function RegionField({ field, label, options }: { field: FieldMetadata<unknown, Record<string, unknown>, string[]>; label: string; options: Data["bassins"] }) {
  const { t, i18n } = useTranslation();
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      {options.length ? (
        <select {...getSelectProps(field)} className="field-input">
          <option value="">{t("context.choose")}</option>
          {options.map((o) => (
            <option key={o.code} value={o.code}>
              {refLabel(o, i18n.language)}
            </option>
          ))}
        </select>
      ) : (
        <TextInput {...getInputProps(field, { type: "text" })} maxLength={120} invalid={!!field.errors} />
      )}
    </Field>
  );
}

function AnimateursDialog({ open, onClose, animateurs }: { open: boolean; onClose: () => void; animateurs: Data["animateurs"] }) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open={open}
      title={t("descriptionExploitation.animateurs")}
      onEscape={onClose}
      testId="animateurs-dialog"
      actions={
        <button type="button" className="btn-primary" onClick={onClose}>
          {t("ui.close")}
        </button>
      }
    >
      {animateurs.length ? (
        <table className="w-full text-left text-sm" data-testid="animateurs-table">
          <thead>
            <tr className="border-b border-stone-200 text-stone-600">
              <th className="py-1 pr-3">{t("descriptionExploitation.animateur-nom")}</th>
              <th className="py-1 pr-3">{t("descriptionExploitation.animateur-prenom")}</th>
              <th className="py-1">{t("descriptionExploitation.animateur-email")}</th>
            </tr>
          </thead>
          <tbody>
            {animateurs.map((a) => (
              <tr key={a.id} className="border-b border-stone-100">
                <td className="py-1 pr-3">{a.nom}</td>
                <td className="py-1 pr-3">{a.prenom}</td>
                <td className="py-1">
                  {a.email ? (
                    <a className="text-sillon-700 underline" href={`mailto:${a.email}`}>
                      {a.email}
                    </a>
                  ) : (
                    ""
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{t("descriptionExploitation.animateurs-empty")}</p>
      )}
    </AppDialog>
  );
}

/** The farm's soil fields, read here and edited on the soil screen (B-DESC-03). */
function SoilSummary({ data }: { data: Data }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const label = (list: (Labelled & { id: number })[], id: number | null) => {
    const found = id == null ? undefined : list.find((o) => o.id === id);
    return found ? refLabel(found, lang) : "";
  };
  const s = data.soil;
  const rows: [string, string][] = [
    [t("caracteristiquesPedologiques.idTypeSolArvalis"), label(data.soilLists.typesSolArvalis, s.idTypeSolArvalis)],
    [t("caracteristiquesPedologiques.idAeeTypeSol"), label(data.soilLists.typesSolAee, s.idAeeTypeSol)],
    [t("caracteristiquesPedologiques.profondeurSolCm"), s.profondeurSolCm != null ? `${formatNumber(s.profondeurSolCm, lang)} cm` : ""],
    [t("caracteristiquesPedologiques.reserveUtileMm"), s.reserveUtileMm != null ? `${formatNumber(s.reserveUtileMm, lang)} mm` : ""],
    [t("caracteristiquesPedologiques.idTypeSousSol"), label(data.soilLists.typesSousSol, s.idTypeSousSol)],
    [t("caracteristiquesPedologiques.idAciditeSol"), label(data.soilLists.aciditesSol, s.idAciditeSol)],
    [t("caracteristiquesPedologiques.idProfondeurSol"), label(data.soilLists.profondeursSol, s.idProfondeurSol)],
  ];
  return (
    <FormCard
      title={t("descriptionExploitation.sol")}
      testId="description-soil"
      aside={
        <Link to="../caracteristiques_pedologiques" relative="path" className="text-sm text-sillon-700 underline">
          {t("descriptionExploitation.sol-edit")}
        </Link>
      }
    >
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-3 border-b border-stone-100 py-1">
            <dt className="text-stone-600">{k}</dt>
            <dd className="text-right">{v || <span className="text-stone-400">{t("descriptionExploitation.not-set")}</span>}</dd>
          </div>
        ))}
      </dl>
    </FormCard>
  );
}

export default function Description({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { view } = useHomeData();
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  const { dirty, setDirty } = useFormDirty(fetcher);
  const [animateursOpen, setAnimateursOpen] = useState(false);
  useActionFeedback(fetcher.data);
  const farm = data.farm;
  const canWrite = data.canWrite;

  const [form, fields] = useForm<z.input<typeof DescriptionExploitationSchema>>({
    id: `description-${farm.id}-${farm.updatedAt}-${data.caracteristiqueUpdatedAt ?? ""}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: {
      bassin: farm.bassin ?? undefined,
      petiteRegionAgricole: farm.petiteRegionAgricole ?? undefined,
      idOtex: farm.idOtex != null ? String(farm.idOtex) : undefined,
      idTypeAgriculture: farm.idTypeAgriculture != null ? String(farm.idTypeAgriculture) : undefined,
      strategie: farm.strategie ?? undefined,
      remarque: farm.remarque ?? undefined,
      remarqueAnnuelle: data.remarqueAnnuelle ?? undefined,
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DescriptionExploitationSchema }),
  });

  const submit = () => submitForm(form.id);
  useControlledForm("description", { dirty: dirty && canWrite, valid: form.valid, save: submit, discard: () => setDirty(false) });

  return (
    <div className="mx-auto max-w-4xl space-y-4" data-testid="screen-description">
      <ScreenTitle title={t("screen.description")} readOnly={!canWrite}>
        <button type="button" className="btn-secondary" onClick={() => setAnimateursOpen(true)} data-testid="open-animateurs">
          {t("descriptionExploitation.animateurs")}
        </button>
      </ScreenTitle>
      <fetcher.Form method="post" {...getFormProps(form)} onInput={() => setDirty(true)} className="space-y-4">
        <input type="hidden" name="updatedAt" value={farm.updatedAt} />
        <input type="hidden" name="caracteristiqueUpdatedAt" value={data.caracteristiqueUpdatedAt ?? ""} />
        <fieldset disabled={!canWrite} className="space-y-4" data-testid="description-form">
          <FormCard title={t("descriptionExploitation.general")}>
            <div className="grid gap-x-4 sm:grid-cols-2">
              <RegionField field={fields.bassin} label={t("descriptionExploitation.bassin")} options={data.bassins} />
              <RegionField field={fields.petiteRegionAgricole} label={t("descriptionExploitation.petiteRegionAgricole")} options={data.petitesRegions} />
              <Field id={fields.idOtex.id} label={t("descriptionExploitation.otex")} errors={fields.idOtex.errors}>
                <select {...getSelectProps(fields.idOtex)} className="field-input">
                  <option value="">{t("context.choose")}</option>
                  {data.otex.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.code ? `${o.code} - ${refLabel(o, lang)}` : refLabel(o, lang)}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id={fields.idTypeAgriculture.id} label={t("descriptionExploitation.typeAgriculture")} errors={fields.idTypeAgriculture.errors}>
                <select {...getSelectProps(fields.idTypeAgriculture)} className="field-input">
                  <option value="">{t("context.choose")}</option>
                  {data.typesAgriculture.map((o) => (
                    <option key={o.id} value={o.id}>
                      {refLabel(o, lang)}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
          </FormCard>
          <FormCard title={t("descriptionExploitation.strategie-card")}>
            <Field id={fields.strategie.id} label={t("descriptionExploitation.strategie")} errors={fields.strategie.errors}>
              <textarea {...getTextareaProps(fields.strategie)} className="field-input" rows={4} />
            </Field>
            <Field id={fields.remarque.id} label={t("descriptionExploitation.remarque")} errors={fields.remarque.errors}>
              <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={3} />
            </Field>
            <Field
              id={fields.remarqueAnnuelle.id}
              label={t("descriptionExploitation.remarqueAnnuelle", { campagne: view.campagne?.libelle ?? "" })}
              errors={fields.remarqueAnnuelle.errors}
              help={t("descriptionExploitation.remarqueAnnuelle-help")}
            >
              <textarea {...getTextareaProps(fields.remarqueAnnuelle)} className="field-input" rows={3} />
            </Field>
          </FormCard>
        </fieldset>
        {canWrite ? (
          <div className="flex justify-end">
            <button type="submit" className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="save-description">
              {t("ui.save")}
            </button>
          </div>
        ) : null}
      </fetcher.Form>
      <SoilSummary data={data} />
      <AnimateursDialog open={animateursOpen} onClose={() => setAnimateursOpen(false)} animateurs={data.animateurs} />
    </div>
  );
}
