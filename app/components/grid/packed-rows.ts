/**
 * A grid screen's rows as its loader sends them: one JSON text, in columns. React Router encodes loader data value
 * by value (turbo-stream), which for the 2,000 interventions of a farm cost more than reading them from the
 * database; the same rows as one string are encoded natively by JSON.stringify and read back by JSON.parse, and
 * the field names travel once instead of once per row (bench/interventions.mjs: a third less server time, see
 * docs/performance.md). Rows must be plain JSON data (strings, numbers, booleans, null, arrays, objects): dates
 * travel as text, as the grid holds them. A field a row lacks (or holds undefined) is absent again once unpacked.
 */
export type PackedRows<R> = string & { readonly __packedRows?: R };

/** Stands for an absent field in a row's array (JSON has no undefined). */
const ABSENT = "\u0000";

export function packRows<R extends object>(rows: readonly R[]): PackedRows<R> {
  const names = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) names.add(key);
  const columns = [...names];
  const values = rows.map((row) => columns.map((c) => (row as Record<string, unknown>)[c] ?? (c in row && (row as Record<string, unknown>)[c] === null ? null : ABSENT)));
  return JSON.stringify({ columns, values }) as PackedRows<R>;
}

export function unpackRows<R>(packed: PackedRows<R>): R[] {
  const { columns, values } = JSON.parse(packed) as { columns: string[]; values: unknown[][] };
  return values.map((v) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) if (v[i] !== ABSENT) row[columns[i]] = v[i];
    return row as R;
  });
}
