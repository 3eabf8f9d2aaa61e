import { RouterContextProvider } from "react-router";
import { afterAll, describe, expect, test } from "vitest";
import { action as loginCheck } from "~/routes/api/login-check";
import { loader as apiLoader, action as apiAction } from "~/routes/api/api";
import { loader as openApiLoader } from "~/routes/api/openapi";
import { action as jetonsAction, loader as jetonsLoader } from "~/routes/profil-jetons";
import { getRoute, postForm } from "../helpers/route-call";
import { countRows, demoUser, snapshot } from "../helpers/service";
import { useTestDb } from "../helpers/test-db";
import { issueApiToken, LOGIN_TOKEN_HOURS } from "../../server/auth/api-token";
import { answerApi, type ApiOptions } from "../../server/http/api.server";
import { dbContext } from "../../server/http/context.server";
import { clientIpContext } from "../../server/security/context";
import { API_CALLS } from "../../server/api/calls";
import { APPELS_CADRE } from "../../server/api/appels-cadre";
import { APPELS_EXPLOITATION } from "../../server/api/appels-exploitation";
import { expectContract } from "../helpers/api-client";

const t = useTestDb();
const BASE = "http://sillon.test/sillon";

/** Every answer of the file's calls, to check against the OpenAPI document at the end (the contract test). */
const answered: { method: string; path: string; status: number; body: unknown; contentType: string | null }[] = [];

type Call = { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string>; options?: ApiOptions };

/** One request to the API as a client sends it over HTTP: through the route module (GET: loader, else action). */
async function api(method: string, path: string, o: Call = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined) {
    headers["Content-Type"] ??= "application/json";
    headers["Content-Length"] = String(Buffer.byteLength(body));
  }
  const request = new Request(`${BASE}${path}`, { method, headers, body });
  let response: Response;
  if (o.options) response = await answerApi(API_CALLS, request, t.db(), o.options);
  else {
    const context = new RouterContextProvider();
    context.set(dbContext, t.db());
    context.set(clientIpContext, "203.0.113.9");
    response = await (method === "GET" ? apiLoader : apiAction)({ request, params: {}, context } as never);
  }
  const text = await response.text();
  const json = text ? JSON.parse(text) : undefined;
  answered.push({ method, path: path.split("?")[0], status: response.status, body: json, contentType: response.headers.get("content-type") });
  return { status: response.status, body: json, text, headers: response.headers };
}

async function tokenOf(username: string, extra: Record<string, unknown> = {}) {
  const id = t.demo().users[username as keyof ReturnType<typeof t.demo>["users"]];
  return issueApiToken(t.db(), id, { label: "test", nature: "connexion", ...extra });
}

async function signIn(username: string) {
  const request = new Request(`${BASE}/api/v1/login_check`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: "demo1234" }),
  });
  const context = new RouterContextProvider();
  context.set(dbContext, t.db());
  context.set(clientIpContext, "198.51.100.1");
  const answer = (await loginCheck({ request, params: {}, context } as never)) as { data: { token: string; expiresAt: string; users: { id: number } } };
  return answer.data;
}

describe("tokens", () => {
  test("[A-API-08][A-API-03] login_check answers a token that expires, and the API accepts it as a bearer token", async () => {
    const { token, expiresAt, users } = await signIn("redacteur");
    const hours = (new Date(expiresAt).getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(LOGIN_TOKEN_HOURS - 0.1);
    expect(hours).toBeLessThanOrEqual(LOGIN_TOKEN_HOURS);
    const me = await api("GET", `/api/v1/utilisateurs/${users.id}`, { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: users.id, username: "redacteur", nom: "Lefèvre" });
    // Only the hash is stored.
    expect(await countRows(t.db(), "api_token", { tokenHash: token })).toBe(0);
  });

  test("[A-API-03] without a valid bearer token: 401 problem, whatever the cookie", async () => {
    const id = t.demo().users.redacteur;
    for (const token of [null, "not-a-token", "A".repeat(43)]) {
      const r = await api("GET", `/api/v1/utilisateurs/${id}`, { token, headers: { Cookie: "__sillon_session=anything" } });
      expect(r.status).toBe(401);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.headers.get("www-authenticate")).toContain("Bearer");
      expect(r.body).toMatchObject({ status: 401, key: "errors.api.unauthorized" });
    }
    const expired = await tokenOf("redacteur", { days: -1 });
    expect((await api("GET", `/api/v1/utilisateurs/${id}`, { token: expired })).status).toBe(401);
  });

  test("[A-API-03] a disabled user's token is refused; POST logout revokes the token it is called with", async () => {
    const token = await tokenOf("synthese");
    const id = t.demo().users.synthese;
    expect((await api("GET", `/api/v1/utilisateurs/${id}`, { token })).status).toBe(200);
    await t.db()("utilisateur").where({ id }).update({ actif: false });
    expect((await api("GET", `/api/v1/utilisateurs/${id}`, { token })).status).toBe(401);
    await t.db()("utilisateur").where({ id }).update({ actif: true });
    const out = await api("POST", "/api/v1/logout", { token });
    expect(out.status).toBe(204);
    expect(out.text).toBe("");
    expect((await api("GET", `/api/v1/utilisateurs/${id}`, { token })).status).toBe(401);
  });

  test("[A-API-07] personal access tokens: made once, listed without their value, read-only refuses writes, revoked", async () => {
    const login = await tokenOf("animateur");
    const made = await api("POST", "/api/v1/jetons", { token: login, body: { nom: "Entrepôt de données", acces: "lecture", joursValidite: 90 } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ nom: "Entrepôt de données", acces: "lecture", token: expect.stringMatching(/^[\w-]{43}$/) });
    const pat = (made.body as { token: string; id: number }).token;
    const id = (made.body as { id: number }).id;

    const read = await api("GET", "/api/v1/oads", { token: pat });
    expect(read.status).toBe(200);
    const list = await api("GET", "/api/v1/jetons", { token: login });
    expect(list.body).toEqual([expect.objectContaining({ id, nom: "Entrepôt de données", acces: "lecture", lastUsedAt: expect.any(String) })]);
    expect(JSON.stringify(list.body)).not.toContain(pat);

    const before = await snapshot(t.db(), "dossier");
    const write = await api("POST", "/api/v1/dossiers", { token: pat, body: { libelle: "Refusé", idOad: t.demo().oads.reseauDemo } });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ key: "errors.api.read-only-token" });
    expect(await snapshot(t.db(), "dossier")).toEqual(before);

    // Another user cannot revoke it; its owner can.
    expect((await api("DELETE", `/api/v1/jetons/${id}`, { token: await tokenOf("redacteur") })).status).toBe(404);
    const revoked = await api("DELETE", `/api/v1/jetons/${id}`, { token: login });
    expect(revoked.status).toBe(204);
    expect((await api("GET", "/api/v1/oads", { token: pat })).status).toBe(401);

    const bad = await api("POST", "/api/v1/jetons", { token: login, body: { nom: "", acces: "tout", joursValidite: 9999 } });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors).sort()).toEqual(["acces", "joursValidite", "nom"]);
  });

  test("[A-API-07] the profile page's tokens: made, listed and revoked by the signed-in user; bad input refused", async () => {
    const user = await demoUser(t.db(), "lecteur");
    const path = "/home/profil/jetons";
    const made = await postForm(jetonsAction, { db: t.db(), user, path, form: { intent: "create", nom: "Tableur", acces: "ecriture", joursValidite: "30" } });
    expect(made.status).toBe(200);
    const { created } = made.body as { created: { id: number; token: string } };
    expect((await api("GET", `/api/v1/utilisateurs/${user.id}`, { token: created.token })).status).toBe(200);
    const list = await getRoute(jetonsLoader, { db: t.db(), user, path });
    expect(list.body).toEqual([expect.objectContaining({ id: created.id, nom: "Tableur", acces: "ecriture" })]);
    const bad = await postForm(jetonsAction, { db: t.db(), user, path, form: { intent: "create", nom: "", acces: "admin", joursValidite: "0" } });
    expect(bad.status).toBe(400);
    const other = await postForm(jetonsAction, {
      db: t.db(),
      user: await demoUser(t.db(), "redacteur"),
      path,
      form: { intent: "revoke", id: String(created.id) },
    });
    expect(other.status).toBe(404);
    expect((await postForm(jetonsAction, { db: t.db(), user, path, form: { intent: "revoke", id: String(created.id) } })).status).toBe(200);
    expect((await api("GET", `/api/v1/utilisateurs/${user.id}`, { token: created.token })).status).toBe(401);
  });

  test("[A-API-03] rate limit per token and per address: 429 with Retry-After", async () => {
    const token = await tokenOf("lecteur");
    const perToken = { quota: { perToken: 2, perAddress: 1000, windowMs: 60_000 }, clientIp: "192.0.2.1" };
    expect((await api("GET", "/api/v1/oads", { token, options: perToken })).status).toBe(200);
    expect((await api("GET", "/api/v1/oads", { token, options: perToken })).status).toBe(200);
    const over = await api("GET", "/api/v1/oads", { token, options: perToken });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.body).toMatchObject({ key: "errors.api.too-many-requests" });

    const perAddress = { quota: { perToken: 1000, perAddress: 1, windowMs: 60_000 }, clientIp: "192.0.2.77" };
    expect((await api("GET", "/api/v1/oads", { token: null, options: perAddress })).status).toBe(401);
    expect((await api("GET", "/api/v1/oads", { token: await tokenOf("lecteur"), options: perAddress })).status).toBe(429);
  });

  test("[A-API-03] a user who has not accepted the terms reads himself, nothing else", async () => {
    const token = await tokenOf("nouveau");
    expect((await api("GET", `/api/v1/utilisateur_connectes/${t.demo().users.nouveau}`, { token })).status).toBe(200);
    expect((await api("GET", "/api/v1/oads", { token })).body).toMatchObject({ status: 403, key: "errors.api.terms-not-accepted" });
  });
});

describe("users and networks", () => {
  test("[A-API-09][A-API-11] GET utilisateurs/{id} and utilisateur_connectes/{id}: the user himself; another user's id is refused", async () => {
    const token = await tokenOf("admin");
    const id = t.demo().users.admin;
    const connected = await api("GET", `/api/v1/utilisateur_connectes/${id}`, { token });
    expect(connected.body).toMatchObject({ id, username: "admin", admin: true, roles: ["ROLE_TEST"] });
    expect(connected.body).not.toHaveProperty("passwordHash");
    const other = await api("GET", `/api/v1/utilisateurs/${t.demo().users.lecteur}`, { token });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ key: "errors.forbidden" });
  });

  test("[A-ERR-14] a connected-user load for another id fails with utilisateur_connectes-service-error", async () => {
    const token = await tokenOf("admin");
    const failed = await api("GET", `/api/v1/utilisateur_connectes/${t.demo().users.lecteur}`, { token });
    expect(failed.status).toBe(403);
    expect(failed.body).toMatchObject({ key: "errors.services.utilisateur_connectes-service-error" });
    expect(failed.body).not.toHaveProperty("username");
  });

  test("[A-API-21][A-API-22] user groups and their visible members, for whoever may grant rights; others refused", async () => {
    const { groupes, users } = t.demo();
    const token = await tokenOf("animateur");
    const list = await api("GET", "/api/v1/reference_groupes_utilisateurs", { token });
    expect(list.body).toEqual(expect.arrayContaining([{ idGroupe: groupes.conseillers, nomGroupe: "Conseillers du réseau démo" }]));
    expect((await api("GET", `/api/v1/reference_groupes_utilisateurs/${groupes.conseillers}`, { token })).body).toEqual({
      idGroupe: groupes.conseillers,
      nomGroupe: "Conseillers du réseau démo",
    });
    expect((await api("GET", "/api/v1/reference_groupes_utilisateurs/999999", { token })).status).toBe(404);
    const members = await api("GET", `/api/v1/utilisateurs?idGroupe=${groupes.conseillers}`, { token });
    expect((members.body as { id: number }[]).map((u) => u.id)).toContain(users.redacteur);
    expect(Object.keys((members.body as object[])[0]).sort()).toEqual(["id", "nom", "prenom"]);
    const lecteur = await tokenOf("lecteur");
    expect((await api("GET", "/api/v1/reference_groupes_utilisateurs", { token: lecteur })).status).toBe(403);
    expect((await api("GET", `/api/v1/utilisateurs?idGroupe=${groupes.conseillers}`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", "/api/v1/utilisateurs", { token })).status).toBe(400);
  });

  test("[A-API-12][A-API-01] GET oads and oads/{id}: id, libelle, libelleLong; an unknown network is a 404", async () => {
    const token = await tokenOf("lecteur");
    const list = await api("GET", "/api/v1/oads", { token });
    expect(list.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: t.demo().oads.reseauDemo, libelle: expect.any(String) })]));
    const one = await api("GET", `/api/v1/oads/${t.demo().oads.reseauDemo}`, { token });
    expect(one.body).toHaveProperty("libelleLong");
    const missing = await api("GET", "/api/v1/oads/999999", { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ key: "errors.not-found" });
  });

  test("[A-API-05][A-API-06] locale=en gives the English title of a problem; French without it", async () => {
    const token = await tokenOf("lecteur");
    expect((await api("GET", "/api/v1/oads/999999?locale=en", { token })).body).toMatchObject({ title: "Not found" });
    expect((await api("GET", "/api/v1/oads/999999", { token })).body).toMatchObject({ title: "Introuvable" });
  });
});

describe("folders", () => {
  test("[A-API-13] GET v2 dossiers: the folders of a network, optionally only those the user may write", async () => {
    const { oads, dossiers } = t.demo();
    const lecteur = await tokenOf("lecteur");
    const read = await api("GET", `/api/v2/dossiers?oad=${oads.reseauDemo}`, { token: lecteur });
    expect((read.body as { id: number }[]).map((d) => d.id)).toEqual([dossiers.beauce]);
    const write = await api("GET", `/api/v2/dossiers?oad=${oads.reseauDemo}&ecriture=true`, { token: lecteur });
    expect(write.body).toEqual([]);
    const redacteur = await api("GET", `/api/v2/dossiers?oad=${oads.reseauDemo}&ecriture=true`, { token: await tokenOf("redacteur") });
    expect((redacteur.body as { id: number }[]).map((d) => d.id).sort()).toEqual([dossiers.beauce, dossiers.bocage].sort());
    const bad = await api("GET", `/api/v2/dossiers?oad=abc&ecriture=peut-etre&autre=1`, { token: lecteur });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors).sort()).toEqual(["autre", "ecriture", "oad"]);
  });

  test("[A-API-14][A-ENT-02] folders: create (remarque empty when missing), read, update with updatedAt, stale 409, delete 204", async () => {
    const { oads } = t.demo();
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/dossiers", { token, body: { libelle: "Dossier API", idOad: oads.reseauDemo } });
    expect(made.status).toBe(201);
    const dossier = made.body as { id: number; updatedAt: string; remarque: string };
    expect(dossier).toMatchObject({ libelle: "Dossier API", idOad: oads.reseauDemo, remarque: "" });
    expect((await api("GET", `/api/v1/dossiers/${dossier.id}`, { token })).body).toMatchObject({ id: dossier.id });

    const patched = await api("PATCH", `/api/v1/dossiers/${dossier.id}`, {
      token,
      body: { libelle: "Dossier API renommé", idOad: oads.reseauDemo, remarque: "Suivi", updatedAt: dossier.updatedAt },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ libelle: "Dossier API renommé", remarque: "Suivi" });
    const stale = await api("PATCH", `/api/v1/dossiers/${dossier.id}`, {
      token,
      body: { libelle: "Écrasé", idOad: oads.reseauDemo, updatedAt: dossier.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect((await t.db()("dossier").where({ id: dossier.id }).first("libelle")).libelle).toBe("Dossier API renommé");

    const gone = await api("DELETE", `/api/v1/dossiers/${dossier.id}`, { token });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect(await countRows(t.db(), "dossier", { id: dossier.id })).toBe(0);
    expect((await api("GET", `/api/v1/dossiers/${dossier.id}`, { token })).status).toBe(404);
  });

  test("[A-API-14] rights at HTTP level: reader, synthesis, no right and anonymous are refused, nothing stored", async () => {
    const { dossiers, oads } = t.demo();
    const before = await snapshot(t.db(), "dossier", "utilisateur_dossier");
    const current = await t.db()("dossier").where({ id: dossiers.beauce }).first("updatedAt");
    const updatedAt = new Date(current.updatedAt).toISOString();
    const patch = { libelle: "Piraté", idOad: oads.reseauDemo, updatedAt };
    for (const username of ["lecteur", "synthese", "redacteur"]) {
      const r = await api("PATCH", `/api/v1/dossiers/${dossiers.beauce}`, { token: await tokenOf(username), body: patch });
      expect([username, r.status]).toEqual([username, 403]);
      expect((await api("DELETE", `/api/v1/dossiers/${dossiers.beauce}`, { token: await tokenOf(username) })).status).toBe(403);
    }
    expect((await api("PATCH", `/api/v1/dossiers/${dossiers.beauce}`, { body: patch })).status).toBe(401);
    // No right at all on the folder: not even a read.
    expect((await api("GET", `/api/v1/dossiers/${dossiers.bocage}`, { token: await tokenOf("lecteur") })).status).toBe(403);
    // The animator may not delete a folder whose farms would be left without one.
    const orphan = await api("DELETE", `/api/v1/dossiers/${dossiers.beauce}`, { token: await tokenOf("animateur") });
    expect(orphan.status).toBe(409);
    expect(orphan.body).toMatchObject({ key: "dossier.delete-orphan-farms" });
    expect(await snapshot(t.db(), "dossier", "utilisateur_dossier")).toEqual(before);
  });

  test("[C-ERR-06] bad input: wrong types, unknown fields, broken JSON, a 10 MB body, another type: 4xx problem, nothing stored, no 500", async () => {
    const token = await tokenOf("redacteur");
    const before = await snapshot(t.db(), "dossier");
    const idOad = t.demo().oads.reseauDemo;
    const cases: [Call, number, string][] = [
      [{ body: { libelle: 12, idOad: "abc" } }, 400, "warning.invalid-form"],
      [{ body: { libelle: "X", idOad, admin: true } }, 400, "warning.invalid-form"],
      [{ body: [{ libelle: "X", idOad }] }, 400, "warning.invalid-form"],
      [{ body: { libelle: "X\u0000", idOad } }, 400, "warning.invalid-form"],
      [{ body: { libelle: "X", idOad: 2 ** 31 } }, 400, "warning.invalid-form"],
      [{ raw: '{"libelle": "X", ' }, 400, "errors.api.invalid-json"],
      [{ raw: "" }, 400, "errors.api.invalid-json"],
      [{ raw: JSON.stringify({ libelle: "x".repeat(10 * 1024 * 1024), idOad }) }, 413, "errors.api.body-too-large"],
      [{ raw: "libelle=X", headers: { "Content-Type": "application/x-www-form-urlencoded" } }, 415, "errors.api.content-type"],
    ];
    for (const [o, status, key] of cases) {
      const r = await api("POST", "/api/v1/dossiers", { token, ...o });
      expect([status, r.status, r.body?.key]).toEqual([status, status, key]);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
    }
    const typed = await api("POST", "/api/v1/dossiers", { token, body: { libelle: 12, idOad: "abc", admin: true } });
    expect((typed.body as { fieldErrors: Record<string, string[]> }).fieldErrors).toMatchObject({ idOad: expect.any(Array) });
    // A body of 10 MB whose length is not declared is cut at the limit as well.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 11; i++) c.enqueue(new Uint8Array(1024 * 1024).fill(32));
        c.close();
      },
    });
    const streamed = await answerApi(
      API_CALLS,
      new Request(`${BASE}/api/v1/dossiers`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit),
      t.db(),
    );
    expect(streamed.status).toBe(413);
    expect((await api("PUT", "/api/v1/dossiers", { token, body: {} })).status).toBe(405);
    expect((await api("GET", "/api/v1/nulle-part", { token })).status).toBe(404);
    expect(await snapshot(t.db(), "dossier")).toEqual(before);
  });
});

describe("farm description", () => {
  test("[B-API-16][B-API-01] GET campagnes/{id}/parcelles: the plots of the named campaign, whatever the user's selection", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("lecteur");
    const r = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/parcelles`, { token });
    expect(r.status).toBe(200);
    const rows = r.body as { idCampagne: number; libelle: string }[];
    const expected = await countRows(t.db(), "parcelle", { idCampagne: campagnes.tilleuls2025 });
    expect(expected).toBeGreaterThan(0);
    expect(rows).toHaveLength(expected);
    expect(rows.every((p) => p.idCampagne === campagnes.tilleuls2025)).toBe(true);
    // The selection stored for the screens is not touched.
    expect(await countRows(t.db(), "utilisateur_contexte", { idUser: t.demo().users.lecteur, idCampagne: campagnes.tilleuls2025 })).toBe(0);
  });

  test("[B-API-16] other farm and unknown campaign: refused", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("lecteur");
    const other = await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/parcelles`, { token });
    expect(other.status).toBe(403);
    expect((await api("GET", "/api/v1/campagnes/999999/parcelles", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/campagnes/0/parcelles", { token })).status).toBe(400);
  });
  test("[B-API-16] POST parcelles and PATCH parcelles/{id}: created and updated through the plot form's schema and service; refusals store nothing", async () => {
    const { campagnes } = t.demo();
    const redacteur = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/parcelles", {
      token: redacteur,
      body: { idCampagne: campagnes.tilleuls2025, libelle: "Parcelle API", surface: 3.5 },
    });
    expect(made.status).toBe(201);
    const plot = made.body as { id: number; updatedAt: string; surface: number };
    expect(plot).toMatchObject({ idCampagne: campagnes.tilleuls2025, libelle: "Parcelle API", surface: 3.5 });

    const before = await snapshot(t.db(), "parcelle");
    const lotOfOtherFarm = await t.db()("lot_parcelle").where({ idCampagne: campagnes.vallee2025 }).first("id");
    const refused: [string | null, Record<string, unknown>, number][] = [
      ["lecteur", { idCampagne: campagnes.tilleuls2025, libelle: "Non", surface: 1 }, 403],
      ["synthese", { idCampagne: campagnes.tilleuls2025, libelle: "Non", surface: 1 }, 403],
      ["redacteur", { idCampagne: campagnes.tilleuls2024, libelle: "Verrouillée", surface: 1 }, 403],
      ["lecteur", { idCampagne: campagnes.vallee2025, libelle: "Autre ferme", surface: 1 }, 403],
      [null, { idCampagne: campagnes.tilleuls2025, libelle: "Anonyme", surface: 1 }, 401],
      ["redacteur", { idCampagne: campagnes.tilleuls2025, libelle: "Sans surface", surface: -2 }, 400],
      ["redacteur", { idCampagne: campagnes.tilleuls2025, libelle: "Champ inconnu", surface: 1, proprietaire: "x" }, 400],
      ["redacteur", { idCampagne: 999999, libelle: "Nulle part", surface: 1 }, 404],
      ...(lotOfOtherFarm
        ? [
            ["redacteur", { idCampagne: campagnes.tilleuls2025, libelle: "Lot d'ailleurs", surface: 1, idLot: lotOfOtherFarm.id }, 400] as [
              string,
              Record<string, unknown>,
              number,
            ],
          ]
        : []),
    ];
    for (const [username, body, status] of refused) {
      const r = await api("POST", "/api/v1/parcelles", { token: username ? await tokenOf(username) : null, body });
      expect([body.libelle, r.status]).toEqual([body.libelle, status]);
    }
    expect(await snapshot(t.db(), "parcelle")).toEqual(before);

    const patched = await api("PATCH", `/api/v1/parcelles/${plot.id}`, {
      token: redacteur,
      body: { libelle: "Parcelle API bis", surface: 4, updatedAt: plot.updatedAt },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: plot.id, libelle: "Parcelle API bis", surface: 4 });
    const stale = await api("PATCH", `/api/v1/parcelles/${plot.id}`, { token: redacteur, body: { libelle: "Écrasée", surface: 4, updatedAt: plot.updatedAt } });
    expect(stale.status).toBe(409);
    expect((await api("PATCH", "/api/v1/parcelles/999999", { token: redacteur, body: { libelle: "X", surface: 1, updatedAt: plot.updatedAt } })).status).toBe(
      404,
    );
    expect(
      (await api("PATCH", `/api/v1/parcelles/${plot.id}`, { token: await tokenOf("lecteur"), body: { libelle: "Lu", surface: 1, updatedAt: plot.updatedAt } }))
        .status,
    ).toBe(403);
    expect((await t.db()("parcelle").where({ id: plot.id }).first("libelle")).libelle).toBe("Parcelle API bis");
  });

  test("[B-API-16] [B-PLOT-17] GET parcelles/{id} reads one plot; DELETE parcelles/{id} deletes it with its interventions, refused to a reader, on a locked campaign and anonymously", async () => {
    const { campagnes } = t.demo();
    const redacteur = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/parcelles", {
      token: redacteur,
      body: { idCampagne: campagnes.tilleuls2025, libelle: "Parcelle à supprimer", surface: 2 },
    });
    const plot = made.body as { id: number };
    const read = await api("GET", `/api/v1/parcelles/${plot.id}`, { token: await tokenOf("lecteur") });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: plot.id, idCampagne: campagnes.tilleuls2025, libelle: "Parcelle à supprimer", surface: 2 });
    expect((await api("GET", "/api/v1/parcelles/999999", { token: redacteur })).status).toBe(404);
    expect((await api("GET", `/api/v1/parcelles/${plot.id}`, { token: null })).status).toBe(401);

    const locked = await t.db()("parcelle").where({ idCampagne: campagnes.tilleuls2024 }).first("id");
    const before = await snapshot(t.db(), "parcelle");
    const refused: [string | null, number, number][] = [
      ["lecteur", plot.id, 403],
      ["synthese", plot.id, 403],
      [null, plot.id, 401],
      ["redacteur", locked.id, 403],
      ["redacteur", 999999, 404],
    ];
    for (const [username, id, status] of refused) {
      const r = await api("DELETE", `/api/v1/parcelles/${id}`, { token: username ? await tokenOf(username) : null });
      expect([username, id, r.status]).toEqual([username, id, status]);
    }
    expect(await snapshot(t.db(), "parcelle")).toEqual(before);

    const gone = await api("DELETE", `/api/v1/parcelles/${plot.id}`, { token: redacteur });
    expect(gone.status).toBe(204);
    expect(gone.text ?? "").toBe("");
    expect(await t.db()("parcelle").where({ id: plot.id }).first()).toBeUndefined();
    expect((await api("GET", `/api/v1/parcelles/${plot.id}`, { token: redacteur })).status).toBe(404);
  });
});

describe("farms and campaigns", () => {
  test("[A-API-15][B-API-04][B-API-05] GET exploitations filters on dossierExploitation.dossier and dossierExploitation.dexEcriture", async () => {
    const { dossiers, exploitations } = t.demo();
    const redacteur = await tokenOf("redacteur");
    const all = await api("GET", `/api/v1/exploitations?dossierExploitation.dossier=${dossiers.bocage}`, { token: redacteur });
    expect((all.body as { id: number }[]).map((e) => e.id).sort()).toEqual([exploitations.moulin, exploitations.vallee].sort());
    const writable = await api("GET", `/api/v1/exploitations?dossierExploitation.dossier=${dossiers.bocage}&dossierExploitation.dexEcriture=true`, {
      token: redacteur,
    });
    // Moulin is linked to Bocage for reading only.
    expect((writable.body as { id: number; dossierExploitation: { dexAnimation: boolean } }[]).map((e) => e.id)).toEqual([exploitations.vallee]);
    expect((await api("GET", `/api/v1/exploitations?dossierExploitation.dossier=${dossiers.bocage}`, { token: await tokenOf("lecteur") })).status).toBe(403);
  });

  test("[B-API-06] GET campagnes/{id}: the campaign with its lock and last-action year", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("lecteur");
    const open = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}`, { token });
    expect(open.body).toMatchObject({ id: campagnes.tilleuls2025, anneeRecolte: 2025, locked: false, idCampagneHistoParcelle: campagnes.tilleuls2024 });
    expect((await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2024}`, { token })).body).toMatchObject({ indicateurPublie: true, locked: true });
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}`, { token })).status).toBe(403);
  });

  test("[A-API-27][B-API-07] PATCH campagnes/{id}/maj_dates_actions: the writer moves the dates; reader, other farm, locked campaign and anonymous are refused", async () => {
    const { campagnes } = t.demo();
    const before = await snapshot(t.db(), "campagne");
    const body = { anneeRecolteCible: 2026 };
    const refused: [string | null, number, number][] = [
      ["lecteur", campagnes.tilleuls2025, 403],
      ["synthese", campagnes.tilleuls2025, 403],
      ["lecteur", campagnes.vallee2025, 403],
      ["redacteur", campagnes.tilleuls2024, 403],
      [null, campagnes.tilleuls2025, 401],
    ];
    for (const [username, id, status] of refused) {
      const r = await api("PATCH", `/api/v1/campagnes/${id}/maj_dates_actions`, { token: username ? await tokenOf(username) : null, body });
      expect([username, id, r.status]).toEqual([username, id, status]);
    }
    expect(await snapshot(t.db(), "campagne")).toEqual(before);
    const bad = await api("PATCH", `/api/v1/campagnes/${campagnes.tilleuls2025}/maj_dates_actions`, {
      token: await tokenOf("redacteur"),
      body: { anneeRecolteCible: "2026a" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fieldErrors: { anneeRecolteCible: expect.any(Array) } });

    const ok = await api("PATCH", `/api/v1/campagnes/${campagnes.moulin2025}/maj_dates_actions`, { token: await tokenOf("redacteur"), body });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ moved: expect.any(Number) });
    expect(Number((await t.db()("campagne").where({ id: campagnes.moulin2025 }).first("anneeDerniereAction")).anneeDerniereAction)).toBe(2026);
  });
});

describe("OpenAPI", () => {
  test("[A-API-02] GET openapi.json: an OpenAPI 3.1 document of every call", async () => {
    const response = await openApiLoader();
    const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe("3.1.0");
    for (const call of API_CALLS) expect(doc.paths[call.path]?.[call.method.toLowerCase()]).toBeDefined();
  });

  test("[issue26-openapi-compact] the document is compact: every $ref resolves, no object schema is written twice", async () => {
    const doc = (await (await openApiLoader()).json()) as Record<string, unknown>;
    const refs: string[] = [];
    const objects = new Map<string, number>();
    const walk = (x: unknown, top: boolean) => {
      if (!x || typeof x !== "object") return;
      if (!Array.isArray(x)) {
        const o = x as Record<string, unknown>;
        if (typeof o.$ref === "string") refs.push(o.$ref);
        const key = JSON.stringify(o);
        if (!top && key.length >= 100 && key.includes('"properties":') && "type" in o) objects.set(key, (objects.get(key) ?? 0) + 1);
      }
      for (const v of Object.values(x)) walk(v, false);
    };
    walk(doc.paths, true);
    const components = doc.components as Record<string, Record<string, unknown>>;
    for (const s of Object.values(components.schemas)) walk(s, true);
    const unresolved = [...new Set(refs)].filter((r) => {
      const [, kind, name] = r.split("/").slice(1);
      return !r.startsWith("#/components/") || !(name in (components[kind] ?? {}));
    });
    expect(unresolved).toEqual([]);
    expect([...objects.values()].filter((n) => n > 1)).toEqual([]);
    // Every refusal refers to one shared answer, which refers to the one problem schema.
    expect(refs.filter((r) => r.startsWith("#/components/responses/")).length).toBeGreaterThan(API_CALLS.length);
    expect(Object.values(components.responses).every((r) => JSON.stringify(r).includes('"#/components/schemas/Problem"'))).toBe(true);
  });
});

// The contract (issue 26): every documented path and method was called by this file, and every answer validates
// against the schema the document gives for its status.
afterAll(() => expectContract([...APPELS_CADRE, ...APPELS_EXPLOITATION], answered));
