import { useTranslation } from "~/use-translation";
import { z } from "zod";
import { MesuresScreen } from "~/components/observations/mesures-screen";
import { ScreenFrame } from "~/components/screen-frame";
import { rawPatchSchema } from "~/domain/grid-patches";
import { CopieSeriesSchema, DossierObservationSchema, HorizonSchema, PlacetteSchema, SerieSchema } from "~/domain/observation";
import {
  deleteIntent,
  editOf,
  formIntent,
  idField,
  intent,
  jsonField,
  optionalIdField,
  queryId,
  rowIntent,
  saveIntent,
  screenAction,
  screenLoader,
  stampField,
} from "#server/http/route.server";
import {
  copierSeries,
  getMesures,
  OBS_LOAD_ERROR,
  removeFichier,
  removeHorizon,
  removeObservations,
  removePlacette,
  removeSeries,
  saveDossierObservation,
  saveHorizon,
  saveObservationsGrid,
  savePlacette,
  saveSerie,
  maxBytes,
} from "#server/observation/service.server";
import { mapConfig } from "#server/env.server";
import type { Route } from "./+types/mesures";

/**
 * The measures screen (spec 2 "Observation measures", issue 15): a plot's observation series with their form, the
 * observations grid, placettes, horizons and attached files. `parcelleId` chooses the plot (the first otherwise,
 * B-OBS-04), `id` the series shown.
 */

export const loader = screenLoader(
  async ({ scope, query }) => {
    // `id` is the selected series, or "new" while one is created.
    const selected = query.get("id");
    const data = await getMesures(scope, {
      parcelleId: queryId(query, "parcelleId"),
      serieId: selected && /^\d{1,9}$/.test(selected) ? Number(selected) : null,
    });
    return { ...data, maxMo: Math.round((maxBytes() / 1024 / 1024) * 100) / 100, mapConfig: mapConfig() };
  },
  { loadError: OBS_LOAD_ERROR },
);

const serieFields = { idSerie: idField };

export const action = screenAction(
  {
    save: saveIntent(SerieSchema, ({ scope }, value, edit) => saveSerie(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeSeries(scope, ids)),
    grid: intent({ idSerie: idField, patches: jsonField(z.array(rawPatchSchema).max(5000, "warning.too-many")) }, async ({ scope }, { idSerie, patches }) => ({
      ok: true as const,
      ...(await saveObservationsGrid(scope, idSerie, patches)),
    })),
    deleteObservation: intent({ ...serieFields, id: idField }, async ({ scope }, { idSerie, id }) => {
      await removeObservations(scope, idSerie, [id]);
      return { ok: true as const, notice: "ui.delete-confirmation" };
    }),
    savePlacette: formIntent(
      PlacetteSchema,
      async ({ scope }, value, envelope: { idParcelle: number; id?: number; updatedAt?: string | null }) => {
        const edit = editOf(envelope);
        return { id: await savePlacette(scope, envelope.idParcelle, value, edit), notice: edit ? "ui.update-confirmation" : "ui.create-confirmation" };
      },
      { fields: { idParcelle: idField, id: optionalIdField, updatedAt: stampField }, reset: true },
    ),
    deletePlacette: rowIntent(({ scope }, id) => removePlacette(scope, id), "ui.delete-confirmation"),
    saveHorizon: formIntent(
      HorizonSchema,
      async ({ scope }, value, envelope: { idSerie: number; id?: number; updatedAt?: string | null }) => {
        const edit = editOf(envelope);
        return { id: await saveHorizon(scope, envelope.idSerie, value, edit), notice: edit ? "ui.update-confirmation" : "ui.create-confirmation" };
      },
      { fields: { idSerie: idField, id: optionalIdField, updatedAt: stampField } },
    ),
    deleteHorizon: intent({ ...serieFields, id: idField }, async ({ scope }, { idSerie, id }) => {
      await removeHorizon(scope, idSerie, id);
      return { ok: true as const, notice: "ui.delete-confirmation" };
    }),
    saveDossierObservation: formIntent(DossierObservationSchema, async ({ scope }, value) => ({ id: await saveDossierObservation(scope, value) }), {
      notice: "ui.create-confirmation",
      reset: true,
    }),
    copy: formIntent(CopieSeriesSchema, async ({ scope }, value) => {
      const { count } = await copierSeries(scope, value);
      return { count, notice: "observations.copie.faite", params: { count } };
    }),
    deleteFichier: rowIntent(({ scope }, id) => removeFichier(scope, id), "ui.delete-confirmation"),
  },
  // The copy's gate is the target's campaign (checked by its service); every other intent writes the selected campaign.
  { gate: "campaign", gateExcept: ["copy"] },
);

export default function Mesures({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.mesures")} name="mesures" width="6xl">
      {(data) => <MesuresScreen data={data} />}
    </ScreenFrame>
  );
}
