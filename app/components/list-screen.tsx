import { useForm, type DefaultValue } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { z } from "zod";
import { DataTable, sameId, useTableReadOnly, type DataTableColumn, type RowId } from "./data-table";
import { AppDialog } from "./dialog";
import { useActionFeedback } from "./feedback";
import { submitForm, useOnSaved } from "./form-kit";
import { useControlledForm } from "./form-controller";
import { PlusIcon } from "./icons";
import { isStaleAnswer, type FormTexts } from "./stale-form";
import { useStaleForm } from "./stale-form-panel";
import { ReadOnlyNote } from "./read-only-note";

export { ReadOnlyNote, useOnSaved };

/** What a list screen's form gets from the screen: where to report its state, and how to close. */
export type ListFormControls = {
  /** The form reports whether it holds unsaved changes (switching rows then asks first). */
  setDirty: (dirty: boolean) => void;
  /** The form gives the screen its save function (used by "save" in the switch confirmation). */
  registerSave: (save: () => void) => void;
  /** After a create, the screen selects the new row (it comes first in the list). */
  onSaved: (id: RowId) => void;
  close: () => void;
  readOnly: boolean;
  /**
   * A fetcher key unique to this opening of the form: give it to useFetcher({ key }). Without it, React
   * gives a remounted form the same fetcher as the previous one, with that one's last answer.
   */
  fetcherKey: string;
};

/**
 * A list form's "unsaved" state, kept in step with the screen (whose row-switch confirmation reads it):
 * edits mark it, a save's answer or a discard clear it, and a created row is selected once the list is
 * reloaded.
 */
export function useListFormDirty(controls: ListFormControls, fetcher: { state: string; data?: unknown }, isNew: boolean) {
  const [dirty, setDirtyState] = useState(false);
  const setDirty = (d: boolean) => {
    setDirtyState(d);
    controls.setDirty(d);
  };
  useOnSaved(
    fetcher,
    (id) => {
      if (isNew && id) controls.onSaved(id);
    },
    () => setDirty(false),
  );
  return { dirty, markDirty: () => setDirty(true), markClean: () => setDirty(false) };
}

/** What a list form's action answers: ok with the saved row's id, or conform's submission with its field errors. */
export type ListFormAnswer = { ok: boolean; id?: number; submission?: unknown; notice?: string; error?: string };

/**
 * The fetcher of a list screen's form (keyed to this opening of the form, its notices and errors shown) and the
 * form's unsaved state. `useListForm` is the whole wiring; this half serves a form whose body remounts.
 */
export function useListFormFetcher<Answer extends ListFormAnswer = ListFormAnswer>(
  controls: ListFormControls,
  isNew: boolean,
  options: { resolvesStale?: boolean } = {},
) {
  const fetcher = useFetcher<Answer>({ key: controls.fetcherKey });
  // A form that resolves its stale refusals in place (stale-form-panel.tsx) says them itself, without the dialog's "reload".
  useActionFeedback(fetcher.data, { suppressErrorDialog: !!options.resolvesStale && isStaleAnswer(fetcher.data) });
  return { fetcher, ...useListFormDirty(controls, fetcher, isNew) };
}

/**
 * Gives the screen the form's save (the row-switch confirmation) and registers the form with the page's controller
 * (Ctrl+S, the leave confirmation) under `name`. Answers the save.
 */
export function useListFormSave(controls: ListFormControls, name: string, form: { id: string; valid: boolean }, dirty: boolean, discard: () => void) {
  const save = () => submitForm(form.id);
  useEffect(() => controls.registerSave(save));
  useControlledForm(name, { dirty, valid: form.valid, save, discard });
  return save;
}

const noTexts = (): FormTexts => ({});
type StaleRow = { updatedAt: string };

/**
 * The wiring of a list screen's form, written once: its fetcher, the conform form `<name>-<row id or "new">`
 * checked by the domain schema (on blur, then as typed), its unsaved state and its save. Given `stale` (the row
 * and its values as the form's inputs hold them), a save refused as stale keeps the typed values and `stale`
 * (useStaleForm) holds the other user's, for StaleFormPanel; the form sends `stale.token` as its updatedAt
 * (decision 0115).
 */
export function useListForm<Shape extends Record<string, unknown>, Value = Shape, Answer extends ListFormAnswer = ListFormAnswer>(
  controls: ListFormControls,
  {
    name,
    rowId,
    schema,
    defaultValue,
    resolvesStale,
    stale: staleRow,
  }: {
    name: string;
    rowId: number | undefined;
    schema: z.ZodType;
    defaultValue?: DefaultValue<Shape>;
    /** The form resolves a stale refusal in place (useStaleForm), so no error dialog for it. */
    resolvesStale?: boolean;
    /** The row the form edits and its values as the inputs hold them (the default value): the stale panel's wiring. */
    stale?: { row: StaleRow | null; values: (row: never) => FormTexts };
  },
) {
  const { fetcher, dirty, markDirty, markClean } = useListFormFetcher<Answer>(controls, rowId === undefined, { resolvesStale });
  const [form, fields] = useForm<Shape, Value>({
    id: `${name}-${rowId ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as never,
  });
  const save = useListFormSave(controls, name, form, dirty, markClean);
  const stale = useStaleForm<StaleRow>({
    row: staleRow?.row ?? null,
    answer: fetcher.data,
    dirty,
    values: (staleRow?.values as ((row: StaleRow) => FormTexts) | undefined) ?? noTexts,
    form: form as never,
    markClean,
  });
  return { fetcher, form, fields, dirty, markDirty, markClean, save, stale };
}

/**
 * The save button of a list screen's form (spec 2 §4): a form is saved only when it is valid, changed and
 * not read-only; read-only users get no button at all. Disabled, it also blocks Enter's implicit submit.
 */
export function ListSaveButton({ isNew, valid, dirty, busy, readOnly }: { isNew: boolean; valid: boolean; dirty: boolean; busy: boolean; readOnly: boolean }) {
  const { t } = useTranslation();
  if (readOnly) return null;
  return (
    <button type="submit" className="btn-primary" disabled={!valid || !dirty || busy} data-testid="list-save">
      {isNew ? t("ui.add") : t("ui.save")}
    </button>
  );
}

/**
 * Selecting a row changes only ?id=: the screen's data need not be loaded again. Export it from list routes.
 * The same address is a revalidation asked for (useRevalidator: a form refused as stale reads its row again), kept.
 */
export function listScreenShouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname || currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  const strip = (u: URL) => {
    const p = new URLSearchParams(u.search);
    p.delete("id");
    return p.toString();
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
}

/**
 * The list-screen pattern of spec 2 §2, built once: a table and a form hidden until a row is selected
 * or New is clicked; the selection lives in the address (?id=…, ?id=new) so a reload reselects the row;
 * switching rows with unsaved changes asks first; New and delete are greyed for read-only users;
 * delete works on ticked rows after a confirmation.
 */
export function ListScreen<T>({
  tableId,
  title,
  rows,
  columns,
  getRowId,
  readOnly: explicitReadOnly,
  renderForm,
  deleteIntent = "delete",
  extraToolbar,
  label,
  deleteNote,
  header,
  renderTable,
}: {
  tableId: string;
  title: ReactNode;
  rows: readonly T[];
  columns: DataTableColumn<T>[];
  getRowId: (row: T) => RowId;
  readOnly?: boolean;
  renderForm: (row: T | null, controls: ListFormControls) => ReactNode;
  deleteIntent?: string;
  /** More toolbar buttons; a function gets the ticked row ids (e.g. a duplication of the ticked rows). */
  extraToolbar?: ReactNode | ((checked: RowId[]) => ReactNode);
  label?: string;
  /** What the deletion confirmation adds below its question (e.g. what happens to related rows). */
  deleteNote?: ReactNode;
  /** Shown between the title and the table (filters of the screen). */
  header?: ReactNode;
  /**
   * Another table in place of the DataTable (an editable grid): it reports the row the user is on, whose form opens
   * below. Delete then acts on that row.
   */
  renderTable?: (api: { selectedId: string | null; onSelect: (id: RowId | null) => void }) => ReactNode;
}) {
  const { t } = useTranslation();
  const readOnly = useTableReadOnly(explicitReadOnly);
  const [params, setParams] = useSearchParams();
  // The selection shows at once; the address follows (so that a reload reselects the row).
  const [selected, setSelected] = useState<string | null>(() => params.get("id"));
  const [checked, setChecked] = useState<RowId[]>([]);
  const [pending, setPending] = useState<{ id: string | null } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const dirty = useRef(false);
  const openings = useRef(0);
  const [fetcherKey, setFetcherKey] = useState(`${tableId}-0`);
  const save = useRef<(() => void) | null>(null);
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(deleter.data);

  const select = useCallback(
    (id: string | null) => {
      setSelected(id);
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (id === null) next.delete("id");
          else next.set("id", id);
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
      dirty.current = false;
      setFetcherKey(`${tableId}-${++openings.current}`);
    },
    [setParams, tableId],
  );

  const request = (id: string | null) => {
    if (id === selected) return;
    if (dirty.current) setPending({ id });
    else select(id);
  };

  const row = selected && selected !== "new" ? (rows.find((r) => sameId(getRowId(r), selected)) ?? null) : null;
  // A selected id that no longer exists (deleted elsewhere) closes the form.
  useEffect(() => {
    if (selected && selected !== "new" && !row) select(null);
  }, [selected, row, select]);
  useEffect(() => {
    if (deleter.state === "idle" && deleter.data?.ok) setChecked([]);
  }, [deleter.state, deleter.data]);

  const controls: ListFormControls = {
    setDirty: (d) => {
      dirty.current = d;
    },
    registerSave: (fn) => {
      save.current = fn;
    },
    onSaved: (id) => select(String(id)),
    close: () => request(null),
    readOnly,
    fetcherKey,
  };

  const formOpen = selected === "new" ? !readOnly : row !== null;

  return (
    <div className="space-y-4" data-testid={`list-screen-${tableId}`}>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold text-sillon-800">{title}</h1>
        {readOnly ? <ReadOnlyNote /> : null}
      </div>
      {header}
      {renderTable ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className="btn-primary" disabled={readOnly} onClick={() => request("new")} data-testid="list-new">
              <PlusIcon width={16} height={16} /> {t("ui.new")}
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={readOnly || !row}
              onClick={() => {
                if (row) {
                  setChecked([getRowId(row)]);
                  setConfirmDelete(true);
                }
              }}
              data-testid="list-delete"
            >
              {t("ui.delete")}
            </button>
            {typeof extraToolbar === "function" ? extraToolbar(row ? [getRowId(row)] : []) : extraToolbar}
          </div>
          {renderTable({
            selectedId: selected,
            onSelect: (id) => {
              if (id !== null) request(String(id));
            },
          })}
        </>
      ) : (
        <DataTable
          tableId={tableId}
          label={label}
          columns={columns}
          rows={rows}
          getRowId={getRowId}
          selectedId={row ? getRowId(row) : null}
          onSelect={(r) => request(r ? String(getRowId(r)) : null)}
          checkable
          checkedIds={checked}
          onCheckedChange={setChecked}
          readOnly={readOnly}
          toolbar={
            <div className="flex flex-wrap items-center gap-2">
              <button type="button" className="btn-primary" disabled={readOnly} onClick={() => request("new")} data-testid="list-new">
                <PlusIcon width={16} height={16} /> {t("ui.new")}
              </button>
              <button
                type="button"
                className="btn-secondary"
                disabled={readOnly || checked.length === 0}
                onClick={() => setConfirmDelete(true)}
                data-testid="list-delete"
              >
                {t("ui.delete")}
              </button>
              {typeof extraToolbar === "function" ? extraToolbar(checked) : extraToolbar}
            </div>
          }
        />
      )}
      {formOpen ? (
        <section className="card" data-testid="list-form" key={selected ?? ""}>
          {renderForm(row, controls)}
        </section>
      ) : null}

      <AppDialog
        open={pending !== null}
        title={t("leave.title")}
        width={500}
        testId="switch-dialog"
        onEscape={() => setPending(null)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setPending(null)}>
              {t("leave.cancel")}
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => {
                const to = pending!.id;
                setPending(null);
                select(to);
              }}
            >
              {t("leave.discard")}
            </button>
            <button
              type="button"
              className="btn-primary"
              onClick={() => {
                save.current?.();
                const to = pending!.id;
                setPending(null);
                select(to);
              }}
            >
              {t("leave.save")}
            </button>
          </>
        }
      >
        <p>{t("leave.text")}</p>
      </AppDialog>
      <AppDialog
        open={confirmDelete}
        title={t("ui.delete")}
        width={500}
        testId="delete-dialog"
        onEscape={() => setConfirmDelete(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setConfirmDelete(false)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                setConfirmDelete(false);
                void deleter.submit({ intent: deleteIntent, ids: JSON.stringify(checked) }, { method: "post" });
              }}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("list.delete-confirm", { count: checked.length })}</p>
        {deleteNote}
      </AppDialog>
    </div>
  );
}
