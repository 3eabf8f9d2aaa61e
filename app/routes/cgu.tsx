import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { data, Form, redirect, useActionData } from "react-router";
import { CguSchema } from "~/domain/utilisateur";
import { requireUser } from "#server/auth/session.server";
import { dbContext } from "#server/http/context.server";
import { acceptCgu } from "#server/utilisateur/service.server";
import type { Route } from "./+types/cgu";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (user.acceptcgu) throw redirect("/home/description/home");
  return { isVisible: user.isVisible };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData().catch(() => new FormData());
  const submission = parseWithZod(formData, { schema: CguSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await acceptCgu(context.get(dbContext), user, submission.value.isVisible === "on");
  return redirect("/home/description/home");
}

export function meta() {
  return [{ title: "Sillon – Conditions générales d'utilisation" }];
}

export default function Cgu({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [accepted, setAccepted] = useState(false);
  const [form, fields] = useForm({ id: "cgu", lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema: CguSchema }) });
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <main className="mx-auto flex min-h-full max-w-4xl flex-col p-4">
      <h1 className="mb-3 text-2xl font-semibold text-sillon-800">{t("cgu.title")}</h1>
      <iframe
        title={t("cgu.pdf")}
        data-testid="cgu-pdf"
        src={`${import.meta.env.BASE_URL}docs/${locale}/cgu.pdf`}
        className="h-[60vh] w-full rounded border border-stone-300 bg-white"
      />
      <Form method="post" {...getFormProps(form)} className="card mt-4 space-y-2">
        <label className="flex items-start gap-2">
          <input
            {...getInputProps(fields.isVisible, { type: "checkbox" })}
            defaultChecked={loaderData.isVisible}
            data-testid="cgu-visibility"
            className="mt-1"
          />
          <span>{t("cgu.visibility")}</span>
        </label>
        <label className="flex items-start gap-2">
          <input
            {...getInputProps(fields.accept, { type: "checkbox" })}
            onChange={(e) => setAccepted(e.target.checked)}
            data-testid="cgu-accept"
            className="mt-1"
          />
          <span>{t("cgu.accept")} *</span>
        </label>
        <div className="flex items-center justify-between pt-2">
          <button type="submit" className="btn-primary" disabled={!accepted} data-testid="cgu-validate">
            {t("cgu.validate")}
          </button>
        </div>
      </Form>
      <Form method="post" action="/logout" className="mt-3" onSubmit={() => window.localStorage.removeItem("token")}>
        <button type="submit" className="text-sm text-sillon-700 underline" data-testid="cgu-logout">
          {t("shell.logout")}
        </button>
      </Form>
    </main>
  );
}
