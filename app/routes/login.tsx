import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect, useNavigate } from "react-router";
import { AppDialog } from "~/components/dialog";
import { Field, TextInput } from "~/components/field";
import { LocaleSelector } from "~/components/locale-selector";
import { PartnerLogos } from "~/components/partner-logos";
import { LoginSchema } from "~/domain/auth";
import { getLocale } from "~/middleware/i18next";
import { useRootData } from "~/root";
import type { Route } from "./+types/login";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { getUser } = await import("../../server/auth/session");
  const { env } = await import("../../server/env");
  if (await getUser(request)) throw redirect("/home/description/home");
  const settings = env();
  return {
    forgotPasswordUrl: getLocale(context) === "en" ? settings.FORGOT_PASSWORD_URL_EN : settings.FORGOT_PASSWORD_URL_FR,
    noAccountUrl: settings.NO_ACCOUNT_URL,
  };
}

export function meta() {
  return [{ title: "Sillon – Connexion" }];
}

/** empty, loading, success, error (spec 1 §4). */
export type AuthStatus = "empty" | "loading" | "success" | "error";

export default function Login({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const root = useRootData();
  const [status, setStatus] = useState<AuthStatus>("empty");
  const [badCredentials, setBadCredentials] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  // Shown only when signed out: a token left in the browser belongs to an ended session.
  useEffect(() => window.localStorage.removeItem("token"), []);

  async function signIn(formData: FormData) {
    setStatus("loading");
    setBadCredentials(false);
    let response: Response;
    try {
      response = await fetch(`${import.meta.env.BASE_URL}api/v1/login_check`, { method: "POST", body: formData, credentials: "same-origin" });
    } catch {
      setStatus("error");
      setServerError("errors.services.auth-service-error");
      return;
    }
    if (response.status === 401) {
      setStatus("error");
      setBadCredentials(true);
      return;
    }
    if (!response.ok) {
      setStatus("error");
      setServerError(`${response.status} ${response.statusText}`.trim());
      return;
    }
    const body = (await response.json()) as { token: string };
    window.localStorage.setItem("token", body.token);
    setStatus("success");
    navigate("/home/description/home", { replace: true });
  }

  const [form, fields] = useForm({
    id: "login",
    constraint: undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    onSubmit(event, { formData, submission }) {
      event.preventDefault();
      if (submission?.status === "success") void signIn(formData);
    },
  });

  return (
    <main className="flex min-h-full flex-col items-center justify-center bg-gradient-to-b from-sillon-50 to-stone-100 p-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-3">
          <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" className="h-10 w-10" />
          <div>
            <h1 className="text-2xl font-bold text-sillon-800">Sillon</h1>
            <p className="text-xs text-stone-600">{t("app.tagline")}</p>
          </div>
        </div>
        <div className="card">
          <div className="mb-4 flex items-center justify-between">
            <h2 className="text-lg font-semibold">{t("login.title")}</h2>
            <LocaleSelector locales={root?.locales ?? ["fr", "en"]} compact />
          </div>
          {badCredentials ? (
            <div role="alert" data-testid="bad-credentials" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
              {t("login.bad-credentials")}
            </div>
          ) : null}
          <form method="post" {...getFormProps(form)} data-status={status} noValidate>
            <Field id={fields.username.id} label={t("login.username")} errors={fields.username.errors}>
              <TextInput {...getInputProps(fields.username, { type: "text" })} autoComplete="username" autoFocus invalid={!!fields.username.errors} describedBy={`${fields.username.id}-error`} />
            </Field>
            <Field id={fields.password.id} label={t("login.password")} errors={fields.password.errors}>
              <TextInput {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" invalid={!!fields.password.errors} describedBy={`${fields.password.id}-error`} />
            </Field>
            <button type="submit" className="btn-primary mt-2 w-full" disabled={status === "loading"}>
              {status === "loading" ? t("login.status.loading") : t("login.submit")}
            </button>
          </form>
          <div className="mt-4 flex flex-col gap-1 text-sm">
            <a href={loaderData.forgotPasswordUrl} target="_blank" rel="noopener noreferrer" className="text-sillon-700 underline" data-testid="forgot-password">{t("login.forgot-password")}</a>
            <a href={loaderData.noAccountUrl} target="_blank" rel="noopener noreferrer" className="text-sillon-700 underline" data-testid="no-account">{t("login.no-account")}</a>
            <Link to="/mentions-legales" className="text-stone-600 underline">{t("legal.title")}</Link>
          </div>
        </div>
        <PartnerLogos />
      </div>
      <AppDialog
        open={serverError !== null}
        title={t("login.server-error-title")}
        width={500}
        testId="server-error"
        onEscape={() => setServerError(null)}
        actions={<button type="button" className="btn-primary" onClick={() => setServerError(null)} autoFocus>{t("ui.ok")}</button>}
      >
        <p role="alert">{serverError ? t(serverError) : null}</p>
        <p className="mt-2 text-stone-600">{t("login.try-later")}</p>
      </AppDialog>
    </main>
  );
}
