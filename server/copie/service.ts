import type { Knex } from "knex";
import {
  DuplicationCampagneInterventionsSchema,
  DuplicationInterventionsSchema,
  ExportInterventionsSchema,
  ImportInterventionsSchema,
  type DuplicationCampagneInterventionsInput,
} from "~/domain/copie";
import { ORIGINE_INTRANT } from "~/domain/intrant";
import { campaignContext, ensureWrite, writableCampaign } from "../access/description";
import { abilitiesFor, ensure } from "../access/abilities";
import { copyRows } from "../campagne/duplication";
import { listCampagnesOfExploitations, listExploitationsOfDossier } from "../contexte/repo";
import { isPostgres, type Db } from "../db/knex";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { inChunks } from "../db/chunks";
import type { Scope } from "../access/scope";
import type { CopieCampagne, CopieChoices, CopieParcelle } from "~/domain/contracts/copie";

/** Error keys: ours, in the interventions family (spec 3 §8 names none for these dialogs; decision 0047). */
export const COPY_ERROR = "errors.services.actions-copy-service-error";

const fold = (s: unknown) =>
  String(s ?? "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

/**
 * Folder-scoped references of the copied rows (decision 0047, 0061): an unreferenced input (origin 777) names a row of
 * its folder's `intrant_dossier`, a harvest its folder's qualifier. Copied into another folder, each becomes the
 * destination folder's row of the same type and label (qualifier: same name), created there (with its fertiliser
 * composition) when the folder has none. Rows already of the destination folder are kept. `unref`: the unreferenced
 * inputs' `intrant_dossier` ids, `quals`: the qualifiers' ids, named by the copied rows. Returns old id → id to use.
 */
async function folderReferences(trx: Knex.Transaction, idDossier: number | null, unref: number[], quals: number[]) {
  const intrantsDossier = new Map<number, number>();
  const qualifiants = new Map<number, number>();
  if (idDossier == null) return { intrantsDossier, qualifiants };
  const sources = unref.length ? await trx("intrant_dossier").whereIn("id", unref).whereNot({ idDossier }).select("*") : [];
  if (sources.length) {
    const own = await trx("intrant_dossier").where({ idDossier }).orderBy("id").select("id", "dicIdTypeIntrant", "libelle");
    const byKey = new Map<string, number>();
    for (const o of own) if (!byKey.has(`${o.dicIdTypeIntrant}|${fold(o.libelle)}`)) byKey.set(`${o.dicIdTypeIntrant}|${fold(o.libelle)}`, Number(o.id));
    const compos = await trx("fertilisant_compo_dossier")
      .whereIn(
        "idIntrantDossier",
        sources.map((r) => r.id),
      )
      .select("*");
    for (const src of sources) {
      const key = `${src.dicIdTypeIntrant}|${fold(src.libelle)}`;
      let id = byKey.get(key);
      if (id == null) {
        const ids = new Map<string, Map<number, number>>();
        id = (await copyRows(trx, "intrant_dossier", [src], { ids, transform: (row) => ({ ...row, idDossier }) })).get(Number(src.id))!;
        await copyRows(
          trx,
          "fertilisant_compo_dossier",
          compos.filter((c) => Number(c.idIntrantDossier) === Number(src.id)),
          { ids, references: { idIntrantDossier: "intrant_dossier" } },
        );
        byKey.set(key, id);
      }
      intrantsDossier.set(Number(src.id), id);
    }
  }
  const qSources = quals.length ? await trx("qualifiant_recolte").whereIn("id", quals).whereNot({ idDossier }).select("*") : [];
  for (const src of qSources) {
    const found = await trx("qualifiant_recolte").where({ idDossier, qrdNom: src.qrdNom }).first("id");
    const id = found
      ? Number(found.id)
      : (await copyRows(trx, "qualifiant_recolte", [src], { ids: new Map(), transform: (row) => ({ ...row, idDossier }) })).get(Number(src.id))!;
    qualifiants.set(Number(src.id), id);
  }
  return { intrantsDossier, qualifiants };
}

/** One group of a copy: these source interventions, each copied to each of the group's plots. */
type Group = ({ actionIds: number[] } | { sourcePlot: number }) & { targetPlots: number[] };

type Plan = {
  /** The campaign of the groups that name a source plot (their source interventions are the plot's in it). */
  sourceCampagne?: number;
  groups: Group[];
  targetCampagne: number;
  /** The folder the copies are made in: folder-scoped references (unreferenced inputs, harvest qualifiers) are mapped to its rows. */
  targetDossier: number | null;
  /** Delete the destination plots' interventions first (C-COPY-03, 10). */
  suppression: boolean;
};

/**
 * The working tables of a copy (temporary, private to the connection; made once per connection and kept, empty
 * between copies: a table made or dropped on SQLite would make every prepared statement of the connection be
 * prepared anew):
 * - copie_cible: the destination plots, each in its group, `rang` their order;
 * - copie_groupe / copie_source: the source plots of the groups that name one, the source interventions of each group;
 * - copie_action, copie_intrant, copie_intrant_cible, copie_recolte: for each copied row and destination plot
 *   (old, dst), the id of its copy, given before the rows are written so that children can name their parents' copies;
 * - copie_ref: other references to map (kind 0 operation of the destination campaign, 1 folder's unreferenced input,
 *   2 folder's harvest qualifier): old id → new id.
 */
const WORK_TABLES: Record<string, string> = {
  copie_cible: "grp integer not null, id_parcelle bigint not null, rang integer not null",
  copie_groupe: "grp integer not null, id_parcelle bigint not null",
  copie_source: "grp integer not null, id_action bigint not null",
  copie_action: "old bigint not null, dst bigint not null, rang integer not null, new bigint not null, primary key (old, dst)",
  copie_intrant: "old bigint not null, dst bigint not null, rang integer not null, new bigint not null, primary key (old, dst)",
  copie_intrant_cible: "old bigint not null, dst bigint not null, rang integer not null, new bigint not null, primary key (old, dst)",
  copie_recolte: "old bigint not null, dst bigint not null, rang integer not null, new bigint not null, primary key (old, dst)",
  copie_ref: "kind integer not null, old bigint not null, new bigint not null, primary key (kind, old)",
};

/**
 * The working tables, made when the connection has none yet, empty. PostgreSQL empties them at each commit (ON COMMIT
 * DELETE ROWS truncates, and only after a transaction that used them): a DELETE would leave dead rows that no autovacuum
 * ever clears from a temporary table, and every later copy on the connection would scan them (300 one-plot copies
 * took 50 to 75 s so). SQLite: emptied by DELETE, which frees the pages.
 */
async function workTables(trx: Knex.Transaction, pg: boolean): Promise<void> {
  // PostgreSQL: one round trip (several statements without parameters go as one simple query).
  if (pg)
    await trx.raw(
      Object.entries(WORK_TABLES)
        .map(([name, columns]) => `CREATE TEMP TABLE IF NOT EXISTS ${name} (${columns}) ON COMMIT DELETE ROWS`)
        .join("; "),
    );
  else {
    for (const [name, columns] of Object.entries(WORK_TABLES)) {
      await trx.raw(`CREATE TEMP TABLE IF NOT EXISTS ${name} (${columns})`);
      await trx.raw(`DELETE FROM ${name}`);
    }
  }
}

/**
 * PostgreSQL: statistics of working tables just filled, when they have none yet. A temporary table has none until
 * analysed (no autovacuum visits it), and without them PostgreSQL plans the next joins for a guessed size of some
 * thousand rows, reading the whole source tables in hash joins on each copy (300 one-plot copies took 50 to 85 s so).
 * Once analysed, the planner scales the rows per page it learnt by the table's pages at each copy; analysing at every
 * copy would write catalog rows each time (300 one-plot copies took 35 to 50 s so). `analysed`: the working tables
 * of the connection that have statistics.
 */
async function analyse(trx: Knex.Transaction, analysed: Set<string> | null, ...tables: string[]): Promise<void> {
  const missing = tables.filter((t) => analysed && !analysed.has(t));
  if (missing.length) await trx.raw(`ANALYZE ${missing.join(", ")}`);
}

/** PostgreSQL: the working tables of the connection that have statistics (`analyse`). */
async function analysedTables(trx: Knex.Transaction): Promise<Set<string>> {
  const r = await trx.raw(
    "SELECT relname AS name FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r' AND relname LIKE 'copie%' AND relpages > 0",
  );
  return new Set((r.rows as { name: string }[]).map((x) => x.name));
}

/** Rows of whole numbers into a working table, in multi-row inserts of bound values (≤ 30,000 per statement). */
async function fill(trx: Knex.Transaction, table: string, columns: string[], rows: number[][]): Promise<void> {
  const size = Math.floor(30_000 / columns.length);
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  for (const chunk of inChunks(rows, size)) {
    await trx.raw(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => tuple).join(", ")}`, chunk.flat());
  }
}

/**
 * The columns of a table as the database names them, read once per process and table (the schema changes only by
 * the migrations, run before the application serves).
 */
const columnCache = new Map<string, string[]>();
async function columnsOf(trx: Knex.Transaction, table: string, pg: boolean): Promise<string[]> {
  const key = `${pg ? "pg" : "sqlite"}:${table}`;
  let columns = columnCache.get(key);
  if (!columns) {
    columns = pg
      ? (
          (
            await trx.raw(
              "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
              [table],
            )
          ).rows as { name: string }[]
        ).map((c) => c.name)
      : ((await trx.raw("SELECT name FROM pragma_table_info(?)", [table])) as { name: string }[]).map((c) => c.name);
    columnCache.set(key, columns);
  }
  return columns;
}

/** The sequence of each table's id on PostgreSQL, read once per process. */
const sequences = new Map<string, string>();

/**
 * Ids for the copies listed in a map table (old, dst, rang, new), in the order given: PostgreSQL from the table's
 * sequence (safe beside other writers); SQLite after the largest id ever given (AUTOINCREMENT's sqlite_sequence) — the
 * copy's write transaction keeps other writers out until it ends (a writer that came between would make our first
 * write fail, never give the same id twice).
 */
async function mapIds(trx: Knex.Transaction, pg: boolean, o: { map: string; table: string; select: string; from: string; order: string }): Promise<void> {
  if (pg) {
    let sequence = sequences.get(o.table);
    if (!sequence) sequences.set(o.table, (sequence = (await trx.raw("SELECT pg_get_serial_sequence(?, 'id') AS s", [o.table])).rows[0].s as string));
    await trx.raw(`INSERT INTO ${o.map} (old, dst, rang, new) SELECT ${o.select}, nextval(?::regclass) FROM ${o.from} ORDER BY ${o.order}`, [sequence]);
    return;
  }
  const [r] = await trx.raw(
    `SELECT max(coalesce((SELECT max(id) FROM "${o.table}"), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = '${o.table}'), 0)) AS m`,
  );
  await trx.raw(`INSERT INTO ${o.map} (old, dst, rang, new) SELECT ${o.select}, ? + row_number() OVER (ORDER BY ${o.order}) FROM ${o.from}`, [
    Number((r as { m: number }).m),
  ]);
}

/**
 * INSERT … SELECT of the copies of a table's rows: every column of the source row `s` but the id (given by `id`,
 * else by the database) and the timestamps (now), but for the columns given in `set` (SQL expressions; `:name`
 * binds the value `name` of `params`).
 */
async function insertCopies(
  trx: Knex.Transaction,
  pg: boolean,
  table: string,
  params: Record<string, Knex.Value>,
  o: { id?: string; set: Record<string, string>; from: string; order: string },
): Promise<void> {
  const columns = (await columnsOf(trx, table, pg)).filter((c) => c !== "id" && c !== "created_at" && c !== "updated_at");
  for (const c of Object.keys(o.set)) if (!columns.includes(c)) throw new Error(`${table}.${c}: no such column`);
  const target = [...(o.id ? ["id"] : []), ...columns];
  const values = [...(o.id ? [o.id] : []), ...columns.map((c) => o.set[c] ?? `s."${c}"`)];
  await trx.raw(`INSERT INTO "${table}" (${target.map((c) => `"${c}"`).join(", ")}) SELECT ${values.join(", ")} FROM ${o.from} ORDER BY ${o.order}`, params);
}

/**
 * Copies the interventions of each group to each of its plots with their inputs (characteristics, targets) and
 * harvests (with their characteristics), in one set-based pass: the source rows are never read into the process,
 * each table is copied by one INSERT … SELECT over working tables that give every copy its id first (decision 0078).
 * Runs inside the caller's transaction: a failure leaves nothing. Another campaign's copy takes that campaign's
 * operation of the same name (none when it has none) and harvest year; dates are kept (the date update moves them);
 * a harvest's observation series stays with the source (decision 0031). Returns the number of interventions made.
 */
export async function copyInterventions(trx: Knex.Transaction, plan: Plan): Promise<number> {
  const pg = isPostgres(trx as unknown as Db);
  const target = await trx("campagne").where({ id: plan.targetCampagne }).first("id", "anneeRecolte");
  if (!target) throw new ServiceError("errors.not-found", 404);
  // Destination plots: of the destination campaign, each in one group only (a repeated plot within a group counts once).
  const targets = plan.groups.map((g) => [...new Set(g.targetPlots.map(Number))]);
  const allTargets = targets.flat();
  if (new Set(allTargets).size !== allTargets.length) throw invalidField("parcellesDestination");
  const found = new Set<number>();
  for (const chunk of inChunks(allTargets, 5000)) {
    for (const id of await trx("parcelle").where({ idCampagne: plan.targetCampagne }).whereIn("id", chunk).pluck("id")) found.add(Number(id));
  }
  if (found.size !== allTargets.length) throw invalidField("parcellesDestination");
  const sourcePlots = plan.groups.flatMap((g, grp) => ("sourcePlot" in g ? [[grp, g.sourcePlot]] : []));
  if (sourcePlots.length && plan.sourceCampagne == null) throw new Error("a source plot needs its campaign");

  await workTables(trx, pg);
  const analysed = pg ? await analysedTables(trx) : null;
  let rang = 0;
  await fill(
    trx,
    "copie_cible",
    ["grp", "id_parcelle", "rang"],
    targets.flatMap((plots, grp) => plots.map((p) => [grp, p, rang++])),
  );
  await fill(
    trx,
    "copie_source",
    ["grp", "id_action"],
    plan.groups.flatMap((g, grp) => ("actionIds" in g ? [...new Set(g.actionIds)].map((id) => [grp, id]) : [])),
  );
  if (sourcePlots.length) {
    await fill(trx, "copie_groupe", ["grp", "id_parcelle"], sourcePlots);
    await trx.raw(
      "INSERT INTO copie_source (grp, id_action) SELECT g.grp, a.id FROM copie_groupe g JOIN action a ON a.id_parcelle = g.id_parcelle AND a.id_campagne = ?",
      [plan.sourceCampagne!],
    );
  }

  await analyse(trx, analysed, "copie_cible", "copie_source");

  // Operations of the destination campaign by name (kind 0); the folder's unreferenced inputs (1) and qualifiers (2).
  const sourceOps = await trx.raw(
    "SELECT DISTINCT o.id, o.libelle FROM copie_source s JOIN action a ON a.id = s.id_action JOIN operation_culturale o ON o.id = a.id_operation_culturale WHERE a.id_campagne <> ?",
    [plan.targetCampagne],
  );
  const targetOps = new Map(
    (await trx("operation_culturale").where({ idCampagne: plan.targetCampagne }).select("id", "libelle")).map((o) => [String(o.libelle), Number(o.id)]),
  );
  const ops = ((pg ? sourceOps.rows : sourceOps) as { id: number; libelle: string }[])
    .filter((o) => targetOps.has(String(o.libelle)))
    .map((o) => [0, Number(o.id), targetOps.get(String(o.libelle))!]);
  const distinct = async (sql: string, bindings: Knex.Value[] = []) => {
    const r = await trx.raw(sql, bindings);
    return ((pg ? r.rows : r) as { id: number }[]).map((x) => Number(x.id));
  };
  const refs = await folderReferences(
    trx,
    plan.targetDossier,
    await distinct(
      "SELECT DISTINCT i.id_intrant AS id FROM copie_source s JOIN intrant i ON i.id_action = s.id_action WHERE i.dic_id_origine_intrant = ? AND i.id_intrant IS NOT NULL",
      [ORIGINE_INTRANT.DOSSIER],
    ),
    await distinct(
      "SELECT DISTINCT r.id_qualifiant_recolte AS id FROM copie_source s JOIN recolte r ON r.id_action = s.id_action WHERE r.id_qualifiant_recolte IS NOT NULL",
    ),
  );
  await fill(
    trx,
    "copie_ref",
    ["kind", "old", "new"],
    [...ops, ...[...refs.intrantsDossier].map(([o, n]) => [1, o, n]), ...[...refs.qualifiants].map(([o, n]) => [2, o, n])],
  );

  // The deletion option: the destination plots' interventions (never a source of this copy) go first.
  if (plan.suppression) {
    await trx.raw(
      "DELETE FROM action WHERE id_campagne = ? AND id_parcelle IN (SELECT id_parcelle FROM copie_cible) AND id NOT IN (SELECT id_action FROM copie_source)",
      [plan.targetCampagne],
    );
  }

  // The copies' ids, per destination plot in order: interventions by date, then inputs (seeds before their treatments), targets, harvests.
  await mapIds(trx, pg, {
    map: "copie_action",
    table: "action",
    select: "s.id_action, c.id_parcelle, c.rang",
    from: "copie_source s JOIN copie_cible c ON c.grp = s.grp JOIN action a ON a.id = s.id_action",
    order: "c.rang, a.date, a.id",
  });
  await analyse(trx, analysed, "copie_action");
  await mapIds(trx, pg, {
    map: "copie_intrant",
    table: "intrant",
    select: "i.id, m.dst, m.rang",
    from: "copie_action m JOIN intrant i ON i.id_action = m.old",
    order: "m.rang, CASE WHEN i.id_intrant_semence IS NULL THEN 0 ELSE 1 END, i.id",
  });
  await analyse(trx, analysed, "copie_intrant");
  await mapIds(trx, pg, {
    map: "copie_intrant_cible",
    table: "intrant_cible",
    select: "t.id, m.dst, m.rang",
    from: "copie_intrant m JOIN intrant_cible t ON t.id_intrant = m.old",
    order: "m.rang, t.id",
  });
  await mapIds(trx, pg, {
    map: "copie_recolte",
    table: "recolte",
    select: "r.id, m.dst, m.rang",
    from: "copie_action m JOIN recolte r ON r.id_action = m.old",
    order: "m.rang, r.id",
  });
  await analyse(trx, analysed, "copie_intrant_cible", "copie_recolte");

  const params = { tc: plan.targetCampagne, annee: Number(target.anneeRecolte), dossier: plan.targetDossier, origine: ORIGINE_INTRANT.DOSSIER };
  await insertCopies(
    trx,
    pg,
    "action",
    { tc: params.tc, annee: params.annee },
    {
      id: "m.new",
      from: "copie_action m JOIN action s ON s.id = m.old LEFT JOIN copie_ref op ON op.kind = 0 AND op.old = s.id_operation_culturale",
      order: "m.new",
      set: {
        id_campagne: ":tc",
        id_parcelle: "m.dst",
        annee_recolte: ":annee",
        id_operation_culturale: "CASE WHEN s.id_campagne = :tc THEN s.id_operation_culturale ELSE op.new END",
      },
    },
  );
  await insertCopies(
    trx,
    pg,
    "intrant",
    { dossier: params.dossier, origine: params.origine },
    {
      id: "m.new",
      order: "m.new",
      from: `copie_intrant m JOIN intrant s ON s.id = m.old JOIN copie_action ma ON ma.old = s.id_action AND ma.dst = m.dst
      LEFT JOIN copie_intrant ms ON ms.old = s.id_intrant_semence AND ms.dst = m.dst
      LEFT JOIN copie_ref rd ON rd.kind = 1 AND rd.old = s.id_intrant AND s.dic_id_origine_intrant = :origine`,
      set: {
        id_action: "ma.new",
        id_intrant_semence: "ms.new",
        id_intrant: "coalesce(rd.new, s.id_intrant)",
        id_dossier: "CASE WHEN rd.new IS NULL THEN s.id_dossier ELSE :dossier END",
      },
    },
  );
  await insertCopies(
    trx,
    pg,
    "caracteristique_intrant",
    {},
    { from: "copie_intrant m JOIN caracteristique_intrant s ON s.id_intrant = m.old", order: "m.rang, s.id", set: { id_intrant: "m.new" } },
  );
  await insertCopies(
    trx,
    pg,
    "intrant_cible",
    {},
    {
      id: "m.new",
      from: "copie_intrant_cible m JOIN intrant_cible s ON s.id = m.old JOIN copie_intrant mi ON mi.old = s.id_intrant AND mi.dst = m.dst",
      order: "m.new",
      set: { id_intrant: "mi.new" },
    },
  );
  await insertCopies(
    trx,
    pg,
    "intrant_cible_cible",
    {},
    { from: "copie_intrant_cible m JOIN intrant_cible_cible s ON s.id_intrant_cible = m.old", order: "m.rang, s.id", set: { id_intrant_cible: "m.new" } },
  );
  await insertCopies(
    trx,
    pg,
    "recolte",
    {},
    {
      id: "m.new",
      order: "m.new",
      from: "copie_recolte m JOIN recolte s ON s.id = m.old JOIN copie_action ma ON ma.old = s.id_action AND ma.dst = m.dst LEFT JOIN copie_ref q ON q.kind = 2 AND q.old = s.id_qualifiant_recolte",
      set: { id_action: "ma.new", id_observation_serie: "NULL", id_qualifiant_recolte: "coalesce(q.new, s.id_qualifiant_recolte)" },
    },
  );
  await insertCopies(
    trx,
    pg,
    "caracteristique_recolte",
    {},
    { from: "copie_recolte m JOIN caracteristique_recolte s ON s.id_recolte = m.old", order: "m.rang, s.id", set: { id_recolte: "m.new" } },
  );

  const [n] = await trx("copie_action").count({ n: "*" });
  if (!pg) for (const name of Object.keys(WORK_TABLES)) await trx.raw(`DELETE FROM ${name}`);
  return Number(n.n);
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
export async function exportInterventions(scope: Scope, payload: unknown): Promise<number> {
  const { db } = scope;
  const input = parse(ExportInterventionsSchema, payload);
  const ctx = await campaignContext(scope);
  await ensureWrite(scope, { dossier: input.dossierDestination, campagne: input.campagneDestination });
  const actionIds = await actionsOf(db, ctx.idCampagne, input.actionsSource);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) =>
      copyInterventions(trx, {
        groups: [{ actionIds, targetPlots: input.parcellesDestination }],
        targetCampagne: input.campagneDestination,
        targetDossier: input.dossierDestination,
        suppression: input.suppressionInterventionsParcellesDst,
      }),
    ),
  );
}

/** Import into a plot of the selected campaign of ticked interventions of a campaign of the same farm (C-COPY-05..07). */
export async function importInterventions(scope: Scope, payload: unknown): Promise<number> {
  const { db } = scope;
  const input = parse(ImportInterventionsSchema, payload);
  const ctx = await writableCampaign(scope);
  const source = await db("campagne").where({ id: input.campagneSource }).first("idExploitation");
  if (!source || Number(source.idExploitation) !== ctx.idExploitation) throw invalidField("campagneSource");
  const actionIds = await actionsOf(db, input.campagneSource, input.actionsSource);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) =>
      copyInterventions(trx, {
        groups: [{ actionIds, targetPlots: [input.idParcelle] }],
        targetCampagne: ctx.idCampagne,
        targetDossier: ctx.view.selected.idDossier,
        suppression: false,
      }),
    ),
  );
}

/** Duplication of a plot's interventions to plots of a campaign the user may write (C-COPY-08..13, C-RIGHTS-21). */
export async function duplicateInterventions(scope: Scope, payload: unknown): Promise<number> {
  const input = parse(DuplicationInterventionsSchema, payload);
  return duplicatePlots(scope, { ...input, paires: [{ parcelleSource: input.parcelleSource, parcellesDestination: input.parcellesDestination }] });
}

/**
 * Duplication of a campaign's interventions plot by plot (each source plot's to its destination plots) in one
 * transaction and one set-based pass (decision 0078): the same copies, rights and checks as one duplication per
 * source plot, all or nothing. No destination plot is a source plot or the destination of two source plots.
 */
export async function duplicateCampaignInterventions(scope: Scope, payload: unknown): Promise<number> {
  return duplicatePlots(scope, parse(DuplicationCampagneInterventionsSchema, payload));
}

async function duplicatePlots(scope: Scope, input: DuplicationCampagneInterventionsInput): Promise<number> {
  const { db, user } = scope;
  await ensureRead(db, user, input.dossierSource, input.campagneSource);
  await ensureWrite(scope, { dossier: input.dossierDestination, campagne: input.campagneDestination });
  const sources = [...new Set(input.paires.map((p) => p.parcelleSource))];
  const found = (await db("parcelle").where({ idCampagne: input.campagneSource }).whereIn("id", sources).pluck("id")).map(Number);
  if (found.length !== sources.length || sources.length !== input.paires.length) throw invalidField("parcelleSource");
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) =>
      copyInterventions(trx, {
        sourceCampagne: input.campagneSource,
        groups: input.paires.map((p) => ({ sourcePlot: p.parcelleSource, targetPlots: p.parcellesDestination })),
        targetCampagne: input.campagneDestination,
        targetDossier: input.dossierDestination,
        suppression: input.suppressionInterventionsParcellesDst,
      }),
    ),
  );
}

export type { CopieCampagne, CopieChoices, CopieParcelle };

async function campagnesWithPlots(db: Db, campagnes: { id: number; libelle: string }[]): Promise<CopieCampagne[]> {
  if (!campagnes.length) return [];
  const plots = await db("parcelle")
    .whereIn(
      "idCampagne",
      campagnes.map((c) => c.id),
    )
    .orderBy([{ column: "libelle" }, { column: "id" }])
    .select("id", "libelle", "idCampagne");
  return campagnes.map((c) => ({
    ...c,
    parcelles: plots.filter((p) => Number(p.idCampagne) === c.id).map((p) => ({ id: Number(p.id), libelle: String(p.libelle) })),
  }));
}

/** The choices of the copy, import and duplication dialogs, read when one opens. */
export async function copyChoices(scope: Scope): Promise<CopieChoices> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
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
  const own = await campagnesWithPlots(
    db,
    ctx.view.campagnes.filter((c) => c.idExploitation === ctx.idExploitation).map((c) => ({ id: c.id, libelle: c.libelle })),
  );
  const actions = await db("action as a")
    .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .whereIn(
      "a.idCampagne",
      own.map((c) => c.id),
    )
    .orderBy([{ column: "a.date" }, { column: "a.id" }])
    .select("a.id", "a.idCampagne", "a.idParcelle", "a.date", "o.libelle as operation");
  const iso = (d: unknown) =>
    d instanceof Date ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}` : String(d).slice(0, 10);
  const imports = own.map((c) => ({
    ...c,
    interventions: actions
      .filter((a) => Number(a.idCampagne) === c.id)
      .map((a) => ({ id: Number(a.id), idParcelle: Number(a.idParcelle), date: iso(a.date), operation: (a.operation as string | null) ?? null })),
  }));
  return { idDossier: ctx.view.selected.idDossier, destinations, sources, imports };
}

// ---- The copy calls of the JSON API (spec 3 §7, C-API-32, 33, 35; issue 27): the dialogs' copies, named by a plot.

/** PATCH parcelles/{id}/copie_action: interventions of a campaign of the farm copied into the plot (the import dialog's copy). */
export async function copyActionsToPlot(scope: Scope, idParcelle: number, input: { actionSource: number[]; campagneSource?: number }): Promise<number> {
  const campagneSource = input.campagneSource ?? (await scope.db("action").where({ id: input.actionSource[0] }).first("idCampagne"))?.idCampagne;
  if (campagneSource == null) throw invalidField("actionSource");
  return importInterventions(scope, { idParcelle, campagneSource: Number(campagneSource), actionsSource: input.actionSource });
}

/**
 * PATCH parcelles/{id}/copie_actions: ticked interventions of the scope's campaign copied to the plot {id} of a campaign
 * the user may write (the export dialog's copy, one destination plot), after deleting its interventions when asked.
 */
export async function copyActionsFromCampaign(
  scope: Scope,
  idParcelle: number,
  input: { actionsSource: number[]; dossierDestination: number; suppressionInterventionsParcellesDst: boolean },
): Promise<number> {
  const plot = await scope.db("parcelle").where({ id: idParcelle }).first("idCampagne");
  if (!plot) throw new ServiceError("errors.not-found", 404);
  return exportInterventions(scope, { ...input, campagneDestination: Number(plot.idCampagne), parcellesDestination: [idParcelle] });
}

/**
 * PATCH parcelles/{id}/duplication_interventions ({id}: the source plot, of the scope's campaign): its interventions
 * duplicated to plots of one campaign (that of the first destination plot unless named), in the destination folder
 * (the scope's folder unless named).
 */
export async function duplicatePlotInterventions(
  scope: Scope,
  idParcelle: number,
  input: { parcellesDestination: number[]; suppressionInterventionsParcellesDst: boolean; dossierDestination?: number; campagneDestination?: number },
): Promise<number> {
  const ctx = await campaignContext(scope);
  const plot = await scope.db("parcelle").where({ id: idParcelle, idCampagne: ctx.idCampagne }).first("id");
  if (!plot) throw new ServiceError("errors.not-found", 404);
  const destination = input.campagneDestination ?? (await scope.db("parcelle").where({ id: input.parcellesDestination[0] }).first("idCampagne"))?.idCampagne;
  if (destination == null) throw invalidField("parcellesDestination");
  const campagneDestination = Number(destination);
  return duplicateInterventions(scope, {
    dossierSource: ctx.view.selected.idDossier,
    campagneSource: ctx.idCampagne,
    parcelleSource: idParcelle,
    dossierDestination: input.dossierDestination ?? ctx.view.selected.idDossier,
    campagneDestination,
    parcellesDestination: input.parcellesDestination,
    suppressionInterventionsParcellesDst: input.suppressionInterventionsParcellesDst,
  });
}
