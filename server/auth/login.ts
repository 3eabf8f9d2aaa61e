import { LoginSchema } from "~/domain/auth";
import type { Db } from "../db/knex";
import { findUtilisateurByUsername, toPublic, updateUtilisateur, type Utilisateur } from "../utilisateur/repo";
import { hashPassword, verifyPassword } from "./password";
import { loginThrottle, type LoginThrottle } from "./throttle";

export class BadCredentialsError extends Error {
  constructor() {
    super("login.bad-credentials");
  }
}

/** Too many failed sign-ins for this username or from this address: try again in `retryAfterMs`. */
export class LoginLockedError extends Error {
  constructor(public retryAfterMs: number) {
    super("login.locked");
  }
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}

export class InvalidLoginInputError extends Error {
  constructor(public fieldErrors: Record<string, string[]>) {
    super("warning.invalid-form");
  }
}

let dummyHash: Promise<string> | undefined;
/** A hash of nothing, checked when the username is unknown: an unknown name costs the same time as a wrong password. */
function dummy(): Promise<string> {
  dummyHash ??= hashPassword(`no-such-user-${Math.random()}`);
  return dummyHash;
}

/**
 * Checks a username and password. Unknown names, disabled accounts and wrong passwords all run one
 * password hash and answer alike; a name or address with too many recent failures is locked
 * (LoginLockedError) before any check. The attempt is counted before its check (LoginThrottle.begin), so that
 * simultaneous attempts cannot all pass the throttle.
 */
export async function checkCredentials(db: Db, username: string, password: string, ip: string, throttle: LoginThrottle = loginThrottle): Promise<Utilisateur> {
  const attempt = await throttle.begin(db, username, ip);
  if (attempt.wait > 0) {
    await throttle.forget(db, attempt.id);
    throw new LoginLockedError(attempt.wait);
  }
  const user = await findUtilisateurByUsername(db, username);
  const matches = await verifyPassword(password, user?.passwordHash ?? (await dummy()));
  // A wrong password keeps its attempt as the failure.
  if (!user || !user.actif || !matches) throw new BadCredentialsError();
  await throttle.succeeded(db, username, attempt.id);
  await updateUtilisateur(db, user.id, { lastLoginAt: new Date() });
  return toPublic(user);
}

/** Reads and checks the login fields (spec 1 §5): InvalidLoginInputError with the field messages. */
export function parseLogin(input: { username?: unknown; password?: unknown }): { username: string; password: string } {
  const parsed = LoginSchema.safeParse({ username: input.username ?? undefined, password: input.password ?? undefined });
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
  throw new InvalidLoginInputError(fieldErrors);
}
