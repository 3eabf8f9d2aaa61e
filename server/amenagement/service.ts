import type { Db } from "../db/knex";
import { AmenagementSchema, type AmenagementInput } from "~/domain/amenagement";
import { campaignContext, writableCampaign } from "../access/description";
import type { Token } from "../db/stale";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import { soilReferenceLists } from "../lot-parcelle/repo";
import { checkSoilReferences } from "../lot-parcelle/service";
import {
  deleteAmenagements,
  findAmenagement,
  insertAmenagement,
  listAmenagements,
  listParcellesOfCampagne,
  listTypesAmenagement,
  parcelleInCampagne,
  typeAmenagementExists,
  updateAmenagement,
} from "./repo";
import type { Scope } from "../access/scope";

/** Landscape features (zones amenagement) of the selected campaign (spec 2 §2, §3, §5, §7, §8). */
export const AMENAGEMENT_LOAD_ERROR = "errors.services.amenagement-service-error";
export const AMENAGEMENT_CREATE_ERROR = "errors.services.amenagement-create-service-error";
export const AMENAGEMENT_UPDATE_ERROR = "errors.services.amenagement-update-service-error";
export const AMENAGEMENT_DELETE_ERROR = "errors.services.amenagement-delete-service-error";

export async function getAmenagements(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(AMENAGEMENT_LOAD_ERROR, async () => ({
    rows: await listAmenagements(db, ctx.idCampagne),
    types: await listTypesAmenagement(db),
    parcelles: await listParcellesOfCampagne(db, ctx.idCampagne),
    lists: await soilReferenceLists(db),
    canWrite: ctx.abilities.canWriteDescriptif,
  }));
}

/** Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) a feature. */
export async function saveAmenagement(scope: Scope, raw: AmenagementInput | Record<string, unknown>, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const input = parse(AmenagementSchema, raw);
  if (!(await typeAmenagementExists(db, input.idTypeAmenagement))) throw invalidField("idTypeAmenagement");
  // The adjacent plot is one of this campaign's plots.
  if (input.idParcelleAdjacente != null && !(await parcelleInCampagne(db, ctx.idCampagne, input.idParcelleAdjacente)))
    throw invalidField("idParcelleAdjacente");
  await checkSoilReferences(db, input);
  return failingWith(existing ? AMENAGEMENT_UPDATE_ERROR : AMENAGEMENT_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      if (!existing) return insertAmenagement(trx, ctx.idCampagne, input);
      const current = await findAmenagement(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(AMENAGEMENT_UPDATE_ERROR, 404);
      await updateAmenagement(trx, existing, input);
      return existing.id;
    }),
  );
}

/** Deletes features of the selected campaign: all of them, or none when one is unknown. */
export async function removeAmenagements(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  await failingWith(AMENAGEMENT_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const n = await deleteAmenagements(trx, ctx.idCampagne, unique);
      if (n !== unique.length) throw new ServiceError(AMENAGEMENT_DELETE_ERROR, 404);
    }),
  );
}

/** The campaign of a landscape feature, null when there is none (the API names the feature, not the campaign). */
export async function amenagementCampaign(db: Db, id: number): Promise<number | null> {
  return (await findAmenagement(db, id))?.idCampagne ?? null;
}

/** One landscape feature of the scope's campaign, as the list shows it (the API's answer to a save). */
export async function getAmenagement(scope: Scope, id: number) {
  const row = (await getAmenagements(scope)).rows.find((r) => r.id === id);
  if (!row) throw new ServiceError(AMENAGEMENT_LOAD_ERROR, 404);
  return row;
}
