import {
  debitParDefaut,
  InterventionGrilleSchema,
  RegistreInterventionSchema,
  type InterventionGrilleInput,
  type InterventionInput,
  type RegistreInterventionInput,
} from "~/domain/intervention";
import { withinCampaign } from "~/domain/validation";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import type { Db } from "../db/knex";
import { applyRowPatches, type CurrentRow } from "../db/row-patches";
import type { Token } from "../db/stale";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import { listOperationsCulturales } from "../operation-culturale/repo";
import type { CultureChoix, OperationChoix, ParcelleChoix, StadeChoix } from "~/domain/contracts/interventions";
import { packedInterventions } from "./rows-cache";
import { campaignVersions, keptPerVersion } from "../db/kept-per-version";
import { encodeChoices, type EncodedChoices } from "~/domain/contracts/interventions-codec";
import {
  actionValues,
  deleteInterventions,
  findIntervention,
  insertIntervention,
  listCulturesChoixOfCampagne,
  listInterventions,
  listMainOeuvresLibellesOfCampagne,
  listMaterielsLibellesOfCampagne,
  listOperationsDebitsOfCampagne,
  listParcelleIdsOfCampagne,
  listParcellesChoixOfCampagne,
  listStadesOfCampagne,
  registreValues,
  updateIntervention,
} from "./repo";
import { updateIfUnchanged } from "../db/stale";
import type { Scope } from "../access/scope";

/** The interventions error keys (spec 3 §8 names none for the actions themselves: ours, in the same family). */
export const ACTIONS_LOAD_ERROR = "errors.services.actions-service-error";
export const ACTIONS_CREATE_ERROR = "errors.services.actions-create-service-error";
export const ACTIONS_UPDATE_ERROR = "errors.services.actions-update-service-error";
export const ACTIONS_DELETE_ERROR = "errors.services.actions-delete-service-error";

export type { CultureChoix, OperationChoix, ParcelleChoix } from "~/domain/contracts/interventions";

const num = (v: unknown) => (v == null ? null : Number(v));

async function parcellesOf(db: Db, idCampagne: number): Promise<ParcelleChoix[]> {
  const rows = await listParcellesChoixOfCampagne(db, idCampagne);
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    irrigable: !!r.irrigable && r.irrigable !== "0",
    surface: num(r.surface),
    idModeConduite: num(r.idModeConduite),
  }));
}

/** The operations of the campaign with the machinery and labour they use (C-FORM-21, 22), by name. */
async function operationsOf(db: Db, idCampagne: number): Promise<OperationChoix[]> {
  const ops = await listOperationsCulturales(db, idCampagne);
  const machines = new Map((await listMaterielsLibellesOfCampagne(db, idCampagne)).map((m) => [Number(m.id), String(m.libelle)]));
  const workers = new Map((await listMainOeuvresLibellesOfCampagne(db, idCampagne)).map((m) => [Number(m.id), String(m.libelle)]));
  const named = (ids: (number | null)[], names: Map<number, string>) =>
    ids.filter((id): id is number => id != null && names.has(id)).map((id) => ({ id, libelle: names.get(id)! }));
  return ops
    .map((o) => ({
      id: o.id,
      libelle: o.libelle,
      idTypeAction: o.idTypeAction,
      debitReel: o.debitReel,
      debitCalcule: o.debitCalcule,
      volumeBouillie: o.volumeBouillie,
      materiels: named([o.materielTractant, ...o.materielTractes], machines),
      mainOeuvres: named(o.mainOeuvre, workers),
    }))
    .sort((a, b) => a.libelle.localeCompare(b.libelle, "fr"));
}

/** The BBCH stages of the scales of the campaign's crops (issue 28): the register's stage column of the grid. */
async function stadesOf(db: Db, idCampagne: number): Promise<StadeChoix[]> {
  const rows = await listStadesOfCampagne(db, idCampagne);
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    libelleEn: (r.libelleEn as string | null) ?? null,
    code: (r.code as string | null) ?? null,
  }));
}

/** The crops an intervention may concern: those of the campaign's management modes, and the inter-crop period. */
async function culturesOf(db: Db, idCampagne: number): Promise<CultureChoix[]> {
  const rows = await listCulturesChoixOfCampagne(db, idCampagne);
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    libelleEn: (r.libelleEn as string | null) ?? null,
    interculture: !!r.interculture && r.interculture !== "0",
  }));
}

/**
 * The interventions screen (spec 3 §2.1): the campaign's plots (the filter), the plots shown (`parcelleIds`,
 * else the first plot, C-INT-04), their interventions, and the choices of the grid and the form.
 */
export async function getInterventions(scope: Scope, options: ScreenOptions = {}) {
  const { db } = scope;
  const { ctx, parcelles, selection } = await screenScope(scope, options);
  return failingWith(ACTIONS_LOAD_ERROR, async () => {
    const [frame, rows] = await Promise.all([frameOf(db, ctx, parcelles, selection), listInterventions(db, ctx.idCampagne, selection)]);
    return { ...frame, rows };
  });
}

/**
 * The same as the screen's loader sends it (decision 0083): the choices and the rows each one JSON text, both kept per
 * campaign version (server/db/kept-per-version.ts). Per request: the scope's context view (rights decided now, decision 0076)
 * and one read of the campaign's two counters; the choices are read again when the description's counter moved
 * (plots, operations, machinery, labour, management modes and their crops), the rows when the interventions' did.
 */
export async function getInterventionsPacked(scope: Scope, options: ScreenOptions = {}) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(ACTIONS_LOAD_ERROR, async () => {
    const versions = await campaignVersions(db, ctx.idCampagne);
    const choices = await keptChoices(db, String(ctx.idCampagne), versions.donnees, async () => {
      const parcelles = await parcellesOf(db, ctx.idCampagne);
      const [operations, cultures, stades] = await Promise.all([
        operationsOf(db, ctx.idCampagne),
        culturesOf(db, ctx.idCampagne),
        stadesOf(db, ctx.idCampagne),
      ]);
      return { plots: parcelles.map((p) => p.id), encoded: encodeChoices({ parcelles, operations, cultures, stades }) };
    });
    const selection = selectionOf(choices.plots, options.parcelleIds);
    const rows = await packedInterventions(db, ctx.idCampagne, selection, versions.interventions);
    return { ...abilitiesOf(ctx), selection, choix: choices.encoded, rows };
  });
}

/** The campaign's plots (ids, in the screen's order) and its choices encoded, kept per description version. */
const keptChoices = keptPerVersion<{ plots: number[]; encoded: EncodedChoices }>();

type ScreenOptions = {
  parcelleIds?: number[];
};

/** The campaign, its plots and the plots shown: `parcelleIds` within the campaign, else its first plot (C-INT-04). */
async function screenScope(scope: Scope, options: ScreenOptions) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const parcelles = await failingWith(ACTIONS_LOAD_ERROR, () => parcellesOf(db, ctx.idCampagne));
  return {
    ctx,
    parcelles,
    selection: selectionOf(
      parcelles.map((p) => p.id),
      options.parcelleIds,
    ),
  };
}

/** The plots shown: those asked within the campaign, else its first plot (C-INT-04). */
function selectionOf(plots: number[], asked: number[] | undefined): number[] {
  const known = new Set(plots);
  const within = (asked ?? []).filter((id) => known.has(id));
  return within.length ? within : plots.slice(0, 1);
}

function abilitiesOf(ctx: CampaignContext) {
  return { canWrite: ctx.abilities.canWriteDescriptif, canEditFolderInputs: ctx.abilities.isDoAnimation, anneeRecolte: ctx.view.campagne!.anneeRecolte };
}

async function frameOf(db: Db, ctx: CampaignContext, parcelles: ParcelleChoix[], selection: number[]) {
  const [operations, cultures, stades] = await Promise.all([operationsOf(db, ctx.idCampagne), culturesOf(db, ctx.idCampagne), stadesOf(db, ctx.idCampagne)]);
  return { ...abilitiesOf(ctx), parcelles, selection, operations, cultures, ...(stades.length ? { stades } : {}) };
}

type Operation = { idTypeAction: number | null; debitReel: number | null; debitCalcule: number | null };
/** The campaign's plots, operations and crops an intervention may name, read once for a whole save. */
export type CampaignLinks = { plots: Set<number>; operations: Map<number, Operation>; crops: Set<number> };

export async function campaignLinks(db: Db, idCampagne: number): Promise<CampaignLinks> {
  const plots = new Set((await listParcelleIdsOfCampagne(db, idCampagne)).map(Number));
  const ops = await listOperationsDebitsOfCampagne(db, idCampagne);
  const operations = new Map<number, Operation>(
    ops.map((o) => [Number(o.id), { idTypeAction: num(o.idTypeAction), debitReel: num(o.debitReel), debitCalcule: num(o.debitCalcule) }]),
  );
  const crops = new Set((await culturesOf(db, idCampagne)).map((c) => c.id));
  return { plots, operations, crops };
}

/**
 * Checks an intervention's links within the written campaign (plot, operation, crop) and gives its stored values;
 * a link outside the campaign is a field error, never a foreign row written. `links`: the campaign's, read once by
 * a bulk save; read here otherwise.
 */
export async function storedIntervention(db: Db, ctx: CampaignContext, input: InterventionInput, links?: CampaignLinks) {
  // An intervention of harvest year N is dated from 1 January N-2 to 31 December N+1 (decision 0091).
  if (!withinCampaign(input.date, ctx.view.campagne!.anneeRecolte)) throw invalidField("date", "warning.date-campaign");
  const l = links ?? (await campaignLinks(db, ctx.idCampagne));
  if (!l.plots.has(input.idParcelle)) throw invalidField("idParcelle");
  const op = l.operations.get(input.idOperationCulturale);
  if (!op) throw invalidField("idOperationCulturale");
  if (input.idCultureConcernee != null && !l.crops.has(input.idCultureConcernee)) throw invalidField("idCultureConcernee");
  // A new intervention without its own work rate takes the operation's (C-FORM-10, 11).
  const debit = input.debit ?? debitParDefaut(op);
  return actionValues({ ...input, debit: debit ?? undefined }, { anneeRecolte: ctx.view.campagne!.anneeRecolte, idTypeAction: op.idTypeAction });
}

/** Refuses a stage id that is not a stage of the reference list (stade_culture), naming the field. */
export async function checkStade(q: Db, idStadeCulture: number | undefined): Promise<void> {
  if (idStadeCulture != null && !(await q("stade_culture").where({ id: idStadeCulture }).first("id"))) throw invalidField("idStadeCulture");
}

/**
 * The stored register columns of a form, grid, importer or API save (decision 0125). The early re-entry is a tick box
 * in the form and the grid: ticked is "used", unticked is not recorded (null), so the register says "oui" or nothing.
 */
export async function storedRegistre(q: Db, input: RegistreInterventionInput) {
  await checkStade(q, input.idStadeCulture);
  return { ...registreValues(input), rentreeAnticipee: input.rentreeAnticipee || null };
}

/** Whether a parsed save carries the register's fields: InterventionGrilleSchema's output does (its flag is never absent). */
const withRegistre = (input: InterventionInput | InterventionGrilleInput): input is InterventionGrilleInput => "rentreeAnticipee" in input;

/**
 * Creates (no id) or updates (id with its updatedAt: a stale save is refused) one intervention of the selected campaign.
 * Parsed with InterventionGrilleSchema (the form's and the API's, decision 0125), the register's fields are written too
 * (an empty one stored empty); parsed with InterventionSchema alone (older callers), they are left as they are.
 */
export async function saveIntervention(scope: Scope, input: InterventionInput | InterventionGrilleInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(existing ? ACTIONS_UPDATE_ERROR : ACTIONS_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      const values = { ...(await storedIntervention(trx, ctx, input)), ...(withRegistre(input) ? await storedRegistre(trx, input) : {}) };
      if (!existing) return insertIntervention(trx, ctx.idCampagne, values);
      const current = await findIntervention(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(ACTIONS_UPDATE_ERROR, 404);
      await updateIntervention(trx, ctx.idCampagne, existing, values);
      return existing.id;
    }),
  );
}

/** Deletes interventions of the selected campaign (with their inputs and harvests): all, or none when one is gone. */
export async function removeInterventions(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const unique = [...new Set(ids)];
  await failingWith(ACTIONS_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const n = await deleteInterventions(trx, ctx.idCampagne, unique);
      if (n !== unique.length) throw new ServiceError(ACTIONS_DELETE_ERROR, 404);
    }),
  );
}

/**
 * The grid's save (issue 11): the changed and added rows in one transaction (server/db/row-patches.ts): every row
 * checked first (schema, then its plot, operation and crop within the campaign), the stale check of each: the rows
 * changed meanwhile come back as conflicts, the others are written (decision 0100).
 */
export async function saveInterventionsGrid(scope: Scope, patches: unknown) {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(ACTIONS_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const links = await campaignLinks(trx, ctx.idCampagne);
      return applyRowPatches(trx, {
        table: "action",
        schema: InterventionGrilleSchema,
        patches,
        scope: { idCampagne: ctx.idCampagne },
        // The register's fields are the grid's columns too (issue 28): a stage of the stage list, else refused.
        columns: async (input, q) => {
          return { ...(await storedIntervention(q, ctx, input, links)), ...(await storedRegistre(q, input)) };
        },
        current: async (t, ids) => {
          const out = new Map<number, CurrentRow>();
          for (const id of ids) {
            const row = await findIntervention(t, id);
            if (!row) continue;
            const values = Object.fromEntries(Object.entries(row).filter(([k, v]) => v != null && k in InterventionGrilleSchema.shape));
            out.set(id, { updatedAt: row.updatedAt, values });
          }
          return out;
        },
      });
    }),
  );
}

/**
 * The register's fields of one intervention of the selected campaign (issue 28, decision 0105): start and end time,
 * BBCH stage (a stage of the crop scales' list) with the free-text stage, contractor's SIRET, early re-entry, seed lot.
 * Parsed with RegistreInterventionSchema; a stale save is refused; an empty field is stored empty.
 */
export async function saveRegistreIntervention(scope: Scope, existing: Token, input: unknown): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const values = parse(RegistreInterventionSchema, input);
  await failingWith(ACTIONS_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const current = await findIntervention(trx, existing.id);
      if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(ACTIONS_UPDATE_ERROR, 404);
      await checkStade(trx, values.idStadeCulture);
      await updateIfUnchanged(trx, "action", existing, registreValues(values), { scope: { idCampagne: ctx.idCampagne } });
    }),
  );
}
