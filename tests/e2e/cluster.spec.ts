import { execFileSync, spawn } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./fixtures";
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

test("[issue10-perf] two server processes share sessions and sign-in counts, and stop together", async () => {
  test.setTimeout(120_000);
  const dataDir = `${E2E.dataDir}-cluster`;
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(E2E.templateDir, dataDir, { recursive: true });
  const child = spawn(process.execPath, ["server/start.js"], {
    env: {
      ...process.env,
      WEB_CONCURRENCY: "2",
      FORCE_BUILD: "0",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      BASE_PATH: E2E.basePath,
      DATA_DIR: dataDir,
      SESSION_SECRET: "e2e-cluster-secret-0123456789",
      COOKIE_SECURE: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let workers: number[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (b: Buffer) => {
        out += b.toString();
        if (out.includes("Sillon listens on")) resolve();
      });
      child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
      child.once("exit", (code) => reject(new Error(`the server stopped (${code}):\n${out}`)));
    });
    expect(out).toContain("(2 processes)");
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
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await expect.poll(() => workers.filter(alive)).toEqual([]);
});
