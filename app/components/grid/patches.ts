/**
 * The grid's edit buffer: the cells changed since the rows were loaded, as row patches, with the undo and redo
 * stacks of the edits before save. Pure and immutable (each function returns a new buffer), so React state holds
 * it and the tests need no browser.
 *
 * Rows are named by a key: an existing row by its id (> 0), a row appended in the grid by a temporary negative id
 * (-1, -2, ...), which is the id its patch carries (app/domain/grid-patches.ts).
 */

export type RowKey = number;
export type Values = Readonly<Record<string, unknown>>;

/** What one save sends for a row: its id (negative: a new row), the token it was loaded with, its values. */
export type RowPatch = { id: number; updatedAt: string | null; values: Record<string, unknown> };

type Slot = { has: boolean; value: unknown };
type CellChange = { key: RowKey; field: string; before: Slot; after: Slot };
/** One undoable step: a typed cell, a pasted block (with the rows it appended), a row added. */
type Step = { changes: CellChange[]; appended: { key: RowKey; defaults: Values }[] };

export type EditBuffer = {
  /** The changed fields of each row (for an appended row: all its values). */
  readonly changed: ReadonlyMap<RowKey, Values>;
  /** The appended rows, in order. */
  readonly appended: readonly RowKey[];
  readonly undo: readonly Step[];
  readonly redo: readonly Step[];
  /** The next temporary id (-1, -2, ...); never reused, even after an undo. */
  readonly nextTemp: number;
  /**
   * Each edited row as it was loaded when its first edit was made: its patch carries that row's token and values,
   * whatever the screen reloads meanwhile (a reload must not turn an edit of old data into an unchecked overwrite),
   * and a row the screen's filter hides keeps its edits.
   */
  readonly loaded: ReadonlyMap<RowKey, Values>;
};

export const emptyBuffer = (): EditBuffer => ({ changed: new Map(), appended: [], undo: [], redo: [], nextTemp: -1, loaded: new Map() });

export const isNewRow = (key: RowKey) => key < 0;

/** The cell edits to apply: each names a row, a field and its new value (undefined: emptied). */
export type CellEdit = { key: RowKey; field: string; value: unknown };

/** Deep enough equality for cell values (numbers, strings, booleans, undefined; NaN equals NaN). */
const same = (a: unknown, b: unknown) => Object.is(a, b) || (a == null && b == null);

function setSlot(changed: Map<RowKey, Values>, key: RowKey, field: string, slot: Slot) {
  const current = { ...(changed.get(key) ?? {}) } as Record<string, unknown>;
  if (slot.has) current[field] = slot.value;
  else delete current[field];
  if (Object.keys(current).length === 0 && !isNewRow(key)) changed.delete(key);
  else changed.set(key, current);
}

function slotOf(changed: ReadonlyMap<RowKey, Values>, key: RowKey, field: string): Slot {
  const values = changed.get(key);
  return values && Object.hasOwn(values, field) ? { has: true, value: values[field] } : { has: false, value: undefined };
}

/**
 * Applies edits (and first appends `append` new rows, which take the next temporary ids, with their defaults) as
 * one undoable step. `base(key)` gives a loaded row's values: an edit back to the loaded value is no change any
 * more. Edits that change nothing are dropped; a step that changes nothing is not recorded.
 */
export function applyEdits(
  buffer: EditBuffer,
  base: (key: RowKey) => Values | undefined,
  edits: readonly CellEdit[],
  append: readonly Values[] = [],
): { buffer: EditBuffer; appendedKeys: RowKey[] } {
  const changed = new Map(buffer.changed);
  let loadedRows: Map<RowKey, Values> | undefined;
  let nextTemp = buffer.nextTemp;
  const appended: Step["appended"] = append.map((defaults) => ({ key: nextTemp--, defaults }));
  for (const a of appended) changed.set(a.key, { ...a.defaults });
  const changes: CellChange[] = [];
  for (const e of edits) {
    const before = slotOf(changed, e.key, e.field);
    const loaded = buffer.loaded.get(e.key) ?? loadedRows?.get(e.key) ?? base(e.key);
    const current = before.has ? before.value : loaded?.[e.field];
    if (same(current, e.value)) continue;
    const backToLoaded = !isNewRow(e.key) && loaded !== undefined && same(loaded[e.field], e.value);
    const after: Slot = backToLoaded ? { has: false, value: undefined } : { has: true, value: e.value };
    setSlot(changed, e.key, e.field, after);
    changes.push({ key: e.key, field: e.field, before, after });
    if (loaded && !buffer.loaded.has(e.key) && !loadedRows?.has(e.key)) (loadedRows ??= new Map(buffer.loaded)).set(e.key, loaded);
  }
  const appendedKeys = appended.map((a) => a.key);
  if (changes.length === 0 && appended.length === 0) return { buffer, appendedKeys };
  return {
    buffer: {
      changed,
      appended: [...buffer.appended, ...appendedKeys],
      undo: [...buffer.undo, { changes, appended }],
      redo: [],
      nextTemp,
      loaded: loadedRows ?? buffer.loaded,
    },
    appendedKeys,
  };
}

export const canUndo = (b: EditBuffer) => b.undo.length > 0;
export const canRedo = (b: EditBuffer) => b.redo.length > 0;

/** Reverts the last step (its cells, then the rows it appended). */
export function undo(buffer: EditBuffer): EditBuffer {
  const step = buffer.undo.at(-1);
  if (!step) return buffer;
  const changed = new Map(buffer.changed);
  for (const c of [...step.changes].reverse()) setSlot(changed, c.key, c.field, c.before);
  const removed = new Set(step.appended.map((a) => a.key));
  for (const key of removed) changed.delete(key);
  return {
    ...buffer,
    changed,
    appended: buffer.appended.filter((k) => !removed.has(k)),
    undo: buffer.undo.slice(0, -1),
    redo: [...buffer.redo, step],
  };
}

/** Replays the last undone step. */
export function redo(buffer: EditBuffer): EditBuffer {
  const step = buffer.redo.at(-1);
  if (!step) return buffer;
  const changed = new Map(buffer.changed);
  for (const a of step.appended) changed.set(a.key, { ...a.defaults });
  for (const c of step.changes) setSlot(changed, c.key, c.field, c.after);
  return {
    ...buffer,
    changed,
    appended: [...buffer.appended, ...step.appended.map((a) => a.key)],
    undo: [...buffer.undo, step],
    redo: buffer.redo.slice(0, -1),
  };
}

/** The rows to save: the changed loaded rows and every appended row. */
export function dirtyKeys(buffer: EditBuffer): RowKey[] {
  return [...buffer.changed.keys()];
}

export const dirtyCount = (buffer: EditBuffer) => buffer.changed.size;

/** A row's values as edited: the loaded values with the buffer's changes over them. */
export function currentValues(buffer: EditBuffer, key: RowKey, loaded: Values | undefined): Values {
  const changes = buffer.changed.get(key);
  if (!changes) return loaded ?? {};
  return loaded ? { ...loaded, ...changes } : changes;
}

/** The value of one cell as edited. */
export function cellValue(buffer: EditBuffer, key: RowKey, field: string, loaded: Values | undefined): unknown {
  const changes = buffer.changed.get(key);
  return changes && Object.hasOwn(changes, field) ? changes[field] : loaded?.[field];
}

export const isCellChanged = (buffer: EditBuffer, key: RowKey, field: string) => Object.hasOwn(buffer.changed.get(key) ?? {}, field);

/**
 * The patches of one save: each changed row with the token it was loaded with and all the values of `fields` (the
 * row schema's fields: the server validates the whole row with the schema the form uses), taken from the row as it
 * was when first edited (`buffer.loaded`; `loaded` for a row the buffer did not keep). Empty values (null, "") are
 * sent as absent: the schemas read them as an empty optional field.
 */
export function toPatches(
  buffer: EditBuffer,
  loaded: (key: RowKey) => (Values & { updatedAt?: string | null }) | undefined,
  fields: readonly string[],
): RowPatch[] {
  const patches: RowPatch[] = [];
  for (const key of buffer.changed.keys()) {
    const row = isNewRow(key) ? undefined : ((buffer.loaded.get(key) as (Values & { updatedAt?: string | null }) | undefined) ?? loaded(key));
    if (!isNewRow(key) && !row) continue;
    const merged = currentValues(buffer, key, row);
    const values: Record<string, unknown> = {};
    for (const f of fields) {
      const v = merged[f];
      if (v !== undefined && v !== null && v !== "") values[f] = v;
    }
    patches.push({ id: key, updatedAt: isNewRow(key) ? null : (row?.updatedAt ?? null), values });
  }
  return patches;
}
