import type { IntrantStocke } from "~/domain/intrant-grille";
import { getFormProps, getInputProps, getSelectProps, useForm, useInputControl, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import type { z } from "zod";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatNumber, numberText } from "~/components/format";
import {
  AutreSchema,
  compositionKgHa,
  conversionSemence,
  doseEnUniteReference,
  EauSchema,
  ELEMENTS_PRINCIPAUX,
  FertilisantSchema,
  MAX_CIBLES,
  MESURES_CONVERSION,
  OLIGO_ELEMENTS,
  PhytoSchema,
  SemenceSchema,
  TYPE_INTRANT,
  UNITE_SEMENCE_DEFAUT,
  UNITES,
  uniteFertilisantParDefaut,
  type Element,
  type IntrantDetail,
  type MesureConversion,
  type TypeIntrant,
} from "~/domain/intrant";
import { toNumber } from "~/domain/validation";
import type { InterventionRow } from "~/domain/contracts/interventions";
import { useOnSaved } from "~/components/list-screen";

/** What the catalogue resource answers (app/routes/au-champs/interventions-catalogue.ts). */
export type CatalogueItem = {
  id: number;
  origine: number;
  libelle: string;
  code?: string | null;
  biocontrole?: boolean;
  idCategorie?: number | null;
  composition?: Partial<Record<Element, number | null>>;
};
export type Categorie = { id: number; idTypeIntrant: number; libelle: string; libelleEn: string | null; uniteDefaut: string | null; avertissement: boolean };
export type CibleRef = { id: number; libelle: string };
export type DoseRef = { idCible: number; doseRef: number | null; uniteDoseRef: string | null };
export type StoredIntrant = Omit<IntrantStocke, "cibles"> & {
  id: number;
  updatedAt: string;
  cibles: { id: number; libelle: string; doseRef: number | null; uniteRef: string | null }[];
};
type Catalogue = {
  items?: CatalogueItem[];
  categories?: Categorie[];
  cibles?: CibleRef[];
  doses?: DoseRef[];
  cultures?: { id: number; libelle: string; libelleEn: string | null; culPmg: number | null; culGrainDose: number | null }[];
  intrant?: StoredIntrant;
  matiere?: { quantite: number | null; unite: string | null; composition: { libelle: string; quantite: number | null; unite: string | null }[] } | null;
  volumeBouillie?: number | null;
};

const DIALOG_WIDTH = 700;
const asNumber = (v: unknown): number | null => {
  const n = toNumber(v);
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

/** Reads the catalogue resource of the screen (`…/interventions/catalogue?…`); also the harvest dialog's. */
export function useCatalogue<T = Catalogue>(query: Record<string, string | number | null | undefined> | null) {
  const location = useLocation();
  const fetcher = useFetcher<T>();
  const key = query
    ? new URLSearchParams(
        Object.entries(query)
          .filter(([, v]) => v != null && v !== "")
          .map(([k, v]) => [k, String(v)]),
      ).toString()
    : null;
  const loaded = useRef<string | null>(null);
  useEffect(() => {
    if (key === null || loaded.current === key) return;
    loaded.current = key;
    fetcher.load(`${location.pathname.replace(/\/+$/, "")}/catalogue?${key}`);
  }, [key, fetcher, location.pathname]);
  return { data: fetcher.data, loading: fetcher.state !== "idle" };
}

const labelOf = (c: { libelle: string; libelleEn: string | null }, lang: string) => (lang === "en" && c.libelleEn ? c.libelleEn : c.libelle);

/** The input dialog the inputs panel opened: its kind, and the input it edits (none to create one). */
export type OpenDialog = { type: TypeIntrant; intrant: IntrantDetail | null };

/** The dialog of one input kind: create when it has no input (C-FORM-32), edit with one (C-FORM-33). */
export function InputDialog({
  open,
  intervention,
  readOnly,
  onClose,
  onNonReference,
}: {
  open: OpenDialog;
  intervention: InterventionRow;
  readOnly: boolean;
  onClose: () => void;
  /** The phyto dialog's button to add an unreferenced input (spec 3 §2.2; decision 0032). */
  onNonReference?: () => void;
}) {
  const stored = useCatalogue(open.intrant ? { intrant: open.intrant.id } : null);
  const base = useCatalogue({ categories: open.type, action: intervention.id });
  if (open.intrant && !stored.data?.intrant) return <LoadingDialog onClose={onClose} />;
  if (!base.data?.categories) return <LoadingDialog onClose={onClose} />;
  const props = {
    intervention,
    stored: stored.data?.intrant ?? null,
    readOnly,
    onClose,
    categories: base.data.categories,
    volumeBouillie: base.data.volumeBouillie ?? null,
  };
  switch (open.type) {
    case TYPE_INTRANT.SEMENCE:
      return <SemenceDialog {...props} cultures={base.data.cultures ?? []} />;
    case TYPE_INTRANT.PHYTO:
      return <PhytoDialog {...props} cibles={base.data.cibles ?? []} onNonReference={onNonReference} />;
    case TYPE_INTRANT.FERTILISANT:
      return <FertilisantDialog {...props} />;
    case TYPE_INTRANT.EAU:
      return <EauDialog {...props} />;
    default:
      return <AutreDialog {...props} />;
  }
}

function LoadingDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open
      title={t("ui.loading")}
      width={DIALOG_WIDTH}
      onEscape={onClose}
      testId="intrant-dialog-loading"
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

type DialogProps = {
  intervention: InterventionRow;
  stored: StoredIntrant | null;
  readOnly: boolean;
  onClose: () => void;
  categories: Categorie[];
  volumeBouillie: number | null;
};

/** Posts one input form to the screen's action and closes on success (C-FORM-34, 35). */
/** Each dialog's fields are its schema's, all posted as text. */
type AnyForm = Record<string, string | undefined>;

function useInputForm(
  kind: string,
  schema: z.ZodType,
  stored: StoredIntrant | null,
  defaultValue: Record<string, string | undefined | null>,
  onClose: () => void,
) {
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>({ key: `intrant-${kind}-${stored?.id ?? "new"}` });
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm<AnyForm>({
    id: `intrant-${kind}-${stored?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as never,
  });
  // The dialog closes once its save is answered ok.
  useOnSaved(fetcher, () => onClose());
  return { fetcher, form, fields, busy: fetcher.state !== "idle" };
}

function Frame({
  title,
  testId,
  form,
  fetcher,
  busy,
  readOnly,
  onClose,
  intervention,
  stored,
  intent,
  children,
  hideConfirm = false,
}: {
  title: string;
  testId: string;
  form: FormMetadata<AnyForm, string[]>;
  fetcher: ReturnType<typeof useFetcher>;
  busy: boolean;
  readOnly: boolean;
  onClose: () => void;
  intervention: InterventionRow;
  stored: StoredIntrant | null;
  intent: string;
  children: ReactNode;
  hideConfirm?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open
      title={title}
      width={DIALOG_WIDTH}
      onEscape={onClose}
      testId={testId}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {readOnly ? t("ui.close") : t("ui.cancel")}
          </button>
          {readOnly || hideConfirm ? null : (
            <button type="submit" form={form.id} className="btn-primary" disabled={busy} data-testid="intrant-save">
              {stored ? t("ui.save") : t("ui.add")}
            </button>
          )}
        </>
      }
    >
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="idAction" value={intervention.id} />
        {stored ? (
          <>
            <input type="hidden" name="id" value={stored.id} />
            <input type="hidden" name="updatedAt" value={stored.updatedAt} />
          </>
        ) : null}
        <fieldset disabled={readOnly}>{children}</fieldset>
      </fetcher.Form>
    </AppDialog>
  );
}

function CategorySelect({
  field,
  label,
  categories,
  type,
  onChange,
  testId,
}: {
  field: FieldMetadata<string | undefined, AnyForm, string[]>;
  label: string;
  categories: Categorie[];
  type: TypeIntrant;
  onChange?: (id: number | null) => void;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      <select {...getSelectProps(field as never)} className="field-input" onChange={(e) => onChange?.(asNumber(e.target.value))} data-testid={testId}>
        <option value="">{t("context.choose")}</option>
        {categories
          .filter((c) => c.idTypeIntrant === type)
          .map((c) => (
            <option key={c.id} value={c.id}>
              {labelOf(c, i18n.language)}
            </option>
          ))}
      </select>
    </Field>
  );
}

function UnitSelect({
  field,
  label,
  units,
  testId,
}: {
  field: FieldMetadata<string | undefined, AnyForm, string[]>;
  label: string;
  units: readonly string[];
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      <select {...getSelectProps(field as never)} className="field-input" data-testid={testId}>
        {units.length > 1 ? <option value="">{t("context.choose")}</option> : null}
        {units.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A product picked from a catalogue: a search box and the matching products (origin travels with the id). */
function ProductPicker({
  field,
  origineField,
  label,
  items,
  loading,
  onSearch,
  testId,
}: {
  field: FieldMetadata<string | undefined, AnyForm, string[]>;
  origineField: FieldMetadata<string | undefined, AnyForm, string[]>;
  label: string;
  items: CatalogueItem[];
  loading: boolean;
  onSearch?: (q: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const control = useInputControl(field as never);
  const origine = useInputControl(origineField as never);
  const value = control.value && origine.value ? `${origine.value}:${control.value}` : "";
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      {onSearch ? (
        <input
          type="search"
          className="field-input mb-1"
          aria-label={t("interventions.dialogs.rechercher", { label })}
          placeholder={t("interventions.dialogs.rechercher-placeholder")}
          onChange={(e) => onSearch(e.target.value)}
          data-testid={`${testId}-search`}
        />
      ) : null}
      <input type="hidden" name={field.name} value={typeof control.value === "string" ? control.value : ""} />
      <input type="hidden" name={origineField.name} value={typeof origine.value === "string" ? origine.value : ""} />
      <select
        id={field.id}
        className="field-input"
        value={value}
        aria-invalid={field.errors ? true : undefined}
        aria-busy={loading || undefined}
        onChange={(e) => {
          const [o, id] = e.target.value.split(":");
          origine.change(o ?? "");
          control.change(id ?? "");
        }}
        data-testid={testId}
      >
        <option value="">{loading ? t("ui.loading") : t("context.choose")}</option>
        {items.map((p) => (
          <option key={`${p.origine}:${p.id}`} value={`${p.origine}:${p.id}`}>
            {p.libelle}
            {p.code ? ` (${p.code})` : ""}
            {p.origine === 777 ? ` — ${t("interventions.dialogs.non-reference")}` : ""}
          </option>
        ))}
      </select>
    </Field>
  );
}

function NumberField({
  field,
  label,
  testId,
  help,
  bounds,
}: {
  field: FieldMetadata<string | undefined, AnyForm, string[]>;
  label: string;
  testId: string;
  help?: ReactNode;
  /** The field's schema: a refused bound names the bounds (bounds.ts). */
  bounds?: z.ZodType;
}) {
  return (
    <Field id={field.id} label={label} errors={field.errors} help={help} bounds={bounds}>
      <TextInput
        {...getInputProps(field as never, { type: "text" })}
        inputMode="decimal"
        invalid={!!field.errors}
        describedBy={`${field.id}-error`}
        data-testid={testId}
      />
    </Field>
  );
}

function EauDialog({ intervention, stored, readOnly, onClose, categories }: DialogProps) {
  const { t, i18n } = useTranslation();
  const { fetcher, form, fields, busy } = useInputForm(
    "eau",
    EauSchema,
    stored,
    {
      idCategorie: stored ? String(stored.idCategorie) : "",
      quantite: numberText(stored?.quantite, i18n.language),
      dicLlUnite: "mm",
    },
    onClose,
  );
  return (
    <Frame
      title={t("interventions.dialogs.eau")}
      testId="dialog-eau"
      form={form}
      fetcher={fetcher}
      busy={busy}
      readOnly={readOnly}
      onClose={onClose}
      intervention={intervention}
      stored={stored}
      intent="saveEau"
    >
      <CategorySelect field={fields.idCategorie} label={t("interventions.dialogs.type")} categories={categories} type={TYPE_INTRANT.EAU} testId="eau-type" />
      <NumberField field={fields.quantite} label={t("interventions.dialogs.quantite-mm")} testId="eau-quantite" bounds={EauSchema.shape.quantite} />
      <input type="hidden" name="dicLlUnite" value="mm" />
    </Frame>
  );
}

function AutreDialog({ intervention, stored, readOnly, onClose, categories }: DialogProps) {
  const { t, i18n } = useTranslation();
  const { fetcher, form, fields, busy } = useInputForm(
    "autre",
    AutreSchema,
    stored,
    {
      idCategorie: stored ? String(stored.idCategorie) : "",
      libelle: stored?.libelle ?? "",
      quantite: numberText(stored?.quantite, i18n.language),
      dicLlUnite: "autre",
    },
    onClose,
  );
  return (
    <Frame
      title={t("interventions.dialogs.autre")}
      testId="dialog-autre"
      form={form}
      fetcher={fetcher}
      busy={busy}
      readOnly={readOnly}
      onClose={onClose}
      intervention={intervention}
      stored={stored}
      intent="saveAutre"
    >
      <CategorySelect
        field={fields.idCategorie}
        label={t("interventions.dialogs.type")}
        categories={categories}
        type={TYPE_INTRANT.AUTRE}
        testId="autre-type"
      />
      <Field id={fields.libelle.id} label={t("interventions.dialogs.nom")} errors={fields.libelle.errors}>
        <TextInput {...getInputProps(fields.libelle, { type: "text" })} invalid={!!fields.libelle.errors} data-testid="autre-libelle" />
      </Field>
      <NumberField field={fields.quantite} label={t("interventions.dialogs.quantite-autre")} testId="autre-quantite" bounds={AutreSchema.shape.quantite} />
      <input type="hidden" name="dicLlUnite" value="autre" />
    </Frame>
  );
}

function FertilisantDialog({ intervention, stored, readOnly, onClose, categories }: DialogProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const car = stored?.caracteristique ?? {};
  const { fetcher, form, fields, busy } = useInputForm(
    "fertilisant",
    FertilisantSchema,
    stored,
    {
      idCategorie: stored ? String(stored.idCategorie) : "",
      idIntrant: stored?.idIntrant ? String(stored.idIntrant) : "",
      origine: stored?.origine ? String(stored.origine) : "",
      quantite: numberText(stored?.quantite, lang),
      dicLlUnite: stored?.unite ?? "",
      ...Object.fromEntries([...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS].map((e) => [e, numberText(car[e] ?? null, lang)])),
    },
    onClose,
  );
  const idCategorie = asNumber(fields.idCategorie.value);
  const list = useCatalogue(idCategorie ? { kind: "fertilisant", categorie: idCategorie } : null);
  const items = list.data?.items ?? [];
  const product = items.find((p) => String(p.id) === fields.idIntrant.value && String(p.origine) === fields.origine.value) ?? null;
  const categorie = categories.find((c) => c.id === idCategorie) ?? null;
  const dose = asNumber(fields.quantite.value);
  const unite = fields.dicLlUnite.value ?? "";
  const elementControls = Object.fromEntries([...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS].map((e) => [e, fields[e]])) as Record<
    Element,
    FieldMetadata<string | undefined, AnyForm, string[]>
  >;

  // Picking a product fills the custom composition from its reference one (it stays editable).
  const fill = (p: CatalogueItem | undefined) => {
    if (!p?.composition) return;
    for (const e of [...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS]) form.update({ name: e, value: numberText(p.composition[e] ?? null, lang) ?? "" });
  };
  // A product picked while the composition is empty (or still the previous product's): its reference one fills the
  // fields, so that the dialog shows what will be saved (issue 29; the server stores it too when none is typed).
  const productKey = product ? `${product.id}|${product.origine}` : null;
  const lastProduct = useRef(stored?.idIntrant ? `${stored.idIntrant}|${stored.origine}` : null);
  const filled = useRef<string | null>(null);
  const compositionText = () => [...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS].map((e) => elementControls[e].value ?? "").join("|");
  const onProduct = useEffectEvent(() => {
    if (!product || productKey === lastProduct.current) return;
    lastProduct.current = productKey;
    const current = compositionText();
    if (current.replace(/\|/g, "") !== "" && current !== filled.current) return;
    fill(product);
    filled.current = [...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS].map((e) => numberText(product.composition?.[e] ?? null, lang) ?? "").join("|");
  });
  useEffect(() => onProduct(), [productKey]);
  const compositionEmpty = [...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS].every((e) => !elementControls[e].value);
  const kg = (e: Element) => {
    const pct = asNumber(elementControls[e].value);
    return dose != null && pct != null ? formatNumber(compositionKgHa(dose, pct, unite), lang, 2) : "";
  };

  return (
    <Frame
      title={t("interventions.dialogs.fertilisant")}
      testId="dialog-fertilisant"
      form={form}
      fetcher={fetcher}
      busy={busy}
      readOnly={readOnly}
      onClose={onClose}
      intervention={intervention}
      stored={stored}
      intent="saveFertilisant"
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <CategorySelect
          field={fields.idCategorie}
          label={t("interventions.dialogs.type")}
          categories={categories}
          type={TYPE_INTRANT.FERTILISANT}
          testId="fertilisant-type"
          onChange={(id) => {
            // A new type clears the product, sets its unit and reloads the products (C-FERT-08..12).
            form.update({ name: fields.idIntrant.name, value: "" });
            form.update({ name: fields.origine.name, value: "" });
            form.update({ name: fields.dicLlUnite.name, value: id == null ? "" : uniteFertilisantParDefaut(id) });
          }}
        />
        <ProductPicker
          field={fields.idIntrant}
          origineField={fields.origine}
          label={t("interventions.dialogs.produit")}
          items={items}
          loading={list.loading}
          testId="fertilisant-produit"
        />
        <NumberField field={fields.quantite} label={t("interventions.dialogs.dose")} testId="fertilisant-dose" bounds={FertilisantSchema.shape.quantite} />
        <UnitSelect field={fields.dicLlUnite} label={t("interventions.dialogs.unite")} units={UNITES.fertilisant} testId="fertilisant-unite" />
      </div>
      {categorie?.avertissement ? (
        <p role="alert" className="mb-2 rounded bg-amber-50 p-2 text-sm text-amber-900" data-testid="fertilisant-autre-warning">
          {t("interventions.dialogs.fertilisant-autre")}
        </p>
      ) : null}
      {product ? <ProductComposition product={product} /> : null}
      {product?.composition && compositionEmpty && Object.values(product.composition).some((v) => v != null) ? (
        <p className="mb-2 text-sm text-stone-700" data-testid="fertilisant-reference-saved">
          {t("compositionReference.sera-enregistree")}
        </p>
      ) : null}
      <button
        type="button"
        className="btn-secondary mb-2 text-sm"
        disabled={!product?.composition}
        onClick={() => fill(product ?? undefined)}
        data-testid="fertilisant-copier-reference"
      >
        {t("interventions.dialogs.copier-reference")}
      </button>
      <fieldset className="rounded border border-stone-200 p-2">
        <legend className="px-1 text-sm font-semibold">{t("interventions.dialogs.composition")}</legend>
        <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
          {ELEMENTS_PRINCIPAUX.map((e) => (
            <NumberField
              key={e}
              field={elementControls[e]}
              label={`${t(`interventions.elements.${e}`)} (%)`}
              testId={`fertilisant-${e}`}
              help={kg(e) ? t("interventions.dialogs.kg-ha", { valeur: kg(e) }) : undefined}
            />
          ))}
        </div>
        <details data-testid="oligo-elements">
          <summary className="cursor-pointer text-sm">{t("interventions.dialogs.oligo-elements")}</summary>
          <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
            {OLIGO_ELEMENTS.map((e) => (
              <NumberField
                key={e}
                field={elementControls[e]}
                label={`${t(`interventions.elements.${e}`)} (%)`}
                testId={`fertilisant-${e}`}
                help={kg(e) ? t("interventions.dialogs.kg-ha", { valeur: kg(e) }) : undefined}
              />
            ))}
          </div>
        </details>
      </fieldset>
    </Frame>
  );
}

function ProductComposition({ product }: { product: CatalogueItem }) {
  const { t, i18n } = useTranslation();
  const c = product.composition ?? {};
  const shown = [...ELEMENTS_PRINCIPAUX, ...OLIGO_ELEMENTS].filter((e) => c[e] != null);
  return (
    <p className="mb-2 text-sm text-stone-700" data-testid="fertilisant-reference">
      {t("interventions.dialogs.composition-reference")} :{" "}
      {shown.length ? shown.map((e) => `${t(`interventions.elements.${e}`)} ${formatNumber(c[e], i18n.language, 3)} %`).join(", ") : "—"}
    </p>
  );
}

function PhytoDialog({
  intervention,
  stored,
  readOnly,
  onClose,
  cibles,
  volumeBouillie,
  onNonReference,
}: DialogProps & { cibles: CibleRef[]; onNonReference?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [search, setSearch] = useState("");
  const storedCibles = stored?.cibles ?? [];
  const { fetcher, form, fields, busy } = useInputForm(
    "phyto",
    PhytoSchema,
    stored,
    {
      idIntrant: stored?.idIntrant ? String(stored.idIntrant) : "",
      origine: stored?.origine ? String(stored.origine) : "",
      quantite: numberText(stored?.quantite, lang),
      dicLlUnite: stored?.unite ?? "",
      cible1: storedCibles[0] ? String(storedCibles[0].id) : "",
      cible2: storedCibles[1] ? String(storedCibles[1].id) : "",
      cible3: storedCibles[2] ? String(storedCibles[2].id) : "",
      cible4: storedCibles[3] ? String(storedCibles[3].id) : "",
    },
    onClose,
  );
  const list = useCatalogue({ kind: "phyto", q: search, selected: stored?.idIntrant ?? undefined, origineSelected: stored?.origine ?? undefined });
  const cibleFields = [fields.cible1, fields.cible2, fields.cible3, fields.cible4];
  const cibleValues = cibleFields.map((f) => asNumber(f.value));
  const [shownTargets, setShownTargets] = useState(Math.max(1, storedCibles.length));
  const chosenTargets = cibleValues.filter((c): c is number => c != null);
  const doses = useCatalogue(
    fields.idIntrant.value && fields.origine.value && chosenTargets.length
      ? { kind: "doses", produit: fields.idIntrant.value, origine: fields.origine.value, action: intervention.id, cibles: chosenTargets.join(",") }
      : null,
  );
  const dose = asNumber(fields.quantite.value);
  const unite = typeof fields.dicLlUnite.value === "string" ? fields.dicLlUnite.value : "";
  const matiere = useCatalogue(
    fields.idIntrant.value && fields.origine.value ? { kind: "matiere", produit: fields.idIntrant.value, origine: fields.origine.value } : null,
  );
  const substances = matiere.data?.matiere?.composition ?? [];

  return (
    <Frame
      title={t("interventions.dialogs.phyto")}
      testId="dialog-phyto"
      form={form}
      fetcher={fetcher}
      busy={busy}
      readOnly={readOnly}
      onClose={onClose}
      intervention={intervention}
      stored={stored}
      intent="savePhyto"
    >
      <ProductPicker
        field={fields.idIntrant}
        origineField={fields.origine}
        label={t("interventions.dialogs.produit")}
        items={list.data?.items ?? []}
        loading={list.loading}
        onSearch={setSearch}
        testId="phyto-produit"
      />
      {fields.idIntrant.value ? (
        <p className="-mt-2 mb-3 text-sm text-stone-700" data-testid="phyto-matieres">
          {t("interventions.dialogs.matieres-actives")} :{" "}
          {substances.length
            ? substances.map((c) => `${c.libelle}${c.quantite != null ? ` ${formatNumber(c.quantite, lang, 4)} ${c.unite ?? ""}` : ""}`.trim()).join(", ")
            : "—"}
        </p>
      ) : null}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <NumberField field={fields.quantite} label={t("interventions.dialogs.dose-appliquee")} testId="phyto-dose" bounds={PhytoSchema.shape.quantite} />
        <UnitSelect field={fields.dicLlUnite} label={t("interventions.dialogs.unite")} units={UNITES.phyto} testId="phyto-unite" />
      </div>
      <fieldset className="rounded border border-stone-200 p-2" data-testid="phyto-cibles">
        <legend className="px-1 text-sm font-semibold">{t("interventions.dialogs.cibles")}</legend>
        {cibleFields.slice(0, shownTargets).map((f, i) => {
          const others = new Set(cibleValues.filter((v, j) => j !== i && v != null));
          const ref = doses.data?.doses?.find((d) => d.idCible === cibleValues[i]);
          const converted = ref && dose != null ? doseEnUniteReference(dose, unite, ref.uniteDoseRef, volumeBouillie) : null;
          return (
            <div key={f.id} className="grid items-end gap-x-4 sm:grid-cols-2">
              <Field
                id={f.id}
                label={i === 0 ? t("interventions.dialogs.cible-principale") : t("interventions.dialogs.cible-n", { n: i + 1 })}
                errors={f.errors}
              >
                <select {...getSelectProps(f)} className="field-input" data-testid={`phyto-cible-${i + 1}`}>
                  <option value="">{t("context.choose")}</option>
                  {cibles
                    .filter((c) => !others.has(c.id))
                    .map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.libelle}
                      </option>
                    ))}
                </select>
              </Field>
              <p className="mb-3 text-sm" data-testid={`phyto-dose-ref-${i + 1}`}>
                {cibleValues[i] == null
                  ? ""
                  : ref?.doseRef != null
                    ? t("interventions.dialogs.dose-reference", { dose: formatNumber(ref.doseRef, lang, 4), unite: ref.uniteDoseRef ?? "" }) +
                      (converted != null
                        ? ` — ${t("interventions.dialogs.dose-unite-reference", { dose: formatNumber(converted, lang, 4), unite: ref.uniteDoseRef ?? "" })}`
                        : "")
                    : t("interventions.dialogs.dose-reference-aucune")}
              </p>
            </div>
          );
        })}
        {shownTargets < MAX_CIBLES ? (
          <button
            type="button"
            className="btn-secondary text-sm"
            disabled={readOnly}
            onClick={() => setShownTargets((n) => Math.min(MAX_CIBLES, n + 1))}
            data-testid="phyto-ajouter-cible"
          >
            {t("interventions.dialogs.ajouter-cible")}
          </button>
        ) : null}
        {cibleFields.slice(shownTargets).map((f) => (
          <input key={f.id} type="hidden" name={f.name} value="" />
        ))}
      </fieldset>
      {onNonReference && !readOnly ? (
        <button type="button" className="btn-secondary mt-2 text-sm" onClick={onNonReference} data-testid="phyto-non-reference">
          + {t("intrants-dossier.ajouter")}
        </button>
      ) : null}
      <p className="mt-2 text-sm text-stone-600" data-testid="phyto-volume">
        {t("interventions.dialogs.volume-bouillie", { volume: volumeBouillie == null ? "—" : formatNumber(volumeBouillie, lang, 2) })}
      </p>
    </Frame>
  );
}

function SemenceDialog({ intervention, stored, readOnly, onClose, cultures }: DialogProps & { cultures: NonNullable<Catalogue["cultures"]> }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const car = stored?.caracteristique ?? {};
  const { fetcher, form, fields, busy } = useInputForm(
    "semence",
    SemenceSchema,
    stored,
    {
      idCulture: stored?.idCulture ? String(stored.idCulture) : intervention.idCultureConcernee ? String(intervention.idCultureConcernee) : "",
      idIntrant: stored?.idIntrant ? String(stored.idIntrant) : "",
      origine: stored?.origine ? String(stored.origine) : "",
      quantite: numberText(stored?.quantite, lang),
      dicLlUnite: stored ? (stored.unite ?? "") : UNITE_SEMENCE_DEFAUT,
      semenceFerme: numberText(car.semenceFerme ?? null, lang),
      semenceCertifiee: numberText(car.semenceCertifiee ?? null, lang),
      semenceOgm: numberText(car.semenceOgm ?? null, lang),
    },
    onClose,
  );
  const varieties = useCatalogue(fields.idCulture.value ? { kind: "semence", culture: fields.idCulture.value } : null);
  const [treatmentSearch, setTreatmentSearch] = useState("");
  const treatments = useCatalogue(stored ? null : { kind: "phyto", q: treatmentSearch });
  const culture = cultures.find((c) => String(c.id) === fields.idCulture.value) ?? null;
  // A saved seed without a unit gets a unit selector, required (C-SEED-18, 19); otherwise the unit list as usual.
  const [conversion, setConversion] = useState<{ mesure: MesureConversion; densite: string; pmg: string; doseGrains: string; result: string; error: string }>({
    mesure: "grains-m2",
    densite: "",
    pmg: "",
    doseGrains: "",
    result: "",
    error: "",
  });
  useEffect(() => {
    setConversion((c) => ({
      ...c,
      pmg: c.pmg || (culture?.culPmg != null ? (numberText(culture.culPmg, lang) ?? "") : ""),
      doseGrains: c.doseGrains || (culture?.culGrainDose != null ? (numberText(culture.culGrainDose, lang) ?? "") : ""),
    }));
  }, [culture, lang]);
  const convert = () => {
    const r = conversionSemence(conversion.mesure, {
      densite: asNumber(conversion.densite),
      pmg: asNumber(conversion.pmg),
      doseGrains: asNumber(conversion.doseGrains),
    });
    setConversion((c) => ({ ...c, result: r.ok ? formatNumber(r.value, lang, 3) : "", error: r.ok ? "" : r.error }));
  };

  return (
    <Frame
      title={t("interventions.dialogs.semence")}
      testId="dialog-semence"
      form={form}
      fetcher={fetcher}
      busy={busy}
      readOnly={readOnly}
      onClose={onClose}
      intervention={intervention}
      stored={stored}
      intent="saveSemence"
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id={fields.idCulture.id} label={t("interventions.dialogs.espece")} errors={fields.idCulture.errors}>
          <select {...getSelectProps(fields.idCulture)} className="field-input" data-testid="semence-espece">
            <option value="">{t("context.choose")}</option>
            {cultures.map((c) => (
              <option key={c.id} value={c.id}>
                {labelOf(c, lang)}
              </option>
            ))}
          </select>
        </Field>
        <ProductPicker
          field={fields.idIntrant}
          origineField={fields.origine}
          label={t("interventions.dialogs.variete")}
          items={varieties.data?.items ?? []}
          loading={varieties.loading}
          testId="semence-variete"
        />
        <NumberField field={fields.quantite} label={t("interventions.dialogs.dose")} testId="semence-dose" bounds={SemenceSchema.shape.quantite} />
        {stored && !stored.unite ? (
          <UnitSelect field={fields.dicLlUnite} label={t("interventions.dialogs.unite-manquante")} units={UNITES.semence} testId="semence-unite" />
        ) : (
          <UnitSelect field={fields.dicLlUnite} label={t("interventions.dialogs.unite")} units={UNITES.semence} testId="semence-unite" />
        )}
        <NumberField field={fields.semenceFerme} label={t("interventions.dialogs.semence-ferme")} testId="semence-ferme" />
        <NumberField field={fields.semenceCertifiee} label={t("interventions.dialogs.semence-certifiee")} testId="semence-certifiee" />
        <NumberField field={fields.semenceOgm} label={t("interventions.dialogs.semence-ogm")} testId="semence-ogm" />
      </div>
      <fieldset className="mb-3 rounded border border-stone-200 p-2" data-testid="semence-conversion">
        <legend className="px-1 text-sm font-semibold">{t("interventions.dialogs.conversion")}</legend>
        <div className="grid items-end gap-x-3 sm:grid-cols-5">
          <label className="text-sm">
            {t("interventions.dialogs.mesure")}
            <select
              className="field-input"
              value={conversion.mesure}
              onChange={(e) => setConversion((c) => ({ ...c, mesure: e.target.value as MesureConversion }))}
              data-testid="conversion-mesure"
            >
              {MESURES_CONVERSION.map((m) => (
                <option key={m} value={m}>
                  {t(`interventions.dialogs.mesures.${m}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            {t("interventions.dialogs.densite")}
            <input
              className="field-input"
              inputMode="decimal"
              value={conversion.densite}
              onChange={(e) => setConversion((c) => ({ ...c, densite: e.target.value }))}
              data-testid="conversion-densite"
            />
          </label>
          <label className="text-sm">
            {t("interventions.dialogs.pmg")}
            <input
              className="field-input"
              inputMode="decimal"
              value={conversion.pmg}
              onChange={(e) => setConversion((c) => ({ ...c, pmg: e.target.value }))}
              data-testid="conversion-pmg"
            />
          </label>
          <label className="text-sm">
            {t("interventions.dialogs.dose-grains")}
            <input
              className="field-input"
              inputMode="decimal"
              value={conversion.doseGrains}
              onChange={(e) => setConversion((c) => ({ ...c, doseGrains: e.target.value }))}
              data-testid="conversion-dose"
            />
          </label>
          <button type="button" className="btn-secondary mb-0.5" onClick={convert} data-testid="conversion-calculer">
            {t("interventions.dialogs.convertir")}
          </button>
        </div>
        <p role="status" className="mt-1 text-sm" data-testid="conversion-resultat">
          {conversion.error ? (
            <span className="text-red-800">{conversion.error}</span>
          ) : conversion.result ? (
            t("interventions.dialogs.resultat", { valeur: conversion.result })
          ) : (
            ""
          )}
        </p>
      </fieldset>
      {stored ? null : (
        <fieldset className="rounded border border-stone-200 p-2" data-testid="semence-traitement">
          <legend className="px-1 text-sm font-semibold">{t("interventions.dialogs.traitement")}</legend>
          <ProductPicker
            field={fields.idTraitement}
            origineField={fields.origineTraitement}
            label={t("interventions.dialogs.produit-traitement")}
            items={treatments.data?.items ?? []}
            loading={treatments.loading}
            onSearch={setTreatmentSearch}
            testId="traitement-produit"
          />
          <div className="grid gap-x-4 sm:grid-cols-2">
            <NumberField field={fields.quantiteTraitement} label={t("interventions.dialogs.dose")} testId="traitement-dose" />
            <UnitSelect field={fields.uniteTraitement} label={t("interventions.dialogs.unite")} units={UNITES.phyto} testId="traitement-unite" />
          </div>
        </fieldset>
      )}
    </Frame>
  );
}
