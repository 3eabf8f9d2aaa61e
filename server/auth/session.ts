import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createCookie, createSessionStorage, redirect, type Cookie, type Session } from "react-router";
import { db } from "../db";
import type { Db } from "../db/knex";
import { cookieSecure, env } from "../env";
import {
  deleteApiTokensOfSession,
  deleteOtherSessionsOfUser,
  deleteSession,
  deleteSessionsBesideToken,
  findSession,
  insertSession,
  updateSession,
} from "./repo";
import { findSessionWithUser, findUtilisateurById, toPublic, type Utilisateur } from "../utilisateur/repo";

const SESSION_DAYS = 30;

function sessionSecret(): string {
  const configured = env().SESSION_SECRET;
  if (configured) return configured;
  // A self-hosted install gets a random secret kept beside the database, so sessions survive restarts.
  const file = path.join(env().DATA_DIR, "session-secret");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

type SessionData = { userId: number };

/**
 * The value of a cookie signed by React Router's createCookie (`base64(JSON).base64(HMAC-SHA256)`, padding removed),
 * checked with node:crypto's synchronous HMAC: the same format, secrets and answers as React Router's own parse,
 * without WebCrypto's key import and thread-pool job on every signed-in request (decision 0082). null when the
 * signature is wrong for every secret, {} when the value does not decode (as React Router answers).
 */
export function unsignCookieValue(signed: string, secrets: readonly string[]): unknown {
  const dot = signed.lastIndexOf(".");
  const value = signed.slice(0, dot);
  const hash = signed.slice(dot + 1);
  let given: Buffer;
  try {
    given = Buffer.from(atob(hash), "latin1");
  } catch {
    return null;
  }
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret).update(value, "utf8").digest();
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      try {
        return JSON.parse(decodeURIComponent(escape(atob(value))));
      } catch {
        return {};
      }
    }
  }
  return null;
}

/** A cookie's value in a Cookie header, read as React Router's cookie parser reads it (first pair of that name, trimmed, %-decoded). */
export function cookieValue(header: string, name: string): string | undefined {
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).replace(/^[ \t]+|[ \t]+$/g, "") !== name) continue;
    const raw = pair.slice(eq + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    if (!raw.includes("%")) return raw;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** React Router's signed cookie, whose parse checks the signature synchronously (unsignCookieValue). */
export function fastSignedCookie(name: string, options: Parameters<typeof createCookie>[1] & { secrets: string[] }): Cookie {
  const cookie = createCookie(name, options);
  const secrets = options.secrets;
  return {
    get name() {
      return cookie.name;
    },
    get isSigned() {
      return cookie.isSigned;
    },
    get expires() {
      return cookie.expires;
    },
    async parse(header, more) {
      // A custom decode is React Router's own path (never used by Sillon).
      if (more?.decode) return cookie.parse(header, more);
      if (!header) return null;
      const value = cookieValue(header, name);
      if (value === undefined) return null;
      return value !== "" ? unsignCookieValue(value, secrets) : "";
    },
    serialize: (value, more) => cookie.serialize(value, more),
  };
}

let storage: (ReturnType<typeof createSessionStorage<SessionData>> & { cookie: Cookie }) | undefined;

export function sessionStorage() {
  if (storage) return storage;
  const cookie = fastSignedCookie("__sillon_session", {
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure(),
    path: "/",
    secrets: [sessionSecret()],
    maxAge: SESSION_DAYS * 24 * 3600,
  });
  storage = Object.assign(
    createSessionStorage<SessionData>({
      cookie,
      async createData(data, expires) {
        const id = randomBytes(24).toString("hex");
        await insertSession(db(), id, { idUser: data.userId ?? null, data: JSON.stringify(data), expiresAt: expires ?? null });
        return id;
      },
      async readData(id) {
        const row = await findSession(db(), id);
        if (!row) return null;
        if (row.expiresAt && new Date(row.expiresAt as string) < new Date()) {
          await deleteSession(db(), id);
          return null;
        }
        return JSON.parse(row.data as string) as SessionData;
      },
      async updateData(id, data, expires) {
        await updateSession(db(), id, { idUser: data.userId ?? null, data: JSON.stringify(data), expiresAt: expires ?? null });
      },
      async deleteData(id) {
        await deleteSession(db(), id);
      },
    }),
    { cookie },
  );
  return storage;
}

export function getSession(request: Request): Promise<Session<SessionData>> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export async function getUser(request: Request): Promise<Utilisateur | null> {
  // The session and its user in one query (decision 0082), with the checks of readData below: an unknown or removed
  // session ends now, an expired one is removed.
  const id: unknown = await sessionStorage().cookie.parse(request.headers.get("Cookie"));
  if (typeof id !== "string" || !id) return null;
  const found = await findSessionWithUser(db(), id);
  if (!found) return null;
  if (found.expiresAt && new Date(found.expiresAt as string) < new Date()) {
    await deleteSession(db(), id);
    return null;
  }
  const userId = (JSON.parse(found.data) as SessionData).userId;
  if (!userId) return null;
  // The row's id_user is written with the data's userId; should they ever differ, the data's user is read.
  const user = found.user?.id === userId ? found.user : await findUtilisateurById(db(), userId);
  return user && user.actif ? toPublic(user) : null;
}

/** A page or call that needs a signed-in user: without one, the browser goes to /login (spec 1 §2). */
export async function requireUser(request: Request): Promise<Utilisateur> {
  const user = await getUser(request);
  if (!user) throw redirect("/login");
  return user;
}

/** As requireUser, and the terms must be accepted (else /cgu). */
export async function requireAcceptedUser(request: Request): Promise<Utilisateur> {
  const user = await requireUser(request);
  if (!user.acceptcgu) throw redirect("/cgu");
  return user;
}

export async function startSession(userId: number): Promise<{ cookie: string; sessionId: string }> {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  const cookie = await sessionStorage().commitSession(session, { maxAge: SESSION_DAYS * 24 * 3600 });
  return { cookie, sessionId: session.id };
}

export async function endSession(request: Request): Promise<string> {
  const session = await getSession(request);
  if (session.id) await deleteApiTokensOfSession(db(), session.id);
  return sessionStorage().destroySession(session);
}

/** Ends every session of a user but `keepSessionId` (after a password change), with their tokens. */
export async function endOtherSessions(idUser: number, keepSessionId: string | undefined): Promise<void> {
  await deleteOtherSessionsOfUser(db(), idUser, keepSessionId);
}

/**
 * After a new password set through the API (A-API-10): the user's other tokens and every cookie session end; the
 * token of the call stays. On `trx`, the call's transaction.
 */
export async function endSessionsBesideToken(trx: Db, idUser: number, keepTokenId: number): Promise<void> {
  await deleteSessionsBesideToken(trx, idUser, keepTokenId);
}
