import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { STALE } from "../db/stale";
import { ServiceError, isServiceError } from "../errors";
import { getPrixAppro, getPrixPropose, savePrixApproGrid, savePrixVenteGrid } from "./service";

/**
 * What the JSON API adds to the prices (issue 27, decision 0112): the campaign of a price row, one row's price written
 * through the grid's save (a stale row a 409), the proposed prices of a product named by its fields, and a whole
 * campaign's prices in one call and one transaction.
 */

export async function prixCampaign(db: Db, table: "prix_appro" | "prix_vente", id: number): Promise<number | null> {
  const r = await db(table).where({ id }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}

type Patch = { id: number; updatedAt: string; values: Record<string, unknown> };

/** Field errors of a grid's save (`patches.<i>.values.<field>`) renamed as the API names them (`<list>.<i>.<field>`). */
function renamed(e: unknown, list: string | null): unknown {
  if (!isServiceError(e) || !e.fieldErrors) return e;
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(e.fieldErrors)) {
    const m = /^patches\.(\d+)(?:\.values)?\.?(.*)$/.exec(k);
    out[m ? (list ? [list, m[1], m[2]] : [m[2]]).filter(Boolean).join(".") : k] = v;
  }
  return new ServiceError(e.key, e.status, out, e.params);
}

/** One row's price (PATCH prix_appros/{id}, prix_ventes/{id}): the grid's save of that row; changed meanwhile: 409. */
export async function savePrixRow(scope: Scope, table: "prix_appro" | "prix_vente", patch: Patch): Promise<void> {
  const save = table === "prix_appro" ? savePrixApproGrid : savePrixVenteGrid;
  const result = await save(scope, [patch]).catch((e: unknown) => {
    throw renamed(e, null);
  });
  const conflict = result.conflicts[0];
  if (conflict) throw new ServiceError(conflict.key === STALE ? STALE : "errors.not-found", conflict.key === STALE ? 409 : 404);
}

/**
 * The prices of a whole campaign in one call (PATCH campagnes/{id}/prix): the supply and the sale rows through the
 * two grids' saves in one transaction (the caller's). A bad row refuses both lists, nothing stored, errors named
 * `appros.<i>.<field>` and `ventes.<i>.<field>`; a row changed meanwhile comes back as a conflict, the others are
 * written (decision 0100, as on the screens).
 */
export async function savePrixCampagne(scope: Scope, body: { appros: Patch[]; ventes: Patch[] }) {
  const appros = body.appros.length ? await savePrixApproGrid(scope, body.appros).catch((e: unknown) => Promise.reject(renamed(e, "appros"))) : null;
  const ventes = body.ventes.length ? await savePrixVenteGrid(scope, body.ventes).catch((e: unknown) => Promise.reject(renamed(e, "ventes"))) : null;
  const short = (r: typeof appros) => ({
    saved: (r?.saved ?? []).map((s) => ({ index: s.index, id: s.id, updatedAt: s.updatedAt })),
    conflicts: (r?.conflicts ?? []).map((c) => ({ index: c.index, id: c.id, key: c.key, updatedAt: c.updatedAt ?? null })),
  });
  return { appros: short(appros), ventes: short(ventes) };
}

export type ProduitPrix = { idIntrant?: number; idOrigineIntrant?: number; idModalite?: number; libelle?: string; unite?: string; traitementSemence?: boolean };

/**
 * The proposed prices (GET prix_proposes) of the campaign's supply row of a product named by its fields (spec 3 §7:
 * idIntrant, idOrigineIntrant, idModalite, libelle, unite, traitementSemence): that row's statistics; none: 404.
 */
export async function prixProposeDe(scope: Scope, produit: ProduitPrix) {
  const { rows } = await getPrixAppro(scope);
  const same = (a: unknown, b: unknown) => b === undefined || a === b;
  const row = rows.find(
    (r) =>
      !r.fioul &&
      r.id > 0 &&
      same(r.idIntrant, produit.idIntrant) &&
      same(r.idOrigineIntrant, produit.idOrigineIntrant) &&
      same(r.idModalite, produit.idModalite) &&
      same(r.libelleIntrant, produit.libelle) &&
      same(r.unite, produit.unite?.toUpperCase()) &&
      same(r.traitementSemence, produit.traitementSemence),
  );
  if (!row) throw new ServiceError("errors.not-found", 404);
  return { id: row.id, ...(await getPrixPropose(scope, row.id)) };
}
