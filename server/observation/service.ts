import { withinCampaign } from "~/domain/validation";
import {
  champPlacette,
  cleElementDossier,
  ComplementObservationSchema,
  CopieSeriesSchema,
  DossierObservationSchema,
  ELEMENT,
  estSerieAdventices,
  estSerieSol,
  HorizonSchema,
  observationRowSchema,
  PlacetteSchema,
  serieSelonType,
  TYPE_STADE,
  UNITE_STADE,
  type ComplementObservationInput,
  type CopieSeriesInput,
  type DossierObservationInput,
  type HorizonInput,
  type ObservationRowInput,
  type PlacetteInput,
  type SerieInput,
} from "~/domain/observation";
import { campaignContext, ensureWrite, writableCampaign, type CampaignContext } from "../access/description";
import type { Db } from "../db/knex";
import { applyRowPatches, type CurrentRow } from "../db/row-patches";
import { staleError, updateIfUnchanged, type Token } from "../db/stale";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import {
  actionOfParcelleExists,
  addPlacettesToSerie,
  campaignOfSerie,
  deleteHorizon,
  deleteObservationRows,
  deletePlacette,
  deletePlacetteValue,
  deleteSeries,
  deleteSeriesOfParcelleExcept,
  dossierLinksExploitation,
  elementObserveExists,
  ELEMENTS_HORS_TABLE,
  fichierPathsOfSeries,
  findCampagneExploitation,
  findComplement,
  findObservationLinks,
  findParcelleCampagne,
  findPlacette,
  findSeries,
  horizonIdsOfSerie,
  insertComplement,
  insertDossierObservation,
  insertHorizon,
  insertObservations,
  insertPlacette,
  insertSerie,
  listAdminOadObservations,
  listCulturesOfCampagne,
  listDossierObservations,
  listElementOffers,
  listFichiers,
  listFixedReferences,
  listHorizons,
  listInterventionsOfParcelle,
  listModesConduite,
  listObservationRowsToCopy,
  listObservations,
  listParcellesOfCampagne,
  listParcellesOfDossierYear,
  listPlacettes,
  listSeries,
  maxHorizonOrdre,
  maxObservationOrdre,
  organeExists,
  parcelleOfCampagne,
  placettesOfParcelle,
  removePlacettesOfSerie,
  serieOfObservation,
  seriesOfCampagne,
  setHorizonLimit,
  setObservationsDate,
  setPlacetteValue,
  setSerieValue,
  stadeOfEchelleExists,
  typeObservationExists,
  type ElementChoix,
  type SerieRow,
} from "./repo";
import { removeStoredFiles } from "./files";
import type { Scope } from "../access/scope";

/**
 * The observation series of a plot (spec 2 "Observation measures", issue 15): the screen's data, the series form,
 * the observations grid (one transaction, stale check), placettes, horizons, folder observations, the copy of
 * series to other plots. Every write asks the write gate of the campaign first (writableCampaign: canWriteDescriptif
 * on the campaign's own farm and the lock, B-RIGHTS-01, 02), then checks each link is of that campaign.
 */

/** Error keys (spec 2 §8 names none for the observations: ours, in the same family). */
export const OBS_LOAD_ERROR = "errors.services.observations-service-error";
export const OBS_CREATE_ERROR = "errors.services.observations-create-service-error";
export const OBS_UPDATE_ERROR = "errors.services.observations-update-service-error";
export const OBS_DELETE_ERROR = "errors.services.observations-delete-service-error";
export const OBS_COPY_ERROR = "errors.services.observations-copie-service-error";
export const PLACETTE_ERROR = "errors.services.placette-service-error";
export const HORIZON_ERROR = "errors.services.horizon-service-error";

const str = (v: unknown) => (v == null ? null : String(v));

export type { AdventiceChoix, Choix, ElementChoix } from "./repo";

type Fixed = Awaited<ReturnType<typeof listFixedReferences>>;
/** The global reference lists, read once per database handle: only the reference seeds write them, at start-up. */
const fixedLists = new WeakMap<object, Promise<Fixed>>();

function fixed(db: Db): Promise<Fixed> {
  // A transaction is not kept (it ends); the lists are the same as its database's.
  if ((db as { isTransaction?: boolean }).isTransaction) return listFixedReferences(db);
  let p = fixedLists.get(db);
  if (!p) {
    p = listFixedReferences(db).catch((e) => {
      fixedLists.delete(db);
      throw e;
    });
    fixedLists.set(db, p);
  }
  return p;
}

async function references(db: Db, ctx: CampaignContext) {
  const [lists, offers, dossierElts] = await Promise.all([
    fixed(db),
    listElementOffers(db, ctx.view.selected.idOad ?? 0),
    ctx.view.selected.idDossier ? listDossierObservations(db, ctx.view.selected.idDossier) : Promise.resolve([]),
  ]);
  // A network's own rows for a type replace the default rows of that type (decision 0037).
  const own = new Set(offers.filter((o) => o.idOad != null).map((o) => Number(o.dicIdTypeObservation)));
  const elements: ElementChoix[] = offers
    .filter((o) => (o.idOad != null) === own.has(Number(o.dicIdTypeObservation)))
    .map((o) => ({
      idType: Number(o.dicIdTypeObservation),
      element: Number(o.dicoIdEltObserve),
      libelle: String(o.libelle),
      libelleEn: str(o.libelleEn),
      nature: String(o.nature),
      unites: Number(o.dicIdTypeObservation) === TYPE_STADE ? [UNITE_STADE] : [o.unite1, o.unite2, o.unite3].filter((u): u is string => !!u),
      dossier: false,
    }));
  for (const d of dossierElts) {
    elements.push({
      idType: Number(d.dicIdTypeIntrant),
      element: cleElementDossier(Number(d.id)),
      libelle: String(d.libelle),
      libelleEn: null,
      nature: "num",
      unites: d.dicLlUnite ? [String(d.dicLlUnite)] : [],
      dossier: true,
    });
  }
  // Sorted by element label (B-OBS-40).
  elements.sort((a, b) => a.libelle.localeCompare(b.libelle, "fr"));
  return { ...lists, elements };
}

/**
 * The measures screen (spec 2 §2 "Observation measures"): the campaign's plots, the plot shown (`parcelleId`, else
 * the first: B-OBS-04), its placettes, series, interventions and crops (B-OBS-05), the reference lists (B-OBS-03),
 * and the detail of the series asked for (`serieId`): observations, horizons, attached files.
 */
export async function getMesures(scope: Scope, options: { parcelleId?: number | null; serieId?: number | null } = {}) {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(OBS_LOAD_ERROR, async () => {
    const parcelles = await listParcellesOfCampagne(db, ctx.idCampagne);
    const idParcelle = parcelles.find((p) => p.id === options.parcelleId)?.id ?? parcelles[0]?.id ?? null;
    const [refs, cultures, modesConduite] = await Promise.all([
      references(db, ctx),
      listCulturesOfCampagne(db, ctx.idCampagne),
      listModesConduite(db, ctx.idCampagne),
    ]);
    const [series, placettes, interventions] = idParcelle
      ? await Promise.all([
          listSeries(db, ctx.idCampagne, idParcelle),
          listPlacettes(db, ctx.idCampagne, idParcelle),
          listInterventionsOfParcelle(db, ctx.idCampagne, idParcelle),
        ])
      : [[], [], []];
    const serie = options.serieId ? series.find((s) => s.id === options.serieId) : undefined;
    const detail = serie
      ? {
          idSerie: serie.id,
          observations: await listObservations(db, serie.id),
          horizons: await listHorizons(db, serie.id),
          fichiers: await listFichiers(db, serie.id),
        }
      : null;
    // The plots a copy may go to (only for a writer: a reader has no copy).
    const cibles = ctx.abilities.canWriteDescriptif ? await copyTargets(scope, ctx) : [];
    return {
      canWrite: ctx.abilities.canWriteDescriptif,
      idUser: user.id,
      idDossier: ctx.view.selected.idDossier,
      cibles,
      parcelles,
      idParcelle,
      placettes,
      series,
      interventions,
      cultures,
      modesConduite,
      ...refs,
      detail,
    };
  });
}
export type MesuresData = Awaited<ReturnType<typeof getMesures>>;

// ---- Series

async function plotOf(db: Db, ctx: CampaignContext, idParcelle: number, field = "idParcelle") {
  const id = await parcelleOfCampagne(db, ctx.idCampagne, idParcelle);
  if (id == null) throw invalidField(field);
  return id;
}

async function serieOf(db: Db, ctx: CampaignContext, idSerie: number, error = OBS_UPDATE_ERROR): Promise<SerieRow> {
  const [s] = await findSeries(db, ctx.idCampagne, [idSerie]);
  if (!s) throw new ServiceError(error, 404);
  return s;
}

/** Checks the series' links within the campaign and the plot (crop, stage of the crop's scale, intervention, organ, placettes). */
async function checkSerieLinks(db: Db, ctx: CampaignContext, input: SerieInput) {
  if (!(await typeObservationExists(db, input.dicIdTypeSerie))) throw invalidField("dicIdTypeSerie");
  if (input.idCulture != null) {
    const crops = await listCulturesOfCampagne(db, ctx.idCampagne);
    const crop = crops.find((c) => c.id === input.idCulture);
    if (!crop) throw invalidField("idCulture");
    if (input.idStade != null && !(await stadeOfEchelleExists(db, input.idStade, crop.idEchelleStadeAee ?? -1))) throw invalidField("idStade");
  }
  if (input.idAction != null && !(await actionOfParcelleExists(db, ctx.idCampagne, input.idParcelle, input.idAction))) throw invalidField("idAction");
  if (input.organeEtudie != null && !(await organeExists(db, input.organeEtudie))) throw invalidField("organeEtudie");
  if (input.placettes.length) {
    const found = await placettesOfParcelle(db, ctx.idCampagne, input.idParcelle, input.placettes);
    if (found.length !== input.placettes.length) throw invalidField("placettes");
  }
}

/**
 * Creates (no id) or updates (id + updatedAt: stale check) a series, in one transaction and in the order of spec 2
 * §4 (B-OBS-30): the series, then its studied-organ and laboratory observations, then its placettes. The type of a
 * saved series does not change (B-OBS-23); a field its type does not show is not kept (B-OBS-16..20). A placette
 * taken out of the selection takes its values with it (B-PLAC-09).
 */
export async function saveSerie(scope: Scope, raw: SerieInput, existing?: Token): Promise<number> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(existing ? OBS_UPDATE_ERROR : OBS_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      await plotOf(trx, ctx, raw.idParcelle);
      let input = raw;
      let current: SerieRow | undefined;
      if (existing) {
        current = await serieOf(trx, ctx, existing.id);
        // The type and the placette mode are those of the saved series (B-OBS-23, B-PLAC-06); it stays on its plot.
        input = { ...raw, idParcelle: current.idParcelle, dicIdTypeSerie: current.dicIdTypeSerie, isPlacetteSelected: current.isPlacetteSelected };
      }
      input = serieSelonType(input);
      // A series of harvest year N is dated from 1 January N-2 to 31 December N+1 (decision 0091).
      if (!withinCampaign(input.date, ctx.view.campagne!.anneeRecolte)) throw invalidField("date", "warning.date-campaign");
      await checkSerieLinks(trx, ctx, input);
      const values = {
        idParcelle: input.idParcelle,
        nom: input.nom,
        date: input.date,
        dicIdTypeSerie: input.dicIdTypeSerie,
        idCulture: input.idCulture ?? null,
        idStade: input.idStade ?? null,
        idAction: input.idAction ?? null,
        remarque: input.remarque ?? null,
        isPlacetteSelected: input.isPlacetteSelected,
      };
      let id: number;
      if (existing) {
        await updateIfUnchanged(trx, "observation_serie", existing, values, { scope: { idCampagne: ctx.idCampagne } });
        id = existing.id;
        // Every observation of the series follows its date.
        await setObservationsDate(trx, id, input.date);
      } else {
        id = await insertSerie(trx, { ...values, idCampagne: ctx.idCampagne, idExploitation: ctx.idExploitation, idUser: user.id });
      }
      const serie = { id, idParcelle: input.idParcelle, date: input.date, idUser: user.id };
      await setSerieValue(trx, serie, ELEMENT.organe, { num: input.organeEtudie ?? null });
      await setSerieValue(trx, serie, ELEMENT.laboratoire, { txt: input.laboratoire ?? null });
      const before = current?.placettes ?? [];
      const removed = before.filter((p) => !input.placettes.includes(p));
      if (removed.length) await removePlacettesOfSerie(trx, id, removed);
      const added = input.placettes.filter((p) => !before.includes(p));
      await addPlacettesToSerie(
        trx,
        id,
        added.map((idPlacette) => ({ idPlacette, ordre: input.placettes.indexOf(idPlacette) })),
      );
      return id;
    }),
  );
}

/** Deletes series of the campaign (one or several, B-OBS-09) with their observations, horizons and files: all or none. */
export async function removeSeries(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  const paths = await failingWith(OBS_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const found = await seriesOfCampagne(trx, ctx.idCampagne, unique);
      if (found.length !== unique.length) throw new ServiceError(OBS_DELETE_ERROR, 404);
      const files = await fichierPathsOfSeries(trx, unique);
      await deleteSeries(trx, unique);
      return files;
    }),
  );
  // The files go once the rows are gone (a failed delete keeps both).
  await removeStoredFiles(paths);
}

// ---- The observations grid

type Refs = {
  elements: Map<number, { nature: string; unites: string[] }>;
  horizons: Set<number>;
  adventices: Map<number, { stades: Set<number>; densites: Map<number, number> }>;
  efficacites: Map<number, number>;
};

async function gridRefs(db: Db, ctx: CampaignContext, serie: SerieRow): Promise<Refs> {
  const refs = await references(db, ctx);
  const elements = new Map<number, { nature: string; unites: string[] }>();
  for (const e of refs.elements) if (e.idType === serie.dicIdTypeSerie || e.dossier) elements.set(e.element, { nature: e.nature, unites: e.unites });
  // An element of the type not offered by the network list may still be stored (an older row): any reference element
  // except those of the form and the horizons.
  const horizons = new Set(await horizonIdsOfSerie(db, serie.id));
  const adventices = new Map(
    refs.adventices.map((a) => [a.id, { stades: new Set(a.stades.map((s) => s.id)), densites: new Map(a.densites.map((d) => [d.ordre, d.id])) }]),
  );
  const efficacites = new Map(refs.efficacites.map((e) => [e.ordre, e.id]));
  return { elements, horizons, adventices, efficacites };
}

/** The stored columns of a grid row; a link outside the series or a value of the wrong kind is a field error. */
function observationColumns(serie: SerieRow, refs: Refs, v: ObservationRowInput, idUser: number) {
  const element = refs.elements.get(v.element);
  if (!element || ELEMENTS_HORS_TABLE.includes(v.element as never)) throw invalidField("element");
  if (v.unite && element.unites.length && !element.unites.includes(v.unite)) throw invalidField("unite");
  if (v.idHorizon != null && !refs.horizons.has(v.idHorizon)) throw invalidField("idHorizon");
  const weed = v.idAdventice != null ? refs.adventices.get(v.idAdventice) : undefined;
  if (v.idAdventice != null && !weed) throw invalidField("idAdventice");
  if (v.stadeAdventice != null && !weed?.stades.has(v.stadeAdventice)) throw invalidField("stadeAdventice");
  let valeur: number | null = v.valeur ?? null;
  // Weed density and weeding efficacy are chosen from their lists (B-OBS-46): the class stored as its entry's id.
  if (element.nature === "densite" || element.nature === "efficacite") {
    const m = /^([de])(\d+)$/.exec(v.classe ?? "");
    if (!m && v.classe) throw invalidField("classe");
    if (m && m[1] !== (element.nature === "densite" ? "d" : "e")) throw invalidField("classe");
    if (m && element.nature === "densite" && !weed) throw invalidField("idAdventice", "warning.required");
    valeur = m ? ((element.nature === "densite" ? weed!.densites.get(Number(m[2])) : refs.efficacites.get(Number(m[2]))) ?? null) : null;
    if (m && valeur == null) throw invalidField("classe");
  } else if (v.classe) throw invalidField("classe");
  const dossier = v.element < 0;
  return {
    idObservationSerie: serie.id,
    idParcelle: serie.idParcelle,
    dicoIdEltObserve: dossier ? null : v.element,
    idDossierObservation: dossier ? -v.element : null,
    obsValNum: valeur,
    dicLlUnite: v.unite ?? element.unites[0] ?? null,
    remarque: v.remarque ?? null,
    idHorizon: estSerieSol(serie.dicIdTypeSerie) ? (v.idHorizon ?? null) : null,
    idPereStade: estSerieAdventices(serie.dicIdTypeSerie) ? (v.idAdventice ?? null) : null,
    stadeAdventice: estSerieAdventices(serie.dicIdTypeSerie) ? (v.stadeAdventice ?? null) : null,
    date: serie.date,
    idUser,
  };
}

/**
 * The observations grid's save: the changed and added rows of one series in one transaction
 * (server/db/row-patches.ts: every row checked first, the stale check of each, a changed row set aside as a
 * conflict: decision 0100), then each saved row's placette values (B-PLAC-11) as child observations.
 */
export async function saveObservationsGrid(scope: Scope, idSerie: number, sent: unknown) {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  // An emptied cell may come as null (an API client, a row sent back as loaded): the schemas read it as absent.
  const patches = Array.isArray(sent)
    ? sent.map((p: { values?: unknown }) =>
        p && typeof p === "object" && p.values && typeof p.values === "object"
          ? { ...p, values: Object.fromEntries(Object.entries(p.values as Record<string, unknown>).filter(([, v]) => v !== null)) }
          : p,
      )
    : sent;
  return failingWith(OBS_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const serie = await serieOf(trx, ctx, idSerie);
      const refs = await gridRefs(trx, ctx, serie);
      const placettes = serie.isPlacetteSelected ? serie.placettes : [];
      const schema = observationRowSchema(placettes);
      const start = await maxObservationOrdre(trx, serie.id);
      let next = start;
      const { saved, conflicts } = await applyRowPatches(trx, {
        table: "observation",
        schema,
        patches,
        scope: { idObservationSerie: serie.id },
        current: async (t, ids) => {
          const wanted = new Set(ids);
          const fields = Object.keys(schema.shape);
          const out = new Map<number, CurrentRow>();
          for (const row of await listObservations(t, serie.id)) {
            if (!wanted.has(row.id)) continue;
            const r = row as Record<string, unknown>;
            out.set(row.id, { updatedAt: row.updatedAt, values: Object.fromEntries(fields.filter((f) => r[f] != null).map((f) => [f, r[f]])) });
          }
          return out;
        },
        columns: (v, _t, index) => {
          const cols = observationColumns(serie, refs, v as ObservationRowInput, user.id);
          const isNew = ((patches as { id: number | null }[])[index]?.id ?? -1) < 0;
          return isNew ? { ...cols, ordre: ++next } : cols;
        },
      });
      // The placettes' values of each saved row: one child observation per placette with a value.
      const list = patches as { values: Record<string, unknown> }[];
      for (const row of saved) {
        const values = schema.parse(list[row.index].values) as Record<string, unknown>;
        const parent = await findObservationLinks(trx, row.id);
        for (const idPlacette of placettes) {
          const field = champPlacette(idPlacette);
          if (!(field in (list[row.index].values ?? {})) && !row.inserted) continue;
          const value = values[field] as number | undefined;
          if (value == null) {
            await deletePlacetteValue(trx, row.id, idPlacette);
            continue;
          }
          const cols = {
            obsValNum: value,
            dicoIdEltObserve: parent.dicoIdEltObserve,
            idDossierObservation: parent.idDossierObservation,
            dicLlUnite: parent.dicLlUnite,
            idHorizon: parent.idHorizon,
            updatedAt: new Date(),
          };
          await setPlacetteValue(trx, row.id, idPlacette, cols, {
            idObservationSerie: serie.id,
            idParcelle: serie.idParcelle,
            date: serie.date,
            idUser: user.id,
          });
        }
      }
      return { saved, conflicts };
    }),
  );
}

/** Deletes rows of a series' observations table (with their placette values). */
export async function removeObservations(scope: Scope, idSerie: number, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  await failingWith(OBS_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      await serieOf(trx, ctx, idSerie, OBS_DELETE_ERROR);
      const n = await deleteObservationRows(trx, idSerie, unique);
      if (n !== unique.length) throw new ServiceError(OBS_DELETE_ERROR, 404);
    }),
  );
}

// ---- Placettes (B-PLAC-03..05)

export async function savePlacette(scope: Scope, idParcelle: number, input: PlacetteInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const value = parse(PlacetteSchema, input);
  if (value.geometrie) checkPolygon(value.geometrie);
  return failingWith(PLACETTE_ERROR, () =>
    db.transaction(async (trx) => {
      await plotOf(trx, ctx, idParcelle);
      const values = { libelle: value.libelle, geometrie: value.geometrie ?? null };
      if (existing) {
        await updateIfUnchanged(trx, "placette", existing, values, { scope: { idCampagne: ctx.idCampagne, idParcelle } });
        return existing.id;
      }
      return insertPlacette(trx, { ...values, idParcelle, idCampagne: ctx.idCampagne, idExploitation: ctx.idExploitation });
    }),
  );
}

function checkPolygon(text: string) {
  try {
    const g = JSON.parse(text) as { type?: string; coordinates?: unknown };
    if (g?.type !== "Polygon" || !Array.isArray(g.coordinates)) throw new Error("not a polygon");
  } catch {
    throw invalidField("geometrie");
  }
}

/** Deletes a placette with its values in every series. */
export async function removePlacette(scope: Scope, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await failingWith(PLACETTE_ERROR, async () => {
    const n = await deletePlacette(db, ctx.idCampagne, id);
    if (n === 0) throw new ServiceError(PLACETTE_ERROR, 404);
  });
}

// ---- Horizons (B-HOR-01..10): soil series only; limits are observations of the limit elements

export async function saveHorizon(scope: Scope, idSerie: number, input: HorizonInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const value = parse(HorizonSchema, input);
  return failingWith(HORIZON_ERROR, () =>
    db.transaction(async (trx) => {
      const serie = await serieOf(trx, ctx, idSerie, HORIZON_ERROR);
      if (!estSerieSol(serie.dicIdTypeSerie)) throw new ServiceError("observations.horizon.sol-seulement", 400);
      let id: number;
      if (existing) {
        await updateIfUnchanged(trx, "horizon", existing, { name: value.name }, { scope: { idParent: serie.id } });
        id = existing.id;
      } else {
        const ordre = (await maxHorizonOrdre(trx, serie.id)) + 1;
        id = await insertHorizon(trx, { idParent: serie.id, idParcelle: serie.idParcelle, name: value.name, ordre });
      }
      await setHorizonLimit(trx, serie, id, ELEMENT.limiteSup, value.limiteSup);
      await setHorizonLimit(trx, serie, id, ELEMENT.limiteInf, value.limiteInf);
      return id;
    }),
  );
}

export async function removeHorizon(scope: Scope, idSerie: number, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await failingWith(HORIZON_ERROR, async () => {
    await serieOf(db, ctx, idSerie, HORIZON_ERROR);
    const n = await deleteHorizon(db, idSerie, id);
    if (n === 0) throw new ServiceError(HORIZON_ERROR, 404);
  });
}

// ---- Folder observations (B-OBS-48..50): an element of the folder, offered in the grid of its type

export async function saveDossierObservation(scope: Scope, input: DossierObservationInput): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const value = parse(DossierObservationSchema, input);
  return failingWith(OBS_CREATE_ERROR, async () => {
    if (!(await typeObservationExists(db, value.dicIdTypeIntrant))) throw invalidField("dicIdTypeIntrant");
    return insertDossierObservation(db, {
      idDossier: ctx.view.selected.idDossier,
      libelle: value.libelle,
      dicIdTypeIntrant: value.dicIdTypeIntrant,
      dicLlUnite: value.dicLlUnite ?? null,
      remarque: value.remarque ?? null,
    });
  });
}

// ---- Copy of series to another plot (spec 2 §7 copie_series, B-OBS-11)

/**
 * Copies series to a plot of a campaign the user may write (the target plot's own campaign, checked with the write
 * gate), in one transaction: each series with its organ and laboratory, with `eltObserve` its observation rows and
 * horizons (values kept with `valeur`, else emptied), after deleting the target plot's series when
 * `suppressionSeriesParcellesDst`. The intervention link and the placette values stay behind (they belong to the
 * source plot); attached files are not copied (decision 0038).
 */
export async function copierSeries(scope: Scope, raw: CopieSeriesInput): Promise<{ count: number }> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  const input = parse(CopieSeriesSchema, raw);
  const target = await findParcelleCampagne(db, input.idParcelle);
  if (!target) throw invalidField("idParcelle");
  const idCampagne = Number(target.idCampagne);
  const campagne = await findCampagneExploitation(db, idCampagne);
  // The folder named must link the target's farm; then the one write gate on the target's campaign.
  if (!(await dossierLinksExploitation(db, input.dossierDestination, campagne.idExploitation))) throw invalidField("dossierDestination");
  await ensureWrite(scope, { dossier: input.dossierDestination, campagne: idCampagne });
  return failingWith(OBS_COPY_ERROR, () =>
    db.transaction(async (trx) => {
      const sources = await findSeries(trx, ctx.idCampagne, input.seriesSource);
      if (sources.length !== new Set(input.seriesSource).size) throw invalidField("seriesSource");
      if (input.suppressionSeriesParcellesDst) {
        await deleteSeriesOfParcelleExcept(trx, idCampagne, input.idParcelle, input.seriesSource);
      }
      for (const s of sources) {
        const id = await insertSerie(trx, {
          idCampagne,
          idExploitation: Number(campagne.idExploitation),
          idParcelle: input.idParcelle,
          nom: s.nom,
          date: s.date,
          dicIdTypeSerie: s.dicIdTypeSerie,
          idCulture: s.idCulture,
          idStade: s.idStade,
          remarque: s.remarque,
          isPlacetteSelected: false,
          idUser: user.id,
        });
        const serie = { id, idParcelle: input.idParcelle, date: s.date, idUser: user.id };
        await setSerieValue(trx, serie, ELEMENT.organe, { num: s.organeEtudie });
        await setSerieValue(trx, serie, ELEMENT.laboratoire, { txt: s.laboratoire });
        if (!input.eltObserve) continue;
        const horizons = new Map<number, number>();
        for (const h of await listHorizons(trx, s.id)) {
          const hid = await insertHorizon(trx, { idParent: id, idParcelle: input.idParcelle, name: h.name, ordre: h.ordre });
          horizons.set(h.id, hid);
          await setHorizonLimit(trx, serie, hid, ELEMENT.limiteSup, h.limiteSup);
          await setHorizonLimit(trx, serie, hid, ELEMENT.limiteInf, h.limiteInf);
        }
        const rows = await listObservationRowsToCopy(trx, s.id);
        const copies = rows.map((o) => ({
          idObservationSerie: id,
          idParcelle: input.idParcelle,
          dicoIdEltObserve: o.dicoIdEltObserve,
          idDossierObservation: o.idDossierObservation,
          obsValNum: input.valeur ? o.obsValNum : null,
          obsValTxt: input.valeur ? o.obsValTxt : null,
          dicLlUnite: o.dicLlUnite,
          remarque: o.remarque,
          idHorizon: o.idHorizon == null ? null : (horizons.get(Number(o.idHorizon)) ?? null),
          idPereStade: o.idPereStade,
          stadeAdventice: input.valeur ? o.stadeAdventice : null,
          date: o.date,
          idUser: user.id,
          ordre: o.ordre,
        }));
        await insertObservations(trx, copies);
      }
      return { count: sources.length };
    }),
  );
}

/** The plots a copy may go to: those of the campaigns of the selected folder's farms the user may write, same harvest year. */
export async function copyTargets(scope: Scope, known?: CampaignContext) {
  const { db } = scope;
  const ctx = known ?? (await campaignContext(scope));
  const idDossier = ctx.view.selected.idDossier;
  if (!idDossier) return [];
  const year = ctx.view.campagne!.anneeRecolte;
  const rows = await listParcellesOfDossierYear(db, idDossier, year);
  const out: { id: number; libelle: string; exploitation: string }[] = [];
  const writable = new Map<number, boolean>();
  for (const r of rows) {
    const c = Number(r.idCampagne);
    if (!writable.has(c))
      writable.set(
        c,
        await ensureWrite(scope, { dossier: idDossier, campagne: c }).then(
          () => true,
          () => false,
        ),
      );
    if (writable.get(c)) out.push({ id: Number(r.id), libelle: String(r.libelle), exploitation: String(r.exploitation ?? "") });
  }
  return out;
}

// ---- One series, one observation (the API's reads and single-row writes; issue 26)

/** The campaign of a series, null when there is none. */
export function serieCampaign(db: Db, id: number): Promise<number | null> {
  return campaignOfSerie(db, id);
}

/** The campaign and series of an observation (a row of a series' table), null when there is none. */
export function observationSerie(db: Db, id: number): Promise<{ idSerie: number; idCampagne: number } | null> {
  return serieOfObservation(db, id);
}

/** The series of a plot of the scope's campaign, newest first (GET parcelles/{id}/observations_series). */
export async function getSeriesOfParcelle(scope: Scope, idParcelle: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(OBS_LOAD_ERROR, async () => {
    await plotOf(db, ctx, idParcelle);
    return listSeries(db, ctx.idCampagne, idParcelle);
  });
}

/** One series of the scope's campaign with its farm, observations and horizons (GET observations_series/{id}). */
export async function getSerie(scope: Scope, id: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const serie = await serieOf(db, ctx, id, OBS_LOAD_ERROR);
  return failingWith(OBS_LOAD_ERROR, async () => ({
    ...serie,
    idExploitation: ctx.idExploitation,
    observations: await listObservations(db, serie.id),
    horizons: await listHorizons(db, serie.id),
  }));
}

/** One row of a series' observations table. */
export async function getObservation(scope: Scope, idSerie: number, id: number) {
  const row = (await getSerie(scope, idSerie)).observations.find((o) => o.id === id);
  if (!row) throw new ServiceError(OBS_LOAD_ERROR, 404);
  return row;
}

/**
 * Writes one row of a series' observations table as the grid does (the grid's schema, links and placette values):
 * a new row without `existing`; with it, the row's stale check (409 when it changed since it was read).
 */
export async function saveObservation(scope: Scope, idSerie: number, values: Record<string, unknown>, existing?: Token): Promise<number> {
  const { saved, conflicts } = await saveObservationsGrid(scope, idSerie, [{ id: existing?.id ?? -1, updatedAt: existing?.updatedAt ?? null, values }]).catch(
    (e: unknown) => {
      // The grid names a field of its first row patches.0.values.<field>: here the row is the body.
      if (e instanceof ServiceError && e.fieldErrors)
        e.fieldErrors = Object.fromEntries(Object.entries(e.fieldErrors).map(([k, v]) => [k.replace(/^patches\.0\.(values\.)?/, "") || "form", v]));
      throw e;
    },
  );
  if (conflicts.length || !saved.length) throw staleError();
  return saved[0].id;
}

/** The global reference lists of the observations screen (types, organs, crop stages, weeding efficacy, weeds with their stages and densities). */
export function observationReferenceLists(db: Db): Promise<Fixed> {
  return fixed(db);
}

// ---- Complement observations (GET, POST, PATCH complement_observations; spec 2 §7, B-API-22)

export const COMPLEMENT_ERROR = "errors.services.complement_observations-service-error";

/** The campaign of a complement observation, null when there is none. */
export async function complementCampaign(db: Db, id: number): Promise<number | null> {
  return (await findComplement(db, id))?.idCampagne ?? null;
}

/** One complement observation of the scope's campaign, with the observation row it completes (observationsParcelle). */
export async function getComplement(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  const c = await findComplement(scope.db, id);
  if (!c || c.idCampagne !== ctx.idCampagne) throw new ServiceError(COMPLEMENT_ERROR, 404);
  const { idSerie: _s, idCampagne: _c, ...row } = c;
  void _s;
  void _c;
  return { ...row, observationsParcelle: c.idObservation };
}

/**
 * Creates (no `existing`) or updates (stale check) a complement observation: the write gate of the campaign first
 * (canWriteDescriptif on its farm and the lock), then the observation row must be of that campaign (an
 * observation of another campaign is a field error) and the element must exist.
 */
export async function saveComplement(scope: Scope, raw: ComplementObservationInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const input = parse(ComplementObservationSchema, raw);
  return failingWith(COMPLEMENT_ERROR, () =>
    db.transaction(async (trx) => {
      const obs = await serieOfObservation(trx, input.observationsParcelle);
      if (!obs || obs.idCampagne !== ctx.idCampagne) throw invalidField("observationsParcelle");
      if (!(await elementObserveExists(trx, input.dicoIdEltObserve))) throw invalidField("dicoIdEltObserve");
      const values = { idObservation: input.observationsParcelle, dicoIdEltObserve: input.dicoIdEltObserve, obsValNum: input.obsValNum ?? null };
      if (!existing) return insertComplement(trx, values);
      const current = await findComplement(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(COMPLEMENT_ERROR, 404);
      await updateIfUnchanged(trx, "complement_observation", existing, values, { notFound: COMPLEMENT_ERROR });
      return existing.id;
    }),
  );
}

// ---- Placettes, network element offers (the API's reads; issue 26, decision 0129)

/** The campaign of a placette, null when there is none. */
export async function placetteCampaign(db: Db, id: number): Promise<number | null> {
  return (await findPlacette(db, id))?.idCampagne ?? null;
}

/** The placettes of a plot of the scope's campaign, by label (GET parcelles/{id}/placettes). */
export async function getPlacettesOfParcelle(scope: Scope, idParcelle: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  await plotOf(db, ctx, idParcelle);
  return (await listPlacettes(db, ctx.idCampagne, idParcelle)).map((p) => ({ ...p, idParcelle }));
}

/** One placette of the scope's campaign. */
export async function getPlacette(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  const p = await findPlacette(scope.db, id);
  if (!p || p.idCampagne !== ctx.idCampagne) throw new ServiceError(PLACETTE_ERROR, 404);
  return p;
}

/**
 * The elements the network `idOad` offers for an observation type, with their units (GET admin_oad_observations): the
 * network's own rows replace the default ones for the type, as on the measures screen (decision 0037); sorted by
 * element label (B-OBS-40). Reference data: any signed-in user may read it.
 */
export async function getAdminOadObservations(db: Db, idOad: number, idType: number, locale: "fr" | "en" = "fr") {
  const rows = (await listAdminOadObservations(db, idOad, idType)).map(({ elementObserve: { libelleEn, ...e }, ...r }) => ({
    ...r,
    elementObserve: { ...e, libelle: locale === "en" && libelleEn ? libelleEn : e.libelle },
  }));
  return rows.sort((a, b) => a.elementObserve.libelle.localeCompare(b.elementObserve.libelle, locale));
}
