import { useCallback, useMemo, useRef, useState } from "react";
import type { z } from "zod";
import { rowErrors, schemaFields, type GridColumnDef } from "./columns";
import { applyEdits, currentValues, emptyBuffer, type CellEdit, type EditBuffer, type RowKey, type Values } from "./patches";
import type { GridRow } from "./types";

/** Errors by row, then by field (message keys). */
export type RowErrors = ReadonlyMap<RowKey, Record<string, string>>;

/**
 * The grid's edit buffer (patches.ts) held for React: the loaded rows and the appended ones in grid order (`keys`),
 * the edits applied and committed at once (`bufferRef` is current between renders: keyboard and paste handlers read
 * it), the changed rows checked with the row schema, and the errors the server answered for the last save, cleared
 * for a row as it is edited again.
 */
export function useGridBuffer<R extends GridRow>({
  rows,
  rowSchema,
  columns,
}: {
  rows: readonly R[];
  rowSchema: z.ZodObject;
  columns: readonly GridColumnDef<R>[];
}) {
  const [buffer, setBuffer] = useState<EditBuffer>(emptyBuffer);
  const bufferRef = useRef(buffer);
  bufferRef.current = buffer;
  const commit = useCallback((next: EditBuffer) => {
    bufferRef.current = next;
    setBuffer(next);
  }, []);
  const rowById = useMemo(() => new Map<number, R>(rows.map((r) => [r.id, r])), [rows]);
  const base = useCallback((key: RowKey) => rowById.get(key) as Values | undefined, [rowById]);
  const keys = useMemo(() => (buffer.appended.length ? [...rows.map((r) => r.id), ...buffer.appended] : rows.map((r) => r.id)), [rows, buffer.appended]);
  const fields = useMemo(() => schemaFields(rowSchema), [rowSchema]);

  /** Errors the server answered for the last save, by row then field; an edit of the row clears them. */
  const [serverErrors, setServerErrors] = useState<RowErrors>(new Map());
  /** The rows' own errors: only changed rows are checked (a loaded row is as the server keeps it). */
  const errors = useMemo(() => {
    const out = new Map<RowKey, Record<string, string>>();
    for (const [key] of buffer.changed) {
      const e = rowErrors(rowSchema, columns as GridColumnDef<R>[], currentValues(buffer, key, buffer.loaded.get(key) ?? base(key)) as Record<string, unknown>);
      if (Object.keys(e).length) out.set(key, e);
    }
    for (const [key, e] of serverErrors) out.set(key, { ...e, ...out.get(key) });
    return out;
  }, [buffer, rowSchema, columns, base, serverErrors]);

  const edit = useCallback(
    (edits: CellEdit[], append: Values[] = []) => {
      const { buffer: next, appendedKeys } = applyEdits(bufferRef.current, base, edits, append);
      if (next !== bufferRef.current) {
        commit(next);
        if (serverErrors.size) {
          const touched = new Set(edits.map((e) => e.key));
          setServerErrors((m) => new Map([...m].filter(([k]) => !touched.has(k))));
        }
      }
      return appendedKeys;
    },
    [base, commit, serverErrors.size],
  );

  /** The changed rows that are invalid (a save would be refused). */
  const invalidRows = useCallback(() => [...errors.keys()].filter((k) => bufferRef.current.changed.has(k)), [errors]);

  return { buffer, bufferRef, commit, rowById, base, keys, fields, errors, serverErrors, setServerErrors, edit, invalidRows };
}
