import { getFormProps } from "@conform-to/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import type { z } from "zod";
import { AppDialog } from "~/components/dialog";
import { Field, TextInput } from "~/components/field";
import { formatDate } from "~/components/format";
import { useListForm, type ListFormControls } from "~/components/list-screen";
import { champsDuType, SerieSchema } from "~/domain/observation";
import { FichiersDialog } from "./fichiers-dialog";
import { ObservationsPanel } from "./observations-panel";
import { PlacettesDialog } from "./placettes-dialog";
import { lbl, type MesuresData, type SerieRow } from "./types";

const isoToText = (iso: string | undefined) =>
  iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : (iso ?? "");
const parisToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

/**
 * The details panel (spec 2 §2, B-OBS-12): the series form on the left, the observations on the right (once the
 * series exists).
 */
export function SerieDetails({ data, row, controls }: { data: MesuresData; row: SerieRow | null; controls: ListFormControls }) {
  const [placettesOpen, setPlacettesOpen] = useState(false);
  return (
    <div className="grid gap-6 min-[1600px]:grid-cols-[minmax(300px,360px)_1fr]" data-testid="serie-details">
      <SerieForm data={data} row={row} controls={controls} onPlacettes={() => setPlacettesOpen(true)} />
      <ObservationsPanel data={data} row={row} readOnly={controls.readOnly} onPlacettes={() => setPlacettesOpen(true)} />
      <PlacettesDialog open={placettesOpen} data={data} readOnly={controls.readOnly} onClose={() => setPlacettesOpen(false)} />
    </div>
  );
}

function SerieForm({ data, row, controls, onPlacettes }: { data: MesuresData; row: SerieRow | null; controls: ListFormControls; onPlacettes: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const readOnly = controls.readOnly;
  const [type, setType] = useState<string>(row ? String(row.dicIdTypeSerie) : "");
  const [nom, setNom] = useState(row?.nom ?? "");
  const [culture, setCulture] = useState(row?.idCulture == null ? "" : String(row.idCulture));
  const [stade, setStade] = useState(row?.idStade == null ? "" : String(row.idStade));
  const [parPlacette, setParPlacette] = useState(row?.isPlacetteSelected ?? false);
  const [placettes, setPlacettes] = useState<number[]>(row?.placettes ?? []);
  const [unticking, setUnticking] = useState<number | null>(null);
  const [fichiers, setFichiers] = useState(false);

  const { fetcher, form, fields, dirty, markDirty } = useListForm<{ [K in keyof z.input<typeof SerieSchema>]?: string }>(controls, {
    name: "serie",
    rowId: row?.id,
    schema: SerieSchema,
    defaultValue: {
      date: isoToText(row?.date ?? parisToday()),
      organeEtudie: row?.organeEtudie == null ? "" : String(row.organeEtudie),
      idAction: row?.idAction == null ? "" : String(row.idAction),
      laboratoire: row?.laboratoire ?? "",
      remarque: row?.remarque ?? "",
    },
  });
  // Validate closes the panel (B-OBS-29); a new series stays open for its observations.
  const [closing, setClosing] = useState(false);
  useEffect(() => {
    if (closing && fetcher.state === "idle" && fetcher.data?.ok && row) controls.close();
  }, [closing, fetcher.state, fetcher.data, row, controls]);

  const champs = champsDuType(type ? Number(type) : null);
  const crop = data.cultures.find((c) => String(c.id) === culture) ?? null;
  const stades = crop ? data.stades.filter((s) => s.idEchelleStadeAee === crop.idEchelleStadeAee) : [];
  const typeLabel = (id: string) => {
    const x = data.types.find((y) => String(y.id) === id);
    return x ? lbl(x, lang) : "";
  };

  return (
    <>
      <fetcher.Form
        method="post"
        {...getFormProps(form)}
        onInput={markDirty}
        onSubmit={(e) => {
          setClosing(!!row);
          getFormProps(form).onSubmit?.(e);
        }}
        aria-labelledby="serie-form-title"
        data-testid="serie-form"
      >
        <h2 id="serie-form-title" className="mb-2 font-semibold">
          {t("observations.serie.titre")}
        </h2>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="idParcelle" value={row?.idParcelle ?? data.idParcelle ?? ""} />
        {row ? (
          <>
            <input type="hidden" name="id" value={row.id} />
            <input type="hidden" name="updatedAt" value={row.updatedAt} />
          </>
        ) : null}
        <fieldset disabled={readOnly} className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3 min-[1600px]:grid-cols-1">
          <Field id={fields.date.id} label={t("observations.serie.date")} errors={fields.date.errors}>
            <TextInput
              id={fields.date.id}
              name={fields.date.name}
              defaultValue={fields.date.initialValue as string}
              inputMode="numeric"
              autoComplete="off"
              placeholder="jj/mm/aaaa"
              invalid={!!fields.date.errors}
              describedBy={`${fields.date.id}-error`}
              data-testid="serie-date"
            />
          </Field>
          <Field id={fields.dicIdTypeSerie.id} label={t("observations.serie.type")} errors={fields.dicIdTypeSerie.errors}>
            {/* In edit mode the type is read-only (B-OBS-23): shown, and sent as it is. */}
            <select
              id={fields.dicIdTypeSerie.id}
              name={row ? undefined : fields.dicIdTypeSerie.name}
              className="field-input"
              value={type}
              disabled={!!row}
              onChange={(e) => {
                const next = e.target.value;
                // A new series takes the type's label as its name (B-OBS-22), unless the user wrote another.
                if (!row && (nom === "" || nom === typeLabel(type))) setNom(typeLabel(next));
                setType(next);
              }}
              data-testid="serie-type"
            >
              <option value="">{t("context.choose")}</option>
              {data.types.map((x) => (
                <option key={x.id} value={x.id}>
                  {lbl(x, lang)}
                </option>
              ))}
            </select>
            {row ? <input type="hidden" name={fields.dicIdTypeSerie.name} value={type} /> : null}
          </Field>
          <Field id={fields.nom.id} label={t("observations.serie.nom")} errors={fields.nom.errors}>
            <TextInput
              id={fields.nom.id}
              name={fields.nom.name}
              value={nom}
              onChange={(e) => setNom(e.target.value)}
              invalid={!!fields.nom.errors}
              describedBy={`${fields.nom.id}-error`}
              data-testid="serie-nom"
            />
          </Field>
          <Field id={fields.idCulture.id} label={t("observations.serie.culture")} errors={fields.idCulture.errors}>
            <select
              id={fields.idCulture.id}
              name={fields.idCulture.name}
              className="field-input"
              value={culture}
              // Clearing (or changing) the crop clears the stage (B-OBS-24).
              onChange={(e) => {
                setCulture(e.target.value);
                setStade("");
              }}
              data-testid="serie-culture"
            >
              <option value="">{t("context.choose")}</option>
              {data.cultures.map((c) => (
                <option key={c.id} value={c.id}>
                  {lbl(c, lang)}
                </option>
              ))}
            </select>
          </Field>
          {champs.organe ? (
            <Field id={fields.organeEtudie.id} label={t("observations.serie.organe")} errors={fields.organeEtudie.errors}>
              <select
                id={fields.organeEtudie.id}
                name={fields.organeEtudie.name}
                className="field-input"
                defaultValue={fields.organeEtudie.initialValue as string}
                data-testid="serie-organe"
              >
                <option value="">{t("context.choose")}</option>
                {data.organes.map((o) => (
                  <option key={o.id} value={o.id}>
                    {lbl(o, lang)}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          {champs.stade ? (
            <Field
              id={fields.idStade.id}
              label={t("observations.serie.stade")}
              errors={fields.idStade.errors}
              help={crop ? undefined : t("observations.serie.choisir-culture")}
            >
              <select
                id={fields.idStade.id}
                name={fields.idStade.name}
                className="field-input"
                value={stade}
                disabled={!crop}
                onChange={(e) => setStade(e.target.value)}
                data-testid="serie-stade"
              >
                <option value="">{t("context.choose")}</option>
                {stades.map((s) => (
                  <option key={s.id} value={s.id}>
                    {lbl(s, lang)}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <Field id={fields.idAction.id} label={t("observations.serie.intervention")} errors={fields.idAction.errors}>
            <select
              id={fields.idAction.id}
              name={fields.idAction.name}
              className="field-input"
              defaultValue={fields.idAction.initialValue as string}
              data-testid="serie-intervention"
            >
              <option value="">{t("context.choose")}</option>
              {data.interventions.map((a) => (
                <option key={a.id} value={a.id}>
                  {formatDate(`${a.date}T12:00:00Z`)} – {a.libelle}
                </option>
              ))}
            </select>
          </Field>
          {champs.laboratoire ? (
            <Field id={fields.laboratoire.id} label={t("observations.serie.laboratoire")} errors={fields.laboratoire.errors}>
              <TextInput
                id={fields.laboratoire.id}
                name={fields.laboratoire.name}
                defaultValue={fields.laboratoire.initialValue as string}
                invalid={!!fields.laboratoire.errors}
                data-testid="serie-laboratoire"
              />
            </Field>
          ) : null}
          <Field id={fields.remarque.id} label={t("observations.serie.remarque")} errors={fields.remarque.errors}>
            <textarea
              id={fields.remarque.id}
              name={fields.remarque.name}
              className="field-input"
              rows={2}
              defaultValue={fields.remarque.initialValue as string}
              data-testid="serie-remarque"
            />
          </Field>
          <div className="mb-3 sm:col-span-2 lg:col-span-3 min-[1600px]:col-span-1">
            {/* Placette mode is chosen on a new series only (B-PLAC-06). */}
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                name={fields.isPlacetteSelected.name}
                checked={parPlacette}
                disabled={!!row}
                onChange={(e) => setParPlacette(e.target.checked)}
                data-testid="serie-par-placette"
              />
              {t("observations.serie.par-placette")}
            </label>
            {row && parPlacette ? <input type="hidden" name={fields.isPlacetteSelected.name} value="on" /> : null}
            {parPlacette ? (
              <fieldset className="mt-2 rounded border border-stone-200 p-2" data-testid="serie-placettes">
                <legend className="px-1 text-sm">{t("observations.serie.placettes")}</legend>
                {data.placettes.length === 0 ? <p className="text-sm text-stone-600">{t("observations.serie.aucune-placette")}</p> : null}
                {data.placettes.map((p) => (
                  <label key={p.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={placettes.includes(p.id)}
                      onChange={(e) => {
                        if (e.target.checked) setPlacettes([...placettes, p.id]);
                        // Unticking a saved placette asks first: its values go at save (B-PLAC-08).
                        else if (row?.placettes.includes(p.id)) setUnticking(p.id);
                        else setPlacettes(placettes.filter((x) => x !== p.id));
                      }}
                      data-testid={`serie-placette-${p.id}`}
                    />
                    {p.libelle}
                  </label>
                ))}
                <button type="button" className="btn-secondary mt-1" onClick={onPlacettes} data-testid="serie-placettes-dialog">
                  {t("observations.placettes.bouton")}
                </button>
              </fieldset>
            ) : null}
            {placettes.map((id) => (
              <input key={id} type="hidden" name={fields.placettes.name} value={id} />
            ))}
          </div>
        </fieldset>
        <div className="mb-3">
          <span className="field-label">{t("observations.serie.fichiers")}</span>
          {/* Attached files only after creation (B-FILE-01). */}
          {row ? (
            <button type="button" className="btn-secondary" onClick={() => setFichiers(true)} data-testid="serie-fichiers">
              {t("observations.fichiers.titre")} ({data.detail?.idSerie === row.id ? data.detail.fichiers.length : "…"})
            </button>
          ) : (
            <p className="text-sm text-stone-600" data-testid="serie-fichiers-apres">
              {t("observations.serie.fichiers-apres")}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={controls.close}>
            {t("ui.close")}
          </button>
          {readOnly ? null : (
            // Validate: changed and valid only (B-OBS-28).
            <button type="submit" className="btn-primary" disabled={!form.valid || !dirty || fetcher.state !== "idle"} data-testid="list-save">
              {row ? t("observations.serie.valider") : t("ui.add")}
            </button>
          )}
        </div>
      </fetcher.Form>
      <AppDialog
        open={unticking !== null}
        title={t("observations.serie.decocher-titre")}
        width={500}
        testId="untick-dialog"
        onEscape={() => setUnticking(null)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setUnticking(null)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                setPlacettes(placettes.filter((x) => x !== unticking));
                setUnticking(null);
                markDirty();
              }}
              data-testid="untick-confirm"
            >
              {t("ui.ok")}
            </button>
          </>
        }
      >
        <p>{t("observations.serie.decocher-texte", { libelle: data.placettes.find((p) => p.id === unticking)?.libelle ?? "" })}</p>
      </AppDialog>
      {row ? <FichiersDialog open={fichiers} data={data} serie={row} readOnly={readOnly} onClose={() => setFichiers(false)} /> : null}
    </>
  );
}
