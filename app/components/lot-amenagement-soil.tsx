import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes } from "react";
import { useTranslation } from "~/use-translation";
import { numberText, refLabel } from "./farm-form";
import { Field, TextInput } from "./field";

/**
 * The soil panel and the check boxes shared by the plot group and landscape feature forms (spec 2 §3:
 * idTypeSolArvalis, idAeeTypeSol, profondeurSolCm, reserveUtileMm, idTypeSousSol, idAciditeSol,
 * idProfondeurSol), with the labels of the farm's soil screen.
 */
type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
type Option = { id: number; libelle: string; libelleEn: string | null };
export type SoilLists = { typesSolArvalis: Option[]; typesSolAee: Option[]; typesSousSol: Option[]; aciditesSol: Option[]; profondeursSol: Option[] };
export type SoilFieldsMeta = {
  idTypeSolArvalis: Meta;
  idAeeTypeSol: Meta;
  profondeurSolCm: Meta;
  reserveUtileMm: Meta;
  idTypeSousSol: Meta;
  idAciditeSol: Meta;
  idProfondeurSol: Meta;
};
type SoilValues = {
  idTypeSolArvalis?: number;
  idAeeTypeSol?: number;
  profondeurSolCm?: number;
  reserveUtileMm?: number;
  idTypeSousSol?: number;
  idAciditeSol?: number;
  idProfondeurSol?: number;
};

/** The soil values of a row as the form's default values (ids as strings, decimals in the UI language). */
export function soilDefaults(row: SoilValues, language: string) {
  const id = (v: number | undefined) => (v == null ? undefined : String(v));
  return {
    idTypeSolArvalis: id(row.idTypeSolArvalis),
    idAeeTypeSol: id(row.idAeeTypeSol),
    idTypeSousSol: id(row.idTypeSousSol),
    idAciditeSol: id(row.idAciditeSol),
    idProfondeurSol: id(row.idProfondeurSol),
    profondeurSolCm: numberText(row.profondeurSolCm, language),
    reserveUtileMm: numberText(row.reserveUtileMm, language),
  };
}

function ListField({ field, label, options }: { field: Meta; label: string; options: Option[] }) {
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

export function SoilFields({ fields, lists }: { fields: SoilFieldsMeta; lists: SoilLists }) {
  const { t } = useTranslation();
  const number = (field: Meta, label: string, unit: string, mode: InputHTMLAttributes<HTMLInputElement>["inputMode"]) => (
    <Field id={field.id} label={`${label} (${unit})`} errors={field.errors}>
      <TextInput {...getInputProps(field, { type: "text" })} inputMode={mode} invalid={!!field.errors} describedBy={`${field.id}-error`} />
    </Field>
  );
  return (
    <div className="grid gap-x-4 sm:grid-cols-2">
      <ListField field={fields.idTypeSolArvalis} label={t("caracteristiquesPedologiques.idTypeSolArvalis")} options={lists.typesSolArvalis} />
      <ListField field={fields.idAeeTypeSol} label={t("caracteristiquesPedologiques.idAeeTypeSol")} options={lists.typesSolAee} />
      <ListField field={fields.idTypeSousSol} label={t("caracteristiquesPedologiques.idTypeSousSol")} options={lists.typesSousSol} />
      <ListField field={fields.idAciditeSol} label={t("caracteristiquesPedologiques.idAciditeSol")} options={lists.aciditesSol} />
      {number(fields.profondeurSolCm, t("caracteristiquesPedologiques.profondeurSolCm"), "cm", "numeric")}
      <ListField field={fields.idProfondeurSol} label={t("caracteristiquesPedologiques.idProfondeurSol")} options={lists.profondeursSol} />
      {number(fields.reserveUtileMm, t("caracteristiquesPedologiques.reserveUtileMm"), "mm", "decimal")}
    </div>
  );
}

/** A labelled check box bound to a conform field ("on" when ticked). */
export function CheckField({ field, label }: { field: Meta; label: string }) {
  return (
    <div className="mb-3 flex items-center gap-2 pt-5">
      <input {...getInputProps(field, { type: "checkbox" })} className="h-4 w-4 accent-sillon-700" />
      <label htmlFor={field.id} className="text-sm">
        {label}
      </label>
    </div>
  );
}
