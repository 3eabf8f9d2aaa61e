import { RecolteSchema } from "~/domain/recolte";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { invalidField, parse, ServiceError } from "../errors";
import { idActionOf } from "../intrant/api";
import { getRecolte, saveRecolte } from "./service";
import { actionDeRecolte, campagneDeRecolte, recoltesIdsOfAction } from "./repo";

/**
 * What the JSON API adds to the harvests (issue 27, decision 0112): the campaign of a harvest, the harvests of an
 * intervention, and a harvest created or updated from the harvest dialog's fields through its service (rights, lock,
 * crop, output type and qualifier checks, characteristics and observation series in one transaction).
 */

export function recolteCampaign(db: Db, id: number): Promise<number | null> {
  return campagneDeRecolte(db, id);
}

/** The harvests of an intervention of the scope's campaign, each as its dialog reads it. */
export async function recoltesOfAction(scope: Scope, idAction: number) {
  const ids = await recoltesIdsOfAction(scope.db, idAction);
  const out = [];
  for (const id of ids) out.push(await getRecolte(scope, Number(id)));
  return out;
}

const fieldsOf = (raw: Record<string, unknown>) => parse(RecolteSchema.strict(), raw);

/** POST recoltes: a new harvest of the intervention idAction. */
export async function createRecolteApi(scope: Scope, body: Record<string, unknown>) {
  const { idAction: _a, ...raw } = body;
  void _a;
  const idAction = idActionOf(body);
  return getRecolte(scope, await saveRecolte(scope, idAction, fieldsOf(raw)));
}

/** PATCH recoltes/{id}: the harvest's fields, updatedAt as read (stale: 409). */
export async function updateRecolteApi(scope: Scope, id: number, body: Record<string, unknown>) {
  const { updatedAt, ...raw } = body;
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  const idAction = await actionDeRecolte(scope.db, id);
  if (idAction == null) throw new ServiceError("errors.not-found", 404);
  await saveRecolte(scope, idAction, fieldsOf(raw), { id, updatedAt });
  return getRecolte(scope, id);
}
