import { getInputProps } from "@conform-to/react";
import { useMemo } from "react";
import { useTranslation } from "~/use-translation";
import { AdminFormCard, AdminListScreen, useAdminForm, type AdminFormControls } from "~/components/admin-list";
import { type DataTableColumn } from "~/components/data-table";
import { Field, TextInput } from "~/components/field";
import { OadSchema } from "~/domain/admin";
import { adminScreens } from "#server/admin/screen.server";
import type { Route } from "./+types/reseaux";

export const loader = adminScreens.reseaux.loader;
export const action = adminScreens.reseaux.action;

export function meta() {
  return [{ title: "Sillon – Administration – Réseaux" }];
}

type Oad = Route.ComponentProps["loaderData"]["oads"][number];
type OadFormValue = { id?: string; updatedAt?: string; libelle: string; libelleLong?: string; international?: string; emailAcces?: string };

export default function AdminReseaux({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<Oad>[]>(
    () => [
      { id: "libelle", header: t("admin.networks.libelle"), cell: (o) => o.libelle, sortValue: (o) => o.libelle, alwaysVisible: true },
      { id: "libelleLong", header: t("admin.networks.libelle-long"), cell: (o) => o.libelleLong ?? "", sortValue: (o) => o.libelleLong ?? "" },
      {
        id: "international",
        header: t("admin.networks.international"),
        cell: (o) => (o.international ? t("ui.yes") : ""),
        sortValue: (o) => (o.international ? 1 : 0),
        align: "center",
      },
      { id: "emailAcces", header: t("admin.networks.email-acces"), cell: (o) => o.emailAcces ?? "", sortValue: (o) => o.emailAcces ?? "", optional: true },
      { id: "dossiers", header: t("admin.networks.dossiers"), cell: (o) => o.dossiers, sortValue: (o) => o.dossiers, align: "right" },
    ],
    [t],
  );

  return (
    <AdminListScreen screen="reseaux" columns={columns} rows={loaderData.oads} renderForm={(oad, controls) => <OadForm oad={oad} controls={controls} />} />
  );
}

function OadForm({ oad, controls }: { oad: Oad | null; controls: AdminFormControls }) {
  const { t } = useTranslation();
  const admin = useAdminForm<OadFormValue, typeof OadSchema>({
    name: "admin-oad",
    row: oad,
    schema: OadSchema,
    defaultValue: {
      libelle: oad?.libelle ?? "",
      libelleLong: oad?.libelleLong ?? "",
      international: oad?.international ? "on" : undefined,
      emailAcces: oad?.emailAcces ?? "",
    },
    onCreated: controls.onCreated,
  });
  const { fields } = admin;
  const hasFolders = !!oad && oad.dossiers > 0;

  return (
    <AdminFormCard
      admin={admin}
      row={oad}
      testId="admin-oad-form"
      title={oad ? t("admin.networks.edit", { libelle: oad.libelle }) : t("admin.networks.new")}
      // A network that still holds folders cannot be deleted: the button is greyed and says why.
      remove={
        oad
          ? {
              title: t("admin.networks.delete"),
              confirm: t("admin.networks.delete-confirm", { libelle: oad.libelle }),
              disabled: hasFolders,
              describedBy: hasFolders ? "network-has-folders" : undefined,
            }
          : undefined
      }
      onClose={controls.onClose}
    >
      <Field id={fields.libelle.id} label={t("admin.networks.libelle")} errors={fields.libelle.errors}>
        <TextInput
          {...getInputProps(fields.libelle, { type: "text" })}
          autoComplete="off"
          invalid={!!fields.libelle.errors}
          describedBy={fields.libelle.errorId}
          autoFocus
        />
      </Field>
      <Field id={fields.libelleLong.id} label={t("admin.networks.libelle-long")} errors={fields.libelleLong.errors}>
        <TextInput
          {...getInputProps(fields.libelleLong, { type: "text" })}
          autoComplete="off"
          invalid={!!fields.libelleLong.errors}
          describedBy={fields.libelleLong.errorId}
        />
      </Field>
      <label className="mb-3 flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.international, { type: "checkbox" })} />
        {t("admin.networks.international-flag")}
      </label>
      <Field id={fields.emailAcces.id} label={t("admin.networks.email-acces")} errors={fields.emailAcces.errors} help={t("admin.networks.email-acces-help")}>
        <TextInput
          {...getInputProps(fields.emailAcces, { type: "email" })}
          autoComplete="off"
          invalid={!!fields.emailAcces.errors}
          describedBy={fields.emailAcces.errorId}
        />
      </Field>
      {hasFolders ? (
        <p id="network-has-folders" className="mb-3 text-xs text-stone-600" data-testid="network-has-folders">
          {t("admin.networks.folders-count", { count: oad.dossiers })}
        </p>
      ) : null}
    </AdminFormCard>
  );
}
