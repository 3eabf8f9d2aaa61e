import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { useTranslation } from "~/use-translation";
import { isOkAnswer, isStaleAnswer, staleFields, type FormTexts } from "./stale-form";

/**
 * The stale refusal of a form, resolved in place (issue 29, decision 0115), as the grid resolves its rows (decision
 * 0100): the form sends the updatedAt it was loaded with (`token`), not the one of a row read again meanwhile; a save
 * refused as stale reads the screen's rows again (React Router does not after a 409) and, the user's typed values
 * kept, `theirs` holds the other user's; "keep mine" takes their token (the next save writes the user's values),
 * "take theirs" puts their values in the form. Unchanged forms follow the row as it is read again.
 * A form whose body remounts from the row (keyed by `shown`: the crop modes' form, whose crop rows take their ids
 * from the stored row) gives no `form`: "take theirs" then moves `shown` to their row and the body starts again
 * from it, and "keep mine" moves only the token, so the typed values stay (decision 0136).
 */
export function useStaleForm<R extends { updatedAt: string }>({
  row,
  answer,
  dirty,
  values,
  form,
  markClean,
}: {
  row: R | null;
  /** The form's fetcher's answer. */
  answer: unknown;
  dirty: boolean;
  /** The row as the form's inputs hold it (the form's default value). */
  values: (row: R) => FormTexts;
  /** The conform form ("take theirs" puts their values in it); without it, the body remounts on `shown`. */
  form?: { value?: unknown; update: (options: { name: string; value: string | string[] | undefined }) => void };
  markClean: () => void;
}) {
  const revalidator = useRevalidator();
  const [basis, setBasis] = useState(row?.updatedAt);
  // The updatedAt of the row the form's values were last taken from (not moved by "keep mine").
  const [shown, setShown] = useState(row?.updatedAt);
  const [refused, setRefused] = useState<unknown>(undefined);
  // The user's own save succeeded: the next updatedAt the reload brings is his, even if he typed on meanwhile.
  const [ownSave, setOwnSave] = useState<unknown>(undefined);
  useEffect(() => {
    // Without a row (a form not wired to the panel, or a new one) there is nothing to read again.
    if (!row) return;
    if (isOkAnswer(answer)) {
      setOwnSave(answer);
      return;
    }
    if (!isStaleAnswer(answer) || refused === answer) return;
    setRefused(answer);
    void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [answer]);
  const stamp = row?.updatedAt;
  useEffect(() => {
    if (refused || stamp === undefined || stamp === basis) return;
    if (dirty && ownSave === undefined) return;
    setBasis(stamp);
    setShown(stamp);
    setOwnSave(undefined);
  }, [dirty, refused, stamp, basis, ownSave]);
  const theirs = refused && row && row.updatedAt !== basis ? values(row) : null;
  return {
    /** The updatedAt to send with the form. */
    token: basis ?? stamp,
    /** The updatedAt of the row the form's values come from: a remounting body's key. */
    shown: shown ?? stamp,
    /** The other user's values, after a stale refusal (null otherwise). */
    theirs,
    mine: (form?.value ?? {}) as FormTexts,
    keepMine: () => {
      if (!row) return;
      setBasis(row.updatedAt);
      setRefused(undefined);
    },
    takeTheirs: () => {
      if (!row) return;
      if (form)
        for (const [name, value] of Object.entries(values(row)))
          form.update({ name, value: value === undefined || value === null ? undefined : Array.isArray(value) ? value.map(String) : String(value) });
      setBasis(row.updatedAt);
      setShown(row.updatedAt);
      setRefused(undefined);
      markClean();
    },
  };
}

/** Below a form refused as stale: each field that differs with both values, and "keep mine" / "take theirs". */
export function StaleFormPanel({
  stale,
  labels,
  say,
  mine,
}: {
  stale: ReturnType<typeof useStaleForm>;
  labels: readonly { name: string; label: string }[];
  say?: (name: string, value: string) => string;
  /** The typed values, for a form whose hook was given no `form` (its body remounts). */
  mine?: FormTexts;
}) {
  const { t } = useTranslation();
  if (!stale.theirs) return null;
  const fields = staleFields(mine ?? stale.mine, stale.theirs, labels, say);
  return (
    <section className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm" aria-labelledby="stale-form-title" data-testid="stale-form">
      <h3 id="stale-form-title" className="font-semibold text-amber-950">
        {t("formulairePerime.title")}
      </h3>
      <p className="mt-1 text-stone-800">{t("formulairePerime.intro")}</p>
      {fields.length ? (
        <ul className="mt-2 list-disc pl-5">
          {fields.map((f) => (
            <li key={f.name} data-testid="stale-form-field">
              {t("conflits.field", { column: f.label, mine: f.mine || t("conflits.empty"), theirs: f.theirs || t("conflits.empty") })}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1">{t("conflits.same")}</p>
      )}
      <div className="mt-2 flex gap-2">
        <button type="button" className="btn-secondary" onClick={stale.keepMine} data-testid="stale-keep">
          {t("conflits.keep")}
        </button>
        <button type="button" className="btn-secondary" onClick={stale.takeTheirs} data-testid="stale-take">
          {t("conflits.take")}
        </button>
      </div>
    </section>
  );
}
