import { SOIL_LISTS } from "~/domain/caracteristiques-pedologiques";
import {
  AffectationsSchema,
  buildHistoriqueTree,
  MajDatesCampagneSchema,
  MajDatesSchema,
  PARCELLE_LISTS,
  ParcelleSchema,
  shiftYears,
  type HistoriqueLink,
  type HistoriquePlot,
  type ParcelleInput,
} from "~/domain/parcelle";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import { shiftDateByYears } from "../campagne/duplication";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import { listDepartements, listReference, referenceExists } from "../exploitation-description/repo";
import {
  actionsOfCampaignYear,
  actionsOfYear,
  affectationsOf,
  campaignYearAndHistory,
  farmCodesOf,
  lastActionYearOfCampaign,
  setCampaignAnneeDerniereAction,
  cropsOfModes,
  deleteParcelle,
  existsInCampaign,
  findCommuneByInsee,
  historyLinksOf,
  historyPlots,
  insertParcelle,
  listCommunesWithCentre,
  listLots,
  listModes,
  listParcelles,
  campaignOfParcelle,
  listPlotsForHistory,
  moveAction,
  parcelleValues,
  plotIdsOfCampaign,
  replaceHistorique,
  setAffectation,
  setAnneeDerniereAction,
  updateParcelle,
} from "./repo";
import type { Scope } from "../access/scope";

/** Plots of the selected campaign (spec 2 §2 "Plots", §3, §4, §5, §7 "Plots, groups, features"). */
export const PARCELLE_LOAD_ERROR = "errors.services.parcelle-service-error";
export const PARCELLE_CREATE_ERROR = "errors.services.parcelle-create-service-error";
export const PARCELLE_UPDATE_ERROR = "errors.services.parcelle-update-service-error";
export const PARCELLE_DELETE_ERROR = "errors.services.parcelle-delete-service-error";

/** Reference lists of the plot form's pickers and soil panel. */
async function referenceLists(db: Db) {
  const lists: Record<string, Awaited<ReturnType<typeof listReference>>> = {};
  for (const [field, table] of Object.entries({ ...PARCELLE_LISTS, ...SOIL_LISTS })) lists[field] = await listReference(db, table);
  return lists as Record<keyof typeof PARCELLE_LISTS | keyof typeof SOIL_LISTS, Awaited<ReturnType<typeof listReference>>>;
}

/**
 * The screen's data: the plots with their mode and group labels, the pickers, the plots of the
 * history campaign, the farm's codes (the default of a new plot) and, when `departement` names a department,
 * its communes. The list itself brings no communes: the form's commune picker asks for its department's when
 * it opens (about 370 communes with their centres were half of every plot-list page, bench/load.mjs, issue 10).
 */
export async function getParcelles(scope: Scope, opts: { departement?: string | null } = {}) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PARCELLE_LOAD_ERROR, async () => {
    const campagne = await campaignYearAndHistory(db, ctx.idCampagne);
    const farm = await farmCodesOf(db, ctx.idExploitation);
    const departements = await listDepartements(db);
    const asked = opts.departement && departements.some((d) => d.numDept === opts.departement) ? opts.departement : null;
    return {
      rows: await listParcelles(db, ctx.idCampagne),
      canWrite: ctx.abilities.canWriteDescriptif,
      campagne,
      farm,
      modes: await listModes(db, ctx.idCampagne),
      lots: await listLots(db, ctx.idCampagne),
      lists: await referenceLists(db),
      historique: campagne.idCampagneHistoParcelle ? await listPlotsForHistory(db, campagne.idCampagneHistoParcelle) : [],
      departements,
      communes: asked ? { numDept: asked, rows: await listCommunesWithCentre(db, asked) } : null,
    };
  });
}

/** Checks every id of the input against its list, the campaign or the history campaign. */
async function checkReferences(db: Db, ctx: CampaignContext, input: ParcelleInput): Promise<void> {
  if (input.idModeConduite != null && !(await existsInCampaign(db, "mode_conduite", ctx.idCampagne, input.idModeConduite)))
    throw invalidField("idModeConduite");
  if (input.idLot != null && !(await existsInCampaign(db, "lot_parcelle", ctx.idCampagne, input.idLot))) throw invalidField("idLot");
  for (const [field, table] of Object.entries({ ...PARCELLE_LISTS, ...SOIL_LISTS })) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === "number" && !(await referenceExists(db, table, value))) throw invalidField(field);
  }
  if (input.parcellesHistorique.length) {
    const { idCampagneHistoParcelle } = await campaignYearAndHistory(db, ctx.idCampagne);
    const found = idCampagneHistoParcelle ? await plotIdsOfCampaign(db, idCampagneHistoParcelle, input.parcellesHistorique) : [];
    if (found.length !== input.parcellesHistorique.length) throw invalidField("parcellesHistorique");
  }
}

/**
 * The INSEE and postal codes to store. A commune must exist and the postal code be one of its own
 * (the picker sets both, spec 2 §4). A new plot without a commune takes the farm's codes (B-MAP-06).
 */
async function codes(db: Db, ctx: CampaignContext, input: ParcelleInput, isNew: boolean) {
  if (!input.codeInsee) {
    if (isNew) return farmCodesOf(db, ctx.idExploitation);
    return { codeInsee: null, codePostal: input.codePostal ?? null };
  }
  const commune = await findCommuneByInsee(db, input.codeInsee);
  if (!commune) throw invalidField("codeInsee");
  if (input.codePostal && !commune.codesPostaux.includes(input.codePostal) && commune.cp !== input.codePostal) throw invalidField("codePostal");
  return { codeInsee: commune.ci, codePostal: input.codePostal ?? commune.cp };
}

/** Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) a plot and its history links. */
export async function saveParcelle(scope: Scope, raw: ParcelleInput | Record<string, unknown>, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const input = parse(ParcelleSchema, raw);
  return failingWith(existing ? PARCELLE_UPDATE_ERROR : PARCELLE_CREATE_ERROR, () => db.transaction((trx) => writeParcelle(trx, ctx, input, existing)));
}

/**
 * The one write path of a plot, inside the caller's transaction: references checked, codes completed
 * (the farm's for a new plot without commune), then insert or (unless stale) update, and the history links.
 * Used by the form (saveParcelle) and the file import (import-service.ts).
 */
export async function writeParcelle(trx: Db, ctx: CampaignContext, input: ParcelleInput, existing?: Token): Promise<number> {
  await checkReferences(trx, ctx, input);
  const values = { ...parcelleValues(input), ...(await codes(trx, ctx, input, !existing)) };
  let id: number;
  if (!existing) {
    id = await insertParcelle(trx, ctx.idCampagne, values);
  } else {
    await updateParcelle(trx, ctx.idCampagne, existing, values, PARCELLE_UPDATE_ERROR);
    id = existing.id;
  }
  await replaceHistorique(trx, id, input.parcellesHistorique);
  return id;
}

/** Deletes the ticked plots one by one (spec 2 §7: one DELETE per plot), all or none: an unknown id refuses the whole deletion. */
export async function removeParcelles(scope: Scope, ids: number[]): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  if (!ids.length || ids.some((id) => !Number.isInteger(id))) throw new ServiceError(PARCELLE_DELETE_ERROR, 400);
  return failingWith(PARCELLE_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      for (const id of ids) {
        if ((await deleteParcelle(trx, ctx.idCampagne, id)) !== 1) throw new ServiceError(PARCELLE_DELETE_ERROR, 404);
      }
      return ids.length;
    }),
  );
}

const MAX_GENERATIONS = 50;

/** The history tree of a plot of the campaign: its links followed back N-1, N-2 ... (B-HIST-04, B-HIST-05). */
export async function getHistoriqueTree(scope: Scope, idParcelle: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  if (!(await plotIdsOfCampaign(db, ctx.idCampagne, [idParcelle])).length) throw new ServiceError(PARCELLE_LOAD_ERROR, 404);
  return failingWith(PARCELLE_LOAD_ERROR, async () => {
    const seen = new Set<number>([idParcelle]);
    const links: HistoriqueLink[] = [];
    let frontier = [idParcelle];
    for (let g = 0; g < MAX_GENERATIONS && frontier.length; g++) {
      const found = await historyLinksOf(db, frontier);
      links.push(...found);
      frontier = [...new Set(found.map((l) => l.idParcelleHistorique))].filter((id) => !seen.has(id));
      for (const id of frontier) seen.add(id);
    }
    const plots: HistoriquePlot[] = await historyPlots(db, [...seen]);
    return buildHistoriqueTree(idParcelle, plots, links, MAX_GENERATIONS);
  });
}

/**
 * Updates the intervention dates of the ticked plots (PATCH parcelles/{id}/maj_dates_actions, B-PLOT-08):
 * the interventions of harvest year `anneeInitiale` move by (final - initial) years to harvest year
 * `anneeFinale`, and each plot's last-action year becomes `anneeFinale`. Returns the number moved.
 */
export async function majDatesActions(scope: Scope, raw: unknown): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const input = parse(MajDatesSchema, raw);
  const years = shiftYears(input);
  return failingWith(PARCELLE_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const ids = [...new Set(input.ids)];
      if ((await plotIdsOfCampaign(trx, ctx.idCampagne, ids)).length !== ids.length) throw new ServiceError(PARCELLE_UPDATE_ERROR, 404);
      let moved = 0;
      for (const id of ids) {
        for (const a of await actionsOfYear(trx, id, input.anneeInitiale)) {
          await moveAction(trx, a.id, shiftDateByYears(a.date, years), input.anneeFinale);
          moved++;
        }
        await setAnneeDerniereAction(trx, id, input.anneeFinale);
      }
      return moved;
    }),
  );
}

/**
 * The campaign's date update (PATCH campagnes/{id}/maj_dates_actions with anneeRecolteCible, C-DATE-06): the
 * campaign's interventions of its last-action year move by (target − that year) years to the target harvest year, and
 * the campaign's and each of its plots' last-action year become the target. The last-action year is the campaign's
 * stored one, else the latest harvest year of its interventions (a campaign duplicated without moving its dates keeps
 * its source's). Returns the number moved; nothing to move when the campaign has no intervention.
 */
export async function majDatesCampagne(scope: Scope, raw: unknown): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const { anneeRecolteCible } = parse(MajDatesCampagneSchema, raw);
  return failingWith(PARCELLE_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const depuis = await lastActionYearOfCampaign(trx, ctx.idCampagne);
      let moved = 0;
      if (depuis != null) {
        const years = anneeRecolteCible - depuis;
        const actions = await actionsOfCampaignYear(trx, ctx.idCampagne, depuis);
        for (const a of actions) await moveAction(trx, Number(a.id), shiftDateByYears(a.date, years), anneeRecolteCible);
        moved = actions.length;
      }
      await setCampaignAnneeDerniereAction(trx, ctx.idCampagne, anneeRecolteCible);
      return moved;
    }),
  );
}

/**
 * Cost centres (Other menu "assign cost centres"; GET campagnes/{id}/parcelles/affectation_culture_cible):
 * one target crop per plot among the crops of its mode; without a stored choice, the mode's main crop.
 */
export async function getAffectations(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PARCELLE_LOAD_ERROR, async () => {
    const crops = await cropsOfModes(db, ctx.idCampagne);
    const stored = await affectationsOf(db, ctx.idCampagne);
    return (await listParcelles(db, ctx.idCampagne)).map((p) => {
      const options = crops.filter((c) => c.idModeConduite === p.idModeConduite);
      const principale = options.find((c) => c.principale) ?? options[0];
      return {
        idParcelle: p.id,
        libelle: p.libelle,
        libelleModeConduite: p.libelleModeConduite,
        options: options.map((c) => ({ id: c.idCulture, libelle: c.libelle, libelleEn: c.libelleEn })),
        idCulture: stored.get(p.id) ?? principale?.idCulture ?? null,
        enregistree: stored.has(p.id),
      };
    });
  });
}

export async function saveAffectations(scope: Scope, raw: unknown): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const input = parse(AffectationsSchema, raw);
  await failingWith(PARCELLE_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const crops = await cropsOfModes(trx, ctx.idCampagne);
      const plots = new Map((await listParcelles(trx, ctx.idCampagne)).map((p) => [p.id, p]));
      for (const a of input) {
        const plot = plots.get(a.idParcelle);
        if (!plot) throw new ServiceError(PARCELLE_UPDATE_ERROR, 404);
        if (a.idCulture != null && !crops.some((c) => c.idModeConduite === plot.idModeConduite && c.idCulture === a.idCulture)) {
          throw new ServiceError("warning.invalid-form", 400, { [`affectations.${a.idParcelle}`]: ["warning.invalid"] });
        }
        await setAffectation(trx, a.idParcelle, a.idCulture);
      }
    }),
  );
}

/** The campaign of a plot, for an API call that names the plot (decision 0098). */
export function parcelleCampaign(db: Db, id: number): Promise<number | null> {
  return campaignOfParcelle(db, id);
}

/** One plot of the scope's campaign, as the list shows it (the API's answer to a save). */
export async function getParcelle(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  const row = (await listParcelles(scope.db, ctx.idCampagne)).find((p) => p.id === id);
  if (!row) throw new ServiceError(PARCELLE_LOAD_ERROR, 404);
  return row;
}
