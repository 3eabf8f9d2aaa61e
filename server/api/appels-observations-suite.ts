import { z } from "zod";
import { PlacetteSchema } from "~/domain/observation";
import { optionalNumber, rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { ApiFileAnswer, apiCall, type ApiCall, type Locale } from "../http/api.server";
import { parcelleCampaign } from "../parcelle/service";
import {
  getAdminOadObservations,
  getPlacette,
  getPlacettesOfParcelle,
  getSerie,
  observationReferenceLists,
  placetteCampaign,
  removePlacette,
  savePlacette,
  serieCampaign,
} from "../observation/service";
import { fichierCampaign, fichierPourTelechargement, getFichiers, maxBytes, removeFichier, uploadFichier } from "../observation/files";
import { ServiceError } from "../errors";
import { byId, stamp } from "./schemas";

/**
 * The rest of the observation calls of the JSON API (spec 2 §7 "Observations"; issue 26, decision 0129): placettes,
 * a series' horizons, the reference lists of the measures screen (elements a network offers, weeds with their stages
 * and densities, crop stages) and the files attached to a series, through the measures screen's services and schemas.
 */

const id = z.number().int();
const withStamp = { updatedAt: tokenField.describe("The row's updatedAt as read: a stale one is refused (409)") };
const label = (r: { libelle: string; libelleEn: string | null }, locale: Locale) => (locale === "en" && r.libelleEn ? r.libelleEn : r.libelle);

const Placette = z.object({
  id,
  idParcelle: id,
  libelle: z.string(),
  geometrie: z.string().nullable().describe("A GeoJSON Polygon, as text"),
  updatedAt: stamp,
});
const placetteOut = ({ idCampagne: _c, ...p }: Awaited<ReturnType<typeof getPlacette>>) => (void _c, p);

const Horizon = z.object({
  id,
  name: z.string(),
  ordre: z.number().int(),
  limiteSup: z.number().nullable(),
  limiteInf: z.number().nullable(),
  updatedAt: stamp,
});
/** An observation of a series made on one of its horizons. */
const HorizonObservation = z.looseObject({
  id,
  serieId: id,
  horizon: id.describe("The horizon (idHorizon)"),
  observedElemId: id,
  value: z.number().nullable(),
  unit: z.string().nullable(),
  remarque: z.string().nullable(),
  updatedAt: stamp,
});

const Libelle = z.object({ id, libelle: z.string().describe("In English with locale=en") });
const AdminOadObservation = z.object({
  id,
  idOad: id.nullable().describe("null: a default row (the network has none of its own for the type)"),
  dicIdTypeObservation: id,
  elementObserve: z.object({ id, libelle: z.string().describe("In English with locale=en"), noOrdre: z.number().int().nullable() }),
  unite1: z.string().nullable(),
  unite2: z.string().nullable(),
  unite3: z.string().nullable(),
});
const StadeCulture = Libelle.extend({ idEchelleStadeAee: id });
const Densite = Libelle.extend({ ordre: z.number().int() });

const Fichier = z.object({
  id,
  nom: z.string().describe("The name it is downloaded under"),
  date: stamp,
  taille: z.number().nullable().describe("Bytes"),
  creePar: z.object({ id: id.nullable(), nom: z.string() }),
});

/** The weed `idAdventice` of the reference lists (404 when there is none). */
async function adventiceOf(db: Parameters<typeof observationReferenceLists>[0], idAdventice: number) {
  const a = (await observationReferenceLists(db)).adventices.find((x) => x.id === idAdventice);
  if (!a) throw new ServiceError("errors.not-found", 404);
  return a;
}

export const APPELS_OBSERVATIONS_SUITE: readonly ApiCall[] = [
  // --- placettes (B-PLAC-03..05)
  apiCall({
    method: "GET",
    path: "/api/v1/parcelles/{id}/placettes",
    tag: "placettes",
    summary: "The placettes of a plot, by label",
    params: byId,
    campaign: ({ params }, db) => parcelleCampaign(db, params.id),
    answer: z.array(Placette),
    refusals: [404],
    handle: ({ scope, params }) => getPlacettesOfParcelle(scope, params.id),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/placettes/{id}",
    tag: "placettes",
    summary: "One placette",
    params: byId,
    campaign: ({ params }, db) => placetteCampaign(db, params.id),
    answer: Placette,
    refusals: [404],
    handle: async ({ scope, params }) => placetteOut(await getPlacette(scope, params.id)),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/placettes",
    tag: "placettes",
    summary: "A new placette on the plot idParcelle (the placette form's fields: libelle, geometrie a GeoJSON Polygon)",
    body: PlacetteSchema.extend({ idParcelle: rowId() }),
    campaign: ({ body }, db) => parcelleCampaign(db, body.idParcelle),
    answer: Placette,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idParcelle, ...input } }) => placetteOut(await getPlacette(scope, await savePlacette(scope, idParcelle, input))),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/placettes/{id}",
    tag: "placettes",
    summary: "Updates a placette (libelle, geometrie; it stays on its plot); updatedAt as read, else 409",
    params: byId,
    body: PlacetteSchema.extend(withStamp),
    campaign: ({ params }, db) => placetteCampaign(db, params.id),
    answer: Placette,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) => {
      const { idParcelle } = await getPlacette(scope, params.id);
      return placetteOut(await getPlacette(scope, await savePlacette(scope, idParcelle, input, { id: params.id, updatedAt })));
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/placettes/{id}",
    tag: "placettes",
    summary: "Deletes a placette with its values in every series",
    params: byId,
    campaign: ({ params }, db) => placetteCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removePlacette(scope, params.id),
  }),

  // --- horizons of a series (B-HOR-*)
  apiCall({
    method: "GET",
    path: "/api/v1/observations_series/{id}/horizons",
    tag: "observations_series",
    summary: "The horizons of a series (a soil series' layers), in order, with their limits",
    params: byId,
    campaign: ({ params }, db) => serieCampaign(db, params.id),
    answer: z.array(Horizon),
    refusals: [404],
    handle: async ({ scope, params }) => (await getSerie(scope, params.id)).horizons,
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/observations_series/{id}/horizons/observations",
    tag: "observations_series",
    summary: "The observations of a series made on its horizons (each names its horizon)",
    params: byId,
    campaign: ({ params }, db) => serieCampaign(db, params.id),
    answer: z.array(HorizonObservation),
    refusals: [404],
    handle: async ({ scope, params }) =>
      (await getSerie(scope, params.id)).observations.flatMap((o) =>
        o.idHorizon == null
          ? []
          : [{ ...o, serieId: params.id, horizon: o.idHorizon, observedElemId: o.element, value: o.valeur, unit: o.unite, parcelleId: o.idParcelle }],
      ),
  }),

  // --- reference lists of the measures screen
  apiCall({
    method: "GET",
    path: "/api/v1/admin_oad_observations",
    tag: "observations_referentiels",
    summary:
      "The elements the network dicIdOad offers for the observation type dicIdTypeObservation, with their units (its own rows, else the default ones), by element label",
    query: z.object({ dicIdOad: rowId(), dicIdTypeObservation: rowId() }),
    answer: z.array(AdminOadObservation),
    handle: ({ scope, query, locale }) => getAdminOadObservations(scope.db, query.dicIdOad, query.dicIdTypeObservation, locale),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/adventices",
    tag: "observations_referentiels",
    summary: "The weeds, in their order",
    answer: z.array(Libelle),
    handle: async ({ scope, locale }) => (await observationReferenceLists(scope.db)).adventices.map((a) => ({ id: a.id, libelle: label(a, locale) })),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/adventices/{id}/stades",
    tag: "observations_referentiels",
    summary: "The stages of a weed, in their order",
    params: byId,
    answer: z.array(Libelle),
    refusals: [404],
    handle: async ({ scope, params, locale }) => (await adventiceOf(scope.db, params.id)).stades.map((s) => ({ id: s.id, libelle: label(s, locale) })),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/adventices/{id}/densites",
    tag: "observations_referentiels",
    summary: "The density classes of a weed, in their order",
    params: byId,
    answer: z.array(Densite),
    refusals: [404],
    handle: async ({ scope, params, locale }) =>
      (await adventiceOf(scope.db, params.id)).densites.map((d) => ({ id: d.id, ordre: d.ordre, libelle: label(d, locale) })),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/stade_cultures",
    tag: "observations_referentiels",
    summary: "The crop stages, by scale and order; idEchelleStadeAee: those of one scale (a crop's)",
    query: z.object({ idEchelleStadeAee: optionalNumber({ integer: true, min: 1 }) }),
    answer: z.array(StadeCulture),
    handle: async ({ scope, query, locale }) =>
      (await observationReferenceLists(scope.db)).stades
        .filter((s) => query.idEchelleStadeAee == null || s.idEchelleStadeAee === query.idEchelleStadeAee)
        .map((s) => ({ id: s.id, idEchelleStadeAee: s.idEchelleStadeAee, libelle: label(s, locale) })),
  }),

  // --- files attached to a series (B-FILE-01..07)
  apiCall({
    method: "GET",
    path: "/api/v1/fichier_attache_series",
    tag: "fichier_attache_series",
    summary: "The files attached to the series observationsSerie (required: without it, 400), newest first",
    query: z.object({ observationsSerie: rowId() }),
    campaign: ({ query }, db) => serieCampaign(db, query.observationsSerie),
    answer: z.array(Fichier),
    refusals: [404],
    handle: ({ scope, query }) => getFichiers(scope, query.observationsSerie),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/fichier_attache_series",
    tag: "fichier_attache_series",
    summary:
      "Attaches a file to the series idObservationSerie (multipart: file, idObservationSerie): an accepted type whose bytes match its extension, within ATTACHMENT_MAX_MB (else 413)",
    body: z.object({ file: z.instanceof(File, { error: "warning.required" }), idObservationSerie: rowId() }),
    multipart: { limit: () => maxBytes() + 64 * 1024 },
    campaign: ({ body }, db) => serieCampaign(db, body.idObservationSerie),
    answer: Fichier,
    status: 201,
    refusals: [404, 413],
    handle: async ({ scope, body }) => {
      const idFichier = await uploadFichier(scope, body.idObservationSerie, { name: body.file.name, bytes: new Uint8Array(await body.file.arrayBuffer()) });
      return (await getFichiers(scope, body.idObservationSerie)).find((f) => f.id === idFichier)!;
    },
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/fichier_attache_series/{id}/download",
    tag: "fichier_attache_series",
    summary: "The bytes of an attached file, downloaded under its stored name",
    params: byId,
    campaign: ({ params }, db) => fichierCampaign(db, params.id),
    answer: ApiFileAnswer,
    file: "application/octet-stream",
    refusals: [404],
    handle: async ({ scope, params }) => {
      const f = await fichierPourTelechargement(scope, params.id);
      return { nom: f.nom, bytes: new Uint8Array(f.bytes) };
    },
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/fichier_attache_series/{id}",
    tag: "fichier_attache_series",
    summary: "Deletes an attached file: only its author may (403 for anyone else)",
    params: byId,
    campaign: ({ params }, db) => fichierCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeFichier(scope, params.id),
  }),
];
