import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { CommuneSelect, DepartementSelect, departementOf, useCommunes, type CommuneList, type DepartementOption } from "~/components/commune-picker";
import { formatNumber, numberText } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import type { MapConfig } from "~/components/map/types";
import { surfaceOfGeometrie, typeOfGeometrie } from "~/domain/parcelle";
import { PlotMap } from "~/components/map/plot-map";

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
type Update = (options: { name: string; value: string }) => void;

/**
 * The geodata panel (spec 2 §2, §3, §4; B-MAP-01 to B-MAP-07): department and commune pickers, read-only
 * postal and INSEE codes, PAC island number, real surface and the map. The department follows the
 * commune's INSEE code; choosing a department clears the commune; choosing one sets both codes and
 * centres the map on it when its coordinates are known.
 */
export function GeodataPanel({
  fields,
  departements,
  communes: loaded,
  initialCodeInsee,
  libelleCommune,
  geometrie,
  onGeometrie,
  update,
  readOnly,
  mapConfig,
}: {
  fields: { codeInsee: Meta; codePostal: Meta; noIlotPac: Meta; surfaceReelle: Meta; surface: Meta };
  departements: readonly DepartementOption[];
  communes: CommuneList;
  initialCodeInsee: string | null;
  libelleCommune: string | null;
  geometrie: string | null;
  onGeometrie: (geometrie: string | null) => void;
  update: Update;
  readOnly: boolean;
  mapConfig: MapConfig | null;
}) {
  const { t, i18n } = useTranslation();
  const [departement, setDepartement] = useState<DepartementOption | null>(() => departementOf(departements, initialCodeInsee));
  const [centre, setCentre] = useState<{ lat: number; lon: number } | null>(null);
  const { rows: communes, loading } = useCommunes(departement?.numDept ?? null, loaded);
  const codeInsee = typeof fields.codeInsee.value === "string" ? fields.codeInsee.value : "";
  const type = typeOfGeometrie(geometrie);
  // The polygon's area is the real surface (docs/decisions/0023-plot-surface.md), as the server computes it.
  const drawnHa = surfaceOfGeometrie(geometrie);
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const surfaceText = text(fields.surface.value).trim();
  const drawnText = drawnHa === null ? "" : (numberText(drawnHa, i18n.language) ?? "");

  /**
   * A new shape: its area becomes the real surface, and the surface too when the surface is empty or was
   * the previous shape's area; a surface typed by the user is kept, and the area offered beside it.
   * Removing a polygon clears the real surface it gave.
   */
  const changeGeometrie = (g: string | null) => {
    const before = drawnText;
    const area = surfaceOfGeometrie(g);
    const areaText = area === null ? "" : (numberText(area, i18n.language) ?? "");
    onGeometrie(g);
    if (area !== null) {
      update({ name: fields.surfaceReelle.name, value: areaText });
      if (!surfaceText || (before && surfaceText === before)) update({ name: fields.surface.name, value: areaText });
    } else if (before && text(fields.surfaceReelle.value).trim() === before) {
      update({ name: fields.surfaceReelle.name, value: "" });
    }
  };

  const chooseDepartement = (d: DepartementOption | null) => {
    setDepartement(d);
    update({ name: fields.codeInsee.name, value: "" });
    update({ name: fields.codePostal.name, value: "" });
  };
  const chooseCommune = (c: (typeof communes)[number] | null) => {
    update({ name: fields.codeInsee.name, value: c?.ci ?? "" });
    update({ name: fields.codePostal.name, value: c?.cp ?? "" });
    if (c?.lat != null && c.lon != null) setCentre({ lat: c.lat, lon: c.lon });
  };

  return (
    <div data-testid="geodata-panel">
      <div className="grid gap-x-4 sm:grid-cols-2">
        <DepartementSelect
          departements={departements}
          value={departement?.numDept ?? ""}
          onChoose={chooseDepartement}
          label={t("parcelle.departement")}
          selectProps={{ id: `${fields.codeInsee.id}-departement`, disabled: readOnly }}
        />
        <CommuneSelect
          departement={departement}
          communes={communes}
          loading={loading}
          value={codeInsee}
          storedLabel={codeInsee === initialCodeInsee ? libelleCommune : null}
          onChoose={chooseCommune}
          label={t("parcelle.commune")}
          errors={fields.codeInsee.errors}
          selectProps={{ id: fields.codeInsee.id, name: fields.codeInsee.name, disabled: readOnly }}
        />
        <Field id={`${fields.codeInsee.id}-display`} label={t("parcelle.codeInsee")}>
          <TextInput id={`${fields.codeInsee.id}-display`} value={codeInsee} readOnly className="field-input bg-stone-50" data-testid="code-insee" />
        </Field>
        <Field id={fields.codePostal.id} label={t("parcelle.codePostal")} errors={fields.codePostal.errors}>
          <TextInput {...getInputProps(fields.codePostal, { type: "text" })} readOnly className="field-input bg-stone-50" data-testid="code-postal" />
        </Field>
        <Field id={fields.noIlotPac.id} label={t("parcelle.noIlotPac")} errors={fields.noIlotPac.errors}>
          <TextInput
            {...getInputProps(fields.noIlotPac, { type: "text" })}
            invalid={!!fields.noIlotPac.errors}
            describedBy={`${fields.noIlotPac.id}-error`}
            disabled={readOnly}
          />
        </Field>
        <Field
          id={fields.surfaceReelle.id}
          label={t("parcelle.surfaceReelle")}
          errors={fields.surfaceReelle.errors}
          help={drawnHa !== null ? t("parcelle.carte.surface-reelle-drawn") : undefined}
        >
          <TextInput
            {...getInputProps(fields.surfaceReelle, { type: "text" })}
            inputMode="decimal"
            invalid={!!fields.surfaceReelle.errors}
            describedBy={`${fields.surfaceReelle.id}-error`}
            disabled={readOnly}
            readOnly={drawnHa !== null}
            {...(drawnHa !== null ? { className: "field-input bg-stone-50" } : {})}
            data-testid="surface-reelle"
          />
          {drawnHa !== null && !readOnly && surfaceText !== drawnText ? (
            <button
              type="button"
              className="btn-secondary mt-1 text-xs"
              data-testid="use-drawn-surface"
              onClick={() => update({ name: fields.surface.name, value: drawnText })}
            >
              {t("parcelle.carte.use-drawn", { surface: formatNumber(drawnHa, i18n.language, 2) })}
            </button>
          ) : null}
        </Field>
      </div>
      <input type="hidden" name="geometrie" value={geometrie ?? ""} />
      <input type="hidden" name="typeGeometrie" value={type ?? ""} />
      <p className="mb-1 text-xs text-stone-600" data-testid="geometrie-type">
        {t("parcelle.carte.geometrie", { type: t(type ? `parcelle.carte.geometrie-${type}` : "parcelle.carte.geometrie-none") })}
      </p>
      <PlotMap
        geometrie={geometrie}
        onChange={(g) => changeGeometrie(g)}
        centre={centre}
        readOnly={readOnly}
        config={mapConfig}
        label={t("parcelle.carte.label")}
      />
      {departement && communes.length > 0 && communes.every((c) => c.lat == null) ? (
        <p className="mt-1 text-xs text-stone-500">{t("parcelle.carte.no-centre")}</p>
      ) : null}
    </div>
  );
}
