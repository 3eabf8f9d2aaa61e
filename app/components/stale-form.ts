/**
 * A form saved from a row someone else changed meanwhile (issue 29, decision 0115): the save is refused as stale
 * (errors.stale, 409), the user's typed values stay in the form, and the other user's values are shown beside
 * them, field by field, to keep or take, as the grid does for its rows (decision 0100). Pure: the comparison.
 */

/** A form's values as its inputs hold them (texts; a box unticked or a field left empty: undefined). */
export type FormTexts = Readonly<Record<string, unknown>>;

export type StaleField = { name: string; label: string; mine: string; theirs: string };

const text = (v: unknown): string => (v === undefined || v === null ? "" : Array.isArray(v) ? v.map(text).join(", ") : String(v).trim());

/**
 * The fields whose typed value differs from the stored one, in the order of `labels` (the fields the form shows;
 * another field is not compared). `say` gives a value's text as the form shows it (a ticked box "oui").
 */
export function staleFields(
  mine: FormTexts,
  theirs: FormTexts,
  labels: readonly { name: string; label: string }[],
  say: (name: string, value: string) => string = (_name, value) => value,
): StaleField[] {
  return labels
    .filter(({ name }) => text(mine[name]) !== text(theirs[name]))
    .map(({ name, label }) => ({ name, label, mine: say(name, text(mine[name])), theirs: say(name, text(theirs[name])) }));
}

/** Whether a form's answer is a stale refusal. */
export const isStaleAnswer = (answer: unknown): boolean =>
  typeof answer === "object" && answer !== null && (answer as { ok?: unknown }).ok === false && (answer as { error?: unknown }).error === "errors.stale";

/** Whether a form's answer is a save that went through (its row now carries a new updatedAt). */
export const isOkAnswer = (answer: unknown): boolean => typeof answer === "object" && answer !== null && (answer as { ok?: unknown }).ok === true;
