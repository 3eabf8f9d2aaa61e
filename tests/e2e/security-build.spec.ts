import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E } from "./settings";

/**
 * Issue 10, defect 10 (docs/decisions/0022-atomic-build.md): starting a second server on the same tree,
 * even one that forces a new build, leaves a running server whole: its pages, its scripts and its lazily
 * loaded server code keep answering.
 */

// Clear of every worker's own two ports (E2E.port + 2 × slot and the next).
const PORT_A = E2E.port + 50;
const PORT_B = E2E.port + 51;

function start(port: number, dataDir: string, env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void>; log: () => string } {
  rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ["server/start.js"], {
    env: {
      WEB_CONCURRENCY: "1",
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_PATH: E2E.basePath,
      DATA_DIR: dataDir,
      SESSION_SECRET: "e2e-build-secret-0123456789",
      COOKIE_SECURE: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes("Sillon listens on")) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`server on ${port} stopped (${code}):\n${out}`)));
  });
  return { child, ready, log: () => out };
}

async function signedIn(port: number): Promise<APIRequestContext> {
  const origin = `http://127.0.0.1:${port}`;
  const api = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}` });
  const res = await api.post("login", { headers: { Origin: origin }, form: { username: "redacteur", password: "demo1234" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  return api;
}

/** A page that loads server code, and every script it names. */
async function wholePage(api: APIRequestContext) {
  const page = await api.get("home/description/home");
  expect(page.status()).toBe(200);
  const html = await page.text();
  const scripts = [...html.matchAll(/(?:src|href)="(\/sillon\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect((await api.get(s)).status(), s).toBe(200);
}

test("[issue10-10] a second server that rebuilds the tree leaves the running one answering", async () => {
  test.setTimeout(300_000);
  const a = start(PORT_A, `${E2E.dataDir}-build-a`);
  let b: ReturnType<typeof start> | undefined;
  try {
    await a.ready;
    const api = await signedIn(PORT_A);
    await wholePage(api);
    b = start(PORT_B, `${E2E.dataDir}-build-b`, { FORCE_BUILD: "1" });
    let during = 0;
    const done = b.ready.then(() => true);
    // While the second server builds, and once it listens, the first keeps answering whole pages.
    while (!(await Promise.race([done, new Promise<false>((r) => setTimeout(() => r(false), 2000))]))) {
      await wholePage(api);
      during++;
    }
    expect(b.log()).toContain("Building Sillon");
    expect(during).toBeGreaterThan(0);
    await wholePage(api);
    const again = await signedIn(PORT_A);
    await wholePage(again);
    // The second server serves its own new build.
    await wholePage(await signedIn(PORT_B));
  } finally {
    a.child.kill("SIGTERM");
    b?.child.kill("SIGTERM");
  }
});
