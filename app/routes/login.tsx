import { formOf } from "#server/http/answers";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { data, Link, redirect, useNavigate } from "react-router";
import { AppDialog } from "~/components/dialog";
import { Field, TextInput } from "~/components/field";
import { LocaleSelector } from "~/components/locale-selector";
import { PartnerLogos } from "~/components/partner-logos";
import { LoginSchema } from "~/domain/auth";
import { getLocale } from "~/middleware/i18next";
import { useRootData } from "~/root";
import { BadCredentialsError, checkCredentials, InvalidLoginInputError, LoginLockedError, parseLogin } from "../../server/auth/login";
import { getUser, startSession } from "../../server/auth/session";
import { dbContext } from "../../server/http/context.server";
import { env } from "../../server/env";
import { clientIpContext } from "../../server/security/context";
import type { Route } from "./+types/login";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getUser(request)) throw redirect("/home/description/home");
  const settings = env();
  return {
    forgotPasswordUrl: (getLocale(context) === "en" ? settings.FORGOT_PASSWORD_URL_EN : settings.FORGOT_PASSWORD_URL_FR) || null,
    noAccountUrl: settings.NO_ACCOUNT_URL || null,
  };
}

/**
 * The sign-in form's action (spec 1 §2, issue 10 defect 6): a plain form POST, with or without
 * JavaScript. Good credentials set the session cookie and go to the home page; bad ones answer 401,
 * a locked name or address 429 with Retry-After, missing fields 400 — each with the form again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await formOf(request);
  const username = typeof form.get("username") === "string" ? String(form.get("username")) : "";
  try {
    const credentials = parseLogin({ username: form.get("username"), password: form.get("password") });
    const user = await checkCredentials(context.get(dbContext), credentials.username, credentials.password, context.get(clientIpContext));
    const { cookie } = await startSession(user.id);
    return redirect("/home/description/home", { headers: { "Set-Cookie": cookie } });
  } catch (e) {
    if (e instanceof BadCredentialsError) return data({ error: "login.bad-credentials" as const, username, fieldErrors: {} }, { status: 401 });
    if (e instanceof LoginLockedError) {
      return data(
        { error: "login.locked" as const, username, fieldErrors: {}, retryAfter: e.retryAfterSeconds },
        { status: 429, headers: { "Retry-After": String(e.retryAfterSeconds) } },
      );
    }
    if (e instanceof InvalidLoginInputError) return data({ error: null, username, fieldErrors: e.fieldErrors }, { status: 400 });
    throw e;
  }
}

/** The document answer keeps the action's Retry-After (a locked sign-in). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export function meta() {
  return [{ title: "Sillon – Connexion" }];
}

/** empty, loading, success, error (spec 1 §4). */
export type AuthStatus = "empty" | "loading" | "success" | "error";

/** Seconds as whole minutes, at least one. */
const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const root = useRootData();
  // Without JavaScript the form posts itself and the answer comes back as actionData.
  const [status, setStatus] = useState<AuthStatus>(actionData?.error ? "error" : "empty");
  const [badCredentials, setBadCredentials] = useState(actionData?.error === "login.bad-credentials");
  const [lockedFor, setLockedFor] = useState<number | null>(actionData && "retryAfter" in actionData ? actionData.retryAfter : null);
  const [serverError, setServerError] = useState<string | null>(null);
  const action = `${import.meta.env.BASE_URL}login`;

  async function signIn(formData: FormData) {
    setStatus("loading");
    setBadCredentials(false);
    setLockedFor(null);
    let response: Response;
    try {
      // The same POST as without JavaScript; the redirect that signals success is not followed here.
      response = await fetch(action, { method: "POST", body: formData, credentials: "same-origin", redirect: "manual" });
    } catch {
      setStatus("error");
      setServerError("errors.services.auth-service-error");
      return;
    }
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      setStatus("success");
      navigate("/home/description/home", { replace: true });
      return;
    }
    setStatus("error");
    if (response.status === 401) setBadCredentials(true);
    else if (response.status === 429) setLockedFor(Number(response.headers.get("Retry-After")) || 60);
    else setServerError(`${response.status} ${response.statusText}`.trim());
  }

  const [form, fields] = useForm({
    id: "login",
    constraint: undefined,
    defaultValue: { username: actionData?.username ?? "" },
    lastResult: actionData && Object.keys(actionData.fieldErrors).length ? { status: "error", error: actionData.fieldErrors } : undefined,
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
          {lockedFor !== null ? (
            <div role="alert" data-testid="login-locked" className="mb-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {t("login.locked", { count: minutes(lockedFor) })}
            </div>
          ) : null}
          <form method="post" action={action} {...getFormProps(form)} data-status={status} noValidate>
            <Field id={fields.username.id} label={t("login.username")} errors={fields.username.errors}>
              <TextInput
                {...getInputProps(fields.username, { type: "text" })}
                autoComplete="username"
                autoFocus
                invalid={!!fields.username.errors}
                describedBy={`${fields.username.id}-error`}
              />
            </Field>
            <Field id={fields.password.id} label={t("login.password")} errors={fields.password.errors}>
              <TextInput
                {...getInputProps(fields.password, { type: "password" })}
                autoComplete="current-password"
                invalid={!!fields.password.errors}
                describedBy={`${fields.password.id}-error`}
              />
            </Field>
            <button type="submit" className="btn-primary mt-2 w-full" disabled={status === "loading"}>
              {status === "loading" ? t("login.status.loading") : t("login.submit")}
            </button>
          </form>
          <div className="mt-4 flex flex-col gap-1 text-sm">
            {loaderData.forgotPasswordUrl ? (
              <a
                href={loaderData.forgotPasswordUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="text-sillon-700 underline"
                data-testid="forgot-password"
              >
                {t("login.forgot-password")}
              </a>
            ) : null}
            {loaderData.noAccountUrl ? (
              <a href={loaderData.noAccountUrl} target="_blank" rel="noopener noreferrer" className="text-sillon-700 underline" data-testid="no-account">
                {t("login.no-account")}
              </a>
            ) : null}
            <Link to="/mentions-legales" className="text-stone-600 underline">
              {t("legal.title")}
            </Link>
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
        actions={
          <button type="button" className="btn-primary" onClick={() => setServerError(null)} autoFocus>
            {t("ui.ok")}
          </button>
        }
      >
        <p role="alert">{serverError ? t(serverError) : null}</p>
        <p className="mt-2 text-stone-600">{t("login.try-later")}</p>
      </AppDialog>
    </main>
  );
}
