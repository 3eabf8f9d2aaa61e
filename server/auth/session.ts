import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createCookie, createSessionStorage, redirect, type Session } from "react-router";
import { db } from "../db";
import { cookieSecure, env } from "../env";
import { findUtilisateurById, toPublic, type Utilisateur } from "../utilisateur/repo";

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

let storage: ReturnType<typeof createSessionStorage<SessionData>> | undefined;

export function sessionStorage() {
  storage ??= createSessionStorage<SessionData>({
    cookie: createCookie("__sillon_session", {
      httpOnly: true,
      sameSite: "lax",
      secure: cookieSecure(),
      path: "/",
      secrets: [sessionSecret()],
      maxAge: SESSION_DAYS * 24 * 3600,
    }),
    async createData(data, expires) {
      const id = randomBytes(24).toString("hex");
      await db()("session").insert({ id, idUser: data.userId ?? null, data: JSON.stringify(data), expiresAt: expires ?? null });
      return id;
    },
    async readData(id) {
      const row = await db()("session").where({ id }).first();
      if (!row) return null;
      if (row.expiresAt && new Date(row.expiresAt) < new Date()) {
        await db()("session").where({ id }).delete();
        return null;
      }
      return JSON.parse(row.data) as SessionData;
    },
    async updateData(id, data, expires) {
      await db()("session").where({ id }).update({ idUser: data.userId ?? null, data: JSON.stringify(data), expiresAt: expires ?? null, updatedAt: db().fn.now() });
    },
    async deleteData(id) {
      await db()("session").where({ id }).delete();
    },
  });
  return storage;
}

export function getSession(request: Request): Promise<Session<SessionData>> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export async function getUser(request: Request): Promise<Utilisateur | null> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (!userId) return null;
  const user = await findUtilisateurById(db(), userId);
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
  if (session.id) await db()("api_token").where({ idSession: session.id }).delete();
  return sessionStorage().destroySession(session);
}

/** Ends every session of a user but `keepSessionId` (after a password change), with their tokens. */
export async function endOtherSessions(idUser: number, keepSessionId: string | undefined): Promise<void> {
  await db()("api_token").where({ idUser }).andWhere((q) => (keepSessionId ? q.whereNot({ idSession: keepSessionId }).orWhereNull("idSession") : q)).delete();
  await db()("session").where({ idUser }).andWhere((q) => (keepSessionId ? q.whereNot({ id: keepSessionId }) : q)).delete();
}
