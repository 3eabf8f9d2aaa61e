/**
 * The size of one statement's list of values (`whereIn`, a multi-row insert): 500 stays under SQLite's oldest bound
 * of 999 parameters with room for the statement's own, and keeps PostgreSQL's statements short.
 */
export const CHUNK_SIZE = 500;

/**
 * The items cut into consecutive slices of at most `size` (the last one shorter), in order: a long list is read
 * or written by one statement per slice, `for (const chunk of inChunks(ids)) await …whereIn("id", chunk)`.
 */
export function inChunks<T>(items: readonly T[], size: number = CHUNK_SIZE): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size ${size}`);
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
