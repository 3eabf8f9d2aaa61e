import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LOGIN_THROTTLE, LoginSchema, loginDelayMs } from "~/domain/auth";
import type { Db } from "../db/knex";
import {
  clearLoginFailures, countRecentLoginFailures, findUtilisateurByUsername, recordLoginFailure, toPublic,
  updateUtilisateur, type Utilisateur,
} from "../utilisateur/repo";
import { verifyPassword } from "./password";

export class BadCredentialsError extends Error {
  constructor() {
    super("login.bad-credentials");
  }
}

export class InvalidLoginInputError extends Error {
  constructor(public fieldErrors: Record<string, string[]>) {
    super("warning.invalid-form");
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Checks a username and password; repeated failures for a username are answered more and more slowly. */
export async function checkCredentials(db: Db, username: string, password: string, ip: string): Promise<Utilisateur> {
  const failures = await countRecentLoginFailures(db, username, new Date(Date.now() - LOGIN_THROTTLE.windowMs));
  const delay = loginDelayMs(failures);
  if (delay) await sleep(delay);
  const user = await findUtilisateurByUsername(db, username);
  const ok = user && user.actif && (await verifyPassword(password, user.passwordHash));
  if (!ok) {
    await recordLoginFailure(db, username, ip);
    throw new BadCredentialsError();
  }
  await clearLoginFailures(db, username);
  await updateUtilisateur(db, user.id, { lastLoginAt: new Date() });
  return toPublic(user);
}

export function loginAuthenticator(db: Db) {
  const authenticator = new Authenticator<Utilisateur>();
  authenticator.use(
    new FormStrategy(async ({ form, request }) => {
      const parsed = LoginSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) {
        const fieldErrors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
        throw new InvalidLoginInputError(fieldErrors);
      }
      const ip = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? "";
      return checkCredentials(db, parsed.data.username, parsed.data.password, ip);
    }),
    "form",
  );
  return authenticator;
}
