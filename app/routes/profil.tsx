import { formOf } from "#server/http/answers";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { data, useFetcher } from "react-router";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { useControlledForm } from "~/components/form-controller";
import { JetonsPanel } from "~/components/jetons-api/jetons-panel";
import { ProfileSchema } from "~/domain/utilisateur";
import { saveOwnProfile } from "../../server/auth/profile";
import { getSession, requireAcceptedUser } from "../../server/auth/session";
import { dbContext } from "../../server/http/context.server";
import { isServiceError } from "../../server/errors";
import { runAction } from "../../server/http/answers";
import type { Route } from "./+types/profil";

export const handle = { hideNavbar: true };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAcceptedUser(request);
  return { user: { username: user.username, nom: user.nom, prenom: user.prenom, isVisible: user.isVisible, updatedAt: user.updatedAt } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAcceptedUser(request);
  const submission = parseWithZod(await formOf(request), { schema: ProfileSchema });
  if (submission.status !== "success") return data({ ...submission.reply(), ok: false as const }, { status: 400 });
  return runAction(async () => {
    try {
      await saveOwnProfile(context.get(dbContext), user, submission.value, (await getSession(request)).id || undefined);
    } catch (e) {
      // A wrong current password is shown on its field, like the form's other refusals.
      if (isServiceError(e) && e.fieldErrors?.currentPassword)
        return data({ ...submission.reply({ fieldErrors: e.fieldErrors }), ok: false as const, fieldErrors: e.fieldErrors }, { status: 400 });
      throw e;
    }
    return { ...submission.reply({ resetForm: true }), ok: true as const, notice: "ui.save-confirmation" };
  });
}

export function meta() {
  return [{ title: "Sillon – Profil" }];
}

export default function Profil({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const formRef = useRef<HTMLFormElement>(null);
  const [dirty, setDirty] = useState(false);
  // Each successful save starts a fresh form (saved names, empty password fields); the user's
  // updatedAt cannot serve, two saves may fall within its one-second resolution.
  const [generation, setGeneration] = useState(0);
  const { user } = loaderData;
  const lastResult = fetcher.data && !fetcher.data.ok && "status" in fetcher.data ? fetcher.data : undefined;
  const [form, fields] = useForm({
    id: `profil-${generation}`,
    lastResult: lastResult as never,
    defaultValue: { nom: user.nom, prenom: user.prenom, isVisible: user.isVisible ? "on" : undefined },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    onSubmit(event, { formData }) {
      event.preventDefault();
      void fetcher.submit(formData, { method: "post" });
    },
  });
  useActionFeedback(fetcher.data);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      setDirty(false);
      setGeneration((g) => g + 1);
    }
  }, [fetcher.state, fetcher.data]);

  useControlledForm("profil", {
    dirty,
    valid: form.valid,
    save: () => formRef.current?.requestSubmit(),
    discard: () => setDirty(false),
  });

  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-4 text-xl font-semibold text-sillon-800">{t("profile.title")}</h1>
      <form ref={formRef} method="post" {...getFormProps(form)} className="card" onInput={() => setDirty(true)} data-testid="profile-form">
        <input type="hidden" name="updatedAt" value={user.updatedAt} />
        <p className="mb-3 text-sm text-stone-600">
          {t("profile.username-label")} <strong>{user.username}</strong>
        </p>
        <Field id={fields.nom.id} label={t("profile.nom")} errors={fields.nom.errors}>
          <TextInput
            {...getInputProps(fields.nom, { type: "text" })}
            autoComplete="family-name"
            invalid={!!fields.nom.errors}
            describedBy={`${fields.nom.id}-error`}
          />
        </Field>
        <Field id={fields.prenom.id} label={t("profile.prenom")} errors={fields.prenom.errors}>
          <TextInput
            {...getInputProps(fields.prenom, { type: "text" })}
            autoComplete="given-name"
            invalid={!!fields.prenom.errors}
            describedBy={`${fields.prenom.id}-error`}
          />
        </Field>
        <Field id={fields.password.id} label={t("profile.password")} errors={fields.password.errors} help={t("profile.password-help")}>
          <TextInput
            {...getInputProps(fields.password, { type: "password" })}
            autoComplete="new-password"
            invalid={!!fields.password.errors}
            describedBy={`${fields.password.id}-error`}
          />
        </Field>
        <Field id={fields.confirmation.id} label={t("profile.confirmation")} errors={fields.confirmation.errors}>
          <TextInput
            {...getInputProps(fields.confirmation, { type: "password" })}
            autoComplete="new-password"
            invalid={!!fields.confirmation.errors}
            describedBy={`${fields.confirmation.id}-error`}
          />
        </Field>
        <Field
          id={fields.currentPassword.id}
          label={t("profile.current-password")}
          errors={fields.currentPassword.errors}
          help={t("profile.current-password-help")}
        >
          <TextInput
            {...getInputProps(fields.currentPassword, { type: "password" })}
            autoComplete="current-password"
            invalid={!!fields.currentPassword.errors}
            describedBy={`${fields.currentPassword.id}-error`}
          />
        </Field>
        <label className="mb-4 flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.isVisible, { type: "checkbox" })} data-testid="profile-visibility" />
          {t("profile.visibility")}
        </label>
        <button type="submit" className="btn-primary" disabled={fetcher.state !== "idle"} data-testid="profile-save">
          {t("ui.save")}
        </button>
      </form>
      <JetonsPanel />
    </div>
  );
}
