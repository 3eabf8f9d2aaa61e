import type { Db } from "../db/knex";

/**
 * The reference tables read as lists (the API's named lists and referentiels/{n}/dicos, decision 0120): a table's
 * rows with its own fields, in its own order. The columns and their kinds are asked of the schema once per database
 * and table, so that numbers (PostgreSQL gives decimals as text) and booleans (SQLite gives 0 and 1) come out as such.
 */

type Kind = "number" | "boolean" | "other";
/** Not part of a list's answer: the bookkeeping columns. */
const HIDDEN = new Set(["createdAt", "updatedAt"]);

const kindsCache = new WeakMap<Db, Map<string, Promise<Map<string, Kind>>>>();

function kindOf(type: string): Kind {
  const t = type.toLowerCase();
  if (t.includes("bool")) return "boolean";
  if (/int|numeric|decimal|float|double|real/.test(t)) return "number";
  return "other";
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function columnKinds(db: Db, table: string): Promise<Map<string, Kind>> {
  let tables = kindsCache.get(db);
  if (!tables) kindsCache.set(db, (tables = new Map()));
  let known = tables.get(table);
  if (!known) {
    known = Promise.resolve(db(table).columnInfo()).then(
      (info) => new Map(Object.entries(info as unknown as Record<string, { type: string }>).map(([name, c]) => [camel(name), kindOf(c.type)])),
    );
    tables.set(table, known);
    known.catch(() => tables.delete(table));
  }
  return known;
}

export type ListRow = Record<string, unknown> & { id: number };

export type ListQuery = {
  /** Equality filters on the table's columns (camelCase). */
  where?: Record<string, string | number>;
  /** Ids left out of the list. */
  without?: readonly number[];
  /** Columns of the order; the table's `ordre` then `id` when not given. */
  orderBy?: readonly string[];
};

/** The rows of a reference table with its fields (timestamps left out), typed by the table's columns. */
export async function listTable(db: Db, table: string, q: ListQuery = {}): Promise<ListRow[]> {
  const kinds = await columnKinds(db, table);
  const order = q.orderBy ?? [...(kinds.has("ordre") ? ["ordre"] : []), "id"];
  const query = db(table).select("*");
  if (q.where) query.where(q.where);
  if (q.without?.length) query.whereNotIn("id", [...q.without]);
  const rows = (await query.orderBy(order.map((column) => ({ column })))) as Record<string, unknown>[];
  return rows.map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) {
      if (HIDDEN.has(k)) continue;
      const kind = kinds.get(k) ?? "other";
      out[k] = v == null ? null : kind === "number" ? Number(v) : kind === "boolean" ? v === true || v === 1 || v === "1" || v === "true" : v;
    }
    return out as ListRow;
  });
}
