// What the benchmarks share: a server started on its own fresh data folder, demo sign-in, context selection, percentiles.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A fresh data folder under the system's temporary folder, never in the checkout: the bench removes it at the end. */
export const tempDataDir = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `sillon-bench-${name}-`));

/** The demo's network, folder, `farm` and its 2025 campaign (what selectContext takes), from an open better-sqlite3 database. */
export function demoIds(db, farm = "EARL des Tilleuls") {
  const one = (sql, ...p) => db.prepare(sql).get(...p).id;
  const exploitation = one("select id from exploitation where libelle = ?", farm);
  return {
    oad: one("select id from oad where libelle = ?", "Réseau démo"),
    dossier: one("select id from dossier where libelle = ?", "Groupe Grandes cultures Beauce"),
    exploitation,
    campagne: one("select id from campagne where id_exploitation = ? and annee_recolte = 2025 and simulation = 0", exploitation),
  };
}

/** Command-line options `--name value`. */
export const argsOf = (argv) => Object.fromEntries(argv.reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));

export function serverEnv({ port, dataDir, processes = "" }) {
  return {
    ...process.env,
    WEB_CONCURRENCY: processes,
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_PATH: "/",
    DATA_DIR: dataDir,
    COOKIE_SECURE: "0",
    SESSION_SECRET: "bench-secret-0123456789abcdef",
    LOG_LEVEL: "warn",
  };
}

/** Migrates and seeds a fresh data folder without starting the server (then scripts may add to it). */
export function prepareData({ port, dataDir }) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(root, "server/start.js"), "--setup-only"], {
    cwd: root,
    env: serverEnv({ port, dataDir }),
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Starts the built server on `dataDir` (fresh unless `keepData`); resolves once it listens. */
export function startServer({ port, dataDir, processes = "", keepData = false }) {
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean), path.join(root, "server/start.js")], {
    cwd: root,
    env: serverEnv({ port, dataDir, processes }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error("the server did not start within 180 s")), 180_000);
    // BENCH_SERVER_LOG=<file>: the server's own output (e.g. with BENCH_NODE_ARGS=--trace-gc) appended to a file.
    if (process.env.BENCH_SERVER_LOG) child.stdout.on("data", (chunk) => fs.appendFileSync(process.env.BENCH_SERVER_LOG, chunk));
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes("listens on")) {
        clearTimeout(deadline);
        resolve(child);
      }
    });
    child.on("exit", (code) => reject(new Error(`the server stopped with code ${code}`)));
  });
}

/** Stops a server started by startServer and waits for it to exit (so that its data folder can be removed). */
export async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/**
 * A light GET for load tests (as load tools such as wrk or autocannon do): node:http on a keep-alive agent, the
 * browser's Accept-Encoding, every byte of the answer read as sent (compressed) but not inflated or decoded. The load
 * generator shares the machine's cores with the server: fetch() and inflating cost it 1.5 to 2.5 ms per 45 kB answer.
 */
export function lightGet(url, requestHeaders, agent) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { "accept-encoding": "gzip, deflate, br, zstd", ...requestHeaders } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

export const headers = (origin, cookie, extra = {}) => ({ cookie, origin, "sec-fetch-site": "same-origin", ...extra });

export async function signIn(origin, username = "animateur") {
  const body = new URLSearchParams({ username, password: "demo1234" });
  const res = await fetch(`${origin}/login`, { method: "POST", body, headers: { origin, "sec-fetch-site": "same-origin" }, redirect: "manual" });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (res.status >= 400 || !cookie) throw new Error(`sign-in answered ${res.status} without a session cookie`);
  return cookie;
}

/** Selects network › folder › farm › campaign for the signed-in user. */
export async function selectContext(origin, cookie, ids) {
  const choices = [
    { intent: "oad", id: ids.oad },
    { intent: "dossier", id: ids.dossier },
    { intent: "exploitations", ids: [ids.exploitation] },
    { intent: "campagne", id: ids.campagne },
  ];
  for (const choice of choices) {
    const res = await fetch(`${origin}/home/contexte`, {
      method: "POST",
      body: JSON.stringify(choice),
      headers: headers(origin, cookie, { "content-type": "application/json" }),
      redirect: "manual",
    });
    if (res.status >= 400) throw new Error(`context ${choice.intent} answered ${res.status}`);
  }
}

export const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
export function summary(samples) {
  const ms = samples
    .filter((s) => s.ok)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return { count: samples.length, errors: samples.filter((s) => !s.ok).length, p50: percentile(ms, 50), p95: percentile(ms, 95) };
}
export const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : "–");

/** CPU time (ms, user + system) of a process and its children (the cluster's server processes), from /proc. */
export function treeCpuMs(pid) {
  const ticks = 100; // USER_HZ on Linux
  const of = (p) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(f[11]) + Number(f[12])) * 1000) / ticks;
    } catch {
      return 0;
    }
  };
  const children = (p) => {
    try {
      return fs
        .readdirSync(`/proc/${p}/task`)
        .flatMap((t) => fs.readFileSync(`/proc/${p}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      return [];
    }
  };
  let total = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop();
    total += of(p);
    todo.push(...children(p));
  }
  return total;
}

/** Load average of the machine (1 minute), for the figures' context. */
export const loadAverage = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0];
