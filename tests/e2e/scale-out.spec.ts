import { spawn, type ChildProcess } from "node:child_process";
import { request as playwrightRequest } from "@playwright/test";
import { createDb } from "../../server/db/knex";
import { expect, test } from "./fixtures";
import { E2E } from "./settings";

/**
 * Issue 16 (scale-out, decision 0040): two servers started at the same moment on one new PostgreSQL database both
 * come up; one of them migrates and loads the demo data while the other waits for it, and each serves a sign-in.
 */
test("[issue16] two servers starting at once on one new PostgreSQL database both come up, with one migration run", async () => {
  test.setTimeout(240_000);
  const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const database = `sillon_e2e_scale_${process.pid}_${E2E.port}`;
  const admin = createDb(url);
  await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.raw(`CREATE DATABASE "${database}"`);
  const u = new URL(url);
  u.pathname = `/${database}`;
  const ports = [42_000 + (E2E.port % 1000), 43_000 + (E2E.port % 1000)]; // clear of the workers' ports and the machine's services
  const outputs = ports.map(() => "");
  const servers: ChildProcess[] = ports.map((port, i) => {
    const child = spawn(process.execPath, ["server/start.js"], {
      env: {
        ...process.env,
        WEB_CONCURRENCY: "1",
        FORCE_BUILD: "0",
        PORT: String(port),
        HOST: "127.0.0.1",
        BASE_PATH: E2E.basePath,
        DATA_DIR: `${E2E.dataDir}-scale-${i}`,
        DATABASE_URL: u.toString(),
        SEED_DEMO: "1",
        SESSION_SECRET: "e2e-scale-secret-0123456789",
        COOKIE_SECURE: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (b: Buffer) => (outputs[i] += b.toString()));
    child.stderr!.on("data", (b: Buffer) => (outputs[i] += b.toString()));
    return child;
  });
  try {
    await Promise.all(
      servers.map(
        (child, i) =>
          new Promise<void>((resolve, reject) => {
            const check = setInterval(() => {
              if (outputs[i].includes("Sillon listens on")) {
                clearInterval(check);
                resolve();
              }
            }, 100);
            child.once("exit", (code) => {
              clearInterval(check);
              reject(new Error(`server ${i} stopped (${code}):\n${outputs[i]}`));
            });
          }),
      ),
    );
    expect(
      outputs.filter((o) => o.includes("Migrations applied")),
      outputs.join("\n---\n"),
    ).toHaveLength(1);
    expect(outputs.filter((o) => o.includes("Demo data loaded"))).toHaveLength(1);
    const db = createDb(u.toString());
    try {
      const [{ n }] = await db("knex_migrations").count<{ n: string }[]>({ n: "*" });
      const [{ users }] = await db("utilisateur").where({ username: "redacteur" }).count<{ users: string }[]>({ users: "*" });
      expect(Number(n)).toBeGreaterThanOrEqual(9);
      expect(Number(users)).toBe(1);
    } finally {
      await db.destroy();
    }
    for (const port of ports) {
      const origin = `http://127.0.0.1:${port}`;
      const api = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}` });
      const signIn = await api.post("login", { headers: { Origin: origin }, form: { username: "redacteur", password: "demo1234" }, maxRedirects: 0 });
      expect(signIn.status(), `sign-in through port ${port}`).toBe(302);
      await api.dispose();
    }
  } finally {
    for (const child of servers) child.kill("SIGTERM");
    await Promise.all(servers.map((child) => (child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r)))));
    await admin.raw(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.destroy();
  }
});
