import { z } from "zod";
import { suffixedLibelle } from "~/domain/calc/materiel";
import { MajDatesSchema } from "~/domain/parcelle";
import { DuplicationParcMaterielSchema, ParcMaterielSchema } from "~/domain/parc-materiel";
import { optionalNumber, rowId } from "~/domain/validation";
import { tokenField } from "../http/fields";
import { apiCall, type ApiCall, type Locale } from "../http/api.server";
import { getConsoCarburantReference, getParcMaterielsOfOperation, operationCulturaleCampaign } from "../operation-culturale/service";
import {
  duplicateParcMateriels,
  getCategoriesOfClasse,
  getParcMateriel,
  getParcMateriels,
  getReferenceMateriel,
  getReferencesOfCategorie,
  parcMaterielCampaign,
  removeParcMateriels,
  saveParcMateriel,
} from "../parc-materiel/service";
import { majDatesActions, parcelleCampaign } from "../parcelle/service";
import { boolQuery, byId, stamp } from "./schemas";

/**
 * The machinery calls of the JSON API (spec 2 §7 "Machinery"; issue 26, decision 0128): the class → category →
 * reference cascade, the campaign's fleet with its duplication to other campaigns, an operation's machines, the fuel-use
 * reference of the operation form and a plot's intervention dates. Each call goes through the screen's own schema and
 * service; the services check the rights and the lock.
 */

const id = z.number().int();
const num = z.number().nullable();
const text = z.string().nullable();
const label = (libelle: string, libelleEn: string | null, locale: Locale) => (locale === "en" && libelleEn ? libelleEn : libelle);

// --- answers
const CategorieMateriel = z.object({
  id,
  libelle: z.string().describe("In English with locale=en"),
  libelleEn: text,
  ordre: id,
  idClasseMateriel: id,
  classeMateriel: z.string().describe("/api/v1/classe_materiels/{idClasseMateriel}"),
});
const ReferenceMateriel = z.object({
  id,
  idBasemeq: id.describe("The reference's id, as a machine's idBasemeq names it"),
  identifiant: z.string(),
  libelle: z.string().describe("In English with locale=en"),
  libelleEn: text,
  idCategorieMateriel: id,
  archive: z.boolean(),
  prixMoyen: num,
  poids: num,
  puissance: num,
  puissanceUtile: num,
  debit: num,
  uniteDebit: z.string(),
  utilisationAnnuelle: num,
  uniteUtilisation: z.string(),
  reparation: num,
  amortissement: num,
  vieUsure: num,
  vieObsolescence: num,
  tauxRevente: num,
  anneeprix: num,
});
type ReferenceData = Awaited<ReturnType<typeof getReferenceMateriel>>;
const referenceOut = (r: ReferenceData, locale: Locale) => ({ ...r, idBasemeq: r.id, libelle: label(r.libelle, r.libelleEn, locale) });

const ParcMateriel = z.looseObject({
  id,
  idCampagne: id,
  campagne: z.string().describe("/api/v1/campagnes/{idCampagne}"),
  libelle: z.string(),
  suffixedLibelle: z.string().describe("The label with its ownership suffix (_E/I, _E/E: ETA and CUMA)"),
  noClasse: id,
  noCategorie: id,
  idCategorieMateriel: id,
  idBasemeq: id,
  idenBasemeq: text,
  typePropriete: z.number().int().describe("0 own, 1 ETA (outsourced), 2 CUMA (cooperative)"),
  copropriete: num,
  poids: num,
  puissance: num,
  debit: num,
  neufOccasion: text,
  ageAchat: num,
  typePompe: text,
  coutEntretienReparation: num,
  coutLocation: num,
  prixAchat: num,
  prixNeuf: num,
  utilisationAnnuelle: num,
  utilisationAnnuelleCalculeeP: num,
  utilisationAnnuelleCalculeeR: num,
  usure: num,
  obsolescence: num,
  dureeAmortissement: num,
  tauxRevente: num,
  remarque: text,
  calcul: z.looseObject({}).describe("The calculated figures: use, financing, depreciation and its duration, repair or rental, charges per ha"),
  updatedAt: stamp,
});
type MachineData = Awaited<ReturnType<typeof getParcMateriel>>;
const machineOut = (m: MachineData) => ({ ...m, campagne: `/api/v1/campagnes/${m.idCampagne}`, suffixedLibelle: suffixedLibelle(m.libelle, m.typePropriete) });

const withStamp = { updatedAt: tokenField.describe("The row's updatedAt as read: a stale one is refused (409)") };

export const APPELS_MATERIEL: readonly ApiCall[] = [
  // --- the cascade (B-MACH-09, B-MACH-10, B-MACH-16; B-API-11)
  apiCall({
    method: "GET",
    path: "/api/v1/classe_materiels/{id}/categorie_materiels",
    tag: "materiels",
    summary: "The machine categories of a machine class, in their order",
    params: byId,
    answer: z.array(CategorieMateriel),
    refusals: [404],
    handle: async ({ scope, params, locale }) =>
      (await getCategoriesOfClasse(scope, params.id)).map((c) => ({
        ...c,
        libelle: label(c.libelle, c.libelleEn, locale),
        classeMateriel: `/api/v1/classe_materiels/${c.idClasseMateriel}`,
      })),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/categorie_materiels/{id}/reference_materiels",
    tag: "materiels",
    summary:
      "The machine references (characteristics) of a category, by label; archive=false leaves the archived ones out (true: only them); numeroClasse: the class chosen (another class than the category's gives none)",
    params: byId,
    query: z.object({ archive: boolQuery.optional(), numeroClasse: optionalNumber({ integer: true, min: 1 }) }),
    answer: z.array(ReferenceMateriel),
    refusals: [404],
    handle: async ({ scope, params, query, locale }) => (await getReferencesOfCategorie(scope, params.id, query)).map((r) => referenceOut(r, locale)),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/reference_materiels/{id}",
    tag: "materiels",
    summary: "One machine reference: the defaults a machine form takes from it (power, flow, weight, repair cost, new price, lives)",
    params: byId,
    answer: ReferenceMateriel,
    refusals: [404],
    handle: async ({ scope, params, locale }) => referenceOut(await getReferenceMateriel(scope, params.id), locale),
  }),

  // --- the fleet (B-API-10)
  apiCall({
    method: "GET",
    path: "/api/v1/campagnes/{id}/parc_materiels",
    tag: "parc_materiels",
    summary: "The machines of a campaign, newest first, with their calculated figures; idCategorieMateriel keeps one category's",
    params: byId,
    query: z.object({ idCategorieMateriel: optionalNumber({ integer: true, min: 1 }) }),
    campaign: ({ params }) => params.id,
    answer: z.array(ParcMateriel),
    refusals: [404],
    handle: async ({ scope, query }) =>
      (await getParcMateriels(scope)).rows
        .filter((m) => query.idCategorieMateriel === undefined || m.idCategorieMateriel === query.idCategorieMateriel)
        .map(machineOut),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/parc_materiels/{id}",
    tag: "parc_materiels",
    summary: "One machine with its calculated figures",
    params: byId,
    campaign: ({ params }, db) => parcMaterielCampaign(db, params.id),
    answer: ParcMateriel,
    refusals: [404],
    handle: async ({ scope, params }) => machineOut(await getParcMateriel(scope, params.id)),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/parc_materiels",
    tag: "parc_materiels",
    summary:
      "A new machine in the campaign idCampagne (the machine form's fields: libelle, noClasse, idCategorieMateriel, idBasemeq, typePropriete, copropriete, poids, puissance, debit, ...)",
    body: ParcMaterielSchema.extend({ idCampagne: rowId().describe("The campaign the machine is made in") }),
    campaign: ({ body }) => body.idCampagne,
    answer: ParcMateriel,
    status: 201,
    refusals: [404],
    handle: async ({ scope, body: { idCampagne: _c, ...input } }) => machineOut(await getParcMateriel(scope, await saveParcMateriel(scope, input))),
  }),
  apiCall({
    method: "PATCH",
    path: "/api/v1/parc_materiels/{id}",
    tag: "parc_materiels",
    summary: "Updates a machine (all the form's fields); updatedAt as read, else 409",
    params: byId,
    body: ParcMaterielSchema.extend(withStamp),
    campaign: ({ params }, db) => parcMaterielCampaign(db, params.id),
    answer: ParcMateriel,
    refusals: [404, 409],
    handle: async ({ scope, params, body: { updatedAt, ...input } }) =>
      machineOut(await getParcMateriel(scope, await saveParcMateriel(scope, input, { id: params.id, updatedAt }))),
  }),
  apiCall({
    method: "DELETE",
    path: "/api/v1/parc_materiels/{id}",
    tag: "parc_materiels",
    summary: "Deletes a machine",
    params: byId,
    campaign: ({ params }, db) => parcMaterielCampaign(db, params.id),
    refusals: [404],
    handle: ({ scope, params }) => removeParcMateriels(scope, [params.id]),
  }),
  apiCall({
    method: "POST",
    path: "/api/v1/parc_materiels/duplication",
    tag: "parc_materiels",
    summary:
      "Copies the machines ids (all of one campaign) into each campaign of campagnes, of the farm idExploitation reached through the folder idDossier (the duplication dialog's fields); refused on a locked campaign or without writing on the farm",
    body: DuplicationParcMaterielSchema,
    campaign: ({ body }, db) => parcMaterielCampaign(db, body.ids[0]),
    answer: z.object({ copies: z.number().int().describe("Machines written, over every campaign") }),
    status: 201,
    refusals: [403, 404],
    handle: ({ scope, body }) => duplicateParcMateriels(scope, body),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/operation_culturales/{id}/parc_materiels",
    tag: "parc_materiels",
    summary: "The machines a cultural operation is done with: its tractor, then its towed equipment",
    params: byId,
    campaign: ({ params }, db) => operationCulturaleCampaign(db, params.id),
    answer: z.array(ParcMateriel),
    refusals: [404],
    handle: async ({ scope, params }) => (await getParcMaterielsOfOperation(scope, params.id)).map(machineOut),
  }),

  // --- the operation form's fuel-use reference (B-OPS-22)
  apiCall({
    method: "GET",
    path: "/api/v1/calculs/indicateurs/conso_carburant",
    tag: "operation_culturales",
    summary:
      "The reference fuel use, L/ha, of an operation type for a tractor power (ch), a working depth (cm) and a work rate (ha/h); null without type, power or depth, or when the type has no reference",
    query: z.object({
      id_type_action: optionalNumber({ integer: true, min: 1 }),
      debit: optionalNumber({ min: 0 }),
      puissance: optionalNumber({ min: 0 }),
      profondeur_travail: optionalNumber({ min: 0 }),
    }),
    answer: z.object({ consoCarburant: z.number().nullable() }),
    handle: ({ scope, query }) =>
      getConsoCarburantReference(scope, {
        idTypeAction: query.id_type_action,
        debit: query.debit,
        puissance: query.puissance,
        profondeurTravail: query.profondeur_travail,
      }),
  }),

  // --- a plot's intervention dates (B-PLOT-08)
  apiCall({
    method: "PATCH",
    path: "/api/v1/parcelles/{id}/maj_dates_actions",
    tag: "parcelles",
    summary:
      "Moves the plot's interventions of harvest year anneeInitiale by (anneeFinale − anneeInitiale) years to anneeFinale, which becomes its last-action year (refused on a locked campaign)",
    params: byId,
    body: MajDatesSchema.omit({ ids: true }),
    campaign: ({ params }, db) => parcelleCampaign(db, params.id),
    answer: z.object({ moved: z.number().int() }),
    refusals: [404],
    handle: async ({ scope, params, body }) => ({ moved: await majDatesActions(scope, { ...body, ids: [params.id] }) }),
  }),
];
