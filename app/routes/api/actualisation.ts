import { data, redirect } from "react-router";
import { actualisationUrl } from "~/components/shell/actualisation";
import { issueApiToken } from "../../../server/auth/api-token";
import { getSession, requireAcceptedUser } from "../../../server/auth/session";
import { dbContext } from "../../../server/http/context.server";
import { env } from "../../../server/env";
import type { Route } from "./+types/actualisation";

/** How long the external actualisation page may use its token. */
export const ACTUALISATION_TOKEN_HOURS = 1;

/**
 * POST (from the Interoperability menu, in a new tab): a fresh bearer token for the external actualisation
 * page, tied to the session (signing out revokes it), then off to the page with the token in its query
 * (spec 1 §2, A-SHELL-13). Nothing is kept in the browser.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAcceptedUser(request);
  const base = env().ACTUALISATION_URL;
  if (!base) return data({ message: "errors.not-found" }, { status: 404 });
  const session = await getSession(request);
  const token = await issueApiToken(context.get(dbContext), user.id, {
    idSession: session.id || undefined,
    label: "actualisation",
    days: ACTUALISATION_TOKEN_HOURS / 24,
  });
  return redirect(actualisationUrl(base, token), 303);
}

export function loader() {
  return redirect("/home/interoperabilite/actualisation");
}
