import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useEffectEvent } from "react";
import { useFetcher } from "react-router";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatDate, formatDateTime } from "~/components/format";
import { JETON_ACCES, JetonPersonnelSchema } from "~/domain/jeton-api";
import { useTranslation } from "~/use-translation";

type Jeton = { id: number; nom: string; acces: (typeof JETON_ACCES)[number]; expiresAt: string; lastUsedAt: string | null };
type Answer = { ok: boolean; created?: { token: string; nom: string }; submission?: unknown; notice?: string; error?: string };

const ADDRESS = "/home/profil/jetons";

/**
 * The profile page's personal access tokens (issue 26, decision 0098): the user's tokens with their access, expiry and
 * last use, a form for a new one (its value shown once), and a revoke button per token.
 */
export function JetonsPanel() {
  const { t } = useTranslation();
  const list = useFetcher<Jeton[]>();
  const create = useFetcher<Answer>();
  const revoke = useFetcher<Answer>();
  useActionFeedback(create.data);
  useActionFeedback(revoke.data);
  const lastResult = create.data && !create.data.ok ? create.data.submission : undefined;
  const [form, fields] = useForm({
    id: "jeton-api",
    lastResult: lastResult as never,
    defaultValue: { acces: "lecture", joursValidite: "90" },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: JetonPersonnelSchema }),
  });
  const busy = create.state !== "idle" || revoke.state !== "idle";
  // The list is loaded at first, then again after each creation or revocation.
  const reload = useEffectEvent(() => {
    if (list.state === "idle") void list.load(ADDRESS);
  });
  useEffect(() => {
    if (!busy) reload();
  }, [busy]);
  const created = create.data?.ok ? create.data.created : undefined;

  return (
    <section className="card mt-6" aria-labelledby="jetons-api-title" data-testid="jetons-api">
      <h2 id="jetons-api-title" className="mb-2 text-lg font-semibold text-sillon-800">
        {t("jetons-api.title")}
      </h2>
      <p className="mb-3 text-sm text-stone-600">{t("jetons-api.intro")}</p>
      {created && (
        <div className="mb-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm" role="status">
          <p>{t("jetons-api.nouveau-jeton")}</p>
          <code className="break-all" data-testid="jeton-api-valeur">
            {created.token}
          </code>
        </div>
      )}
      <create.Form method="post" action={ADDRESS} {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create" />
        <Field id={fields.nom.id} label={t("jetons-api.nom")} errors={fields.nom.errors}>
          <TextInput {...getInputProps(fields.nom, { type: "text" })} invalid={!!fields.nom.errors} describedBy={`${fields.nom.id}-error`} />
        </Field>
        <Field id={fields.acces.id} label={t("jetons-api.acces")} errors={fields.acces.errors}>
          <select className="field-input" {...getSelectProps(fields.acces)}>
            {JETON_ACCES.map((a) => (
              <option key={a} value={a}>
                {t(`jetons-api.${a}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id={fields.joursValidite.id} label={t("jetons-api.jours")} errors={fields.joursValidite.errors}>
          <TextInput
            {...getInputProps(fields.joursValidite, { type: "number" })}
            min={1}
            max={365}
            invalid={!!fields.joursValidite.errors}
            describedBy={`${fields.joursValidite.id}-error`}
          />
        </Field>
        <button type="submit" className="btn-primary" disabled={busy}>
          {t("jetons-api.creer")}
        </button>
      </create.Form>
      <ul className="mt-4 divide-y divide-stone-200 text-sm">
        {(list.data ?? []).length === 0 && <li className="py-2 text-stone-500">{t("jetons-api.aucun")}</li>}
        {(list.data ?? []).map((j) => (
          <li key={j.id} className="flex items-center justify-between gap-2 py-2" data-testid="jeton-api-ligne">
            <span>
              <strong>{j.nom}</strong> · {t(`jetons-api.${j.acces}`)} · {t("jetons-api.expire")} {formatDate(j.expiresAt)} ·{" "}
              {t("jetons-api.derniere-utilisation")} {j.lastUsedAt ? formatDateTime(j.lastUsedAt) : t("jetons-api.jamais")}
            </span>
            <revoke.Form method="post" action={ADDRESS}>
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="id" value={j.id} />
              <button type="submit" className="btn-secondary" disabled={busy} aria-label={`${t("jetons-api.revoquer")} ${j.nom}`}>
                {t("jetons-api.revoquer")}
              </button>
            </revoke.Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
