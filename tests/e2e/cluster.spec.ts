import { execFileSync, spawn } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createDb } from "../../server/db/knex";
import { demoIds } from "./helpers";
import { E2E } from "./settings";

/**
 * Issue 10 (load: use both cores): `npm start` runs one server process per core (WEB_CONCURRENCY). Requests
 * are spread over the processes, so a session opened by one is honoured by the others, the sign-in throttle
 * counts every process's failures, and stopping the server stops them all.
 */
const PORT = E2E.port + 54; // clear of the workers' ports and of security-build.spec.ts's

const children = (pid: number): number[] => {
  try {
    return execFileSync("pgrep", ["-P", String(pid)])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

/** Starts `npm start`'s server on a copy of the e2e data with `concurrency` server processes; resolves once it listens. */
async function startServer(name: string, port: number, concurrency: string) {
  const dataDir = `${E2E.dataDir}-${name}`;
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(E2E.templateDir, dataDir, { recursive: true });
  const child = spawn(process.execPath, ["server/start.js"], {
    env: {
      ...process.env,
      WEB_CONCURRENCY: concurrency,
      FORCE_BUILD: "0",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_PATH: E2E.basePath,
      DATA_DIR: dataDir,
      SESSION_SECRET: "e2e-cluster-secret-0123456789",
      COOKIE_SECURE: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      if (out.includes("Sillon listens on")) resolve();
    });
    child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`the server stopped (${code}):\n${out}`)));
  });
  return { child, exited, listening, output: Object.assign(() => out, { dataDir }) };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("[issue10-perf] two server processes share sessions and sign-in counts, and stop together", async () => {
  test.setTimeout(120_000);
  const { child, exited, listening, output } = await startServer("cluster", PORT, "2");
  let workers: number[] = [];
  try {
    await listening;
    expect(output()).toContain("(2 server processes)");
    workers = children(child.pid!);
    expect(workers).toHaveLength(2);

    const origin = `http://127.0.0.1:${PORT}`;
    // A new connection per request, so that the primary hands them to both processes in turn.
    const api = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}`, extraHTTPHeaders: { Connection: "close" } });
    const signIn = await api.post("login", { headers: { Origin: origin }, form: { username: "redacteur", password: "demo1234" }, maxRedirects: 0 });
    expect(signIn.status()).toBe(302);
    for (let i = 0; i < 6; i++) {
      const page = await api.get("home/description/home", { maxRedirects: 0 });
      expect(page.status(), `request ${i}`).toBe(200);
    }

    const stranger = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}`, extraHTTPHeaders: { Connection: "close" } });
    const attempt = () => stranger.post("login", { headers: { Origin: origin }, form: { username: "lecteur", password: "pas-le-bon" }, maxRedirects: 0 });
    for (let i = 0; i < 5; i++) expect((await attempt()).status(), `failure ${i + 1}`).toBe(401);
    // Five failures spread over the two processes lock the name in both.
    for (let i = 0; i < 2; i++) expect((await attempt()).status()).toBe(429);
    await api.dispose();
    await stranger.dispose();
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  await expect.poll(() => workers.filter(alive)).toEqual([]);
});

test("[issue30-runner] with one server process the jobs still run outside it: the primary runs a job started through the API, the forked process answers", async () => {
  test.setTimeout(120_000);
  const port = PORT + 2;
  const { child, exited, listening, output } = await startServer("one-process", port, "1");
  let workers: number[] = [];
  try {
    await listening;
    expect(output()).toContain("(1 server process)");
    // The primary (the job runner) and the one process that serves.
    workers = children(child.pid!);
    expect(workers).toHaveLength(1);

    const { tilleuls2025 } = await demoIds();
    const origin = `http://127.0.0.1:${port}`;
    const api = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}` });
    const login = await api.post("api/v1/login_check", { data: { username: "redacteur", password: "demo1234" } });
    expect(login.status()).toBe(200);
    const headers = { Authorization: `Bearer ${(await login.json()).token}` };
    // A raw-data export: the request records the job and answers at once; the runner of the primary, woken by the
    // serving process, runs it.
    const started = await api.post("api/v1/campagnes/export", { headers, data: { campagneId: [tilleuls2025] } });
    expect(started.status()).toBe(202);
    const { href, fichier } = (await started.json()) as { href: string; fichier: string };
    // The serving process stopped (SIGSTOP): the job still ends, so it ran in the primary, not in a request's process.
    process.kill(workers[0], "SIGSTOP");
    const db = createDb(`file:${output.dataDir}/sillon.sqlite`);
    try {
      const idTache = Number(href.split("/").at(-1));
      await expect.poll(async () => (await db("tache").where({ id: idTache }).first("etat"))?.etat, { timeout: 60_000 }).toBe("terminee");
    } finally {
      process.kill(workers[0], "SIGCONT");
      await db.destroy();
    }
    const path = (address: string) => address.replace(/^\/+/, "").replace(E2E.basePath.replace(/^\/+/, ""), "");
    expect(((await (await api.get(path(href), { headers })).json()) as { etat: string }).etat).toBe("terminee");
    const file = await api.get(path(fichier), { headers });
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toContain("spreadsheetml.sheet");
    await api.dispose();
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  await expect.poll(() => workers.filter(alive)).toEqual([]);
});
