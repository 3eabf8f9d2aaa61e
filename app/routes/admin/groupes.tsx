import { getCollectionProps, getInputProps } from "@conform-to/react";
import { useMemo, useState } from "react";
import { useTranslation } from "~/use-translation";
import { AdminFormCard, AdminListScreen, useAdminForm, type AdminFormControls } from "~/components/admin-list";
import { type DataTableColumn } from "~/components/data-table";
import { Field, TextInput } from "~/components/field";
import { buildDisplayName } from "~/domain/access/rights";
import { GroupeSchema } from "~/domain/admin";
import { adminScreens } from "#server/admin/screen.server";
import type { Route } from "./+types/groupes";

export const loader = adminScreens.groupes.loader;
export const action = adminScreens.groupes.action;

export function meta() {
  return [{ title: "Sillon – Administration – Groupes" }];
}

type Groupe = Route.ComponentProps["loaderData"]["groupes"][number];
type Member = Route.ComponentProps["loaderData"]["users"][number];
type GroupeFormValue = { id?: string; updatedAt?: string; nomGroupe: string; membres: string[] };

const memberLabel = (u: Member) => `${buildDisplayName(u.nom, u.prenom)} (${u.username})`;

export default function AdminGroupes({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { groupes, users } = loaderData;
  const userName = useMemo(() => new Map(users.map((u) => [u.id, buildDisplayName(u.nom, u.prenom)])), [users]);

  const columns = useMemo<DataTableColumn<Groupe>[]>(
    () => [
      { id: "nomGroupe", header: t("admin.groups.nom"), cell: (g) => g.nomGroupe, sortValue: (g) => g.nomGroupe, alwaysVisible: true },
      { id: "count", header: t("admin.groups.count"), cell: (g) => g.membres.length, sortValue: (g) => g.membres.length, align: "right" },
      {
        id: "membres",
        header: t("admin.groups.membres"),
        className: "text-stone-600",
        cell: (g) =>
          g.membres
            .map((id) => userName.get(id))
            .filter(Boolean)
            .join(", "),
      },
    ],
    [t, userName],
  );

  return (
    <AdminListScreen
      screen="groupes"
      columns={columns}
      rows={groupes}
      renderForm={(groupe, controls) => <GroupeForm groupe={groupe} users={users} controls={controls} />}
    />
  );
}

function GroupeForm({ groupe, users, controls }: { groupe: Groupe | null; users: Member[]; controls: AdminFormControls }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const admin = useAdminForm<GroupeFormValue, typeof GroupeSchema>({
    name: "admin-groupe",
    row: groupe,
    schema: GroupeSchema,
    defaultValue: { nomGroupe: groupe?.nomGroupe ?? "", membres: (groupe?.membres ?? []).map(String) },
    onCreated: controls.onCreated,
  });
  const { form, fields } = admin;

  const byId = new Map(users.map((u) => [String(u.id), u]));
  const needle = filter.trim().toLowerCase();
  return (
    <AdminFormCard
      admin={admin}
      row={groupe}
      testId="admin-groupe-form"
      title={groupe ? t("admin.groups.edit", { nom: groupe.nomGroupe }) : t("admin.groups.new")}
      remove={groupe ? { title: t("admin.groups.delete"), confirm: t("admin.groups.delete-confirm", { nom: groupe.nomGroupe }) } : undefined}
      onClose={controls.onClose}
    >
      <Field id={fields.nomGroupe.id} label={t("admin.groups.nom")} errors={fields.nomGroupe.errors}>
        <TextInput
          {...getInputProps(fields.nomGroupe, { type: "text" })}
          autoComplete="off"
          invalid={!!fields.nomGroupe.errors}
          describedBy={fields.nomGroupe.errorId}
          autoFocus
        />
      </Field>
      <fieldset className="mb-3">
        <legend className="field-label">{t("admin.groups.membres")}</legend>
        <label className="sr-only" htmlFor={`${form.id}-filter`}>
          {t("admin.groups.filter")}
        </label>
        <input
          id={`${form.id}-filter`}
          type="search"
          className="field-input"
          placeholder={t("admin.groups.filter")}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <div className="mt-1 max-h-72 space-y-1 overflow-y-auto rounded border border-stone-200 p-2" data-testid="groupe-members">
          {getCollectionProps(fields.membres, { type: "checkbox", options: users.map((u) => String(u.id)) }).map(({ key, ...props }) => {
            const u = byId.get(props.value)!;
            const label = memberLabel(u);
            return (
              <label key={key} className={`flex items-center gap-2 text-sm ${needle && !label.toLowerCase().includes(needle) ? "hidden" : ""}`}>
                <input {...props} />
                <span className={u.actif ? "" : "text-stone-500"}>
                  {label}
                  {u.actif ? "" : ` – ${t("admin.users.disabled")}`}
                </span>
              </label>
            );
          })}
        </div>
        {fields.membres.errors ? <p className="field-error">{t(fields.membres.errors[0])}</p> : null}
      </fieldset>
    </AdminFormCard>
  );
}
