import { normsFromReferenceValues } from "~/domain/calc/main-oeuvre";
import type { MainOeuvreInput } from "~/domain/main-oeuvre";
import { campaignContext, writableCampaign } from "../access/description";
import type { Db } from "../db/knex";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { deleteMainOeuvres, findMainOeuvre, insertMainOeuvre, listMainOeuvres, updateMainOeuvre } from "./repo";

export async function getMainOeuvres(db: Db, user: Utilisateur) {
  const ctx = await campaignContext(db, user);
  // Reference values are read by position (spec 2 §4: family norm at index 2, salaried at index 3).
  const valeurs = (await db("reference_valeur").orderBy("ordre").select("valeur")).map((r) => (r.valeur == null ? null : Number(r.valeur)));
  return { rows: await listMainOeuvres(db, ctx.idCampagne), canWrite: ctx.abilities.canWriteDescriptif, normes: normsFromReferenceValues(valeurs) };
}

/** Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) a labour item. */
export async function saveMainOeuvre(db: Db, user: Utilisateur, input: MainOeuvreInput, existing?: { id: number; updatedAt?: string }): Promise<number> {
  const ctx = await writableCampaign(db, user);
  return db.transaction(async (trx) => {
    if (!existing) return insertMainOeuvre(trx, ctx.idCampagne, input);
    const current = await findMainOeuvre(trx, existing.id);
    if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.services.mo-update-service-error", 404);
    if (existing.updatedAt && existing.updatedAt !== current.updatedAt) throw new ServiceError("errors.stale", 409);
    await updateMainOeuvre(trx, existing.id, input);
    return existing.id;
  });
}

export async function removeMainOeuvres(db: Db, user: Utilisateur, ids: number[]): Promise<void> {
  const ctx = await writableCampaign(db, user);
  await db.transaction(async (trx) => {
    const n = await deleteMainOeuvres(trx, ctx.idCampagne, ids);
    if (n !== ids.length) throw new ServiceError("errors.services.mo-delete-service-error", 404);
  });
}
