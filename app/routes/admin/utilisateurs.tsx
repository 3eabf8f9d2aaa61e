import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import type { z } from "zod";
import { AdminFormCard, AdminListScreen, useAdminForm, type AdminFormControls } from "~/components/admin-list";
import { type DataTableColumn } from "~/components/data-table";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatDate } from "~/components/format";
import { AdminUserSchema, ResetPasswordSchema } from "~/domain/admin";
import type { AdminActionData } from "#server/admin/screen.server";
import { adminScreens } from "#server/admin/screen.server";
import type { Route } from "./+types/utilisateurs";

export const loader = adminScreens.utilisateurs.loader;
export const action = adminScreens.utilisateurs.action;

export function meta() {
  return [{ title: "Sillon – Administration – Utilisateurs" }];
}

/** The user form as the browser holds it (strings; the schema turns them into values). */
type UserFormValue = {
  id?: string;
  updatedAt?: string;
  username: string;
  nom: string;
  prenom: string;
  email?: string;
  admin?: string;
  roleTest?: string;
  groupes: string[];
  password?: string;
  confirmation?: string;
};

type User = Route.ComponentProps["loaderData"]["users"][number];
type Groupe = Route.ComponentProps["loaderData"]["groupes"][number];

export default function AdminUtilisateurs({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { users, groupes, me } = loaderData;
  const groupName = useMemo(() => new Map(groupes.map((g) => [g.id, g.nomGroupe])), [groupes]);

  const columns = useMemo<DataTableColumn<User>[]>(
    () => [
      { id: "username", header: t("admin.users.username"), cell: (u) => u.username, sortValue: (u) => u.username, alwaysVisible: true },
      { id: "nom", header: t("admin.users.nom"), cell: (u) => u.nom, sortValue: (u) => u.nom },
      { id: "prenom", header: t("admin.users.prenom"), cell: (u) => u.prenom, sortValue: (u) => u.prenom },
      { id: "email", header: t("admin.users.email"), cell: (u) => u.email ?? "", sortValue: (u) => u.email ?? "", optional: true },
      {
        id: "groupes",
        header: t("admin.users.groupes"),
        cell: (u) =>
          u.groupes
            .map((g) => groupName.get(g))
            .filter(Boolean)
            .join(", "),
      },
      { id: "admin", header: t("admin.users.admin"), cell: (u) => (u.admin ? t("ui.yes") : ""), sortValue: (u) => (u.admin ? 1 : 0), align: "center" },
      {
        id: "roleTest",
        header: t("admin.users.role-test"),
        cell: (u) => (u.roleTest ? t("ui.yes") : ""),
        sortValue: (u) => (u.roleTest ? 1 : 0),
        align: "center",
        optional: true,
      },
      {
        id: "actif",
        header: t("admin.users.status"),
        sortValue: (u) => (u.actif ? 1 : 0),
        cell: (u) =>
          u.actif ? t("admin.users.active") : <span className="rounded bg-stone-200 px-1.5 py-0.5 text-xs text-stone-700">{t("admin.users.disabled")}</span>,
      },
      {
        id: "acceptcgu",
        header: t("admin.users.acceptcgu"),
        cell: (u) => (u.acceptcgu ? t("ui.yes") : t("ui.no")),
        sortValue: (u) => (u.acceptcgu ? 1 : 0),
        optional: true,
        align: "center",
      },
      {
        id: "lastLoginAt",
        header: t("admin.users.last-login"),
        cell: (u) => (u.lastLoginAt ? formatDate(u.lastLoginAt) : ""),
        sortValue: (u) => u.lastLoginAt ?? "",
        optional: true,
      },
    ],
    [t, groupName],
  );

  return (
    <AdminListScreen
      screen="utilisateurs"
      columns={columns}
      rows={users}
      renderForm={(user, controls) => <UserForm user={user} groupes={groupes} isMe={user?.id === me} controls={controls} />}
    />
  );
}

function UserForm({ user, groupes, isMe, controls }: { user: User | null; groupes: Groupe[]; isMe: boolean; controls: AdminFormControls }) {
  const { t } = useTranslation();
  // Keyed: disabling changes the row's updatedAt, which remounts this form; the answer (its notice) must survive that.
  const toggler = useFetcher<AdminActionData>({ key: `admin-user-toggle-${user?.id ?? "new"}` });
  const [confirmDisable, setConfirmDisable] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  useActionFeedback(toggler.data);
  const admin = useAdminForm<UserFormValue, typeof AdminUserSchema>({
    name: "admin-user",
    row: user,
    schema: AdminUserSchema,
    defaultValue: {
      username: user?.username ?? "",
      nom: user?.nom ?? "",
      prenom: user?.prenom ?? "",
      email: user?.email ?? "",
      admin: user?.admin ? "on" : undefined,
      roleTest: user?.roleTest ? "on" : undefined,
      groupes: (user?.groupes ?? []).map(String),
    },
    onCreated: controls.onCreated,
  });
  const { fields } = admin;

  return (
    <AdminFormCard
      admin={admin}
      row={user}
      testId="admin-user-form"
      title={user ? t("admin.users.edit", { username: user.username }) : t("admin.users.new")}
      notice={
        user && !user.actif ? (
          <p className="mb-3 rounded bg-stone-100 px-2 py-1 text-sm text-stone-700" data-testid="user-disabled-notice">
            {t("admin.users.disabled-notice")}
          </p>
        ) : null
      }
      actions={
        user ? (
          <>
            {user.actif ? (
              <button
                type="button"
                className="btn-danger"
                onClick={() => setConfirmDisable(true)}
                disabled={isMe}
                title={isMe ? t("admin.cannot-disable-self") : undefined}
                data-testid="user-disable"
              >
                {t("admin.users.disable")}
              </button>
            ) : (
              <button
                type="button"
                className="btn-secondary"
                onClick={() => toggler.submit({ intent: "enable", id: String(user.id) }, { method: "post" })}
                disabled={toggler.state !== "idle"}
                data-testid="user-enable"
              >
                {t("admin.users.enable")}
              </button>
            )}
            {!isMe ? (
              <button type="button" className="btn-secondary" onClick={() => setPasswordOpen(true)} data-testid="user-reset-password">
                {t("admin.users.reset-password")}
              </button>
            ) : null}
          </>
        ) : null
      }
      dialogs={
        user ? (
          <>
            <AppDialog
              open={confirmDisable}
              title={t("admin.users.disable")}
              width={500}
              onEscape={() => setConfirmDisable(false)}
              testId="disable-user-dialog"
              actions={
                <>
                  <button type="button" className="btn-secondary" onClick={() => setConfirmDisable(false)} autoFocus>
                    {t("ui.cancel")}
                  </button>
                  <button
                    type="button"
                    className="btn-danger"
                    onClick={() => {
                      setConfirmDisable(false);
                      void toggler.submit({ intent: "disable", id: String(user.id) }, { method: "post" });
                    }}
                  >
                    {t("admin.users.disable")}
                  </button>
                </>
              }
            >
              <p>{t("admin.users.disable-confirm", { username: user.username })}</p>
            </AppDialog>
            {passwordOpen ? <PasswordDialog user={user} onClose={() => setPasswordOpen(false)} /> : null}
          </>
        ) : null
      }
      onClose={controls.onClose}
    >
      <Field id={fields.username.id} label={t("admin.users.username")} errors={fields.username.errors}>
        <TextInput
          {...getInputProps(fields.username, { type: "text" })}
          autoComplete="off"
          invalid={!!fields.username.errors}
          describedBy={fields.username.errorId}
          autoFocus
        />
      </Field>
      <div className="grid gap-x-3 sm:grid-cols-2">
        <Field id={fields.nom.id} label={t("admin.users.nom")} errors={fields.nom.errors}>
          <TextInput {...getInputProps(fields.nom, { type: "text" })} autoComplete="off" invalid={!!fields.nom.errors} describedBy={fields.nom.errorId} />
        </Field>
        <Field id={fields.prenom.id} label={t("admin.users.prenom")} errors={fields.prenom.errors}>
          <TextInput
            {...getInputProps(fields.prenom, { type: "text" })}
            autoComplete="off"
            invalid={!!fields.prenom.errors}
            describedBy={fields.prenom.errorId}
          />
        </Field>
      </div>
      <Field id={fields.email.id} label={t("admin.users.email")} errors={fields.email.errors}>
        <TextInput {...getInputProps(fields.email, { type: "email" })} autoComplete="off" invalid={!!fields.email.errors} describedBy={fields.email.errorId} />
      </Field>
      {!user ? (
        <div className="grid gap-x-3 sm:grid-cols-2">
          <Field id={fields.password.id} label={t("admin.users.password")} errors={fields.password.errors} help={t("admin.users.password-help")}>
            <TextInput
              {...getInputProps(fields.password, { type: "password" })}
              autoComplete="new-password"
              invalid={!!fields.password.errors}
              describedBy={fields.password.errorId}
            />
          </Field>
          <Field id={fields.confirmation.id} label={t("admin.users.confirmation")} errors={fields.confirmation.errors}>
            <TextInput
              {...getInputProps(fields.confirmation, { type: "password" })}
              autoComplete="new-password"
              invalid={!!fields.confirmation.errors}
              describedBy={fields.confirmation.errorId}
            />
          </Field>
        </div>
      ) : null}
      <div className="mb-3 space-y-1">
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.admin, { type: "checkbox" })} />
          {t("admin.users.admin-flag")}
        </label>
        {fields.admin.errors ? (
          <p className="field-error" id={fields.admin.errorId}>
            {t(fields.admin.errors[0])}
          </p>
        ) : null}
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.roleTest, { type: "checkbox" })} />
          {t("admin.users.role-test-flag")}
        </label>
      </div>
      <fieldset className="mb-3">
        <legend className="field-label">{t("admin.users.groupes")}</legend>
        {groupes.length === 0 ? (
          <p className="text-sm text-stone-500">{t("admin.groups.none")}</p>
        ) : (
          <div className="mt-1 max-h-40 space-y-1 overflow-y-auto rounded border border-stone-200 p-2">
            {getCollectionProps(fields.groupes, { type: "checkbox", options: groupes.map((g) => String(g.id)) }).map(({ key, ...props }) => (
              <label key={key} className="flex items-center gap-2 text-sm">
                <input {...props} />
                {groupes.find((g) => String(g.id) === props.value)?.nomGroupe}
              </label>
            ))}
          </div>
        )}
        {fields.groupes.errors ? <p className="field-error">{t(fields.groupes.errors[0])}</p> : null}
      </fieldset>
    </AdminFormCard>
  );
}

function PasswordDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<AdminActionData>();
  useActionFeedback(fetcher.data);
  const [form, fields] = useForm<z.input<typeof ResetPasswordSchema>>({
    id: `admin-password-${user.id}`,
    lastResult: fetcher.state === "idle" ? fetcher.data?.submission : undefined,
    constraint: getZodConstraint(ResetPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
  });
  const valid = ResetPasswordSchema.safeParse({ ...form.value, id: user.id }).success;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <AppDialog open title={t("admin.users.reset-password-title", { username: user.username })} width={500} onEscape={onClose} testId="reset-password-dialog">
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="id" value={user.id} />
        <p className="mb-3 text-stone-700">{t("admin.users.reset-password-text")}</p>
        <Field id={fields.password.id} label={t("admin.users.new-password")} errors={fields.password.errors} help={t("admin.users.password-help")}>
          <TextInput
            {...getInputProps(fields.password, { type: "password" })}
            autoComplete="new-password"
            invalid={!!fields.password.errors}
            describedBy={fields.password.errorId}
            autoFocus
          />
        </Field>
        <Field id={fields.confirmation.id} label={t("admin.users.confirmation")} errors={fields.confirmation.errors}>
          <TextInput
            {...getInputProps(fields.confirmation, { type: "password" })}
            autoComplete="new-password"
            invalid={!!fields.confirmation.errors}
            describedBy={fields.confirmation.errorId}
          />
        </Field>
        <div className="flex justify-end gap-2 border-t border-stone-200 pt-3">
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button type="submit" className="btn-primary" disabled={!valid || fetcher.state !== "idle"} data-testid="reset-password-save">
            {t("admin.users.reset-password")}
          </button>
        </div>
      </fetcher.Form>
    </AppDialog>
  );
}
