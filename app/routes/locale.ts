import { formOf } from "#server/http/answers";
import { data, redirect } from "react-router";
import { localeCookie } from "~/middleware/i18next";
import { availableLocales, isLocale } from "~/locales";
import { isProduction } from "../../server/env";
import type { Route } from "./+types/locale";

export async function action({ request }: Route.ActionArgs) {
  const form = await formOf(request);
  const locale = form.get("locale");
  if (!isLocale(locale) || !availableLocales(isProduction()).includes(locale)) {
    return data({ ok: false, error: "warning.invalid" }, { status: 400 });
  }
  return data({ ok: true }, { headers: { "Set-Cookie": await localeCookie.serialize(locale) } });
}

/** The address typed in the browser: the application (the language is chosen from its header). */
export function loader() {
  return redirect("/");
}
