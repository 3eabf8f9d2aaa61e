import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { action as apiAction, loader as apiLoader } from "~/routes/api/api";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_INTEROP } from "../../server/api/appels-interop";
import { ProblemSchema } from "../../server/http/api.server";
import { dbContext } from "../../server/http/context.server";
import { clientIpContext } from "../../server/security/context";
import { Executeur } from "../../server/jobs/runner";
import fr from "~/locales/fr/edaplos";
import en from "~/locales/en/edaplos";

// The export files of this test file go to a folder of its own.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-api-interop-"));

/**
 * The interop calls of the JSON API (issue 27, C-API-39..44) over HTTP with a bearer token, on SQLite and PostgreSQL:
 * an eDaplos export started as a job (202 and its address), run, read, downloaded as XML, its logs, deleted; a Daplos
 * file uploaded as multipart (202 and its job) and the import history.
 */

const t = useTestDb();
const { api, tokenOf, answered, attendreTache } = apiClient(t);
const SAMPLE = fs.readFileSync(new URL("../fixtures/daplos/sample-v0.94.dap", import.meta.url));

/** A request whose answer may be a file, or whose body is a form: recorded for the contract as the JSON client does. */
async function raw(method: string, url: string, o: { token?: string; form?: FormData; body?: string; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  if (o.type) headers["Content-Type"] = o.type;
  const request = new Request(`http://sillon.test/sillon${url}`, { method, headers, body: o.form ?? o.body });
  const context = new RouterContextProvider();
  context.set(dbContext, t.db());
  context.set(clientIpContext, "203.0.113.29");
  const response: Response = await (method === "GET" ? apiLoader : apiAction)({ request, params: {}, context } as never);
  const text = await response.text();
  const type = response.headers.get("content-type");
  const body = type?.includes("json") && text ? JSON.parse(text) : text;
  answered.push({ method, path: url.split("?")[0], status: response.status, body, contentType: type });
  return { status: response.status, body, text, headers: response.headers };
}

const lances: Executeur[] = [];
afterEach(async () => {
  for (const e of lances.splice(0)) await e.arreter();
});
afterAll(() => {
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
  if (answered.length) expectContract(APPELS_INTEROP, answered);
});

type Tache = { id: number; etat: string };
/** Starts a job runner, then polls the job until it ended. */
async function attendre(token: string, href: string): Promise<Tache> {
  const e = new Executeur(t.db(), { concurrence: 1, instance: `test-api-interop:${process.pid}`, intervalleMs: 50, battementMs: 200 });
  lances.push(e);
  await e.demarrer();
  return attendreTache<Tache>(token, href, { ms: 120_000, pasMs: 50 });
}

function upload(fields: Record<string, string | File>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

describe(`eDaplos over the API (${dialect})`, () => {
  test("[C-API-40][C-API-39][C-API-41][C-API-42] POST e_daplos with campagnes answers 202 with statut and the job's address; run, the session is listed, read, its XML downloaded, its logs read, then deleted", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const started = await api("POST", "/api/v1/e_daplos", { token, body: { campagnes: [campagnes.tilleuls2025] } });
    expect([started.status, started.body]).toEqual([202, expect.anything()]);
    const { id, idTache, href, statut } = started.body as { id: number; idTache: number; href: string; statut: number };
    expect(href).toBe(`/api/v1/taches/${idTache}`);
    expect(statut).not.toBe(0);
    expect(await attendre(token, href)).toMatchObject({ etat: "terminee" });

    const list = await api("GET", `/api/v1/e_daplos?campagnes=${campagnes.tilleuls2025}`, { token });
    expect(list.status).toBe(200);
    expect((list.body as { id: number }[]).map((s) => s.id)).toContain(id);
    const one = await api("GET", `/api/v1/e_daplos/${id}`, { token });
    expect(one.body).toMatchObject({ id, statut: 0, succes: true, campagnes: [{ id: campagnes.tilleuls2025 }] });

    const xml = await raw("GET", `/api/v1/e_daplos/${id}/download`, { token });
    expect(xml.status).toBe(200);
    expect(xml.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(xml.headers.get("content-disposition")).toContain((one.body as { libelle: string }).libelle);
    expect(xml.text).toContain("CropDataSheetMessage");
    expect(Number(xml.headers.get("content-length"))).toBe((one.body as { taille: number }).taille);

    const logs = await api("GET", `/api/v1/e_daplos/${id}/logs`, { token });
    expect(logs.status).toBe(200);
    const lignes = logs.body as { id: number; logMessage: string }[];
    const stored = Number((await t.db()("session_export_log").where({ idSessionExport: id }).count({ n: "*" }))[0].n);
    expect(lignes.length).toBe(stored);
    // The demo's Tilleuls 2025 has inputs without an AgroEDI equivalent: its export always logs.
    expect(lignes.length).toBeGreaterThan(0);
    const first = lignes[0] as { id: number; niveau: number; logMessage: string; parametres: Record<string, string | number> };
    expect((await api("GET", `/api/v1/e_daplos_logs/${first.id}`, { token })).body).toEqual(first);
    expect((await api("GET", `/api/v1/e_daplos_logs/999999`, { token })).status).toBe(404);
    // The message resolved to its text, as the export screen shows it: French by default, English with locale=en.
    const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(first.parametres[k]));
    const message = await api("GET", `/api/v1/calculs_e_daplos_messages_logs/${first.id}`, { token });
    expect(message.body).toEqual({
      id: first.id,
      niveau: first.niveau,
      logMessage: first.logMessage,
      parametres: first.parametres,
      libelle: fill((fr.edaplos.logs as Record<string, string>)[first.logMessage]),
    });
    const english = await api("GET", `/api/v1/calculs_e_daplos_messages_logs/${first.id}?locale=en`, { token });
    expect((english.body as { libelle: string }).libelle).toBe(fill((en.edaplos.logs as Record<string, string>)[first.logMessage]));
    expect((english.body as { libelle: string }).libelle).not.toContain("{{");
    expect((await api("GET", `/api/v1/calculs_e_daplos_messages_logs/999999`, { token })).status).toBe(404);

    // Another user sees none of it.
    const other = await tokenOf("animateur");
    expect((await api("GET", `/api/v1/e_daplos/${id}`, { token: other })).status).toBe(404);
    expect((await raw("GET", `/api/v1/e_daplos/${id}/download`, { token: other })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/e_daplos/${id}`, { token: other })).status).toBe(404);

    expect((await api("DELETE", `/api/v1/e_daplos/${id}`, { token })).status).toBe(204);
    expect(await t.db()("session_export").where({ id }).first("id")).toBeUndefined();
    expect((await api("GET", `/api/v1/e_daplos/${id}`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v1/e_daplos/${id}/logs`, { token })).status).toBe(404);
  });

  test("[C-API-40][C-API-41] POST e_daplos refused: another farm's campaign (403), a read-only token (403), no campaign or a bad id (400); nothing stored; a running session's download is 409", async () => {
    const { campagnes } = t.demo();
    const before = await snapshot(t.db(), "session_export", "tache");
    const lecteur = await tokenOf("lecteur");
    const refused = await api("POST", "/api/v1/e_daplos", { token: lecteur, body: { campagnes: [campagnes.vallee2025] } });
    expect(refused.status).toBe(403);
    ProblemSchema.parse(refused.body);
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/e_daplos", { token: readOnly, body: { campagnes: [campagnes.tilleuls2025] } })).body).toMatchObject({
      key: "errors.api.read-only-token",
    });
    const token = await tokenOf("redacteur");
    expect((await api("POST", "/api/v1/e_daplos", { token, body: { campagnes: [] } })).status).toBe(400);
    expect((await api("POST", "/api/v1/e_daplos", { token, body: { campagnes: ["x"] } })).status).toBe(400);
    expect(await snapshot(t.db(), "session_export", "tache")).toEqual(before);

    // Not run yet: the file is not there.
    const started = await api("POST", "/api/v1/e_daplos", { token, body: { campagnes: [campagnes.tilleuls2025] } });
    const running = await raw("GET", `/api/v1/e_daplos/${(started.body as { id: number }).id}/download`, { token });
    expect(running.status).toBe(409);
    ProblemSchema.parse(running.body);
  });
});

describe(`Daplos upload and import history over the API (${dialect})`, () => {
  test("[C-API-43][C-API-44] POST daplos/upload (multipart: file, oad, user_id) answers 202 with the job's address; saedi_imports lists the import in progress", async () => {
    const { oads, users } = t.demo();
    const token = await tokenOf("redacteur");
    const r = await raw("POST", "/api/v1/daplos/upload", {
      token,
      form: upload({ file: new File([SAMPLE], "Export_1.dap"), oad: String(oads.reseauDemo), user_id: String(users.redacteur) }),
    });
    expect(r.status).toBe(202);
    const { idImport, idTache, href } = r.body as { idImport: number; idTache: number; href: string };
    expect(href).toBe(`/api/v1/taches/${idTache}`);
    expect(await t.db()("tache").where({ id: idTache }).first("type", "etat")).toMatchObject({ type: "import-daplos", etat: "en_attente" });
    const history = await api("GET", `/api/v1/saedi_imports?oad=${oads.reseauDemo}`, { token });
    expect(history.status).toBe(200);
    expect((history.body as { id: number }[])[0]).toMatchObject({ id: idImport, nomFichier: "Export_1.dap", etat: "en_cours", idTache });
    // Another user's history does not show it; a network the user has no folder of is refused.
    const other = await api("GET", `/api/v1/saedi_imports?oad=${oads.reseauDemo}`, { token: await tokenOf("animateur") });
    expect((other.body as { id: number }[]).map((l) => l.id)).not.toContain(idImport);
    expect((await api("GET", `/api/v1/saedi_imports?oad=${oads.international}`, { token })).status).toBe(403);
    expect((await api("GET", `/api/v1/saedi_imports`, { token })).status).toBe(400);
  });

  test("[C-API-43] daplos/upload refused: a read-only token and a reader (403), another user_id, a wrong extension, no file (400), a JSON body (415); nothing stored", async () => {
    const { oads, users } = t.demo();
    const before = await snapshot(t.db(), "import_daplos", "tache");
    const file = () => new File([SAMPLE], "Export_1.dap");
    const form = (extra: Record<string, string | File> = {}) =>
      upload({ file: file(), oad: String(oads.reseauDemo), user_id: String(users.redacteur), ...extra });
    const redacteur = await tokenOf("redacteur");
    const cases: [string, string, FormData, number][] = [
      ["read-only token", await tokenOf("redacteur", { nature: "personnel", acces: "lecture" }), form(), 403],
      ["reader", await tokenOf("lecteur"), form({ user_id: String(users.lecteur) }), 403],
      ["another user", redacteur, form({ user_id: String(users.lecteur) }), 400],
      ["extension", redacteur, form({ file: new File([SAMPLE], "Export_1.txt") }), 400],
      ["no oad", redacteur, upload({ file: file(), user_id: String(users.redacteur) }), 400],
      ["no file", redacteur, upload({ oad: String(oads.reseauDemo), user_id: String(users.redacteur) }), 400],
    ];
    for (const [why, token, body, status] of cases) {
      const r = await raw("POST", "/api/v1/daplos/upload", { token, form: body });
      expect([why, r.status]).toEqual([why, status]);
      ProblemSchema.parse(r.body);
    }
    const json = await raw("POST", "/api/v1/daplos/upload", { token: redacteur, body: "{}", type: "application/json" });
    expect(json.status).toBe(415);
    expect(await snapshot(t.db(), "import_daplos", "tache")).toEqual(before);
  });
});
