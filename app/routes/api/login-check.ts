import { data } from "react-router";
import type { Route } from "./+types/login-check";

/**
 * POST login_check (spec 1 §7): credentials in, token and user out, and the session cookie set.
 * 401 for bad credentials; 400 with field errors for a missing field.
 */
export async function action({ request }: Route.ActionArgs) {
  const { loginAuthenticator, BadCredentialsError, InvalidLoginInputError } = await import("../../../server/auth/login");
  const { startSession } = await import("../../../server/auth/session");
  const { issueApiToken } = await import("../../../server/auth/api-token");
  const { db } = await import("../../../server/db");
  try {
    const user = await loginAuthenticator(db()).authenticate("form", request);
    const { cookie, sessionId } = await startSession(user.id);
    const token = await issueApiToken(db(), user.id, { idSession: sessionId });
    return data(
      { token, users: { id: user.id, username: user.username, nom: user.nom, prenom: user.prenom, acceptcgu: user.acceptcgu } },
      { headers: { "Set-Cookie": cookie } },
    );
  } catch (e) {
    if (e instanceof BadCredentialsError) return data({ message: "login.bad-credentials" }, { status: 401 });
    if (e instanceof InvalidLoginInputError) return data({ message: e.message, fieldErrors: e.fieldErrors }, { status: 400 });
    throw e;
  }
}
