import { ORIGINE_INTRANT } from "~/domain/intrant";
import { FUEL_NO_ROW_TOKEN, FUEL_ROW_ID, PrixApproSchema, PRIX_PROPOSE_DECIMALES, PrixVenteSchema, roundPrix, statistiques } from "~/domain/prix";
import { rawPatchesSchema } from "~/domain/grid-patches";
import type { PrixApproData, PrixApproRow, PrixPropose, PrixVenteData, PrixVenteRow } from "~/domain/contracts/prix";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import type { Db } from "../db/knex";
import { applyRowPatches, type GridSaveResult, type SavedRow } from "../db/row-patches";
import type { RowConflict } from "~/domain/grid-patches";
import { STALE, updateIfUnchanged } from "../db/stale";
import { failingWith, isServiceError, ServiceError } from "../errors";
import {
  deleteUnused,
  findAppro,
  findFuel,
  insertAppro,
  insertFuelRow,
  insertVente,
  listAppro,
  listVente,
  pricesOfProduct,
  referencePrice,
  typesIntrant,
  usedAppro,
  usedVente,
  venteLabels,
} from "./repo";
import type { Scope } from "../access/scope";

/**
 * Supply and sale prices (spec 3 §2.4, §2.5, §4.3, §7 Prices; decision 0034).
 *
 * The price rows are the products the campaign's interventions use (inputs) and give (harvests): a product used
 * and not stored yet is created without a price when a user who may write the campaign opens the screen (a reader,
 * or anyone on a locked campaign, sees it unstored, read-only). A stored row no intervention uses any more stays
 * until 'delete unused products'. The fuel price is the campaign's caracteristique.prix_fioul, the grid's first
 * row (FUEL_ROW_ID), written in the same transaction as the other rows but to its own table.
 */

/** Error keys of the prices (spec 3 §8 names none for them: ours, in the family of its keys). */
export const PRIX_APPRO_LOAD_ERROR = "errors.services.prix_appros-service-error";
export const PRIX_APPRO_UPDATE_ERROR = "errors.services.prix_appros-update-service-error";
export const PRIX_APPRO_DELETE_ERROR = "errors.services.prix_appros-delete-service-error";
export const PRIX_PROPOSES_ERROR = "errors.services.prix_proposes-service-error";
export const PRIX_VENTE_LOAD_ERROR = "errors.services.prix_ventes-service-error";
export const PRIX_VENTE_UPDATE_ERROR = "errors.services.prix_ventes-update-service-error";
export const PRIX_VENTE_DELETE_ERROR = "errors.services.prix_ventes-delete-service-error";

// ---------------------------------------------------------------------------------------------
// Supply prices

/** The stored rows with the used products not stored yet: created (a writer) or shown unstored (negative ids). */
async function approRows(db: Db, ctx: CampaignContext): Promise<PrixApproRow[]> {
  const used = await usedAppro(db, ctx.idCampagne);
  let stored = await listAppro(db, ctx.idCampagne);
  const known = new Set(stored.map((r) => r.cle));
  const missing = used.filter((u) => !known.has(u.cle));
  const usedKeys = new Set(used.map((u) => u.cle));
  if (missing.length && ctx.abilities.canWriteDescriptif) {
    await db.transaction((trx) => insertAppro(trx, ctx.idCampagne, missing));
    stored = await listAppro(db, ctx.idCampagne);
  }
  const rows: PrixApproRow[] = stored.map(({ cle, ...r }) => ({ ...r, fioul: false, utilise: usedKeys.has(cle) }));
  if (!ctx.abilities.canWriteDescriptif) {
    const shown = new Set(stored.map((r) => r.cle));
    missing
      .filter((m) => !shown.has(m.cle))
      .forEach((m, i) => {
        const { cle: _cle, ...product } = m;
        rows.push({ ...product, id: -(i + 1), updatedAt: "", fioul: false, prixAchat: null, utilise: true });
      });
  }
  return rows.sort(
    (a, b) => (a.idTypeIntrant ?? 0) - (b.idTypeIntrant ?? 0) || a.libelleIntrantConcat.localeCompare(b.libelleIntrantConcat, "fr") || a.id - b.id,
  );
}

async function fuelRow(db: Db, idCampagne: number): Promise<PrixApproRow> {
  const fuel = await findFuel(db, idCampagne);
  return {
    id: FUEL_ROW_ID,
    updatedAt: fuel?.updatedAt ?? FUEL_NO_ROW_TOKEN,
    fioul: true,
    idOrigineIntrant: null,
    idTypeIntrant: null,
    idIntrant: null,
    idModalite: null,
    traitementSemence: false,
    libelleIntrant: "",
    libelleIntrantConcat: "",
    prixAchat: fuel?.prixFioul ?? null,
    unite: "L",
    utilise: true,
  };
}

/** The supply price screen (GET campagnes/{id}/prix_appros): the fuel row first, then the products by type and name. */
export async function getPrixAppro(scope: Scope): Promise<PrixApproData> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PRIX_APPRO_LOAD_ERROR, async () => ({
    canWrite: ctx.abilities.canWriteDescriptif,
    rows: [await fuelRow(db, ctx.idCampagne), ...(await approRows(db, ctx))],
    types: await typesIntrant(db),
  }));
}

/** Keys of the refusal of a sub-list (`patches.<i>...`) renamed to the patch's index in the whole list. */
function reindexed(e: unknown, indexes: number[]): unknown {
  if (!isServiceError(e) || !e.fieldErrors) return e;
  const fieldErrors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(e.fieldErrors)) {
    const m = /^patches\.(\d+)(.*)$/.exec(key);
    fieldErrors[m ? `patches.${indexes[Number(m[1])] ?? m[1]}${m[2]}` : key] = messages;
  }
  return new ServiceError(e.key, e.status, fieldErrors, e.params);
}

/**
 * The grid's save (PATCH prix_appros/{id} for each changed row, and the fuel price apart): one transaction, the
 * rows' stale checks atomic (server/db/row-patches.ts), the fuel row's on the characteristics row; a row of
 * another campaign, or a new row, is refused. A row (or the fuel price) changed meanwhile is set aside as a conflict
 * with its current value, the others are written (decision 0100). Prices are rounded to 4 decimals.
 */
export async function savePrixApproGrid(scope: Scope, patches: unknown): Promise<GridSaveResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const envelope = rawPatchesSchema.safeParse({ patches });
  if (!envelope.success) return applyRowPatches(db, { table: "prix_appro", schema: PrixApproSchema, patches }); // refused with its field errors
  const all = envelope.data.patches;
  const fuelAt = all.findIndex((p) => p.id === FUEL_ROW_ID);
  const others = all.map((_, i) => i).filter((i) => i !== fuelAt);
  const newRow = others.find((i) => all[i].id === null || all[i].id! < 0);
  if (newRow !== undefined) throw new ServiceError("warning.invalid-form", 400, { [`patches.${newRow}`]: ["warning.invalid"] });

  return failingWith(PRIX_APPRO_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      let saved: SavedRow[] = [];
      let conflicts: RowConflict[] = [];
      let fuelPrice: number | undefined;
      if (fuelAt >= 0) {
        const parsed = PrixApproSchema.safeParse(all[fuelAt].values);
        if (!parsed.success)
          throw new ServiceError("warning.invalid-form", 400, {
            [`patches.${fuelAt}.values.prixAchat`]: [parsed.error.issues[0]?.message ?? "warning.invalid"],
          });
        fuelPrice = roundPrix(parsed.data.prixAchat);
      }
      // The rows first: an invalid row refuses the whole save (400) before the fuel price is written.
      if (others.length) {
        const result = await applyRowPatches(trx, {
          table: "prix_appro",
          schema: PrixApproSchema,
          patches: others.map((i) => all[i]),
          scope: { idCampagne: ctx.idCampagne },
          columns: (v) => ({ prixAchat: roundPrix(v.prixAchat) }),
          describe: (r) => String(r.libelleIntrantConcat ?? r.id),
          describeColumns: ["libelleIntrantConcat"],
        }).catch((e: unknown) => {
          throw reindexed(e, others);
        });
        saved = result.saved.map((r) => ({ ...r, index: others[r.index] }));
        conflicts = result.conflicts.map((c) => ({ ...c, index: others[c.index] }));
      }
      if (fuelPrice !== undefined) {
        const patch = all[fuelAt];
        const row = await findFuel(trx, ctx.idCampagne);
        let stale = false;
        try {
          if (row)
            await updateIfUnchanged(
              trx,
              "caracteristique",
              { id: row.id, updatedAt: patch.updatedAt ?? "" },
              { prixFioul: fuelPrice },
              { scope: { idCampagne: ctx.idCampagne } },
            );
          else if (patch.updatedAt !== FUEL_NO_ROW_TOKEN) throw new ServiceError(STALE, 409);
          else await insertFuelRow(trx, ctx.idCampagne, fuelPrice, ctx.view.campagne?.anneeRecolte ?? null);
        } catch (e) {
          if (!isServiceError(e) || (e.key !== STALE && e.status !== 404)) throw e;
          stale = true;
        }
        const now = await fuelRow(trx, ctx.idCampagne);
        if (stale)
          conflicts.push({
            index: fuelAt,
            id: FUEL_ROW_ID,
            key: STALE,
            updatedAt: now.updatedAt,
            values: now.prixAchat == null ? {} : { prixAchat: now.prixAchat },
          });
        else saved.push({ index: fuelAt, sentId: FUEL_ROW_ID, id: FUEL_ROW_ID, updatedAt: now.updatedAt, inserted: false });
      }
      return { saved: saved.sort((a, b) => a.index - b.index), conflicts: conflicts.sort((a, b) => a.index - b.index) };
    }),
  );
}

/** 'Delete unused products' (DELETE campagnes/{id}/prix_appros): the rows no input of the campaign uses. */
export async function removeUnusedAppro(scope: Scope): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(PRIX_APPRO_DELETE_ERROR, () =>
    db.transaction(async (trx) => deleteUnused(trx, "prix_appro", ctx.idCampagne, new Set((await usedAppro(trx, ctx.idCampagne)).map((u) => u.cle)))),
  );
}

/**
 * The proposed prices of a supply price row (GET prix_proposes; docs/indicators.md "Proposed prices"): the
 * statistics of the same product's prices in the other campaigns the user reads, and in those of this harvest
 * year; the reference-source price of a product of origin 773.
 */
export async function getPrixPropose(scope: Scope, id: number): Promise<PrixPropose> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PRIX_PROPOSES_ERROR, async () => {
    const row = await findAppro(db, id);
    if (!row || row.idCampagne !== ctx.idCampagne) throw new ServiceError("errors.not-found", 404);
    const anneeRecolte = ctx.view.campagne!.anneeRecolte;
    const prices = await pricesOfProduct(db, row.cle, { idUser: user.id, exceptCampagne: ctx.idCampagne });
    const referenceApplicable = row.idOrigineIntrant === ORIGINE_INTRANT.REFERENCE_PRIX && row.idIntrant != null;
    const ref = referenceApplicable ? await referencePrice(db, row.idIntrant!) : null;
    return {
      toutes: statistiques(prices.map((p) => p.prix)),
      annee: statistiques(prices.filter((p) => p.anneeRecolte === anneeRecolte).map((p) => p.prix)),
      anneeRecolte,
      reference: ref ? { ...ref, prixPhytcom: roundPrix(ref.prixPhytcom, PRIX_PROPOSE_DECIMALES) } : null,
      referenceApplicable,
      unite: row.unite,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Sale prices

async function venteRows(db: Db, ctx: CampaignContext): Promise<PrixVenteRow[]> {
  const used = await usedVente(db, ctx.idCampagne);
  let stored = await listVente(db, ctx.idCampagne);
  const known = new Set(stored.map((r) => r.cle));
  const missing = used.filter((u) => !known.has(u.cle));
  const usedKeys = new Set(used.map((u) => u.cle));
  if (missing.length && ctx.abilities.canWriteDescriptif) {
    await db.transaction((trx) => insertVente(trx, ctx.idCampagne, missing));
    stored = await listVente(db, ctx.idCampagne);
  }
  const rows: PrixVenteRow[] = stored.map(({ cle, ...r }) => ({ ...r, utilise: usedKeys.has(cle) }));
  if (!ctx.abilities.canWriteDescriptif) {
    missing.forEach(({ cle: _cle, ...m }, i) => rows.push({ ...m, id: -(i + 1), updatedAt: "", prixVente: null, utilise: true }));
  }
  return rows;
}

/** The sale price screen (GET campagnes/{id}/prix_ventes), with the names its rows show. */
export async function getPrixVente(scope: Scope): Promise<PrixVenteData> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PRIX_VENTE_LOAD_ERROR, async () => {
    const rows = await venteRows(db, ctx);
    const labels = await venteLabels(db, ctx.idCampagne, rows);
    const modeName = new Map(labels.modes.map((m) => [m.id, m.libelle]));
    const cultureName = new Map(labels.cultures.map((c) => [c.id, c.libelle]));
    // By driving mode (the rows of plots without a mode last), crop, output type.
    rows.sort(
      (a, b) =>
        Number(a.idModeConduite == null) - Number(b.idModeConduite == null) ||
        (modeName.get(a.idModeConduite ?? 0) ?? "").localeCompare(modeName.get(b.idModeConduite ?? 0) ?? "", "fr") ||
        (cultureName.get(a.idCulture) ?? "").localeCompare(cultureName.get(b.idCulture) ?? "", "fr") ||
        a.idTypeSortie - b.idTypeSortie ||
        a.id - b.id,
    );
    return { canWrite: ctx.abilities.canWriteDescriptif, rows, ...labels };
  });
}

/** The grid's save (PATCH prix_ventes/{id} for each changed row): one transaction, atomic stale checks (a changed row comes back as a conflict: decision 0100), 4 decimals. */
export async function savePrixVenteGrid(scope: Scope, patches: unknown): Promise<GridSaveResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const list = Array.isArray(patches) ? patches : [];
  const newRow = list.findIndex((p) => !p || typeof p !== "object" || !(Number((p as { id?: unknown }).id) > 0));
  if (newRow >= 0) throw new ServiceError("warning.invalid-form", 400, { [`patches.${newRow}`]: ["warning.invalid"] });
  return failingWith(PRIX_VENTE_UPDATE_ERROR, () =>
    applyRowPatches(db, {
      table: "prix_vente",
      schema: PrixVenteSchema,
      patches,
      scope: { idCampagne: ctx.idCampagne },
      columns: (v) => ({ prixVente: v.prixVente == null ? null : roundPrix(v.prixVente) }),
    }),
  );
}

/** 'Delete unused products' (DELETE campagnes/{id}/prix_ventes): the rows no harvest of the campaign gives. */
export async function removeUnusedVente(scope: Scope): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(PRIX_VENTE_DELETE_ERROR, () =>
    db.transaction(async (trx) => deleteUnused(trx, "prix_vente", ctx.idCampagne, new Set((await usedVente(trx, ctx.idCampagne)).map((u) => u.cle)))),
  );
}
