import type { Knex } from "knex";
import type { Db } from "../db/knex";
import { inChunks } from "../db/chunks";

/**
 * The SQL of the copies of interventions (decision 0047, 0078): the working tables of the set-based copy and the
 * statements over them, and the reads of the copy, import and duplication dialogs. Rules and rights: ./service.ts.
 */

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
export const WORK_TABLES: Record<string, string> = {
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
export async function workTables(trx: Knex.Transaction, pg: boolean): Promise<void> {
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
export async function analyse(trx: Knex.Transaction, analysed: Set<string> | null, ...tables: string[]): Promise<void> {
  const missing = tables.filter((t) => analysed && !analysed.has(t));
  if (missing.length) await trx.raw(`ANALYZE ${missing.join(", ")}`);
}

/** PostgreSQL: the working tables of the connection that have statistics (`analyse`). */
export async function analysedTables(trx: Knex.Transaction): Promise<Set<string>> {
  const r = await trx.raw(
    "SELECT relname AS name FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r' AND relname LIKE 'copie%' AND relpages > 0",
  );
  return new Set((r.rows as { name: string }[]).map((x) => x.name));
}

/** Rows of whole numbers into a working table, in multi-row inserts of bound values (≤ 30,000 per statement). */
export async function fill(trx: Knex.Transaction, table: string, columns: string[], rows: number[][]): Promise<void> {
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
export async function columnsOf(trx: Knex.Transaction, table: string, pg: boolean): Promise<string[]> {
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
export async function mapIds(
  trx: Knex.Transaction,
  pg: boolean,
  o: { map: string; table: string; select: string; from: string; order: string },
): Promise<void> {
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
export async function insertCopies(
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

// ---- Reads and writes named by the service

export function findCampagneAnnee(db: Db, id: number) {
  return db("campagne").where({ id }).first("id", "anneeRecolte");
}

export function findCampagneExploitation(db: Db, id: number) {
  return db("campagne").where({ id }).first("idExploitation");
}

/** Of the plots named, the ids of those of the campaign. */
export async function parcellesOfCampagne(db: Db, idCampagne: number, ids: number[]): Promise<number[]> {
  return (await db("parcelle").where({ idCampagne }).whereIn("id", ids).pluck("id")).map(Number);
}

/** A plot's campaign (its row's `idCampagne`), undefined when there is none. */
export function findParcelleCampagne(db: Db, id: number) {
  return db("parcelle").where({ id }).first("idCampagne");
}

export async function parcelleOfCampagneExists(db: Db, idCampagne: number, id: number): Promise<boolean> {
  return !!(await db("parcelle").where({ id, idCampagne }).first("id"));
}

/** An intervention's campaign (its row's `idCampagne`), undefined when there is none. */
export async function campagneOfAction(db: Db, id: number): Promise<unknown> {
  return (await db("action").where({ id }).first("idCampagne"))?.idCampagne;
}

/** Of the interventions named, the ids of those of the campaign (and of the plot, when named). */
export async function actionIdsOfCampagne(db: Db, idCampagne: number, ids: number[], idParcelle?: number): Promise<number[]> {
  const q = db("action").where({ idCampagne }).whereIn("id", ids);
  if (idParcelle != null) q.where({ idParcelle });
  return (await q.pluck("id")).map(Number);
}

/** The operations of a campaign: label → id (the last of a label wins, as a Map of the rows does). */
export async function operationsOfCampagne(db: Db, idCampagne: number): Promise<Map<string, number>> {
  return new Map((await db("operation_culturale").where({ idCampagne }).select("id", "libelle")).map((o) => [String(o.libelle), Number(o.id)]));
}

/** The interventions a copy made (the rows of copie_action). */
export async function countCopiedActions(trx: Knex.Transaction): Promise<number> {
  const [n] = await trx("copie_action").count({ n: "*" });
  return Number(n.n);
}

/** Of the folder inputs named, the rows of another folder than `idDossier`. */
export function intrantsDossierHorsDossier(trx: Knex.Transaction, ids: number[], idDossier: number) {
  return trx("intrant_dossier").whereIn("id", ids).whereNot({ idDossier }).select("*");
}

/** A folder's inputs, in id order: id, type, label. */
export function intrantsDossierOf(trx: Knex.Transaction, idDossier: number) {
  return trx("intrant_dossier").where({ idDossier }).orderBy("id").select("id", "dicIdTypeIntrant", "libelle");
}

/** The fertiliser compositions of folder inputs. */
export function compositionsOf(trx: Knex.Transaction, ids: number[]) {
  return trx("fertilisant_compo_dossier").whereIn("idIntrantDossier", ids).select("*");
}

/** Of the harvest qualifiers named, the rows of another folder than `idDossier`. */
export function qualifiantsHorsDossier(trx: Knex.Transaction, ids: number[], idDossier: number) {
  return trx("qualifiant_recolte").whereIn("id", ids).whereNot({ idDossier }).select("*");
}

/** The folder's qualifier of that name, undefined when it has none. */
export function qualifiantDuDossier(trx: Knex.Transaction, idDossier: number, qrdNom: unknown) {
  return trx("qualifiant_recolte").where({ idDossier, qrdNom }).first("id");
}

/** The plots of the campaigns named, by label. */
export function listParcellesOfCampagnes(db: Db, ids: number[]) {
  return db("parcelle")
    .whereIn("idCampagne", ids)
    .orderBy([{ column: "libelle" }, { column: "id" }])
    .select("id", "libelle", "idCampagne");
}

/** The interventions of the campaigns named, by date, with their operation's label. */
export function listActionsOfCampagnes(db: Db, ids: number[]) {
  return db("action as a")
    .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .whereIn("a.idCampagne", ids)
    .orderBy([{ column: "a.date" }, { column: "a.id" }])
    .select("a.id", "a.idCampagne", "a.idParcelle", "a.date", "o.libelle as operation");
}

// ---- The steps of the set-based copy (./service.ts copyInterventions)

/** The source interventions of the groups that name a source plot: the plot's interventions in the source campaign. */
export async function fillSourcesOfPlots(trx: Knex.Transaction, sourcePlots: number[][], sourceCampagne: number): Promise<void> {
  await fill(trx, "copie_groupe", ["grp", "id_parcelle"], sourcePlots);
  await trx.raw(
    "INSERT INTO copie_source (grp, id_action) SELECT g.grp, a.id FROM copie_groupe g JOIN action a ON a.id_parcelle = g.id_parcelle AND a.id_campagne = ?",
    [sourceCampagne],
  );
}

/** The operations of the source interventions that are not of the campaign `idCampagne`. */
export async function sourceOperationsOutside(trx: Knex.Transaction, pg: boolean, idCampagne: number): Promise<{ id: number; libelle: string }[]> {
  const r = await trx.raw(
    "SELECT DISTINCT o.id, o.libelle FROM copie_source s JOIN action a ON a.id = s.id_action JOIN operation_culturale o ON o.id = a.id_operation_culturale WHERE a.id_campagne <> ?",
    [idCampagne],
  );
  return (pg ? r.rows : r) as { id: number; libelle: string }[];
}

async function distinctIds(trx: Knex.Transaction, pg: boolean, sql: string, bindings: Knex.Value[] = []): Promise<number[]> {
  const r = await trx.raw(sql, bindings);
  return ((pg ? r.rows : r) as { id: number }[]).map((x) => Number(x.id));
}

/** The folder inputs (origin `origine`) the source interventions' inputs name. */
export function sourceFolderInputs(trx: Knex.Transaction, pg: boolean, origine: number): Promise<number[]> {
  return distinctIds(
    trx,
    pg,
    "SELECT DISTINCT i.id_intrant AS id FROM copie_source s JOIN intrant i ON i.id_action = s.id_action WHERE i.dic_id_origine_intrant = ? AND i.id_intrant IS NOT NULL",
    [origine],
  );
}

/** The harvest qualifiers the source interventions' harvests name. */
export function sourceQualifiers(trx: Knex.Transaction, pg: boolean): Promise<number[]> {
  return distinctIds(
    trx,
    pg,
    "SELECT DISTINCT r.id_qualifiant_recolte AS id FROM copie_source s JOIN recolte r ON r.id_action = s.id_action WHERE r.id_qualifiant_recolte IS NOT NULL",
  );
}

/** Deletes the destination plots' interventions of the campaign, never a source of the copy. */
export async function deleteTargetActions(trx: Knex.Transaction, idCampagne: number): Promise<void> {
  await trx.raw(
    "DELETE FROM action WHERE id_campagne = ? AND id_parcelle IN (SELECT id_parcelle FROM copie_cible) AND id NOT IN (SELECT id_action FROM copie_source)",
    [idCampagne],
  );
}

/** The copies' ids, per destination plot in order: interventions by date, then inputs (seeds before their treatments), targets, harvests. */
export async function mapCopyIds(trx: Knex.Transaction, pg: boolean, analysed: Set<string> | null): Promise<void> {
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
}

/**
 * The copies themselves, table by table: interventions (in the campaign `tc`, harvest year `annee`, the destination
 * campaign's operation of the same name), inputs (a folder input of origin `origine` mapped to the folder `dossier`'s),
 * their characteristics and targets, harvests (qualifier mapped, no observation series) and their characteristics.
 */
export async function insertAllCopies(
  trx: Knex.Transaction,
  pg: boolean,
  params: { tc: number; annee: number; dossier: number | null; origine: number },
): Promise<void> {
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
}

/** SQLite: the working tables emptied after the copy (PostgreSQL empties them at the commit). */
export async function clearWorkTables(trx: Knex.Transaction, pg: boolean): Promise<void> {
  if (!pg) for (const name of Object.keys(WORK_TABLES)) await trx.raw(`DELETE FROM ${name}`);
}
