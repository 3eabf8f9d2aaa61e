import { redirect } from "react-router";
import { getLocale } from "~/middleware/i18next";
import type { Route } from "./+types/password-forgotten";

/** The forgot-password page is external and depends on the locale (spec 1 §2). */
export async function loader({ context }: Route.LoaderArgs) {
  const { env } = await import("../../server/env");
  return redirect(getLocale(context) === "en" ? env().FORGOT_PASSWORD_URL_EN : env().FORGOT_PASSWORD_URL_FR);
}
