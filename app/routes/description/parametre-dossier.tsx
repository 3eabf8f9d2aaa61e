import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, redirect, useFetcher } from "react-router";
import type { z } from "zod";
import { AuditList } from "~/components/audit-list";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback, useFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { useControlledForm } from "~/components/form-controller";
import { submitForm, useFormDirty } from "~/components/form-kit";
import { buildDisplayName, toggleFolderUserRight, type FolderRightField } from "~/domain/access/rights";
import { DossierSchema, FolderRightsSchema } from "~/domain/partage";
import { deleteDossier, getDossierSettings, saveFolderRights, updateDossier } from "#server/dossier/service.server";
import type { RouteArgs } from "#server/http/context.server";
import { formIntent, intent, jsonField, screenAction, screenLoader, sendAway, tokenField } from "#server/http/route.server";
import type { Route } from "./+types/parametre-dossier";

const RIGHTS: { field: FolderRightField; key: string }[] = [
  { field: "udoAnimation", key: "dossier.animation" },
  { field: "udoEcriture", key: "dossier.ecriture" },
  { field: "udoLecture", key: "dossier.lecture" },
  { field: "udoSynthese", key: "dossier.synthese" },
];

/** Needs a selected folder and the animation right on it (spec 1 §2, isDoAnimation); anyone else is told why. */
async function settingsOf({ view }: RouteArgs): Promise<number> {
  const v = await view();
  if (!v.selected.idDossier || !v.abilities.isDoAnimation) throw sendAway("/home/description/home", "shell.refused.folder-settings");
  return v.selected.idDossier;
}

export const loader = screenLoader(async (args) => getDossierSettings(args.db, args.user, await settingsOf(args)));

export const action = screenAction({
  update: formIntent(DossierSchema, async (args, value, { updatedAt }) => updateDossier(args.scope, await settingsOf(args), { ...value, updatedAt }), {
    fields: { updatedAt: tokenField },
    notice: "ui.save-confirmation",
  }),
  rights: intent({ rows: jsonField(FolderRightsSchema) }, async (args, { rows }) => {
    await saveFolderRights(args.scope, await settingsOf(args), rows);
    return { ok: true as const, notice: "ui.save-confirmation" };
  }),
  delete: intent({}, async (args) => {
    await deleteDossier(args.scope, await settingsOf(args));
    throw redirect("/home/description/home");
  }),
});

type Row = Route.ComponentProps["loaderData"]["users"] extends (infer U)[] | null ? U & { removed?: boolean; ticked?: boolean } : never;

function RightsPanel({
  users,
  groupes,
}: {
  users: NonNullable<Route.ComponentProps["loaderData"]["users"]>;
  groupes: { idGroupe: number; nomGroupe: string }[];
}) {
  const { t } = useTranslation();
  const { showError } = useFeedback();
  const save = useFetcher<{ ok: boolean; error?: string; notice?: string }>();
  const [groupUsers, setGroupUsers] = useState<{ id: number; nom: string; prenom: string }[]>([]);
  const groupRequest = useRef(0);
  useActionFeedback(save.data);
  const initial = useMemo(() => users.map((u) => ({ ...u })) as Row[], [users]);
  const [rows, setRows] = useState<Row[]>(initial);
  const [groupe, setGroupe] = useState("");
  const [candidate, setCandidate] = useState("");
  useEffect(() => setRows(initial), [initial]);
  const dirty = JSON.stringify(rows.map(({ ticked: _, ...r }) => r)) !== JSON.stringify(initial);

  const submit = () =>
    save.submit(
      {
        intent: "rights",
        rows: JSON.stringify({
          rows: rows.map((r) => ({
            idUser: r.idUser,
            udoAnimation: r.udoAnimation,
            udoEcriture: r.udoEcriture,
            udoLecture: r.udoLecture,
            udoSynthese: r.udoSynthese,
            removed: r.removed,
          })),
        }),
      },
      { method: "post" },
    );
  useControlledForm("dossier-rights", { dirty, valid: true, save: submit, discard: () => setRows(initial) });

  function toggle(idUser: number, field: FolderRightField, value: boolean) {
    const visible = rows.filter((r) => !r.removed);
    const result = toggleFolderUserRight(visible, idUser, field, value);
    if (result.error) {
      showError(result.error);
      return;
    }
    setRows(rows.map((r) => result.rows.find((x) => x.idUser === r.idUser) ?? r));
  }

  function removeTicked() {
    const next = rows.map((r) => (r.ticked ? { ...r, removed: true, ticked: false } : r));
    if (!next.some((r) => !r.removed && r.udoAnimation) && rows.some((r) => !r.removed && r.udoAnimation)) {
      showError("dossier.required-animator-error");
      return;
    }
    setRows(next);
  }

  // A plain request rather than a fetcher: a failed load must show the error dialog (A-ERR-09), not replace the screen.
  async function chooseGroupe(value: string) {
    const request = ++groupRequest.current;
    setGroupe(value);
    setCandidate("");
    setGroupUsers([]);
    if (!value) return;
    let failure: string;
    try {
      const res = await fetch(`${import.meta.env.BASE_URL}home/utilisateurs?idGroupe=${encodeURIComponent(value)}`, {
        headers: { Accept: "application/json" },
      });
      if (res.ok) {
        const body = (await res.json()) as { users: { id: number; nom: string; prenom: string }[] };
        if (request === groupRequest.current) setGroupUsers(body.users);
        return;
      }
      failure = `${res.status} ${res.statusText}`.trim();
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
    if (request === groupRequest.current) showError(`service grpeUser ${failure}`);
  }

  function addCandidate() {
    const u = groupUsers.find((x) => String(x.id) === candidate);
    if (!u) return;
    const existing = rows.find((r) => r.idUser === u.id);
    if (existing) {
      setRows(rows.map((r) => (r.idUser === u.id ? { ...r, removed: false } : r)));
    } else {
      setRows([
        ...rows,
        {
          id: 0,
          idUser: u.id,
          nom: u.nom,
          prenom: u.prenom,
          username: "",
          isVisible: true,
          udoAnimation: false,
          udoEcriture: false,
          udoLecture: true,
          udoSynthese: true,
          udoNominatif: false,
          udoProprietaire: false,
          ordre: rows.length + 1,
          displayName: buildDisplayName(u.nom, u.prenom),
        } as Row,
      ]);
    }
    setCandidate("");
  }

  const shown = rows.filter((r) => !r.removed);
  return (
    <section className="card" aria-labelledby="rights-title">
      <h2 id="rights-title" className="mb-2 text-lg font-semibold">
        {t("dossier.users")}
      </h2>
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="folder-users">
          <thead>
            <tr className="border-b border-stone-200 text-stone-600">
              <th className="w-8 py-1 text-xs font-normal" title={t("dossier.remove-users")}>
                {t("ui.select")}
              </th>
              <th className="py-1">{t("dossier.user")}</th>
              {RIGHTS.map((r) => (
                <th key={r.field} className="px-2 text-center">
                  {t(r.key)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={6} className="py-2 text-stone-500">
                  {t("dossier.no-user")}
                </td>
              </tr>
            ) : null}
            {shown.map((r) => (
              <tr key={r.idUser} className="border-b border-stone-100" data-testid={`folder-user-${r.displayName}`}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${t("ui.delete")} ${r.displayName}`}
                    checked={!!r.ticked}
                    onChange={(e) => setRows(rows.map((x) => (x.idUser === r.idUser ? { ...x, ticked: e.target.checked } : x)))}
                  />
                </td>
                <td className="py-1">{r.displayName}</td>
                {RIGHTS.map((right) => (
                  <td key={right.field} className="text-center">
                    <input
                      type="checkbox"
                      aria-label={`${t(right.key)} ${r.displayName}`}
                      checked={r[right.field]}
                      onChange={(e) => toggle(r.idUser, right.field, e.target.checked)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="groupe" className="field-label">
            {t("dossier.groupe")}
          </label>
          <select id="groupe" className="field-input" value={groupe} onChange={(e) => void chooseGroupe(e.target.value)} data-testid="groupe-select">
            <option value="">{t("context.choose")}</option>
            {groupes.map((g) => (
              <option key={g.idGroupe} value={g.idGroupe}>
                {g.nomGroupe}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="candidate" className="field-label">
            {t("dossier.user")}
          </label>
          <select
            id="candidate"
            className="field-input"
            value={candidate}
            onChange={(e) => setCandidate(e.target.value)}
            disabled={!groupUsers.length}
            data-testid="candidate-select"
          >
            <option value="">{t("context.choose")}</option>
            {groupUsers
              .filter((u) => !shown.some((r) => r.idUser === u.id))
              .map((u) => (
                <option key={u.id} value={u.id}>
                  {buildDisplayName(u.nom, u.prenom)}
                </option>
              ))}
          </select>
        </div>
        <button type="button" className="btn-secondary" onClick={addCandidate} disabled={!candidate}>
          {t("dossier.add-user")}
        </button>
        <button type="button" className="btn-secondary" onClick={removeTicked} disabled={!shown.some((r) => r.ticked)}>
          {t("dossier.remove-users")}
        </button>
        <button type="button" className="btn-primary ml-auto" onClick={submit} disabled={!dirty || save.state !== "idle"} data-testid="save-rights">
          {t("dossier.save-rights")}
        </button>
      </div>
    </section>
  );
}

export default function ParametreDossier({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { dossier, users, groupes, groupesError, oads, audit } = loaderData;
  const { showError } = useFeedback();
  useEffect(() => {
    if (groupesError) showError(groupesError);
  }, [groupesError, showError]);
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  const { dirty, setDirty } = useFormDirty(fetcher);
  const deleter = useFetcher();
  const [confirmDelete, setConfirmDelete] = useState(false);
  useActionFeedback(fetcher.data);
  useActionFeedback(deleter.data);
  const [form, fields] = useForm<z.input<typeof DossierSchema>>({
    id: `dossier-${dossier.id}-${dossier.updatedAt}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: { libelle: dossier.libelle, remarque: dossier.remarque, idOad: String(dossier.idOad) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DossierSchema }),
  });
  useControlledForm("dossier", { dirty, valid: form.valid, save: () => submitForm(form.id), discard: () => setDirty(false) });

  return (
    <div className="mx-auto max-w-4xl space-y-4" data-testid="screen-parametre_dossier">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.parametre_dossier")}</h1>
      <fetcher.Form method="post" {...getFormProps(form)} className="card" onInput={() => setDirty(true)}>
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="updatedAt" value={dossier.updatedAt} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id={fields.libelle.id} label={t("dossier.libelle")} errors={fields.libelle.errors}>
            <TextInput {...getInputProps(fields.libelle, { type: "text" })} invalid={!!fields.libelle.errors} />
          </Field>
          <Field id={fields.idOad.id} label={t("dossier.oad")} errors={fields.idOad.errors}>
            <select {...getSelectProps(fields.idOad)} className="field-input">
              {oads.map((o: { id: number; libelle: string }) => (
                <option key={o.id} value={o.id}>
                  {o.libelle}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field id={fields.remarque.id} label={t("dossier.remarque")} errors={fields.remarque.errors}>
          <textarea name={fields.remarque.name} id={fields.remarque.id} defaultValue={dossier.remarque} className="field-input" rows={3} />
        </Field>
        <div className="flex justify-between">
          <button type="button" className="btn-danger" onClick={() => setConfirmDelete(true)}>
            {t("dossier.delete")}
          </button>
          <button type="submit" className="btn-primary" disabled={fetcher.state !== "idle"}>
            {t("ui.save")}
          </button>
        </div>
      </fetcher.Form>

      {users ? (
        <RightsPanel users={users} groupes={groupes} />
      ) : (
        <section className="card" data-testid="visibility-required">
          <p>{t("dossier.visibility-message")}</p>
          <Link to="/home/profil" className="btn-secondary mt-2">
            {t("dossier.go-to-profile")}
          </Link>
        </section>
      )}

      <AuditList title={t("dossier.audit")} items={audit} />

      <AppDialog
        open={confirmDelete}
        title={t("dossier.delete")}
        width={500}
        onEscape={() => setConfirmDelete(false)}
        testId="delete-dossier-dialog"
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
                void deleter.submit({ intent: "delete" }, { method: "post" });
              }}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("dossier.delete-confirm", { libelle: dossier.libelle })}</p>
      </AppDialog>
    </div>
  );
}
