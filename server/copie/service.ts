import type { Knex } from "knex";
import {
  DuplicationInterventionsSchema, ExportInterventionsSchema, ImportInterventionsSchema,
} from "~/domain/copie";
import { ORIGINE_INTRANT } from "~/domain/intrant";
import { campaignContext, ensureWrite, writableCampaign } from "../access/description";
import { abilitiesFor, ensure } from "../access/abilities";
import { copyRows } from "../campagne/duplication";
import { listCampagnesOfExploitations, listExploitationsOfDossier } from "../contexte/repo";
import { isPostgres, type Db } from "../db/knex";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";

/** Error keys: ours, in the interventions family (spec 3 §8 names none for these dialogs; decision 0047). */
export const COPY_ERROR = "errors.services.actions-copy-service-error";

type Plan = {
  /** The source interventions (rows of `action`). */
  actionIds: number[];
  targetCampagne: number;
  targetPlots: number[];
  /** The folder the copies are made in: folder-scoped references (unreferenced inputs, harvest qualifiers) are mapped to its rows. */
  targetDossier: number | null;
  /** Delete the destination plots' interventions first (C-COPY-03, 10). */
  suppression: boolean;
};

/** The rows of `table` whose `column` is one of `ids`, in id order (chunked: SQLite binds at most 32,766 values). */
async function rowsOf(trx: Knex.Transaction, table: string, column: string, ids: number[]): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let k = 0; k < ids.length; k += 5000) out.push(...(await trx(table).whereIn(column, ids.slice(k, k + 5000)).select("*")));
  return out.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * Ids for `n` new rows of `table`, taken before the rows are written so that a whole table's copies go in a few
 * multi-row inserts with their foreign keys already remapped. PostgreSQL: from the table's sequence (safe beside other
 * writers). SQLite: after the largest id ever given (AUTOINCREMENT's sqlite_sequence); the copy's write transaction
 * (BEGIN IMMEDIATE) keeps other writers out until it ends.
 */
async function allocateIds(trx: Knex.Transaction, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  if (isPostgres(trx as unknown as Db)) {
    const r = await trx.raw("SELECT nextval(pg_get_serial_sequence(?, 'id')) AS id FROM generate_series(1, ?)", [table, n]);
    return (r.rows as { id: string | number }[]).map((x) => Number(x.id));
  }
  const [r] = await trx.raw("SELECT max(coalesce((SELECT max(id) FROM ??), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)) AS m", [table, table]);
  const start = Number((r as { m: number }).m) + 1;
  return Array.from({ length: n }, (_, k) => start + k);
}

/** A value as a bound parameter (undefined is null). */
const normalise = (v: unknown): Knex.Value => (v === undefined ? null : (v as Knex.Value));

/**
 * The row copy of copyRows (server/campagne/duplication.ts: id and timestamps dropped, foreign keys remapped through
 * the copies' ids, then `transform`), made in multi-row inserts: every row's new id is known first, so a row may name
 * another row of the same batch (a seed treatment its seed, which comes first in `rows`).
 */
async function copyBatch(
  trx: Knex.Transaction, table: string, rows: Record<string, unknown>[],
  o: { ids: Map<string, Map<number, number>>; references?: Record<string, string>; transform?: (row: Record<string, unknown>) => Record<string, unknown> },
): Promise<void> {
  const map = o.ids.get(table) ?? new Map<number, number>();
  o.ids.set(table, map);
  const newIds = await allocateIds(trx, table, rows.length);
  rows.forEach((r, k) => map.set(Number(r.id), newIds[k]));
  const out = rows.map((source, k) => {
    const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = source;
    let row: Record<string, unknown> = { ...rest };
    for (const [column, refTable] of Object.entries(o.references ?? {})) {
      if (row[column] == null) continue;
      row[column] = o.ids.get(refTable)?.get(Number(row[column])) ?? null;
    }
    if (o.transform) row = o.transform(row);
    return { id: newIds[k], ...row } as Record<string, unknown>;
  });
  if (!out.length) return;
  // One INSERT … VALUES (…), (…) per chunk (knex writes SQLite's multi-row insert as a UNION ALL of SELECTs, slower to
  // compile); SQLite allows 32,766 bound values per statement, keep well below.
  const columns = [...new Set(out.flatMap((r) => Object.keys(r)))];
  const size = Math.max(1, Math.min(1000, Math.floor(16_000 / columns.length)));
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  for (let k = 0; k < out.length; k += size) {
    const chunk = out.slice(k, k + size);
    const values = chunk.flatMap((r) => columns.map((c) => normalise(r[c])));
    await trx.raw(`INSERT INTO ?? (${columns.map(() => "??").join(", ")}) VALUES ${chunk.map(() => tuple).join(", ")}`, [table, ...columns, ...values]);
  }
}

const fold = (s: unknown) => String(s ?? "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Folder-scoped references of the copied rows (decision 0047, 0061): an unreferenced input (origin 777) names a row of
 * its folder's `intrant_dossier`, a harvest its folder's qualifier. Copied into another folder, each becomes the
 * destination folder's row of the same type and label (qualifier: same name), created there (with its fertiliser
 * composition) when the folder has none. Rows already of the destination folder are kept. Returns old id → id to use.
 */
async function folderReferences(trx: Knex.Transaction, idDossier: number | null, intrants: Record<string, unknown>[], recoltes: Record<string, unknown>[]) {
  const intrantsDossier = new Map<number, number>();
  const qualifiants = new Map<number, number>();
  if (idDossier == null) return { intrantsDossier, qualifiants };
  const unref = [...new Set(intrants.filter((i) => Number(i.dicIdOrigineIntrant) === ORIGINE_INTRANT.DOSSIER && i.idIntrant != null).map((i) => Number(i.idIntrant)))];
  const sources = unref.length ? await trx("intrant_dossier").whereIn("id", unref).whereNot({ idDossier }).select("*") : [];
  if (sources.length) {
    const own = await trx("intrant_dossier").where({ idDossier }).orderBy("id").select("id", "dicIdTypeIntrant", "libelle");
    const byKey = new Map<string, number>();
    for (const o of own) if (!byKey.has(`${o.dicIdTypeIntrant}|${fold(o.libelle)}`)) byKey.set(`${o.dicIdTypeIntrant}|${fold(o.libelle)}`, Number(o.id));
    const compos = await trx("fertilisant_compo_dossier").whereIn("idIntrantDossier", sources.map((r) => r.id)).select("*");
    for (const src of sources) {
      const key = `${src.dicIdTypeIntrant}|${fold(src.libelle)}`;
      let id = byKey.get(key);
      if (id == null) {
        const ids = new Map<string, Map<number, number>>();
        id = (await copyRows(trx, "intrant_dossier", [src], { ids, transform: (row) => ({ ...row, idDossier }) })).get(Number(src.id))!;
        await copyRows(trx, "fertilisant_compo_dossier", compos.filter((c) => Number(c.idIntrantDossier) === Number(src.id)), { ids, references: { idIntrantDossier: "intrant_dossier" } });
        byKey.set(key, id);
      }
      intrantsDossier.set(Number(src.id), id);
    }
  }
  const quals = [...new Set(recoltes.map((r) => r.idQualifiantRecolte).filter((v) => v != null).map(Number))];
  const qSources = quals.length ? await trx("qualifiant_recolte").whereIn("id", quals).whereNot({ idDossier }).select("*") : [];
  for (const src of qSources) {
    const found = await trx("qualifiant_recolte").where({ idDossier, qrdNom: src.qrdNom }).first("id");
    const id = found ? Number(found.id) : (await copyRows(trx, "qualifiant_recolte", [src], { ids: new Map(), transform: (row) => ({ ...row, idDossier }) })).get(Number(src.id))!;
    qualifiants.set(Number(src.id), id);
  }
  return { intrantsDossier, qualifiants };
}

/**
 * Copies the interventions to each target plot with their inputs (characteristics, targets) and harvests (with their
 * characteristics), through the campaign duplication's row copy (copyRows). Runs inside the caller's transaction:
 * a failure leaves nothing. Another campaign's copy takes that campaign's operation of the same name (none when it
 * has none) and harvest year; dates are kept (the date update moves them). Returns the number of interventions made.
 */
export async function copyInterventions(trx: Knex.Transaction, plan: Plan): Promise<number> {
  const actions = await trx("action").whereIn("id", plan.actionIds).orderBy([{ column: "date" }, { column: "id" }]).select("*");
  const target = await trx("campagne").where({ id: plan.targetCampagne }).first("id", "anneeRecolte");
  if (!target) throw new ServiceError("errors.not-found", 404);
  const plots = new Set((await trx("parcelle").where({ idCampagne: plan.targetCampagne }).whereIn("id", plan.targetPlots).pluck("id")).map(Number));
  if (plots.size !== new Set(plan.targetPlots).size) throw invalidField("parcellesDestination");
  // Operations of the target campaign by name.
  const sourceOps = new Map((await trx("operation_culturale").whereIn("id", actions.map((a) => a.idOperationCulturale).filter((v) => v != null)).select("id", "libelle")).map((o) => [Number(o.id), String(o.libelle)]));
  const targetOps = new Map((await trx("operation_culturale").where({ idCampagne: plan.targetCampagne }).select("id", "libelle")).map((o) => [String(o.libelle), Number(o.id)]));
  const opFor = (row: Record<string, unknown>) => {
    if (row.idOperationCulturale == null) return null;
    if (Number(row.idCampagne) === plan.targetCampagne) return row.idOperationCulturale;
    return targetOps.get(sourceOps.get(Number(row.idOperationCulturale)) ?? "") ?? null;
  };
  if (plan.suppression) await trx("action").where({ idCampagne: plan.targetCampagne }).whereIn("idParcelle", [...plots]).del();
  // Each table read by the ids of its parents (indexed foreign keys), never through a join over the whole table.
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id));
  const intrants = await rowsOf(trx, "intrant", "idAction", plan.actionIds);
  const caracIntrants = await rowsOf(trx, "caracteristique_intrant", "idIntrant", ids(intrants));
  const cibles = await rowsOf(trx, "intrant_cible", "idIntrant", ids(intrants));
  const cibleCibles = await rowsOf(trx, "intrant_cible_cible", "idIntrantCible", ids(cibles));
  const recoltes = await rowsOf(trx, "recolte", "idAction", plan.actionIds);
  const caracRecoltes = await rowsOf(trx, "caracteristique_recolte", "idRecolte", ids(recoltes));
  const refs = await folderReferences(trx, plan.targetDossier, intrants, recoltes);
  const intrantRow = (row: Record<string, unknown>) => {
    if (Number(row.dicIdOrigineIntrant) !== ORIGINE_INTRANT.DOSSIER || row.idIntrant == null || !refs.intrantsDossier.has(Number(row.idIntrant))) return row;
    return { ...row, idIntrant: refs.intrantsDossier.get(Number(row.idIntrant)), idDossier: plan.targetDossier };
  };
  const recolteRow = (row: Record<string, unknown>) => ({
    ...row, idObservationSerie: null,
    ...(row.idQualifiantRecolte != null && refs.qualifiants.has(Number(row.idQualifiantRecolte)) ? { idQualifiantRecolte: refs.qualifiants.get(Number(row.idQualifiantRecolte)) } : {}),
  });
  // Seeds before their treatments: a treatment names its seed's copy, in the same batch or an earlier one.
  const intrantsOrdered = [...intrants.filter((i) => i.idIntrantSemence == null), ...intrants.filter((i) => i.idIntrantSemence != null)];
  for (const plot of plots) {
    const ids = new Map<string, Map<number, number>>();
    await copyBatch(trx, "action", actions, {
      ids,
      transform: (row) => ({ ...row, idCampagne: plan.targetCampagne, idParcelle: plot, anneeRecolte: target.anneeRecolte, idOperationCulturale: opFor(row) }),
    });
    await copyBatch(trx, "intrant", intrantsOrdered, { ids, references: { idAction: "action", idIntrantSemence: "intrant" }, transform: intrantRow });
    await copyBatch(trx, "caracteristique_intrant", caracIntrants, { ids, references: { idIntrant: "intrant" } });
    await copyBatch(trx, "intrant_cible", cibles, { ids, references: { idIntrant: "intrant" } });
    await copyBatch(trx, "intrant_cible_cible", cibleCibles, { ids, references: { idIntrantCible: "intrant_cible" } });
    // A harvest's observation series stays with the source (decision 0031).
    await copyBatch(trx, "recolte", recoltes, { ids, references: { idAction: "action" }, transform: recolteRow });
    await copyBatch(trx, "caracteristique_recolte", caracRecoltes, { ids, references: { idRecolte: "recolte" } });
  }
  return actions.length * plots.size;
}

/** The user may read this campaign through this folder (source of an import or a duplication). */
async function ensureRead(db: Db, user: Utilisateur, idDossier: number, idCampagne: number) {
  const c = await db("campagne").where({ id: idCampagne }).first("idExploitation");
  if (!c) throw new ServiceError("errors.not-found", 404);
  const a = await abilitiesFor(db, user, { idDossier, idExploitation: Number(c.idExploitation), idCampagne });
  ensure(a.canReadFarm);
}

/** Interventions of this campaign among these ids (all, else a field error: never another campaign's rows). */
async function actionsOf(db: Db, idCampagne: number, ids: number[], idParcelle?: number): Promise<number[]> {
  const q = db("action").where({ idCampagne }).whereIn("id", ids);
  if (idParcelle != null) q.where({ idParcelle });
  const found = (await q.pluck("id")).map(Number);
  if (found.length !== new Set(ids).size) throw invalidField("actionsSource");
  return found;
}

/** Export of ticked interventions of the selected campaign to plots of a campaign the user may write (C-COPY-01..04, C-RIGHTS-21). */
export async function exportInterventions(db: Db, user: Utilisateur, payload: unknown): Promise<number> {
  const input = parse(ExportInterventionsSchema, payload);
  const ctx = await campaignContext(db, user);
  await ensureWrite(db, user, { dossier: input.dossierDestination, campagne: input.campagneDestination });
  const actionIds = await actionsOf(db, ctx.idCampagne, input.actionsSource);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) => copyInterventions(trx, { actionIds, targetCampagne: input.campagneDestination, targetPlots: input.parcellesDestination, targetDossier: input.dossierDestination, suppression: input.suppressionInterventionsParcellesDst })),
  );
}

/** Import into a plot of the selected campaign of ticked interventions of a campaign of the same farm (C-COPY-05..07). */
export async function importInterventions(db: Db, user: Utilisateur, payload: unknown): Promise<number> {
  const input = parse(ImportInterventionsSchema, payload);
  const ctx = await writableCampaign(db, user);
  const source = await db("campagne").where({ id: input.campagneSource }).first("idExploitation");
  if (!source || Number(source.idExploitation) !== ctx.idExploitation) throw invalidField("campagneSource");
  const actionIds = await actionsOf(db, input.campagneSource, input.actionsSource);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) => copyInterventions(trx, { actionIds, targetCampagne: ctx.idCampagne, targetPlots: [input.idParcelle], targetDossier: ctx.view.selected.idDossier, suppression: false })),
  );
}

/** Duplication of a plot's interventions to plots of a campaign the user may write (C-COPY-08..13, C-RIGHTS-21). */
export async function duplicateInterventions(db: Db, user: Utilisateur, payload: unknown): Promise<number> {
  const input = parse(DuplicationInterventionsSchema, payload);
  await ensureRead(db, user, input.dossierSource, input.campagneSource);
  await ensureWrite(db, user, { dossier: input.dossierDestination, campagne: input.campagneDestination });
  const plot = await db("parcelle").where({ id: input.parcelleSource, idCampagne: input.campagneSource }).first("id");
  if (!plot) throw invalidField("parcelleSource");
  const actionIds = (await db("action").where({ idCampagne: input.campagneSource, idParcelle: input.parcelleSource }).pluck("id")).map(Number);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) => copyInterventions(trx, { actionIds, targetCampagne: input.campagneDestination, targetPlots: input.parcellesDestination, targetDossier: input.dossierDestination, suppression: input.suppressionInterventionsParcellesDst })),
  );
}

export type CopieParcelle = { id: number; libelle: string };
export type CopieCampagne = { id: number; libelle: string; parcelles: CopieParcelle[] };
export type CopieChoices = {
  /** The current folder: the folder of the duplication's sources. */
  idDossier: number | null;
  /** Folders › farms › campaigns › plots the user may write (C-RIGHTS-21): destinations of an export or a duplication. */
  destinations: { id: number; libelle: string; exploitations: { id: number; libelle: string; campagnes: CopieCampagne[] }[] }[];
  /** The current folder's readable farms › campaigns › plots: sources of a duplication. */
  sources: { id: number; libelle: string; campagnes: CopieCampagne[] }[];
  /** The current farm's campaigns › plots › interventions: the import's sources (C-COPY-06). */
  imports: (CopieCampagne & { interventions: { id: number; idParcelle: number; date: string; operation: string | null }[] })[];
};

async function campagnesWithPlots(db: Db, campagnes: { id: number; libelle: string }[]): Promise<CopieCampagne[]> {
  if (!campagnes.length) return [];
  const plots = await db("parcelle").whereIn("idCampagne", campagnes.map((c) => c.id)).orderBy([{ column: "libelle" }, { column: "id" }]).select("id", "libelle", "idCampagne");
  return campagnes.map((c) => ({ ...c, parcelles: plots.filter((p) => Number(p.idCampagne) === c.id).map((p) => ({ id: Number(p.id), libelle: String(p.libelle) })) }));
}

/** The choices of the copy, import and duplication dialogs, read when one opens. */
export async function copyChoices(db: Db, user: Utilisateur): Promise<CopieChoices> {
  const ctx = await campaignContext(db, user);
  const destinations: CopieChoices["destinations"] = [];
  for (const dossier of ctx.view.dossiers) {
    const farms: CopieChoices["destinations"][number]["exploitations"] = [];
    for (const farm of await listExploitationsOfDossier(db, dossier.id)) {
      const writable = [];
      for (const c of await listCampagnesOfExploitations(db, [farm.id])) {
        const a = await abilitiesFor(db, user, { idDossier: dossier.id, idExploitation: farm.id, idCampagne: c.id });
        if (a.canWriteDescriptif) writable.push({ id: c.id, libelle: c.libelle });
      }
      if (writable.length) farms.push({ id: farm.id, libelle: farm.libelle, campagnes: await campagnesWithPlots(db, writable) });
    }
    if (farms.length) destinations.push({ id: dossier.id, libelle: dossier.libelle, exploitations: farms });
  }
  const sources: CopieChoices["sources"] = [];
  for (const farm of ctx.view.exploitations) {
    const campagnes = (await listCampagnesOfExploitations(db, [farm.id])).map((c) => ({ id: c.id, libelle: c.libelle }));
    sources.push({ id: farm.id, libelle: farm.libelle, campagnes: await campagnesWithPlots(db, campagnes) });
  }
  const own = await campagnesWithPlots(db, ctx.view.campagnes.filter((c) => c.idExploitation === ctx.idExploitation).map((c) => ({ id: c.id, libelle: c.libelle })));
  const actions = await db("action as a").leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .whereIn("a.idCampagne", own.map((c) => c.id)).orderBy([{ column: "a.date" }, { column: "a.id" }])
    .select("a.id", "a.idCampagne", "a.idParcelle", "a.date", "o.libelle as operation");
  const iso = (d: unknown) => (d instanceof Date ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}` : String(d).slice(0, 10));
  const imports = own.map((c) => ({
    ...c,
    interventions: actions.filter((a) => Number(a.idCampagne) === c.id).map((a) => ({ id: Number(a.id), idParcelle: Number(a.idParcelle), date: iso(a.date), operation: (a.operation as string | null) ?? null })),
  }));
  return { idDossier: ctx.view.selected.idDossier, destinations, sources, imports };
}
