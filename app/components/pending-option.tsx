/**
 * The option that keeps a dependent select's chosen value while its options load (or when the value is
 * no longer offered): without it the browser falls back to the first option, and the next read of the
 * form (a save, conform's value sync) takes an empty value (issue 10, defect 9).
 */
export function PendingOption({ value, offered, label }: { value: string; offered: readonly { id: number | string }[] | null; label: string }) {
  if (!value || offered?.some((o) => String(o.id) === value)) return null;
  return <option value={value}>{label}</option>;
}
