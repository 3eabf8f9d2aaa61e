import type { Db } from "../db/knex";
import { STATUS_CODES } from "node:http";
import { normsFromReferenceValues } from "~/domain/calc/main-oeuvre";
import type { MainOeuvreInput } from "~/domain/main-oeuvre";
import { campaignContext, writableCampaign } from "../access/description";
import type { Token } from "../db/stale";
import { failingWith, ServiceError } from "../errors";
import { deleteMainOeuvres, findMainOeuvre, insertMainOeuvre, listMainOeuvres, listReferenceValeurs, updateMainOeuvre } from "./repo";
import type { Scope } from "../access/scope";

/** The labour error keys of spec 2 §8 (B-ERR-04 to B-ERR-07). */
export const MO_LOAD_ERROR = "errors.services.mo-service-error";
export const MO_CREATE_ERROR = "errors.services.mo-create-service-error";
export const MO_UPDATE_ERROR = "errors.services.mo-update-service-error";
export const MO_DELETE_ERROR = "errors.services.mo-delete-service-error";

/**
 * The one labour call whose message is the response's status text (spec 2 §8, B-ERR-08): deleting an
 * item that is no longer there answers 404 and the error dialog reads "404 Not Found".
 */
export function statusTextError(status: number): ServiceError {
  return new ServiceError(`${status} ${STATUS_CODES[status] ?? ""}`.trim(), status);
}

export async function getMainOeuvres(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(MO_LOAD_ERROR, async () => {
    // Reference values are read by position (spec 2 §4: family norm at index 2, salaried at index 3).
    const valeurs = await listReferenceValeurs(db);
    return { rows: await listMainOeuvres(db, ctx.idCampagne), canWrite: ctx.abilities.canWriteDescriptif, normes: normsFromReferenceValues(valeurs) };
  });
}

/** Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) a labour item. */
export async function saveMainOeuvre(scope: Scope, input: MainOeuvreInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(existing ? MO_UPDATE_ERROR : MO_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      if (!existing) return insertMainOeuvre(trx, ctx.idCampagne, input);
      const current = await findMainOeuvre(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(MO_UPDATE_ERROR, 404);
      await updateMainOeuvre(trx, existing, input);
      return existing.id;
    }),
  );
}

/** Deletes labour items of the selected campaign: all of them, or none when one is no longer there (404). */
export async function removeMainOeuvres(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  await failingWith(MO_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const n = await deleteMainOeuvres(trx, ctx.idCampagne, unique);
      if (n !== unique.length) throw statusTextError(404);
    }),
  );
}

/** The campaign of a labour item, null when there is none (the API names the item, not the campaign). */
export async function mainOeuvreCampaign(db: Db, id: number): Promise<number | null> {
  return (await findMainOeuvre(db, id))?.idCampagne ?? null;
}

/** One labour item of the scope's campaign, as the list shows it (GET main_oeuvres/{id}). */
export async function getMainOeuvre(scope: Scope, id: number) {
  const row = (await getMainOeuvres(scope)).rows.find((r) => r.id === id);
  if (!row) throw new ServiceError(MO_LOAD_ERROR, 404);
  return row;
}
