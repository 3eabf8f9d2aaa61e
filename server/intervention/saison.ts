import { z } from "zod";
import { finApresDebut, InterventionSchema, RegistreInterventionSchema } from "~/domain/intervention";
import { AutreSchema, EauSchema, FertilisantSchema, PhytoSchema, SemenceSchema } from "~/domain/intrant";
import { campaignContext, writableCampaign } from "../access/description";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { failingWith, isServiceError, parseStrict, ServiceError } from "../errors";
import { getIntrant, writeIntrant, type IntrantKind } from "../intrant/service";
import { findIntervention, insertIntervention } from "./repo";
import { ACTIONS_CREATE_ERROR, ACTIONS_LOAD_ERROR, campaignLinks, storedIntervention, storedRegistre } from "./service";

/**
 * What the JSON API adds to the interventions (issue 27, decision 0112): one intervention read with its inputs, the
 * campaign a row belongs to (so that the API adapter gives the call that campaign's scope), and the season's bulk
 * write: many interventions of one plot with their inputs, composed of the screens' own checks and writes
 * (storedIntervention, writeIntrant) in one transaction.
 */

/** The kinds of input and the schema of each (the input dialog's). */
export const SCHEMAS_INTRANT = { semence: SemenceSchema, phyto: PhytoSchema, fertilisant: FertilisantSchema, eau: EauSchema, autre: AutreSchema } as const;
export const KINDS_INTRANT = Object.keys(SCHEMAS_INTRANT) as [IntrantKind, ...IntrantKind[]];

/** At most this many interventions in one season's write (and inputs on one intervention). */
export const MAX_SAISON = 1000;
export const MAX_INTRANTS_ACTION = 50;

/** The campaign of an intervention (null: none). */
export async function actionCampaign(db: Db, id: number): Promise<number | null> {
  const r = await db("action").where({ id }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** The campaign of an input, through its intervention (null: none). */
export async function intrantCampaign(db: Db, id: number): Promise<number | null> {
  const r = await db("intrant as i").join("action as a", "a.id", "i.idAction").where("i.id", id).first("a.idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** The campaign of a plot (null: none). */
export async function parcelleCampaignOf(db: Db, id: number): Promise<number | null> {
  const r = await db("parcelle").where({ id }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** One intervention of the scope's campaign, as the grid shows it (a foreign or unknown one is a 404). */
export async function getIntervention(scope: Scope, id: number) {
  const ctx = await campaignContext(scope);
  return failingWith(ACTIONS_LOAD_ERROR, async () => {
    const row = await findIntervention(scope.db, id);
    if (!row || row.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
    const { idCampagne: _c, ...rest } = row;
    void _c;
    return rest;
  });
}

/** The inputs of an intervention of the scope's campaign, each as its dialog reads it. */
export async function getIntrantsOfAction(scope: Scope, idAction: number) {
  const ctx = await campaignContext(scope);
  const action = await findIntervention(scope.db, idAction);
  if (!action || action.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
  const ids = await failingWith(ACTIONS_LOAD_ERROR, () => scope.db("intrant").where({ idAction }).whereNotNull("idCategorie").orderBy("id").pluck("id"));
  const out = [];
  for (const id of ids) out.push(await getIntrant(scope, Number(id)));
  return out;
}

/** An input as the API sends it: its kind and the fields of that kind's schema. */
export const IntrantLigne = z.looseObject({ type: z.enum(KINDS_INTRANT) });

/** The fields of an input of kind `type`, parsed by its schema; field errors named under `prefix`. */
export function parseIntrant(raw: Record<string, unknown>, prefix = "") {
  const { type, ...fields } = raw;
  const kind = KINDS_INTRANT.find((k) => k === type);
  if (!kind) throw new ServiceError("warning.invalid-form", 400, { [`${prefix}type`]: ["warning.invalid"] });
  return { kind, values: checked(SCHEMAS_INTRANT[kind].strict(), fields, prefix) };
}

/** Field errors renamed under a prefix (interventions.<i>.<field>); the errors of the row itself named by the row. */
function prefixed(errors: Record<string, string[]>, prefix: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(errors)) out[k && k !== "form" ? `${prefix}${k}` : prefix.replace(/\.$/, "")] = v;
  return out;
}

/** A strict schema's errors, an unknown field named by itself (as the API adapter names them). */
function checked<T extends z.ZodType>(schema: T, input: unknown, prefix: string): z.output<T> {
  try {
    return parseStrict(schema, input);
  } catch (e) {
    if (isServiceError(e) && e.fieldErrors) throw new ServiceError(e.key, e.status, prefixed(e.fieldErrors, prefix));
    throw e;
  }
}

/**
 * One intervention of a season's write: the intervention form's fields with the register's (InterventionGrilleSchema's,
 * the plot being the call's), and its inputs.
 */
const SaisonIntervention = InterventionSchema.omit({ idParcelle: true }).extend(RegistreInterventionSchema.shape).strict().superRefine(finApresDebut);

export type SaisonResult = { interventions: { index: number; id: number; intrants: number[] }[] };

/**
 * A season of interventions with their inputs for one plot of the scope's campaign (POST parcelles/{id}/saison):
 * every row checked with the screens' rules (its schema, its operation and crop within the campaign, each input's
 * schema and catalogue row), all written in one transaction. One bad row and nothing is stored: the answer is 400
 * with every bad row's errors named `interventions.<i>.<field>` and `interventions.<i>.intrants.<j>.<field>`.
 * The rights, the campaign lock and a validated series are the writable campaign's check, as for the screens.
 */
export async function saveSaison(scope: Scope, idParcelle: number, rows: readonly Record<string, unknown>[]): Promise<SaisonResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  if (rows.length > MAX_SAISON) throw new ServiceError("warning.invalid-form", 400, { interventions: ["warning.too-many"] });
  return failingWith(ACTIONS_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      const links = await campaignLinks(trx, ctx.idCampagne);
      if (!links.plots.has(idParcelle)) throw new ServiceError("errors.not-found", 404);
      const errors: Record<string, string[]> = {};
      const refuse = (e: unknown, prefix: string) => {
        if (!isServiceError(e) || e.status !== 400) throw e;
        Object.assign(errors, prefixed(e.fieldErrors ?? { "": [e.key] }, prefix));
      };
      const out: SaisonResult["interventions"] = [];
      for (const [i, row] of rows.entries()) {
        const at = `interventions.${i}.`;
        const { intrants: rawInputs, ...fields } = row;
        const inputs = Array.isArray(rawInputs) ? rawInputs : rawInputs == null ? [] : null;
        if (inputs === null || inputs.length > MAX_INTRANTS_ACTION) errors[`${at}intrants`] = [inputs === null ? "warning.invalid" : "warning.too-many"];
        let idAction: number | null = null;
        try {
          const parsed = checked(SaisonIntervention, fields, at);
          try {
            const values = { ...(await storedIntervention(trx, ctx, { ...parsed, idParcelle }, links)), ...(await storedRegistre(trx, parsed)) };
            // After a bad row nothing is written any more (the transaction is rolled back): the rows are only checked.
            if (!Object.keys(errors).length) idAction = await insertIntervention(trx, ctx.idCampagne, values);
          } catch (e) {
            refuse(e, at);
          }
        } catch (e) {
          refuse(e, "");
        }
        const ids: number[] = [];
        for (const [j, raw] of (inputs ?? []).entries()) {
          const inputAt = `${at}intrants.${j}.`;
          try {
            if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new ServiceError("warning.invalid-form", 400, { "": ["warning.invalid"] });
            const { kind, values } = parseIntrant(raw as Record<string, unknown>, inputAt);
            if (idAction != null && !Object.keys(errors).length) ids.push(await writeIntrant(trx, ctx, idAction, kind, values));
          } catch (e) {
            refuse(e, isServiceError(e) && Object.keys(e.fieldErrors ?? {}).some((k) => k.startsWith(inputAt)) ? "" : inputAt);
          }
        }
        if (idAction != null) out.push({ index: i, id: idAction, intrants: ids });
      }
      if (Object.keys(errors).length) throw new ServiceError("warning.invalid-form", 400, errors);
      return { interventions: out };
    }),
  );
}
