import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo, useRef } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { CommuneSelect, DepartementSelect, useCommunes } from "~/components/commune-picker";
import { FormCard, refLabel, ScreenTitle } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { useControlledForm } from "~/components/form-controller";
import { submitForm, useFormDirty } from "~/components/form-kit";
import type { FormTexts } from "~/components/stale-form";
import { StaleFormPanel, useStaleForm } from "~/components/stale-form-panel";
import { coordonneesSchema, FRANCE_ID, isFrance } from "~/domain/coordonnees";
import { getCoordonnees, isCommuneRequired, saveCoordonnees } from "#server/exploitation-description/service.server";
import { formIntent, screenAction, screenLoader, tokenField } from "#server/http/route.server";
import type { Route } from "./+types/coordonnees";

/** Farm coordinates (spec 2 §2 "Farm coordinates"; B-COORD-01 to B-COORD-04). */
export const loader = screenLoader(({ scope, query }) => getCoordonnees(scope, { departement: query.get("departement") }));

export const action = screenAction(
  {
    save: formIntent(
      async ({ db }, formData) =>
        coordonneesSchema({ communeRequired: await isCommuneRequired(db, Number(formData.get("idPays")), formData.get("libelleDepartement")) }),
      ({ scope }, value, { updatedAt }) => saveCoordonnees(scope, value, updatedAt),
      { fields: { updatedAt: tokenField }, notice: "ui.update-confirmation" },
    ),
  },
  { gate: "campaign" },
);

/** A form value as text (conform gives the raw form value). */
const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** The farm's coordinates as the form's inputs hold them. */
function coordonneesValues(f: Route.ComponentProps["loaderData"]["farm"]) {
  return {
    raisonSociale: f.raisonSociale ?? undefined,
    siret: f.siret ?? undefined,
    nom: f.nom ?? undefined,
    prenom: f.prenom ?? undefined,
    adresse: f.adresse ?? undefined,
    idPays: f.idPays != null ? String(f.idPays) : undefined,
    libelleDepartement: f.libelleDepartement ?? undefined,
    ville: f.ville ?? undefined,
    codeInsee: f.codeInsee ?? undefined,
    codePostal: f.codePostal ?? undefined,
    email: f.email ?? undefined,
    portable: f.portable ?? undefined,
  };
}

/** The fields the stale panel compares, in the form's order, with their label keys. */
const STALE_FIELDS = [
  ["raisonSociale", "raisonSociale"],
  ["siret", "siret"],
  ["nom", "nom"],
  ["prenom", "prenom"],
  ["adresse", "adresse"],
  ["idPays", "pays"],
  ["libelleDepartement", "departement"],
  ["codeInsee", "commune"],
  ["ville", "ville"],
  ["codePostal", "codePostal"],
  ["email", "email"],
  ["portable", "portable"],
] as const;

export default function Coordonnees({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  const { dirty, setDirty } = useFormDirty(fetcher);
  useActionFeedback(fetcher.data);
  const farm = data.farm;
  const canWrite = data.canWrite;

  // Countries in the UI language, France first (it is the only one with department and commune pickers).
  const pays = useMemo(() => {
    const sorted = [...data.pays].sort((a, b) => refLabel(a, lang).localeCompare(refLabel(b, lang), lang));
    return [...sorted.filter((p) => p.id === FRANCE_ID), ...sorted.filter((p) => p.id !== FRANCE_ID)];
  }, [data.pays, lang]);

  // Whether the commune list shown is not empty (spec 2 §5: the commune is then required).
  const communeRequired = useRef(false);
  // Saved after someone else changed the farm, the typed values stay beside theirs (decision 0136); the form starts
  // again from the stored farm (its id names the updatedAt its values come from) after a save or "take theirs".
  const stale = useStaleForm({ row: farm, answer: fetcher.data, dirty, values: coordonneesValues, markClean: () => setDirty(false) });
  const [form, fields] = useForm<z.input<ReturnType<typeof coordonneesSchema>>>({
    id: `coordonnees-${farm.id}-${stale.shown}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: coordonneesValues(farm),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: coordonneesSchema({ communeRequired: communeRequired.current }) }),
  });

  const france = isFrance(text(fields.idPays.value));
  const codeInsee = text(fields.codeInsee.value);
  const departement = data.departements.find((d) => d.lbl === fields.libelleDepartement.value) ?? null;
  // The commune list of the chosen department: the one the page loaded, or else fetched.
  const { rows: departementCommunes, loading: communesLoading } = useCommunes(france && departement ? departement.numDept : null, data.communes);
  const communes = france && departement ? departementCommunes : [];
  const commune = communes.find((c) => c.ci === codeInsee);
  communeRequired.current = communes.length > 0;

  const submit = () => submitForm(form.id);
  useControlledForm("coordonnees", { dirty: dirty && canWrite, valid: form.valid, save: submit, discard: () => setDirty(false) });

  /** Choosing a department clears the commune; its communes then load (spec 2 §4). */
  function onDepartement() {
    form.update({ name: fields.codeInsee.name, value: "" });
  }

  /** Choosing a commune sets the INSEE code (the picker's value) and the postal code (spec 2 §4). */
  function onCommune(c: { cp: string } | null) {
    form.update({ name: fields.codePostal.name, value: c?.cp ?? "" });
  }

  return (
    <div className="mx-auto max-w-4xl space-y-4" data-testid="screen-coordonnees">
      <ScreenTitle title={t("screen.coordonnees")} readOnly={!canWrite} />
      <fetcher.Form method="post" {...getFormProps(form)} onInput={() => setDirty(true)} className="space-y-4">
        <input type="hidden" name="updatedAt" value={stale.token} />
        <fieldset disabled={!canWrite} className="space-y-4" data-testid="coordonnees-form">
          <FormCard title={t("coordonnees.identite")}>
            <div className="grid gap-x-4 sm:grid-cols-2">
              <Field id={fields.raisonSociale.id} label={t("coordonnees.raisonSociale")} errors={fields.raisonSociale.errors}>
                <TextInput
                  {...getInputProps(fields.raisonSociale, { type: "text" })}
                  invalid={!!fields.raisonSociale.errors}
                  describedBy={`${fields.raisonSociale.id}-error`}
                />
              </Field>
              <Field id={fields.siret.id} label={t("coordonnees.siret")} errors={fields.siret.errors} help={t("coordonnees.siret-help")}>
                <TextInput
                  {...getInputProps(fields.siret, { type: "text" })}
                  inputMode="numeric"
                  invalid={!!fields.siret.errors}
                  describedBy={`${fields.siret.id}-error`}
                />
              </Field>
              <Field id={fields.nom.id} label={t("coordonnees.nom")} errors={fields.nom.errors}>
                <TextInput {...getInputProps(fields.nom, { type: "text" })} invalid={!!fields.nom.errors} />
              </Field>
              <Field id={fields.prenom.id} label={t("coordonnees.prenom")} errors={fields.prenom.errors}>
                <TextInput {...getInputProps(fields.prenom, { type: "text" })} invalid={!!fields.prenom.errors} />
              </Field>
            </div>
          </FormCard>

          <FormCard title={t("coordonnees.adresse-card")}>
            <Field id={fields.adresse.id} label={t("coordonnees.adresse")} errors={fields.adresse.errors}>
              <textarea {...getTextareaProps(fields.adresse)} className="field-input" rows={2} />
            </Field>
            <div className="grid gap-x-4 sm:grid-cols-2">
              <Field id={fields.idPays.id} label={t("coordonnees.pays")} errors={fields.idPays.errors}>
                <select {...getSelectProps(fields.idPays)} className="field-input">
                  <option value="">{t("context.choose")}</option>
                  {pays.map((p) => (
                    <option key={p.id} value={p.id}>
                      {refLabel(p, lang)}
                    </option>
                  ))}
                </select>
              </Field>
              {france ? (
                <DepartementSelect
                  departements={data.departements}
                  optionValue={(d) => d.lbl}
                  onChoose={onDepartement}
                  label={t("coordonnees.departement")}
                  errors={fields.libelleDepartement.errors}
                  selectProps={getSelectProps(fields.libelleDepartement)}
                />
              ) : (
                <Field id={fields.ville.id} label={t("coordonnees.ville")} errors={fields.ville.errors}>
                  <TextInput {...getInputProps(fields.ville, { type: "text" })} invalid={!!fields.ville.errors} />
                </Field>
              )}
              {france ? (
                <CommuneSelect
                  departement={departement}
                  communes={communes}
                  loading={communesLoading}
                  storedLabel={farm.ville}
                  onChoose={onCommune}
                  label={t("coordonnees.commune")}
                  errors={fields.codeInsee.errors}
                  selectProps={getSelectProps(fields.codeInsee)}
                />
              ) : null}
              {france ? (
                <Field id={`${fields.codeInsee.id}-display`} label={t("coordonnees.codeInsee")}>
                  <TextInput id={`${fields.codeInsee.id}-display`} value={codeInsee} readOnly className="field-input bg-stone-50" data-testid="code-insee" />
                </Field>
              ) : (
                <Field id={fields.codeInsee.id} label={t("coordonnees.codeInsee")} errors={fields.codeInsee.errors}>
                  <TextInput {...getInputProps(fields.codeInsee, { type: "text" })} maxLength={5} invalid={!!fields.codeInsee.errors} />
                </Field>
              )}
              <Field id={fields.codePostal.id} label={t("coordonnees.codePostal")} errors={fields.codePostal.errors}>
                <TextInput
                  {...getInputProps(fields.codePostal, { type: "text" })}
                  list={commune && commune.codesPostaux.length > 1 ? "codes-postaux" : undefined}
                  invalid={!!fields.codePostal.errors}
                  describedBy={`${fields.codePostal.id}-error`}
                />
                {commune && commune.codesPostaux.length > 1 ? (
                  <datalist id="codes-postaux">
                    {commune.codesPostaux.map((cp) => (
                      <option key={cp} value={cp} />
                    ))}
                  </datalist>
                ) : null}
              </Field>
            </div>
          </FormCard>

          <FormCard title={t("coordonnees.contact")}>
            <div className="grid gap-x-4 sm:grid-cols-2">
              <Field id={fields.email.id} label={t("coordonnees.email")} errors={fields.email.errors}>
                <TextInput
                  {...getInputProps(fields.email, { type: "text" })}
                  inputMode="email"
                  autoComplete="email"
                  invalid={!!fields.email.errors}
                  describedBy={`${fields.email.id}-error`}
                />
              </Field>
              <Field id={fields.portable.id} label={t("coordonnees.portable")} errors={fields.portable.errors} help={t("coordonnees.portable-help")}>
                <TextInput
                  {...getInputProps(fields.portable, { type: "text" })}
                  inputMode="tel"
                  invalid={!!fields.portable.errors}
                  describedBy={`${fields.portable.id}-error`}
                />
              </Field>
            </div>
          </FormCard>
        </fieldset>
        <StaleFormPanel
          stale={stale}
          mine={(form.value ?? {}) as FormTexts}
          labels={STALE_FIELDS.map(([name, key]) => ({ name, label: t(`coordonnees.${key}`) }))}
          say={(name, v) => {
            const p = name === "idPays" && v ? pays.find((x) => String(x.id) === v) : undefined;
            return p ? refLabel(p, lang) : v;
          }}
        />
        {canWrite ? (
          <div className="flex justify-end">
            <button type="submit" className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="save-coordonnees">
              {t("ui.save")}
            </button>
          </div>
        ) : null}
      </fetcher.Form>
    </div>
  );
}
