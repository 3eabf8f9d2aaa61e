import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import type { z } from "zod";
import { formatNumber, numberText, refLabel } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import { FormSection } from "~/components/form-kit";
import { formatEuro } from "~/components/format";
import { type ListFormControls, useListForm } from "~/components/list-screen";
import { StaleFormPanel } from "~/components/stale-form-panel";
import {
  annualUseMax,
  coOwnershipForOwnership,
  defaultsFromReference,
  machineCosts,
  newMachineDefaults,
  priceYearRange,
  showsPowerField,
  type CalculMateriel,
  type TypePropriete,
} from "~/domain/calc/materiel";
import { NEUF_OCCASION, NEUF_OCCASION_CHOIX, POMPES, ParcMaterielSchema, TYPES_PROPRIETE, formNumber, materielForCalc } from "~/domain/parc-materiel";
import type { Data, Reference, ReferenceAnswer, Row } from "./types";

const dash = "—";

/** The characteristics known to the page: those the page loaded, and those of categories fetched since. */
function useReferences(data: Data, fetched: Data | undefined): Reference[] {
  return useMemo(() => {
    const all = new Map<number, Reference>();
    for (const r of data.references) all.set(r.id, r);
    for (const r of fetched?.references ?? []) all.set(r.id, r);
    return [...all.values()];
  }, [data.references, fetched?.references]);
}

/** The calculated figures of a machine (spec 2 §3 "Also calculated"; B-MACH-03). */
function CalculPanel({ calcul, row, tauxFinancement }: { calcul: CalculMateriel; row: Row | null; tauxFinancement: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const n = (v: number | null | undefined, unit: string, digits = 2) => (v == null ? dash : `${formatNumber(v, lang, digits)} ${unit}`);
  const euro = (v: number | null | undefined, unit: string) => (v == null ? dash : `${formatEuro(v, lang)}${unit}`);
  const items: [string, string, string][] = [
    ["usage", t("parcMateriel.calc.usage"), n(calcul.utilisationRetenue, t("parcMateriel.unit.h-an"), 0)],
    ["calculee-p", t("parcMateriel.utilisationAnnuelleCalculeeP"), n(row?.utilisationAnnuelleCalculeeP, t("parcMateriel.unit.h-an"), 0)],
    ["calculee-r", t("parcMateriel.utilisationAnnuelleCalculeeR"), n(row?.utilisationAnnuelleCalculeeR, t("parcMateriel.unit.h-an"), 0)],
    ["financement", t("parcMateriel.calc.financement"), euro(calcul.financement, t("parcMateriel.unit.par-an"))],
    ["amortissement", t("parcMateriel.calc.amortissement"), euro(calcul.amortissement, t("parcMateriel.unit.par-an"))],
    ["duree", t("parcMateriel.calc.duree-amortissement"), n(calcul.dureeAmortissement, t("parcMateriel.unit.ans"), 1)],
    ["entretien-location", t("parcMateriel.calc.entretien-location"), euro(calcul.entretienLocation, t("parcMateriel.unit.par-h"))],
    ["cout-horaire", t("parcMateriel.calc.cout-horaire"), euro(calcul.coutHoraire, t("parcMateriel.unit.par-h"))],
    ["charges-meca-ha", t("parcMateriel.calc.charges-meca-ha"), euro(calcul.chargesMecaHa, t("parcMateriel.unit.par-ha"))],
  ];
  return (
    <section className="rounded border border-stone-200 bg-sillon-50 p-3" aria-labelledby="pm-calc-title" data-testid="parc-materiel-calcul">
      <h3 id="pm-calc-title" className="mb-2 text-sm font-semibold text-sillon-800">
        {t("parcMateriel.calc.title")}
      </h3>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {items.map(([id, label, value]) => (
          <div key={id} className="flex justify-between gap-2 border-b border-sillon-100 py-0.5">
            <dt className="text-stone-600">{label}</dt>
            <dd className="text-right font-medium tabular-nums" data-testid={`calc-${id}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-stone-600">{t("parcMateriel.calc.taux-financement", { taux: formatNumber(tauxFinancement, lang) })}</p>
      {calcul.coutHoraire !== null && calcul.chargesMecaHa === null ? (
        <p className="mt-1 text-xs text-stone-600" data-testid="calc-sans-debit">
          {t("parcMateriel.calc.sans-debit")}
        </p>
      ) : null}
      {calcul.manquants.length ? (
        <p className="mt-1 text-xs text-amber-800" data-testid="calc-manquants">
          {t("parcMateriel.calc.manquants", { champs: calcul.manquants.map((f) => t(`parcMateriel.${f}`)).join(", ") })}
        </p>
      ) : null}
    </section>
  );
}

/** A machine as the form's inputs hold it. */
function machineValues(row: Row, lang: string) {
  return {
    libelle: row.libelle,
    noClasse: String(row.noClasse),
    idCategorieMateriel: String(row.idCategorieMateriel),
    idBasemeq: String(row.idBasemeq),
    typePropriete: String(row.typePropriete),
    copropriete: numberText(row.copropriete, lang),
    poids: numberText(row.poids, lang),
    puissance: numberText(row.puissance, lang),
    debit: numberText(row.debit, lang),
    neufOccasion: row.neufOccasion ?? undefined,
    ageAchat: numberText(row.ageAchat, lang),
    typePompe: row.typePompe ?? undefined,
    coutEntretienReparation: numberText(row.coutEntretienReparation, lang),
    coutLocation: numberText(row.coutLocation, lang),
    prixAchat: numberText(row.prixAchat, lang),
    prixNeuf: numberText(row.prixNeuf, lang),
    utilisationAnnuelle: numberText(row.utilisationAnnuelle, lang),
    usure: numberText(row.usure, lang),
    obsolescence: numberText(row.obsolescence, lang),
    dureeAmortissement: numberText(row.dureeAmortissement, lang),
    tauxRevente: numberText(row.tauxRevente, lang),
    remarque: row.remarque ?? undefined,
  };
}

/** The machine form (spec 2 §4, §5; B-MACH): class, category and characteristic cascade, ownership, costs and the calculated figures. */
export function MachineForm({ row, data, controls }: { row: Row | null; data: Data; controls: ListFormControls }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const location = useLocation();
  const catalog = useFetcher<Data>();
  const referenceFetch = useFetcher<ReferenceAnswer>();
  const applied = useRef<ReferenceAnswer | null>(null);
  const references = useReferences(data, catalog.data);

  const defaults = newMachineDefaults();
  const { fetcher, form, fields, markDirty, stale } = useListForm<z.input<typeof ParcMaterielSchema>>(controls, {
    name: "parc-materiel",
    rowId: row?.id,
    schema: ParcMaterielSchema,
    defaultValue: row
      ? machineValues(row, lang)
      : {
          // A new machine starts as own, 100 % co-ownership, age 0 (B-MACH-11).
          typePropriete: String(defaults.typePropriete),
          copropriete: String(defaults.copropriete),
          ageAchat: String(defaults.ageAchat),
          neufOccasion: NEUF_OCCASION.NEUF,
        },
    // Saved meanwhile by someone else: the typed values stay, theirs beside them (decision 0115).
    stale: { row, values: (r: Row) => machineValues(r, lang) },
  });
  const set = (name: string, value: string) => form.update({ name, value });

  // Read-only, the inputs are disabled and the form holds no value: the shown values are the row's.
  const frozen = controls.readOnly && row ? row : null;
  const current = (name: keyof typeof fields & keyof Row): number | null => (frozen ? formNumber(frozen[name]) : formNumber(fields[name].value));
  const idClasse = current("noClasse");
  const idCategorie = current("idCategorieMateriel");
  const idBasemeq = current("idBasemeq");
  const typePropriete = (current("typePropriete") ?? 0) as TypePropriete;
  const categories = data.categories.filter((c) => c.idClasseMateriel === idClasse);
  const ofCategory = references.filter((r) => r.idCategorieMateriel === idCategorie);
  // Archived characteristics are not offered (params archive, B-MACH-10), except the machine's own.
  const offered = ofCategory.filter((r) => !r.archive || r.id === row?.idBasemeq);
  const referencesLoading = idCategorie !== null && ofCategory.length === 0 && catalog.state !== "idle";
  const reference = references.find((r) => r.id === idBasemeq) ?? null;
  const showsPower = showsPowerField(idCategorie);
  const years = priceYearRange(reference?.anneeprix);

  /** Changing the class clears the category and the characteristic (B-MACH-12); its categories are listed (B-MACH-09). */
  function onClasse() {
    set(fields.idCategorieMateriel.name, "");
    set(fields.idBasemeq.name, "");
  }

  /** Changing the category clears the characteristic (B-MACH-13) and loads its characteristics (B-MACH-10). */
  function onCategorie(value: string) {
    set(fields.idBasemeq.name, "");
    const id = Number(value);
    if (id && !references.some((r) => r.idCategorieMateriel === id)) catalog.load(`${location.pathname}?categorie=${id}`);
  }

  /**
   * A characteristic fetches its machine reference by id, which fills power, flow, weight, repair cost and new
   * price; on creation the purchase price too (B-MACH-16, B-MACH-17). A failed fetch shows no error (B-ERR-19):
   * the defaults are simply not filled and the user types them.
   */
  function onReference(value: string) {
    const id = Number(value);
    if (id) referenceFetch.load(`${location.pathname}?reference=${id}`);
  }
  useEffect(() => {
    const answer = referenceFetch.data;
    if (referenceFetch.state !== "idle" || !answer || applied.current === answer) return;
    applied.current = answer;
    const ref = answer.referenceMateriel;
    // Only the answer for the characteristic still chosen fills the form.
    if (!ref || ref.id !== formNumber(fields.idBasemeq.value)) return;
    for (const [name, v] of Object.entries(defaultsFromReference(ref, !row))) set(name, numberText(v, lang) ?? "");
  });

  /** Own sets co-ownership to 100; ETA or CUMA to empty (B-MACH-14, B-MACH-15). */
  function onPropriete(value: string) {
    const co = coOwnershipForOwnership(Number(value) as TypePropriete);
    set(fields.copropriete.name, co === null ? "" : String(co));
  }

  const calcul = machineCosts(
    materielForCalc(
      {
        idCategorieMateriel: idCategorie,
        typePropriete,
        copropriete: current("copropriete"),
        puissance: showsPower ? current("puissance") : null,
        debit: current("debit"),
        prixAchat: current("prixAchat"),
        prixNeuf: current("prixNeuf"),
        ageAchat: current("ageAchat"),
        utilisationAnnuelle: current("utilisationAnnuelle"),
        utilisationAnnuelleCalculeeP: row?.utilisationAnnuelleCalculeeP,
        utilisationAnnuelleCalculeeR: row?.utilisationAnnuelleCalculeeR,
        usure: current("usure"),
        obsolescence: current("obsolescence"),
        dureeAmortissement: current("dureeAmortissement"),
        tauxRevente: current("tauxRevente"),
        coutEntretienReparation: current("coutEntretienReparation"),
        coutLocation: current("coutLocation"),
      },
      reference,
    ),
    data.tauxFinancement,
  );

  const refHint = (v: number | null | undefined, digits = 2) =>
    v == null ? undefined : t("parcMateriel.reference-value", { valeur: formatNumber(v, lang, digits) });
  const input = (name: keyof typeof fields, props: { mode?: "numeric" | "decimal"; placeholder?: string; disabled?: boolean } = {}) => {
    const f = fields[name];
    return (
      <TextInput
        {...getInputProps(f, { type: "text" })}
        inputMode={props.mode ?? "decimal"}
        placeholder={props.placeholder}
        disabled={props.disabled}
        invalid={!!f.errors}
        describedBy={`${f.id}-error`}
      />
    );
  };

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty} className="space-y-3" data-testid="parc-materiel-form">
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <fieldset disabled={controls.readOnly} className="space-y-3">
        <FormSection title={t("parcMateriel.card.identification")}>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id={fields.libelle.id} label={t("parcMateriel.libelle")} errors={fields.libelle.errors}>
              <TextInput
                {...getInputProps(fields.libelle, { type: "text" })}
                autoFocus
                invalid={!!fields.libelle.errors}
                describedBy={`${fields.libelle.id}-error`}
              />
            </Field>
            <Field id={fields.noClasse.id} label={t("parcMateriel.noClasse")} errors={fields.noClasse.errors}>
              <select {...getSelectProps(fields.noClasse)} className="field-input" onChange={onClasse} data-testid="select-classe">
                <option value="">{t("context.choose")}</option>
                {data.classes.map((c) => (
                  <option key={c.id} value={c.id}>
                    {refLabel(c, lang)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.idCategorieMateriel.id}
              label={t("parcMateriel.idCategorieMateriel")}
              errors={fields.idCategorieMateriel.errors}
              help={idClasse === null ? t("parcMateriel.choose-classe-first") : undefined}
            >
              <select
                {...getSelectProps(fields.idCategorieMateriel)}
                className="field-input"
                disabled={idClasse === null}
                onChange={(e) => onCategorie(e.target.value)}
                data-testid="select-categorie"
              >
                <option value="">{t("context.choose")}</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {refLabel(c, lang)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.idBasemeq.id}
              label={t("parcMateriel.idBasemeq")}
              errors={fields.idBasemeq.errors}
              help={idCategorie === null ? t("parcMateriel.choose-categorie-first") : referencesLoading ? t("ui.loading") : undefined}
            >
              <select
                {...getSelectProps(fields.idBasemeq)}
                className="field-input"
                disabled={idCategorie === null || referencesLoading}
                onChange={(e) => onReference(e.target.value)}
                data-testid="select-caracteristique"
              >
                <option value="">{t("context.choose")}</option>
                {offered.map((r) => (
                  <option key={r.id} value={r.id}>{`${refLabel(r, lang)} (${r.identifiant})`}</option>
                ))}
              </select>
            </Field>
          </div>
        </FormSection>

        <FormSection title={t("parcMateriel.card.propriete")}>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field id={fields.typePropriete.id} label={t("parcMateriel.typePropriete")} errors={fields.typePropriete.errors}>
              <select
                {...getSelectProps(fields.typePropriete)}
                className="field-input"
                onChange={(e) => onPropriete(e.target.value)}
                data-testid="select-propriete"
              >
                {TYPES_PROPRIETE.map((p) => (
                  <option key={p} value={p}>
                    {t(`parcMateriel.proprietes.${p}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={fields.copropriete.id} label={t("parcMateriel.copropriete")} errors={fields.copropriete.errors}>
              {input("copropriete", { mode: "numeric", disabled: typePropriete !== 0 })}
            </Field>
            <div className="mb-3">
              <span className="field-label" id="pm-neuf-occasion">
                {t("parcMateriel.neufOccasion")}
              </span>
              <div role="radiogroup" aria-labelledby="pm-neuf-occasion" className="mt-2 flex gap-4 text-sm">
                {getCollectionProps(fields.neufOccasion, { type: "radio", options: [...NEUF_OCCASION_CHOIX] }).map(({ key, ...p }) => (
                  <label key={key} className="flex items-center gap-1.5">
                    <input {...p} />
                    {t(`parcMateriel.neufOccasionChoix.${p.value}`)}
                  </label>
                ))}
              </div>
            </div>
            <Field id={fields.ageAchat.id} label={t("parcMateriel.ageAchat")} errors={fields.ageAchat.errors}>
              {input("ageAchat", { mode: "numeric" })}
            </Field>
          </div>
        </FormSection>

        <FormSection title={t("parcMateriel.card.technique")}>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            {showsPower ? (
              <Field id={fields.puissance.id} label={t("parcMateriel.puissance")} errors={fields.puissance.errors}>
                {input("puissance")}
              </Field>
            ) : null}
            <Field id={fields.debit.id} label={t("parcMateriel.debit", { unite: reference?.uniteDebit ?? "ha/h" })} errors={fields.debit.errors}>
              {input("debit")}
            </Field>
            <Field id={fields.poids.id} label={t("parcMateriel.poids")} errors={fields.poids.errors}>
              {input("poids", { mode: "numeric" })}
            </Field>
            <Field id={fields.typePompe.id} label={t("parcMateriel.typePompe")} errors={fields.typePompe.errors}>
              <select {...getSelectProps(fields.typePompe)} className="field-input">
                <option value="">{dash}</option>
                {POMPES.map((p) => (
                  <option key={p} value={p}>
                    {t(`parcMateriel.pompes.${p}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id={fields.utilisationAnnuelle.id}
              label={t("parcMateriel.utilisationAnnuelle")}
              errors={fields.utilisationAnnuelle.errors}
              help={[
                t("parcMateriel.utilisation-bornes", { max: formatNumber(annualUseMax(idCategorie), lang) }),
                refHint(reference?.uniteUtilisation === "h" ? reference?.utilisationAnnuelle : null, 0),
              ]
                .filter(Boolean)
                .join(" · ")}
            >
              {input("utilisationAnnuelle", { mode: "numeric" })}
            </Field>
          </div>
        </FormSection>

        <FormSection title={t("parcMateriel.card.couts")}>
          <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field id={fields.prixAchat.id} label={t("parcMateriel.prixAchat")} errors={fields.prixAchat.errors}>
              {input("prixAchat", { mode: "numeric" })}
            </Field>
            <Field
              id={fields.prixNeuf.id}
              label={years ? t("parcMateriel.prixNeuf-annees", { annees: years }) : t("parcMateriel.prixNeuf")}
              errors={fields.prixNeuf.errors}
            >
              {input("prixNeuf")}
            </Field>
            <Field id={fields.coutEntretienReparation.id} label={t("parcMateriel.coutEntretienReparation")} errors={fields.coutEntretienReparation.errors}>
              {input("coutEntretienReparation")}
            </Field>
            <Field id={fields.coutLocation.id} label={t("parcMateriel.coutLocation")} errors={fields.coutLocation.errors}>
              {input("coutLocation")}
            </Field>
            <Field id={fields.usure.id} label={t("parcMateriel.usure")} errors={fields.usure.errors}>
              {input("usure", { mode: "numeric", placeholder: refHint(reference?.vieUsure, 0) })}
            </Field>
            <Field id={fields.obsolescence.id} label={t("parcMateriel.obsolescence")} errors={fields.obsolescence.errors}>
              {input("obsolescence", { mode: "numeric", placeholder: refHint(reference?.vieObsolescence, 0) })}
            </Field>
            <Field
              id={fields.dureeAmortissement.id}
              label={t("parcMateriel.dureeAmortissement")}
              errors={fields.dureeAmortissement.errors}
              help={t("parcMateriel.duree-help")}
            >
              {input("dureeAmortissement", { mode: "numeric" })}
            </Field>
            <Field id={fields.tauxRevente.id} label={t("parcMateriel.tauxRevente")} errors={fields.tauxRevente.errors}>
              {input("tauxRevente", { placeholder: refHint(reference?.tauxRevente) })}
            </Field>
          </div>
          <p className="text-xs text-stone-500">{t("parcMateriel.reference-help")}</p>
        </FormSection>

        <Field id={fields.remarque.id} label={t("parcMateriel.remarque")} errors={fields.remarque.errors}>
          <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={2} />
        </Field>
      </fieldset>

      <CalculPanel calcul={calcul} row={row} tauxFinancement={data.tauxFinancement} />

      <StaleFormPanel
        stale={stale}
        labels={(
          [
            "libelle",
            "copropriete",
            "poids",
            "puissance",
            "debit",
            "ageAchat",
            "coutEntretienReparation",
            "coutLocation",
            "prixAchat",
            "prixNeuf",
            "utilisationAnnuelle",
            "usure",
            "obsolescence",
            "dureeAmortissement",
            "tauxRevente",
            "remarque",
          ] as const
        ).map((name) => ({ name, label: t(`parcMateriel.${name}`, { unite: reference?.uniteDebit ?? "ha/h" }) }))}
      />

      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>
          {t("ui.close")}
        </button>
        {!controls.readOnly ? (
          <button type="submit" className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="list-save">
            {row ? t("ui.save") : t("ui.add")}
          </button>
        ) : null}
      </div>
    </fetcher.Form>
  );
}
