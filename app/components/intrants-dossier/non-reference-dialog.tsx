import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatNumber, numberText } from "~/components/format";
import { useCatalogue, type Categorie } from "~/components/interventions/input-dialogs";
import { ELEMENTS, ELEMENTS_PRINCIPAUX, OLIGO_ELEMENTS, TYPE_INTRANT } from "~/domain/intrant";
import {
  CONFIRMATION_NON_REFERENCE,
  IntrantDossierSchema,
  totalComposition,
  TYPES_INTRANT_DOSSIER,
  UNITES_MATIERE_ACTIVE,
  type TypeIntrantDossier,
} from "~/domain/intrant-dossier";
import { toNumber } from "~/domain/validation";
import { useOnSaved } from "~/components/list-screen";

/**
 * The unreferenced-input dialog (spec 3 §2.2, §4.2, §5; decision 0032): a seed, phyto, fertiliser or other input
 * of the folder, absent from the catalogues. Opened from an intervention after a warning; a new one is created by a
 * writer, an existing one edited by an animator of the folder only (the edit relabels every input made from it).
 */

type Stored = {
  id: number;
  updatedAt: string;
  dicIdTypeIntrant: number;
  libelle: string;
  code: string | null;
  idCulture: number | null;
  idCategorie: number | null;
  matiereActive: number | null;
  uniteMatActive: string | null;
  biocontrole: boolean;
  remarque: string | null;
  composition: Record<string, number | null> | null;
  modifiable: boolean;
};
type Lists = { categories?: Categorie[]; cultures?: { id: number; libelle: string; libelleEn: string | null }[] };
type AnyField = FieldMetadata<string | undefined, Record<string, unknown>, string[]>;

const labelOf = (c: { libelle: string; libelleEn: string | null }, lang: string) => (lang === "en" && c.libelleEn ? c.libelleEn : c.libelle);

/** The warning of spec 3 §8 before the dialog opens from an intervention (C-UNREF-04, 05). */
export function NonReferenceWarning({ open, onCancel, onConfirm }: { open: boolean; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open={open}
      title={t(CONFIRMATION_NON_REFERENCE.titre)}
      width={500}
      testId="non-reference-warning"
      onEscape={onCancel}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            {t("ui.cancel")}
          </button>
          <button type="button" className="btn-primary" onClick={onConfirm} data-testid="non-reference-continuer">
            {t("ui.confirm")}
          </button>
        </>
      }
    >
      <p>{t(CONFIRMATION_NON_REFERENCE.texte)}</p>
    </AppDialog>
  );
}

export function NonReferenceDialog({
  id,
  idAction,
  canCreate,
  initialType,
  onClose,
}: {
  id: number | null;
  idAction: number;
  canCreate: boolean;
  initialType?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const stored = useCatalogue<{ intrantDossier?: Stored }>(id ? { intrantDossier: id } : null);
  const lists = useCatalogue<Lists>({ categories: 1, action: idAction });
  if ((id && !stored.data?.intrantDossier) || !lists.data?.categories) {
    return (
      <AppDialog
        open
        title={t("ui.loading")}
        width={700}
        onEscape={onClose}
        testId="non-reference-loading"
        actions={
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
        }
      >
        <p role="status">{t("ui.loading")}</p>
      </AppDialog>
    );
  }
  const s = stored.data?.intrantDossier ?? null;
  const type = (TYPES_INTRANT_DOSSIER as readonly number[]).includes(initialType ?? 0) ? (initialType as TypeIntrantDossier) : undefined;
  return <NonReferenceForm stored={s} lists={lists.data} readOnly={s ? !s.modifiable : !canCreate} initialType={type} onClose={onClose} />;
}

function NonReferenceForm({
  stored,
  lists,
  readOnly,
  initialType,
  onClose,
}: {
  stored: Stored | null;
  lists: Lists;
  readOnly: boolean;
  initialType?: TypeIntrantDossier;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>({ key: `intrant-dossier-${stored?.id ?? "new"}` });
  useActionFeedback(fetcher.data);
  const [type, setType] = useState<TypeIntrantDossier>((stored?.dicIdTypeIntrant as TypeIntrantDossier | undefined) ?? initialType ?? TYPE_INTRANT.PHYTO);
  const [form, fields] = useForm<Record<string, unknown>>({
    id: `intrant-dossier-${stored?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: {
      libelle: stored?.libelle ?? "",
      code: stored?.code ?? "",
      idCulture: stored?.idCulture ? String(stored.idCulture) : "",
      idCategorie: stored?.idCategorie ? String(stored.idCategorie) : "",
      matiereActive: numberText(stored?.matiereActive, lang),
      uniteMatActive: stored?.uniteMatActive ?? "",
      biocontrole: stored?.biocontrole ? "on" : undefined,
      remarque: stored?.remarque ?? "",
      ...Object.fromEntries(ELEMENTS.map((e) => [e, numberText(stored?.composition?.[e] ?? null, lang)])),
    } as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: IntrantDossierSchema }) as never,
  });
  // The dialog closes once its save is answered ok.
  useOnSaved(fetcher, () => onClose());
  const f = fields as unknown as Record<string, AnyField>;
  const busy = fetcher.state !== "idle";
  const categories = (lists.categories ?? []).filter((c) => c.idTypeIntrant === type);
  const total = totalComposition(
    Object.fromEntries(
      ELEMENTS.map((e) => {
        const n = toNumber(f[e].value);
        return [e, typeof n === "number" && Number.isFinite(n) ? n : null];
      }),
    ),
  );
  const numberField = (name: string, label: string, testId: string) => (
    <Field key={name} id={f[name].id} label={label} errors={f[name].errors}>
      <TextInput
        {...getInputProps(f[name] as never, { type: "text" })}
        inputMode="decimal"
        invalid={!!f[name].errors}
        describedBy={`${f[name].id}-error`}
        data-testid={testId}
      />
    </Field>
  );

  return (
    <AppDialog
      open
      title={stored ? t("intrants-dossier.titre-modifier") : t("intrants-dossier.titre")}
      width={700}
      onEscape={onClose}
      testId="dialog-non-reference"
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {readOnly ? t("ui.close") : t("ui.cancel")}
          </button>
          {readOnly ? null : (
            <button type="submit" form={form.id} className="btn-primary" disabled={busy} data-testid="non-reference-save">
              {stored ? t("ui.save") : t("ui.add")}
            </button>
          )}
        </>
      }
    >
      {stored && !readOnly ? (
        <p className="mb-3 rounded bg-stone-100 p-2 text-sm" data-testid="non-reference-liens">
          {t("intrants-dossier.liens")}
        </p>
      ) : null}
      {stored && readOnly ? (
        <p className="mb-3 rounded bg-stone-100 p-2 text-sm" data-testid="non-reference-lecture">
          {t("intrants-dossier.animateur-seul")}
        </p>
      ) : null}
      {busy && stored ? (
        <p role="status" className="mb-3 rounded bg-amber-50 p-2 text-sm text-amber-900" data-testid="non-reference-lent">
          {t("intrants-dossier.operation-lente")}
        </p>
      ) : null}
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="saveIntrantDossier" />
        <input type="hidden" name="dicIdTypeIntrant" value={type} />
        {stored ? (
          <>
            <input type="hidden" name="id" value={stored.id} />
            <input type="hidden" name="updatedAt" value={stored.updatedAt} />
          </>
        ) : null}
        <fieldset disabled={readOnly}>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id="non-reference-type" label={t("intrants-dossier.type-intrant")}>
              <select
                id="non-reference-type"
                className="field-input"
                value={type}
                disabled={!!stored}
                onChange={(e) => setType(Number(e.target.value) as TypeIntrantDossier)}
                data-testid="non-reference-type"
              >
                {TYPES_INTRANT_DOSSIER.map((ty) => (
                  <option key={ty} value={ty}>
                    {t(`interventions.types.${ty}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={f.libelle.id} label={t("intrants-dossier.nom")} errors={f.libelle.errors}>
              <TextInput
                {...getInputProps(f.libelle as never, { type: "text" })}
                invalid={!!f.libelle.errors}
                describedBy={`${f.libelle.id}-error`}
                data-testid="non-reference-libelle"
              />
            </Field>
            {type === TYPE_INTRANT.SEMENCE ? (
              <Field id={f.idCulture.id} label={t("intrants-dossier.espece")} errors={f.idCulture.errors}>
                <select {...getSelectProps(f.idCulture as never)} className="field-input" data-testid="non-reference-espece">
                  <option value="">{t("context.choose")}</option>
                  {(lists.cultures ?? []).map((c) => (
                    <option key={c.id} value={c.id}>
                      {labelOf(c, lang)}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {type === TYPE_INTRANT.PHYTO || type === TYPE_INTRANT.FERTILISANT ? (
              <Field
                id={f.idCategorie.id}
                label={type === TYPE_INTRANT.PHYTO ? t("intrants-dossier.type-produit") : t("intrants-dossier.type-fertilisant")}
                errors={f.idCategorie.errors}
              >
                <select {...getSelectProps(f.idCategorie as never)} className="field-input" data-testid="non-reference-categorie">
                  <option value="">{t("context.choose")}</option>
                  {categories.map((c) => (
                    <option key={c.id} value={c.id}>
                      {labelOf(c, lang)}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {type === TYPE_INTRANT.PHYTO ? (
              <>
                {numberField("code", t("intrants-dossier.amm"), "non-reference-code")}
                {numberField("matiereActive", t("intrants-dossier.matiere-active"), "non-reference-matiere")}
                <Field id={f.uniteMatActive.id} label={t("intrants-dossier.unite-matiere")} errors={f.uniteMatActive.errors}>
                  <select {...getSelectProps(f.uniteMatActive as never)} className="field-input" data-testid="non-reference-unite-matiere">
                    <option value="">{t("context.choose")}</option>
                    {UNITES_MATIERE_ACTIVE.map((u) => (
                      <option key={u} value={u}>
                        {u === "autre" ? t("intrants-dossier.unite-autre") : u}
                      </option>
                    ))}
                  </select>
                </Field>
                <label className="mb-3 flex items-center gap-2 self-end">
                  <input {...getInputProps(f.biocontrole as never, { type: "checkbox" })} data-testid="non-reference-biocontrole" />{" "}
                  {t("intrants-dossier.biocontrole")}
                </label>
              </>
            ) : null}
          </div>
          {type === TYPE_INTRANT.FERTILISANT ? (
            <fieldset className="mb-3 rounded border border-stone-200 p-2" data-testid="non-reference-composition">
              <legend className="px-1 text-sm font-semibold">{t("intrants-dossier.composition")}</legend>
              <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
                {ELEMENTS_PRINCIPAUX.map((e) => numberField(e, `${t(`interventions.elements.${e}`)} (%)`, `non-reference-${e}`))}
              </div>
              <details>
                <summary className="cursor-pointer text-sm">{t("interventions.dialogs.oligo-elements")}</summary>
                <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
                  {OLIGO_ELEMENTS.map((e) => numberField(e, `${t(`interventions.elements.${e}`)} (%)`, `non-reference-${e}`))}
                </div>
              </details>
              <p role="status" className="text-sm" data-testid="non-reference-total">
                {t("intrants-dossier.total", { total: formatNumber(total, lang, 3) })}
              </p>
            </fieldset>
          ) : null}
          <Field id={f.remarque.id} label={t("intrants-dossier.remarque")} errors={f.remarque.errors}>
            <textarea {...getInputProps(f.remarque as never, { type: "text" })} className="field-input" rows={2} data-testid="non-reference-remarque" />
          </Field>
        </fieldset>
      </fetcher.Form>
    </AppDialog>
  );
}
