import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E } from "./settings";

/** Issue 16: the container's HEALTHCHECK asks /healthz (at the root and under the base path); no session needed. */
test("[issue16] /healthz answers 200 'ok' while the database answers, at the root and under the base path, never cached", async () => {
  const origin = `http://127.0.0.1:${E2E.port}`;
  const api = await playwrightRequest.newContext({ baseURL: origin });
  for (const path of ["/healthz", `${E2E.basePath}healthz`]) {
    const res = await api.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
    expect(await res.text()).toBe("ok");
    expect(res.headers()["cache-control"]).toBe("no-store");
  }
  await api.dispose();
});

test("[issue16] the server writes one line per request with the user's id, never the query, cookie or password", async () => {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const log = path.resolve("tests/.artifacts", `server-${E2E.port}.log`);
  const from = fs.existsSync(log) ? fs.statSync(log).size : 0;
  const origin = `http://127.0.0.1:${E2E.port}`;
  const api = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}` });
  const signIn = await api.post("login", { headers: { Origin: origin }, form: { username: "redacteur", password: "demo1234" }, maxRedirects: 0 });
  expect(signIn.status()).toBe(302);
  const secret = "jeton-secret-123";
  expect((await api.get(`home/description/home?token=${secret}`)).status()).toBe(200);
  await api.dispose();
  const { e2eDb } = await import("./fixtures");
  const userId = (await e2eDb()("utilisateur").where({ username: "redacteur" }).first("id")).id as number;
  await expect.poll(() => fs.readFileSync(log).subarray(from).toString("utf8")).toContain(`"path":"${E2E.basePath}home/description/home"`);
  const lines = fs
    .readFileSync(log)
    .subarray(from)
    .toString("utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"));
  const page = lines.map((l) => JSON.parse(l)).find((l) => l.path === `${E2E.basePath}home/description/home`);
  expect(page).toMatchObject({ method: "GET", status: 200, user: userId, level: "info" });
  expect(typeof page.ms).toBe("number");
  const login = lines.map((l) => JSON.parse(l)).find((l) => l.path === `${E2E.basePath}login` && l.method === "POST");
  expect(login).toMatchObject({ status: 302 });
  const all = lines.join("\n");
  for (const forbidden of [secret, "demo1234", "__sillon_session", "cookie"]) expect(all).not.toContain(forbidden);
});

test("[issue16] /healthz answers 503 'unavailable', without details, once the database is gone (PostgreSQL dropped under a running server)", async () => {
  test.setTimeout(180_000);
  const { spawn } = await import("node:child_process");
  const { createDb } = await import("../../server/db/knex");
  const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const database = `sillon_e2e_health_${process.pid}_${E2E.port}`;
  const admin = createDb(url);
  const port = 41_000 + (E2E.port % 1000); // clear of the workers' ports and of the machine's services (3306, 5432...)
  await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.raw(`CREATE DATABASE "${database}"`);
  const u = new URL(url);
  u.pathname = `/${database}`;
  const server = spawn(process.execPath, ["server/start.js"], {
    env: {
      ...process.env,
      WEB_CONCURRENCY: "1",
      FORCE_BUILD: "0",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_PATH: E2E.basePath,
      DATA_DIR: `${E2E.dataDir}-health`,
      DATABASE_URL: u.toString(),
      SEED_DEMO: "0",
      SESSION_SECRET: "e2e-health-secret-0123456789",
      COOKIE_SECURE: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on("data", (b: Buffer) => {
        out += b.toString();
        if (out.includes("Sillon listens on")) resolve();
      });
      server.stderr!.on("data", (b: Buffer) => (out += b.toString()));
      server.once("exit", (code) => reject(new Error(`the server stopped (${code}):\n${out}`)));
    });
    const api = await playwrightRequest.newContext({ baseURL: `http://127.0.0.1:${port}` });
    expect((await api.get("/healthz")).status()).toBe(200);
    await admin.raw(`DROP DATABASE "${database}" WITH (FORCE)`);
    await expect.poll(async () => (await api.get("/healthz")).status(), { timeout: 15_000 }).toBe(503);
    const gone = await api.get(`${E2E.basePath}healthz`);
    expect(gone.status()).toBe(503);
    expect(await gone.text()).toBe("unavailable");
    await api.dispose();
  } finally {
    server.kill("SIGTERM");
    await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.destroy();
  }
});
