import { SOIL_LISTS } from "~/domain/caracteristiques-pedologiques";
import { LotParcelleSchema, type LotParcelleInput } from "~/domain/lot-parcelle";
import { campaignContext, writableCampaign } from "../access/description";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { failingWith, parse, ServiceError } from "../errors";
import { referenceExists } from "../exploitation-description/repo";
import {
  deleteLotsParcelle,
  findLotParcelle,
  insertLotParcelle,
  listLotsParcelle,
  replicateLotOnParcelles,
  soilReferenceLists,
  updateLotParcelle,
  type SoilColumns,
} from "./repo";
import type { Scope } from "../access/scope";

/** Plot groups (lots) of the selected campaign (spec 2 §2 "Plot groups", §3, §4, §7, §8). */
export const LOT_LOAD_ERROR = "errors.services.campaign-lotParcelle-service-error";
export const LOT_CREATE_ERROR = "errors.services.lotParcelle-create-service-error";
export const LOT_UPDATE_ERROR = "errors.services.lotParcelle-update-service-error";
export const LOT_DELETE_ERROR = "errors.services.lotParcelle-delete-service-error";

/** Every soil id names a row of its reference list. */
export async function checkSoilReferences(db: Db, soil: SoilColumns): Promise<void> {
  for (const [field, table] of Object.entries(SOIL_LISTS) as [keyof typeof SOIL_LISTS, string][]) {
    const value = soil[field];
    if (value != null && !(await referenceExists(db, table, value))) throw new ServiceError("warning.invalid-form", 400, { [field]: ["warning.invalid"] });
  }
}

export async function getLotsParcelle(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(LOT_LOAD_ERROR, async () => ({
    rows: await listLotsParcelle(db, ctx.idCampagne),
    lists: await soilReferenceLists(db),
    canWrite: ctx.abilities.canWriteDescriptif,
  }));
}

export type LotSaveResult = { id: number; replicated: number };

/**
 * Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) a group. On update,
 * `replicate` (the answer to "propagate?", PATCH lots/{id} with replicate) copies the group's values onto
 * its plots in the same transaction.
 */
export async function saveLotParcelle(scope: Scope, raw: LotParcelleInput | Record<string, unknown>, existing?: Token): Promise<LotSaveResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const { replicate, ...input } = parse(LotParcelleSchema, raw);
  await checkSoilReferences(db, input);
  return failingWith(existing ? LOT_UPDATE_ERROR : LOT_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      if (!existing) return { id: await insertLotParcelle(trx, ctx.idCampagne, input), replicated: 0 };
      const current = await findLotParcelle(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(LOT_UPDATE_ERROR, 404);
      await updateLotParcelle(trx, existing, input);
      const replicated = replicate ? await replicateLotOnParcelles(trx, ctx.idCampagne, existing.id, input) : 0;
      return { id: existing.id, replicated };
    }),
  );
}

/** Deletes groups of the selected campaign (all or none); their plots stay, without a group. */
export async function removeLotsParcelle(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  await failingWith(LOT_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const n = await deleteLotsParcelle(trx, ctx.idCampagne, unique);
      if (n !== unique.length) throw new ServiceError(LOT_DELETE_ERROR, 404);
    }),
  );
}

/** The campaign of a plot group, null when there is none (the API names the group, not the campaign). */
export async function lotParcelleCampaign(db: Db, id: number): Promise<number | null> {
  return (await findLotParcelle(db, id))?.idCampagne ?? null;
}

/** One plot group of the scope's campaign, as the list shows it (the API's answer to a save). */
export async function getLotParcelle(scope: Scope, id: number) {
  const row = (await getLotsParcelle(scope)).rows.find((r) => r.id === id);
  if (!row) throw new ServiceError(LOT_LOAD_ERROR, 404);
  return row;
}
