import { createHash } from "node:crypto";
import type { Db } from "./knex";
import { isPostgres } from "./knex";
import { syncIdSequence } from "./dialect";
import { inChunks } from "./chunks";

export type ReferenceFile = {
  table: string;
  source: string;
  licence: string;
  date: string;
  confidence?: string;
  /** Tables whose files must be loaded first (their rows are referenced by foreign keys). */
  dependsOn?: string[];
  rows: Array<Record<string, unknown> & { id: number }>;
};

// Imported as text and parsed here: Vite's JSON transform of the ~4 MB commune list takes seconds,
// parsing it takes milliseconds. The text also gives the hash that tells whether a file changed.
const texts = import.meta.glob<string>("../../seeds/reference/*.json", { eager: true, query: "?raw", import: "default" });

type Loaded = { file: ReferenceFile; hash: string };
let loaded: Loaded[] | undefined;

function load(): Loaded[] {
  loaded ??= Object.values(texts).map((text) => ({
    file: JSON.parse(text) as ReferenceFile,
    hash: createHash("sha256").update(text).digest("hex"),
  }));
  return loaded;
}

export function referenceFiles(): ReferenceFile[] {
  return load().map((l) => l.file);
}

/** The files in an order where each comes after the files it depends on. */
export function loadOrder(list: ReferenceFile[]): ReferenceFile[] {
  const byTable = new Map(list.map((f) => [f.table, f]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: ReferenceFile[] = [];
  const visit = (f: ReferenceFile) => {
    if (done.has(f.table)) return;
    if (visiting.has(f.table)) throw new Error(`reference seeds: dependency cycle through ${f.table}`);
    visiting.add(f.table);
    for (const dep of f.dependsOn ?? []) {
      const d = byTable.get(dep);
      if (!d) throw new Error(`reference seeds: ${f.table} depends on ${dep}, which has no file`);
      visit(d);
    }
    visiting.delete(f.table);
    done.add(f.table);
    out.push(f);
  };
  for (const f of [...list].sort((a, b) => a.table.localeCompare(b.table))) visit(f);
  return out;
}

const toSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const IDENT = /^[a-z_][a-z0-9_]*$/;
const quote = (name: string) => {
  if (!IDENT.test(name)) throw new Error(`reference seeds: bad identifier ${name}`);
  return `"${name}"`;
};

/** Rows per statement; each statement sends its rows as one JSON parameter. */
const CHUNK = 5000;

/**
 * Upserts rows by id in a few statements: the rows travel as one JSON text per chunk and the
 * database unpacks them (json_populate_recordset on PostgreSQL, json_each on SQLite). A fresh
 * seed of the ~35,000 communes takes well under a second this way, against several seconds with
 * multi-row VALUES inserts of 200 rows.
 */
async function upsertRows(db: Db, table: string, rows: ReferenceFile["rows"]): Promise<void> {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cols = keys.map(toSnake);
  const colList = cols.map(quote).join(", ");
  const set = cols
    .filter((c) => c !== "id")
    .map((c) => `${quote(c)} = excluded.${quote(c)}`)
    .join(", ");
  const conflict = set ? `on conflict (id) do update set ${set}` : "on conflict (id) do nothing";
  const pg = isPostgres(db);
  const select = pg
    ? `select ${colList} from json_populate_recordset(null::${quote(table)}, ?::json)`
    : `select ${cols.map((c) => `json_extract(value, '$.${c}')`).join(", ")} from json_each(?) where true`;
  const sql = `insert into ${quote(table)} (${colList}) ${select} ${conflict}`;
  for (const slice of inChunks(rows, CHUNK)) {
    const chunk = slice.map((r) => {
      const o: Record<string, unknown> = {};
      keys.forEach((k, j) => (o[cols[j]] = r[k] ?? null));
      return o;
    });
    await db.raw(sql, [JSON.stringify(chunk)]);
  }
}

/**
 * Upserts every reference list by id, so that a new release brings its corrections. A file whose
 * content is unchanged since it was last seeded (hash kept in reference_seed) and whose table still
 * holds at least as many rows is skipped, so that a start-up does not rewrite ~35,000 communes.
 */
export async function seedReference(db: Db): Promise<void> {
  const seeded = new Map<string, string>(
    ((await db("reference_seed").select("nomTable", "hash")) as Array<{ nomTable: string; hash: string }>).map((r) => [r.nomTable, r.hash]),
  );
  const hashes = new Map(load().map((l) => [l.file, l.hash]));
  for (const file of loadOrder(referenceFiles())) {
    const hash = hashes.get(file)!;
    if (seeded.get(file.table) === hash) {
      const row = await db(file.table).count<{ n: number | string }[]>({ n: "*" }).first();
      if (Number(row?.n ?? 0) >= file.rows.length) continue;
    }
    await db.transaction(async (trx) => {
      if (file.rows.length > 0) await upsertRows(trx, file.table, file.rows);
      await syncIdSequence(trx, file.table);
      await trx("reference_seed").insert({ nomTable: file.table, hash, nbLignes: file.rows.length, updatedAt: trx.fn.now() }).onConflict("nomTable").merge();
    });
  }
}
