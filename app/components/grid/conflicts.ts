import type { RowConflict } from "~/domain/grid-patches";
import { currentValues, type EditBuffer, type RowKey, type RowPatch, type Values } from "./patches";

/**
 * The rows a save set aside because someone else changed (or removed) them since they were loaded (decision 0100).
 * Pure functions over the edit buffer (patches.ts): after the save the buffer keeps only these rows' edits, each
 * with the other user's version beside it, until the user keeps their own values (over the new token, so the next
 * save writes them) or takes the stored ones (their edits of that row dropped). Nothing typed is lost on the way.
 */

/** A row in conflict: why, how the screen names it, and the row as it is stored now (null: removed meanwhile). */
export type Conflict = { key: RowConflict["key"]; label?: string; updatedAt: string | null; theirs: Values | null };
export type Conflicts = ReadonlyMap<RowKey, Conflict>;

/**
 * The buffer after a save answered with `conflicts` (indexes into the `patches` sent): the saved rows leave it (the
 * loader gives them back fresh), the conflicting rows keep their edits and the version they were loaded with; the
 * undo history is of edits that are now saved, so it starts again.
 */
export function afterSave(buffer: EditBuffer, patches: readonly RowPatch[], conflicts: readonly RowConflict[]): { buffer: EditBuffer; conflicts: Conflicts } {
  const out = new Map<RowKey, Conflict>();
  for (const c of conflicts) {
    const patch = patches[c.index];
    if (!patch || !buffer.changed.has(patch.id)) continue;
    out.set(patch.id, { key: c.key, label: c.label, updatedAt: c.updatedAt, theirs: c.values });
  }
  const changed = new Map([...buffer.changed].filter(([k]) => out.has(k)));
  const loaded = new Map([...buffer.loaded].filter(([k]) => out.has(k)));
  return {
    buffer: { changed, loaded, appended: buffer.appended.filter((k) => out.has(k)), undo: [], redo: [], nextTemp: buffer.nextTemp },
    conflicts: out,
  };
}

/**
 * The fields of a conflicting row whose values differ: the user's (as edited over what they loaded) against the
 * stored ones, among `fields`. A field the user did not edit takes the stored value and is no conflict.
 */
export function conflictFields(buffer: EditBuffer, key: RowKey, conflict: Conflict, fields: readonly string[]): string[] {
  const edited = buffer.changed.get(key) ?? {};
  const theirs = conflict.theirs ?? {};
  return fields.filter((f) => Object.hasOwn(edited, f) && !sameValue(edited[f], theirs[f]));
}

const sameValue = (a: unknown, b: unknown) => Object.is(a, b) || ((a == null || a === "") && (b == null || b === ""));

/**
 * "Keep mine": the row now stands on the stored version (its token and values), with the user's edits over it, so
 * the next save writes the user's values where they edited and keeps the other user's elsewhere. A removed row
 * cannot be kept (nothing to write over): the buffer is unchanged.
 */
export function keepMine(buffer: EditBuffer, key: RowKey, conflict: Conflict): EditBuffer {
  if (!conflict.theirs || !conflict.updatedAt || !buffer.changed.has(key)) return buffer;
  const stored = { ...conflict.theirs, updatedAt: conflict.updatedAt };
  const edited = buffer.changed.get(key) ?? {};
  // An edit equal to the stored value is no change any more.
  const remaining = Object.fromEntries(Object.entries(edited).filter(([f, v]) => !sameValue(v, conflict.theirs![f])));
  const changed = new Map(buffer.changed);
  const loaded = new Map(buffer.loaded);
  loaded.set(key, stored);
  // Every field equal: nothing left to save for the row.
  if (Object.keys(remaining).length) changed.set(key, remaining);
  else {
    changed.delete(key);
    loaded.delete(key);
  }
  return { ...buffer, changed, loaded };
}

/** "Take theirs": the user's edits of the row are dropped; the grid shows the stored row (the loader's). */
export function takeTheirs(buffer: EditBuffer, key: RowKey): EditBuffer {
  if (!buffer.changed.has(key)) return buffer;
  const changed = new Map(buffer.changed);
  const loaded = new Map(buffer.loaded);
  changed.delete(key);
  loaded.delete(key);
  return { ...buffer, changed, loaded, appended: buffer.appended.filter((k) => k !== key) };
}

/** The user's values of a conflicting row, as edited over what they loaded. */
export const mineOf = (buffer: EditBuffer, key: RowKey, loaded: Values | undefined) => currentValues(buffer, key, buffer.loaded.get(key) ?? loaded);

/**
 * Resolves every conflict one way; a removed row is not dropped by "keep mine" (its edits would be lost): it stays
 * in conflict until the user takes the removal.
 */
export function resolveAll(buffer: EditBuffer, conflicts: Conflicts, way: "mine" | "theirs"): { buffer: EditBuffer; conflicts: Conflicts } {
  let next = buffer;
  const left = new Map<RowKey, Conflict>();
  for (const [key, c] of conflicts) {
    if (way === "theirs") next = takeTheirs(next, key);
    else if (c.theirs) next = keepMine(next, key, c);
    else left.set(key, c);
  }
  return { buffer: next, conflicts: left };
}
