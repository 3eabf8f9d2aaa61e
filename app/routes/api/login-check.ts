import { data } from "react-router";
import { issueApiTokenRow, LOGIN_TOKEN_HOURS } from "../../../server/auth/api-token";
import { BadCredentialsError, checkCredentials, InvalidLoginInputError, LoginLockedError, parseLogin } from "../../../server/auth/login";
import { dbContext } from "../../../server/http/context.server";
import { clientIpContext } from "../../../server/security/context";
import type { Route } from "./+types/login-check";

/**
 * POST login_check (spec 1 §7), for API clients: credentials in (JSON or form), a bearer token and the
 * user out. The app's own sign-in form posts to /login instead and keeps no token (issue 10, defect 6).
 * 401 for bad credentials, 429 while locked, 400 with field errors for a missing field.
 */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const json = (request.headers.get("content-type") ?? "").startsWith("application/json");
    let input: Record<string, unknown> = {};
    if (json) {
      const body: unknown = await request.json().catch(() => null);
      if (body && typeof body === "object" && !Array.isArray(body)) input = body as Record<string, unknown>;
    } else {
      const form = await request.formData().catch(() => null);
      if (form) input = Object.fromEntries(form);
    }
    const { username, password } = parseLogin(input);
    const user = await checkCredentials(context.get(dbContext), username, password, context.get(clientIpContext));
    // A token that expires (LOGIN_TOKEN_HOURS), revoked by POST logout (decision 0098).
    const { token, expiresAt } = await issueApiTokenRow(context.get(dbContext), user.id, { label: "api", nature: "connexion", days: LOGIN_TOKEN_HOURS / 24 });
    return data({
      token,
      expiresAt: expiresAt.toISOString(),
      users: { id: user.id, username: user.username, nom: user.nom, prenom: user.prenom, acceptcgu: user.acceptcgu },
    });
  } catch (e) {
    if (e instanceof BadCredentialsError) return data({ message: "login.bad-credentials" }, { status: 401 });
    if (e instanceof LoginLockedError)
      return data({ message: "login.locked", retryAfter: e.retryAfterSeconds }, { status: 429, headers: { "Retry-After": String(e.retryAfterSeconds) } });
    if (e instanceof InvalidLoginInputError) return data({ message: e.message, fieldErrors: e.fieldErrors }, { status: 400 });
    throw e;
  }
}
