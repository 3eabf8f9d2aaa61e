import { useInputControl, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { useEffect, useEffectEvent } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { refLabel } from "~/components/farm-form";
import { PlusIcon } from "~/components/icons";
import { PendingOption } from "~/components/pending-option";
import type { ModeConduiteCultureInput } from "~/domain/mode-conduite";

export type CultureOption = { id: number; libelle: string; libelleEn: string | null; famille: string | null; idCatCulture: number | null };
export type CategorieOption = { id: number; code: string; libelle: string; libelleEn: string | null };
export type LibelleOption = { id: number; libelle: string; libelleEn: string | null };

type RowInput = { [K in keyof ModeConduiteCultureInput]?: string };
type RowField = FieldMetadata<RowInput>;

const RemoveIcon = () => (
  <svg viewBox="0 0 24 24" width={18} height={18} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden>
    <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />
  </svg>
);

/** The crops grouped by family, in the reference order, for the pickers. */
export function CultureOptions({ cultures }: { cultures: readonly CultureOption[] }) {
  const { t, i18n } = useTranslation();
  const groups = new Map<string, CultureOption[]>();
  for (const c of cultures) groups.set(c.famille ?? "", [...(groups.get(c.famille ?? "") ?? []), c]);
  // Crops without a family (added locally) come last, under their own heading.
  const ordered = [...groups.entries()].sort(([a], [b]) => Number(a === "") - Number(b === ""));
  return (
    <>
      {ordered.map(([famille, list]) => (
        <optgroup key={famille} label={famille ? t(`cultures.familles.${famille}`, { defaultValue: famille }) : t("cultures.familles.sans-famille")}>
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {refLabel(c, i18n.language)}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/** One crop row (B-CROP-03): crop, category and the crop's qualifiers, loaded when the crop is set or changes (B-CROP-04). */
function CropRow({
  index,
  field,
  cultures,
  categories,
  canWrite,
  onRemove,
  onChange,
}: {
  index: number;
  field: RowField;
  cultures: readonly CultureOption[];
  categories: readonly CategorieOption[];
  canWrite: boolean;
  onRemove: () => void;
  onChange: () => void;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const f = field.getFieldset();
  const culture = useInputControl(f.idCulture);
  const categorie = useInputControl(f.idCatCulture);
  const qualifiant = useInputControl(f.idQualifiant);
  const qualifiants = useFetcher<{ qualifiants: LibelleOption[] | null }>();
  const idCulture = culture.value ?? "";

  const loadQualifiants = useEffectEvent((id: string) => qualifiants.load(`${location.pathname}?qualifiants=${encodeURIComponent(id)}`));
  useEffect(() => {
    if (idCulture) void loadQualifiants(idCulture);
  }, [idCulture]);

  const options = idCulture ? (qualifiants.data?.qualifiants ?? null) : [];
  const loading = idCulture !== "" && (qualifiants.state !== "idle" || options === null);
  const n = index + 1;

  /** A new crop clears the qualifier (it belongs to the crop) and proposes the crop's category. */
  function onCulture(value: string) {
    culture.change(value);
    qualifiant.change("");
    const c = cultures.find((x) => String(x.id) === value);
    if (c?.idCatCulture != null) categorie.change(String(c.idCatCulture));
    onChange();
  }

  return (
    <tr className="border-b border-stone-100 align-top" data-testid="crop-row">
      <td className="py-1 pr-2">
        <input type="hidden" name={f.id.name} value={f.id.initialValue ?? ""} />
        <label htmlFor={f.idCulture.id} className="sr-only">
          {t("cultures.idCulture")} ({t("cultures.ligne", { n })})
        </label>
        <select
          id={f.idCulture.id}
          name={f.idCulture.name}
          className="field-input"
          value={idCulture}
          onChange={(e) => onCulture(e.target.value)}
          aria-invalid={f.idCulture.errors ? true : undefined}
          aria-describedby={f.idCulture.errors ? `${f.idCulture.id}-error` : undefined}
          data-testid={`crop-row-${index}-culture`}
        >
          <option value="">{t("context.choose")}</option>
          <CultureOptions cultures={cultures} />
        </select>
        {f.idCulture.errors ? (
          <p id={`${f.idCulture.id}-error`} className="field-error">
            {t(f.idCulture.errors[0])}
          </p>
        ) : null}
      </td>
      <td className="py-1 pr-2">
        <label htmlFor={f.idCatCulture.id} className="sr-only">
          {t("cultures.idCatCulture")} ({t("cultures.ligne", { n })})
        </label>
        <select
          id={f.idCatCulture.id}
          name={f.idCatCulture.name}
          className="field-input"
          value={categorie.value ?? ""}
          onChange={(e) => {
            categorie.change(e.target.value);
            onChange();
          }}
          data-testid={`crop-row-${index}-categorie`}
        >
          <option value="">{t("cultures.categorie-defaut")}</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {refLabel(c, i18n.language)}
            </option>
          ))}
        </select>
      </td>
      <td className="py-1 pr-2">
        <label htmlFor={f.idQualifiant.id} className="sr-only">
          {t("cultures.idQualifiant")} ({t("cultures.ligne", { n })})
        </label>
        <select
          id={f.idQualifiant.id}
          name={f.idQualifiant.name}
          className="field-input"
          value={qualifiant.value ?? ""}
          aria-busy={loading || undefined}
          onChange={(e) => {
            qualifiant.change(e.target.value);
            onChange();
          }}
          data-testid={`crop-row-${index}-qualifiant`}
        >
          <option value="">{loading ? t("cultures.qualifiant-loading") : t("cultures.qualifiant-none")}</option>
          {loading ? <PendingOption value={qualifiant.value ?? ""} offered={options} label={t("cultures.qualifiant-loading")} /> : null}
          {(options ?? []).map((q) => (
            <option key={q.id} value={q.id}>
              {refLabel(q, i18n.language)}
            </option>
          ))}
        </select>
        {f.idQualifiant.errors ? <p className="field-error">{t(f.idQualifiant.errors[0])}</p> : null}
      </td>
      <td className="w-10 py-1 text-right">
        {canWrite ? (
          <button
            type="button"
            className="btn-icon mt-0.5"
            onClick={onRemove}
            aria-label={t("cultures.retirer-culture", { n })}
            title={t("cultures.retirer-culture", { n })}
            data-testid={`crop-row-${index}-remove`}
          >
            <RemoveIcon />
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The crop rows of a management mode (modeConduiteCultureList): rows are added and removed in the form and
 * saved with the mode (B-CROP-06 to B-CROP-09); the add and remove icons show only with canWriteDescriptif
 * (B-RIGHTS-04).
 */
export function CropRows({
  form,
  field,
  cultures,
  categories,
  canWrite,
  onChange,
}: {
  form: FormMetadata<Record<string, unknown>, string[]>;
  field: FieldMetadata<RowInput[] | undefined>;
  cultures: readonly CultureOption[];
  categories: readonly CategorieOption[];
  canWrite: boolean;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const rows = field.getFieldList();
  return (
    <div data-testid="crop-rows">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-xs text-stone-600">
            <th className="pb-1 font-medium">{t("cultures.idCulture")}</th>
            <th className="pb-1 font-medium">{t("cultures.idCatCulture")}</th>
            <th className="pb-1 font-medium">{t("cultures.idQualifiant")}</th>
            <th className="pb-1">
              <span className="sr-only">{t("cultures.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <CropRow
              key={row.key}
              index={index}
              field={row as RowField}
              cultures={cultures}
              categories={categories}
              canWrite={canWrite}
              onChange={onChange}
              onRemove={() => {
                form.remove({ name: field.name, index });
                onChange();
              }}
            />
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? <p className="py-2 text-sm text-stone-500">{t("cultures.cultures-none")}</p> : null}
      {canWrite ? (
        <button
          type="button"
          className="btn-secondary mt-2"
          onClick={() => {
            form.insert({ name: field.name, defaultValue: {} });
            onChange();
          }}
          data-testid="crop-row-add"
        >
          <PlusIcon width={16} height={16} /> {t("cultures.ajouter-culture")}
        </button>
      ) : null}
    </div>
  );
}
