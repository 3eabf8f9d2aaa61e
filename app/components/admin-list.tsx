import { getFormProps, useForm, type DefaultValue, type FormMetadata } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Fragment, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, type FetcherWithComponents } from "react-router";
import type { z } from "zod";
import type { SubmissionResult } from "@conform-to/react";
import type { AdminActionData as AdminAnswer, AdminScreen } from "~/domain/contracts/admin";

type AdminActionData = AdminAnswer<SubmissionResult<string[]>>;
import { DataTable, type DataTableColumn } from "./data-table";
import { AppDialog } from "./dialog";
import { useActionFeedback } from "./feedback";
import { useControlledForm } from "./form-controller";
import { PlusIcon } from "./icons";
import { submitForm, useOnSaved } from "./form-kit";

/**
 * The administration screens' pattern (users, groups, networks, news posts), built once: the table
 * beside a form card that opens on a row or on New, a hint while nothing is open, and in the card a
 * footer with delete (after a confirmation), close and save. Unlike the description screens'
 * ListScreen, rows are not ticked and the selection is not kept in the address.
 */

type AdminRow = { id: number; updatedAt: string };

/** What an admin form gets from its screen: where to go once a new row is saved, and how to close. */
export type AdminFormControls = { onCreated: (id: number) => void; onClose: () => void };

const NARROW = "grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_26rem]";
// A news post's text wants a wider form.
const WIDE = "grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_30rem]";

/** Each admin screen's table and texts (its route is app/routes/admin/<screen>.tsx). */
const SCREENS = {
  utilisateurs: { tableId: "admin-users", title: "admin.tabs.users", newLabel: "admin.users.new", hint: "admin.users.hint", layout: NARROW },
  groupes: { tableId: "admin-groups", title: "admin.tabs.groups", newLabel: "admin.groups.new", hint: "admin.groups.hint", layout: NARROW },
  reseaux: { tableId: "admin-networks", title: "admin.tabs.networks", newLabel: "admin.networks.new", hint: "admin.networks.hint", layout: NARROW },
  actualites: { tableId: "admin-posts", title: "admin.tabs.posts", newLabel: "admin.posts.new", hint: "admin.posts.hint", layout: WIDE },
} satisfies Record<AdminScreen, { tableId: string; title: string; newLabel: string; hint: string; layout: string }>;

export function AdminListScreen<T extends AdminRow>({
  screen,
  columns,
  rows,
  renderForm,
}: {
  screen: AdminScreen;
  columns: DataTableColumn<T>[];
  rows: T[];
  renderForm: (row: T | null, controls: AdminFormControls) => ReactNode;
}) {
  const { t } = useTranslation();
  const { tableId, title, newLabel, hint, layout } = SCREENS[screen];
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const selected = rows.find((r) => r.id === selectedId) ?? null;
  const select = (id: number | null) => {
    setCreating(false);
    setSelectedId(id);
  };

  return (
    <div className={layout} data-testid={`screen-admin-${screen}`}>
      <section aria-labelledby={`${tableId}-title`}>
        <h2 id={`${tableId}-title`} className="sr-only">
          {t(title)}
        </h2>
        <DataTable
          tableId={tableId}
          label={t(title)}
          columns={columns}
          rows={rows}
          getRowId={(r) => r.id}
          selectedId={selectedId}
          onSelect={(r) => select(r?.id ?? null)}
          toolbar={
            <button
              type="button"
              className="btn-primary"
              onClick={() => {
                setSelectedId(null);
                setCreating(true);
              }}
              data-testid="admin-new"
            >
              <PlusIcon width={16} height={16} />
              {t(newLabel)}
            </button>
          }
        />
      </section>
      {creating || selected ? (
        // A save changes updatedAt: the form then opens afresh on the saved values.
        <Fragment key={selected ? `${selected.id}-${selected.updatedAt}` : "new"}>
          {renderForm(selected, { onCreated: select, onClose: () => select(null) })}
        </Fragment>
      ) : (
        <p className="card text-sm text-stone-600" data-testid="admin-hint">
          {t(hint)}
        </p>
      )}
    </div>
  );
}

/**
 * An admin form: conform with the shared schema (checked on blur, then as one types), its fetcher, its
 * unsaved-changes mark for the page's form controller, and the selection of a row once created.
 * `name` prefixes the form's id (admin-user → admin-user-12-<updatedAt>, admin-user-new).
 */
export function useAdminForm<V extends Record<string, unknown>, S extends z.ZodType>({
  name,
  row,
  schema,
  defaultValue,
  onCreated,
}: {
  name: string;
  row: AdminRow | null;
  schema: S;
  defaultValue: DefaultValue<V>;
  onCreated: (id: number) => void;
}) {
  const fetcher = useFetcher<AdminActionData>();
  const [dirty, setDirty] = useState(false);
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm<V, z.output<S>>({
    id: row ? `${name}-${row.id}-${row.updatedAt}` : `${name}-new`,
    lastResult: fetcher.state === "idle" ? fetcher.data?.submission : undefined,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  // The row's id is not in the default values: without it, a schema would take an edit for a creation.
  const valid = schema.safeParse({ ...form.value, id: row?.id }).success;
  useOnSaved(fetcher, (id) => {
    setDirty(false);
    if (!row && id) onCreated(id);
  });
  useControlledForm(name, { dirty, valid, save: () => submitForm(form.id), discard: () => setDirty(false) });
  return { fetcher, form, fields, valid, setDirty };
}

type AdminForm<V extends Record<string, unknown>> = {
  fetcher: FetcherWithComponents<AdminActionData>;
  form: FormMetadata<V>;
  valid: boolean;
  setDirty: (dirty: boolean) => void;
};

/** Deleting the open row: the button's confirmation, and the button greyed (with why) where it cannot be. */
export type AdminRemoval = { title: string; confirm: string; disabled?: boolean; describedBy?: string };

/**
 * The card of an admin form: its heading, the posted form (intent "save", the row's id and updatedAt),
 * and the footer: the row's actions on the left (delete, or `actions`), close and save on the right.
 */
export function AdminFormCard<V extends Record<string, unknown>>({
  admin,
  row,
  testId,
  title,
  notice,
  remove,
  actions,
  dialogs,
  onClose,
  children,
}: {
  admin: AdminForm<V>;
  row: AdminRow | null;
  testId: string;
  title: string;
  /** Shown under the heading (e.g. a disabled account). */
  notice?: ReactNode;
  remove?: AdminRemoval;
  actions?: ReactNode;
  dialogs?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { fetcher, form, valid, setDirty } = admin;
  const deleter = useFetcher<AdminActionData>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  useActionFeedback(deleter.data);
  useOnSaved(deleter, onClose);

  return (
    <section className="card" aria-labelledby={`${form.id}-heading`} data-testid={testId}>
      <h2 id={`${form.id}-heading`} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {notice}
      {/* Only named fields are data: a filter box above a list of members marks nothing unsaved. */}
      <fetcher.Form
        method="post"
        {...getFormProps(form)}
        onInput={(e) => {
          if ((e.target as HTMLElement).getAttribute("name")) setDirty(true);
        }}
      >
        <input type="hidden" name="intent" value="save" />
        {row ? <input type="hidden" name="id" value={row.id} /> : null}
        {row ? <input type="hidden" name="updatedAt" value={row.updatedAt} /> : null}
        {children}
        <div className="flex flex-wrap items-center justify-end gap-2 border-t border-stone-200 pt-3">
          {row && remove ? (
            <button
              type="button"
              className="btn-danger"
              onClick={() => setConfirmDelete(true)}
              disabled={remove.disabled}
              aria-describedby={remove.describedBy}
              data-testid="admin-delete"
            >
              {t("ui.delete")}
            </button>
          ) : null}
          {row ? actions : null}
          <span className="flex-1" />
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.close")}
          </button>
          <button type="submit" className="btn-primary" disabled={!valid || fetcher.state !== "idle"} data-testid="admin-save">
            {t("ui.save")}
          </button>
        </div>
      </fetcher.Form>
      {row && remove ? (
        <AppDialog
          open={confirmDelete}
          title={remove.title}
          width={500}
          onEscape={() => setConfirmDelete(false)}
          testId="admin-delete-dialog"
          actions={
            <>
              <button type="button" className="btn-secondary" onClick={() => setConfirmDelete(false)} autoFocus>
                {t("ui.cancel")}
              </button>
              <button
                type="button"
                className="btn-danger"
                onClick={() => {
                  setConfirmDelete(false);
                  void deleter.submit({ intent: "delete", id: String(row.id) }, { method: "post" });
                }}
              >
                {t("ui.delete")}
              </button>
            </>
          }
        >
          <p>{remove.confirm}</p>
        </AppDialog>
      ) : null}
      {row ? dialogs : null}
    </section>
  );
}
