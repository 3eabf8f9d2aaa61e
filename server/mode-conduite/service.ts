import { estimerAssurance, type EstimationAssurance } from "~/domain/calc/assurance";
import {
  compterCultures,
  hasAssurance,
  type AssuranceInput,
  type DuplicationModeConduiteInput,
  type EstimationInput,
  type ModeConduiteCultureInput,
  type ModeConduiteInput,
} from "~/domain/mode-conduite";
import { abilitiesFor } from "../access/abilities";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import { findCampagneCible } from "../campagne/repo";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { ServiceError } from "../errors";
import {
  categorieCompetilisExists,
  categorieCultureExists,
  cultureExists,
  deleteAssurance,
  deleteModeCultures,
  deleteModes,
  findAssurance,
  findMode,
  findModeCulture,
  insertMode,
  insertModeCulture,
  listAssurancesOfModes,
  listCategoriesCompetilis,
  listCategoriesCulture,
  listCultures,
  listCulturesOfModes,
  listModes,
  listModesByIds,
  listQualifiants,
  listRecoltes,
  listTypesSortie,
  maxModeCultureOrdre,
  modeCultureStamps,
  touchMode,
  updateAssuranceIfUnchanged,
  updateMode,
  updateModeCulture,
  updateModeCultureIfUnchanged,
  upsertAssurance,
  type AssuranceRow,
  type ModeConduiteCultureRow,
} from "./repo";
import type { Scope } from "../access/scope";

export { getDuplicationOptions } from "../parc-materiel/service";

/** The error keys of this screen (spec 2 §8; B-ERR-09, B-ERR-10). */
export const ERRORS = {
  mode: "errors.services.mode-de-conduite-service-error",
  cultureCreate: "errors.services.mode-conduite-culture-create-service-error",
  cultureUpdate: "errors.services.mode-conduite-culture-update-service-error",
  cultureDelete: "errors.services.mode-conduite-culture-delete-service-error",
  assurance: "errors.services.mode-conduite-assurance-service-error",
  locked: "cultures.errors.campagne-verrouillee",
} as const;

export type ModeConduiteView = Awaited<ReturnType<typeof getModesConduite>>["rows"][number];

/**
 * The crops screen: the campaign's modes (newest first) with their crop rows (B-CROP-10), counts (B-CROP-05)
 * and insurance, the reference lists of the form, and what the user may do.
 */
export async function getModesConduite(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const [modes, cultures, categories, competilis] = await Promise.all([
    listModes(db, ctx.idCampagne),
    listCultures(db),
    listCategoriesCulture(db),
    listCategoriesCompetilis(db),
  ]);
  const ids = modes.map((m) => m.id);
  const [rowsByMode, assurances] = await Promise.all([listCulturesOfModes(db, ids), listAssurancesOfModes(db, ids)]);
  const cultureById = new Map(cultures.map((c) => [c.id, c]));
  const codeById = new Map(categories.map((c) => [c.id, c.code]));
  const rows = modes.map((m) => {
    const lignes = (rowsByMode.get(m.id) ?? []).map((r) => ({
      ...r,
      libelleCulture: cultureById.get(r.idCulture)?.libelle ?? "",
      libelleCultureEn: cultureById.get(r.idCulture)?.libelleEn ?? null,
    }));
    return {
      ...m,
      modeConduiteCultureList: lignes,
      ...compterCultures(
        lignes,
        (id) => codeById.get(id),
        (id) => cultureById.get(id)?.idCatCulture,
      ),
      modeConduiteAssurance: assurances.get(m.id) ?? null,
    };
  });
  return {
    rows,
    cultures,
    categories,
    competilis,
    canWrite: ctx.abilities.canWriteDescriptif,
    idDossier: ctx.view.selected.idDossier,
    idExploitation: ctx.idExploitation,
  };
}

/** cultures/{id}/qualifiants (B-CROP-04). */
export async function getQualifiants(scope: Scope, idCulture: number) {
  const { db } = scope;
  await campaignContext(scope);
  return listQualifiants(db, idCulture);
}

/** cultures/{id}/qualifiants for the API: reference data, read without a campaign; an unknown crop is 404. */
export async function getQualifiantsOfCulture(db: Db, idCulture: number) {
  if (!(await cultureExists(db, idCulture))) throw new ServiceError("errors.not-found", 404);
  return listQualifiants(db, idCulture);
}

/** types_sorties of a crop (B-INS-03). */
export async function getTypesSortie(scope: Scope, idCulture: number) {
  const { db } = scope;
  await campaignContext(scope);
  return listTypesSortie(db, idCulture);
}

/** Unknown crops, categories, qualifiers of another crop or output types the crop has not are refused beside the field. */
async function checkReferences(db: Db, input: ModeConduiteInput): Promise<void> {
  const fieldErrors: Record<string, string[]> = {};
  for (const [i, row] of input.cultures.entries()) await checkCultureRow(db, row, `cultures[${i}].`, fieldErrors);
  if (input.dicIdCatCompetilis != null && !(await categorieCompetilisExists(db, input.dicIdCatCompetilis)))
    fieldErrors.dicIdCatCompetilis = ["warning.invalid"];
  await checkAssurance(db, input.assurance, "assurance.", fieldErrors);
  if (Object.keys(fieldErrors).length) throw new ServiceError("warning.invalid-form", 400, fieldErrors);
}

/** The checks of one crop row (its fields named after `prefix`), added to `fieldErrors`. */
async function checkCultureRow(db: Db, row: ModeConduiteCultureInput, prefix: string, fieldErrors: Record<string, string[]>): Promise<void> {
  const invalid = (name: string) => (fieldErrors[prefix + name] = ["warning.invalid"]);
  if (!(await cultureExists(db, row.idCulture))) invalid("idCulture");
  if (row.idCatCulture != null && !(await categorieCultureExists(db, row.idCatCulture))) invalid("idCatCulture");
  if (row.idQualifiant != null && !(await listQualifiants(db, row.idCulture)).some((q) => q.id === row.idQualifiant)) invalid("idQualifiant");
}

/** The checks of an insurance (its fields named after `prefix`), added to `fieldErrors`. */
async function checkAssurance(db: Db, a: AssuranceInput, prefix: string, fieldErrors: Record<string, string[]>): Promise<void> {
  if (!hasAssurance(a)) return;
  if (!(await cultureExists(db, a.idCulture!))) fieldErrors[prefix + "idCulture"] = ["warning.invalid"];
  else if (!(await listTypesSortie(db, a.idCulture!)).some((t) => t.id === a.idTypeSortie)) fieldErrors[prefix + "idTypeSortie"] = ["warning.invalid"];
}

const refuseFields = (fieldErrors: Record<string, string[]>) => {
  if (Object.keys(fieldErrors).length) throw new ServiceError("warning.invalid-form", 400, fieldErrors);
};

/** The estimate of an insurance in a campaign, from the farm's recorded harvests (docs/indicators.md §Crop insurance). */
async function estimate(db: Db, campagne: { id: number; idExploitation: number; anneeRecolte: number }, a: AssuranceInput): Promise<EstimationAssurance> {
  const { anterieures, courante } = await listRecoltes(db, {
    idExploitation: campagne.idExploitation,
    idCampagne: campagne.id,
    anneeRecolte: campagne.anneeRecolte,
    idCulture: a.idCulture!,
    idTypeSortie: a.idTypeSortie!,
  });
  return estimerAssurance({ anterieures, courante, rendementAssure: a.rendementAssure, txFranchise: a.txFranchise, mtPrixAssure: a.mtPrixAssure });
}

const campagneOf = (ctx: CampaignContext) => ({ id: ctx.idCampagne, idExploitation: ctx.idExploitation, anneeRecolte: ctx.view.campagne!.anneeRecolte });

async function saveAssurance(
  db: Db,
  campagne: { id: number; idExploitation: number; anneeRecolte: number },
  idModeConduite: number,
  a: AssuranceInput,
): Promise<void> {
  const e = await estimate(db, campagne, a);
  await upsertAssurance(db, idModeConduite, {
    ...a,
    rendementReelMoyen: e.rendementReelMoyen,
    rendementNonIndemnisable: e.rendementNonIndemnisable,
    mtIndemniteCalculee: e.mtIndemniteCalculee,
  });
}

/**
 * Saves the rows of a mode as the form lists them (B-CROP-08, B-CROP-09): rows without id are created,
 * rows with an id are updated, the mode's rows missing from the list are deleted.
 */
async function saveRows(db: Db, idModeConduite: number, rows: ModeConduiteInput["cultures"], existing: ModeConduiteCultureRow[]): Promise<void> {
  const kept = new Set(rows.flatMap((r) => (r.id != null ? [r.id] : [])));
  const removed = existing.filter((r) => !kept.has(r.id)).map((r) => r.id);
  if ((await deleteModeCultures(db, idModeConduite, removed)) !== removed.length) throw new ServiceError(ERRORS.cultureDelete, 404);
  for (const [ordre, row] of rows.entries()) {
    if (row.id != null) {
      if ((await updateModeCulture(db, idModeConduite, { ...row, id: row.id }, ordre)) !== 1) throw new ServiceError(ERRORS.cultureUpdate, 404);
    } else {
      try {
        await insertModeCulture(db, idModeConduite, row, ordre);
      } catch {
        throw new ServiceError(ERRORS.cultureCreate, 400);
      }
    }
  }
}

/**
 * Creates (no id) or updates (id, with the mode's updatedAt: a stale save is refused) a mode with its crop
 * rows and its insurance, in one transaction. An insurance panel left empty stores no insurance (D-CULT-2).
 */
export async function saveModeConduite(scope: Scope, input: ModeConduiteInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await checkReferences(db, input);
  return db.transaction(async (trx) => {
    let id: number;
    let rows: ModeConduiteCultureRow[] = [];
    if (!existing) id = await insertMode(trx, ctx.idCampagne, input);
    else {
      const current = await findMode(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.mode, 404);
      await updateMode(trx, existing, input);
      id = existing.id;
      rows = (await listCulturesOfModes(trx, [id])).get(id) ?? [];
    }
    await saveRows(trx, id, input.cultures, rows);
    if (hasAssurance(input.assurance)) await saveAssurance(trx, campagneOf(ctx), id, input.assurance);
    else await deleteAssurance(trx, id);
    return id;
  });
}

export async function removeModesConduite(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await db.transaction(async (trx) => {
    if ((await deleteModes(trx, ctx.idCampagne, ids)) !== ids.length) throw new ServiceError(ERRORS.mode, 404);
  });
}

/** Deletes a mode's insurance (B-INS-07, B-INS-08: the screen asks for confirmation first). */
export async function removeAssurance(scope: Scope, idModeConduite: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await db.transaction(async (trx) => {
    const mode = await findMode(trx, idModeConduite);
    if (!mode || mode.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.mode, 404);
    if ((await deleteAssurance(trx, idModeConduite)) !== 1) throw new ServiceError(ERRORS.assurance, 404);
    await touchMode(trx, idModeConduite);
  });
}

/**
 * POST mode_conduite_assurances/estimate (B-INS-05, B-INS-06): the real average yield, the campaign's own
 * yield when recorded, the non-indemnified yield and the calculated indemnity. Reading only: readers may
 * estimate too.
 */
export async function estimateAssurance(scope: Scope, input: EstimationInput): Promise<EstimationAssurance> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const mode = await findMode(db, input.idModeConduite);
  if (!mode || mode.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.assurance, 404);
  return estimate(db, campagneOf(ctx), input);
}

/**
 * Copies the ticked modes of the selected campaign, with their crop rows and insurance, into each chosen
 * campaign in one transaction (B-CROP-14). Same refusals as the machinery duplication (B-RIGHTS-11, 12):
 * another folder without folder animation, a folder or farm without write access, a campaign of another
 * farm or the current one, a locked campaign. The insurance estimate is recomputed for the target campaign.
 */
export async function duplicateModesConduite(scope: Scope, input: DuplicationModeConduiteInput): Promise<{ copies: number }> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  if (input.idDossier !== ctx.view.selected.idDossier && !ctx.abilities.isDoAnimation) throw new ServiceError("errors.forbidden", 403);
  const ids = [...new Set(input.ids)];
  const targets: { id: number; idExploitation: number; anneeRecolte: number }[] = [];
  for (const idCampagne of [...new Set(input.campagnes)]) {
    const campagne = await findCampagneCible(db, idCampagne);
    if (!campagne || campagne.idExploitation !== input.idExploitation || campagne.id === ctx.idCampagne) {
      throw new ServiceError(ERRORS.mode, 400, { campagnes: ["warning.invalid"] });
    }
    const a = await abilitiesFor(db, user, { idDossier: input.idDossier, idExploitation: input.idExploitation, idCampagne });
    if (!a.canDuplicateToFarm) throw new ServiceError("errors.forbidden", 403);
    if (!a.canWriteDescriptif) throw new ServiceError(ERRORS.locked, 403, undefined, { annee: Number(campagne.anneeRecolte) });
    targets.push({ id: Number(campagne.id), idExploitation: Number(campagne.idExploitation), anneeRecolte: Number(campagne.anneeRecolte) });
  }
  return db.transaction(async (trx) => {
    const sources = await listModesByIds(trx, ctx.idCampagne, ids);
    if (sources.length !== ids.length) throw new ServiceError(ERRORS.mode, 404);
    const rowsByMode = await listCulturesOfModes(trx, ids);
    const assurances = await listAssurancesOfModes(trx, ids);
    let copies = 0;
    for (const target of targets) {
      for (const mode of sources) {
        const input: ModeConduiteInput = {
          libelle: mode.libelle,
          aideCouplee: mode.aideCouplee ?? undefined,
          dicIdCatCompetilis: mode.dicIdCatCompetilis ?? undefined,
          remarque: mode.remarque ?? undefined,
          cultures: [],
          assurance: {},
        };
        const id = await insertMode(trx, target.id, input);
        for (const row of rowsByMode.get(mode.id) ?? []) {
          await insertModeCulture(
            trx,
            id,
            { idCulture: row.idCulture, idCatCulture: row.idCatCulture ?? undefined, idQualifiant: row.idQualifiant ?? undefined },
            row.ordre,
          );
        }
        const a = assurances.get(mode.id);
        if (a && a.idCulture != null) await saveAssurance(trx, target, id, assuranceInput(a));
        copies += 1;
      }
    }
    return { copies };
  });
}

const assuranceInput = (a: AssuranceRow): AssuranceInput => ({
  idCulture: a.idCulture ?? undefined,
  idTypeSortie: a.idTypeSortie ?? undefined,
  mtCotisationAssurance: a.mtCotisationAssurance ?? undefined,
  mtIndemniteSaisie: a.mtIndemniteSaisie ?? undefined,
  rendementAssure: a.rendementAssure ?? undefined,
  mtPrixAssure: a.mtPrixAssure ?? undefined,
  txFranchise: a.txFranchise ?? undefined,
});

/** The campaign of a management mode, null when there is none (the API names the mode, not the campaign). */
export async function modeConduiteCampaign(db: Db, id: number): Promise<number | null> {
  return (await findMode(db, id))?.idCampagne ?? null;
}

/** One management mode of the scope's campaign with its crop rows and insurance, as the list shows it (GET mode_conduites/{id}). */
export async function getModeConduite(scope: Scope, id: number) {
  const row = (await getModesConduite(scope)).rows.find((r) => r.id === id);
  if (!row) throw new ServiceError(ERRORS.mode, 404);
  return row;
}

// ---- One crop row, one insurance (the API's mode_conduite_cultures and mode_conduite_assurances; issue 26, decision 0129)

/** The campaign of a crop row of a mode, null when there is none. */
export async function modeConduiteCultureCampaign(db: Db, id: number): Promise<number | null> {
  return (await findModeCulture(db, id))?.idCampagne ?? null;
}

/** The crop rows of a mode of the scope's campaign, in the form's order, each with its updatedAt (GET mode_conduites/{id}/mode_conduite_cultures). */
export async function getModeConduiteCultures(scope: Scope, idModeConduite: number) {
  const mode = await getModeConduite(scope, idModeConduite);
  const stamps = await modeCultureStamps(scope.db, idModeConduite);
  return mode.modeConduiteCultureList.map((r) => ({ ...r, idModeConduite, updatedAt: stamps.get(r.id)! }));
}

/** One crop row of a mode of the scope's campaign. */
export async function getModeConduiteCulture(scope: Scope, id: number) {
  const found = await findModeCulture(scope.db, id);
  const row = found && (await getModeConduiteCultures(scope, found.idModeConduite)).find((r) => r.id === id);
  if (!row) throw new ServiceError(ERRORS.cultureUpdate, 404);
  return row;
}

/**
 * Creates (no `existing`: last in the mode's list) or updates (stale check, the row keeps its place) one crop row of a
 * mode, with the form's checks. The mode is marked changed, so that a form of the whole mode loaded before is refused as stale.
 */
export async function saveModeConduiteCulture(scope: Scope, idModeConduite: number, row: ModeConduiteCultureInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const fieldErrors: Record<string, string[]> = {};
  await checkCultureRow(db, row, "", fieldErrors);
  refuseFields(fieldErrors);
  return db.transaction(async (trx) => {
    const mode = await findMode(trx, idModeConduite);
    if (!mode || mode.idCampagne !== ctx.idCampagne) throw new ServiceError(existing ? ERRORS.cultureUpdate : ERRORS.cultureCreate, 404);
    let id: number;
    if (existing) {
      const current = await findModeCulture(trx, existing.id);
      if (!current || current.idModeConduite !== idModeConduite) throw new ServiceError(ERRORS.cultureUpdate, 404);
      await updateModeCultureIfUnchanged(trx, idModeConduite, existing, row, current.ordre);
      id = existing.id;
    } else id = await insertModeCulture(trx, idModeConduite, row, (await maxModeCultureOrdre(trx, idModeConduite)) + 1);
    await touchMode(trx, idModeConduite);
    return id;
  });
}

/** Deletes one crop row of a mode of the scope's campaign. */
export async function removeModeConduiteCulture(scope: Scope, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await db.transaction(async (trx) => {
    const row = await findModeCulture(trx, id);
    if (!row || row.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.cultureDelete, 404);
    if ((await deleteModeCultures(trx, row.idModeConduite, [id])) !== 1) throw new ServiceError(ERRORS.cultureDelete, 404);
    await touchMode(trx, row.idModeConduite);
  });
}

/** The campaign of an insurance, null when there is none. */
export async function assuranceCampaign(db: Db, id: number): Promise<number | null> {
  return (await findAssurance(db, id))?.idCampagne ?? null;
}

/** One insurance of a mode of the scope's campaign, with its calculated values. */
export async function getAssurance(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  const a = await findAssurance(scope.db, id);
  if (!a || a.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.assurance, 404);
  const { idCampagne: _c, ...row } = a;
  void _c;
  return row;
}

/**
 * Creates (no `existing`; a mode has one insurance at most: a second is refused with 409) or updates (stale check) the
 * insurance of a mode, the estimate recomputed as the form's save does. An insurance needs its crop (the form's rule).
 */
export async function saveModeConduiteAssurance(scope: Scope, idModeConduite: number, a: AssuranceInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const fieldErrors: Record<string, string[]> = {};
  if (!hasAssurance(a)) fieldErrors.idCulture = ["warning.required"];
  await checkAssurance(db, a, "", fieldErrors);
  refuseFields(fieldErrors);
  return db.transaction(async (trx) => {
    const mode = await findMode(trx, idModeConduite);
    if (!mode || mode.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.assurance, 404);
    const e = await estimate(trx, campagneOf(ctx), a);
    const values = {
      ...a,
      rendementReelMoyen: e.rendementReelMoyen,
      rendementNonIndemnisable: e.rendementNonIndemnisable,
      mtIndemniteCalculee: e.mtIndemniteCalculee,
    };
    const current = (await listAssurancesOfModes(trx, [idModeConduite])).get(idModeConduite);
    if (existing) {
      if (!current || current.id !== existing.id) throw new ServiceError(ERRORS.assurance, 404);
      await updateAssuranceIfUnchanged(trx, existing, values);
    } else {
      if (current) throw new ServiceError(ERRORS.assurance, 409);
      await upsertAssurance(trx, idModeConduite, values);
    }
    await touchMode(trx, idModeConduite);
    return (await listAssurancesOfModes(trx, [idModeConduite])).get(idModeConduite)!.id;
  });
}

/** Deletes an insurance by its own id (the screen deletes it by its mode: removeAssurance). */
export async function removeAssuranceById(scope: Scope, id: number): Promise<void> {
  const ctx = await writableCampaign(scope);
  const a = await findAssurance(scope.db, id);
  if (!a || a.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.assurance, 404);
  await removeAssurance(scope, a.idModeConduite);
}
