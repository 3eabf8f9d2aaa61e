import { redirect } from "react-router";
import { getLocale } from "~/middleware/i18next";
import { env } from "../../server/env";
import type { Route } from "./+types/password-forgotten";

/** The forgot-password page is external and depends on the locale (spec 1 §2); not configured, the sign-in page. */
export async function loader({ context }: Route.LoaderArgs) {
  const url = getLocale(context) === "en" ? env().FORGOT_PASSWORD_URL_EN : env().FORGOT_PASSWORD_URL_FR;
  return redirect(url || "/login");
}
