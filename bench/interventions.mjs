// Benchmark of the interventions screen's loader on the load-test farm (issue 11): 2,000 interventions with their
// inputs, every plot selected, through the built server.
//
//   node bench/interventions.mjs [--requests 400] [--concurrency 20] [--processes N] [--every-loader] [--after-write]
//
// Prepares a fresh data folder under the system's temporary folder (removed at the end): the seeded demo, then `scripts/demo-charge.ts`
// (EARL de la Charge 2025, 2,000 interventions); starts the server on port 3601, signs in `animateur` once per
// simulated user, selects that campaign, then asks the screen's `.data` as the browser does (below) with every plot
// chosen (`parcelleId`, ids joined by underscores): p50 / p95 with one user, then with `concurrency` users asking without pause; the server processes' CPU
// time per screen load (from /proc) with the bare baseline (/healthz) measured in the same run, and (since decision
// 0076) the CPU of the plot indicator panel's own request. Markdown rows for docs/performance.md on stdout.
// --after-write (issue 30): the concurrent phase is measured twice in the same run, cached (no write) and after a
// write: before each load, its user's write changes one intervention of a plot of its own (written into the database
// by this process, as another server process would; the triggers move the campaign's and the plot's counters on), so
// every load finds the campaign changed; only the load is timed. Ratios against the cached phase of the same run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import http from "node:http";
import {
  argsOf,
  demoIds,
  fmt,
  headers,
  lightGet,
  loadAverage,
  prepareData,
  root,
  selectContext,
  serverEnv,
  signIn,
  startServer,
  summary,
  treeCpuMs,
} from "./lib.mjs";

const args = argsOf([...process.argv.slice(2), ""]);
const port = Number(args.port ?? 3601);
const requests = Number(args.requests ?? 400);
const concurrency = Number(args.concurrency ?? 20);
const processes = args.processes ?? process.env.WEB_CONCURRENCY ?? "";
const origin = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-interventions-"));
const afterWrite = "after-write" in args;

prepareData({ port, dataDir });
execFileSync(path.join(root, "node_modules/.bin/vite-node"), [path.join(root, "scripts/demo-charge.ts")], {
  cwd: root,
  env: serverEnv({ port, dataDir }),
  stdio: ["ignore", "ignore", "inherit"],
});

function chargeIds() {
  const db = new Database(path.join(dataDir, "sillon.sqlite"), { readonly: true });
  const { oad, dossier, exploitation, campagne } = demoIds(db, "EARL de la Charge");
  const plots = db
    .prepare("select id from parcelle where id_campagne = ? order by id")
    .all(campagne)
    .map((r) => r.id);
  const actions = db.prepare("select count(*) as n from action where id_campagne = ?").get(campagne).n;
  // Per plot, one of its interventions: what a user's write changes in --after-write.
  const written = db
    .prepare("select id_parcelle as plot, min(id) as id from action where id_campagne = ? group by id_parcelle order by id_parcelle")
    .all(campagne)
    .map((r) => r.id);
  db.close();
  return { oad, dossier, exploitation, campagne, plots, actions, written };
}

const ids = chargeIds();
// As the screen writes the chosen plots since decision 0083: one value, the ids joined by underscores.
const query = new URLSearchParams({ parcelleId: ids.plots.join("_") }).toString();
const screen = `${origin}/home/description/au_champs/interventions`;
// What the browser asks (decision 0083; journey `[issue11-perf]` in tests/e2e/interventions-navigation.spec.ts checks
// it): when the chosen plots change (or a row, or any query of the screen), the interventions loader alone
// (`_routes=screen.interventions`, measured by default); when the screen is opened from another screen, or
// revalidated after a write, every loader of the page, the layouts' too (`--every-loader`). Since decision 0076 the
// plot indicator panel is asked by the screen in its own request once the grid shows: its CPU is measured apart.
const everyLoader = "every-loader" in args;
const urls = [everyLoader ? `${screen}.data?${query}` : `${screen}.data?${query}&_routes=${encodeURIComponent("screen.interventions")}`];
const panel = `${screen}/indicateurs.data?parcelle=${ids.plots[0]}&_routes=${encodeURIComponent("routes/au-champs/interventions-indicateurs")}`;

// --client fetch: each answer through fetch(), inflated and decoded as text (the load generator's CPU then competes
// with the server's on the same cores); default: the light client of bench/lib.mjs (every byte read, not inflated).
const client = args.client ?? "light";
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
async function load(cookie) {
  const started = performance.now();
  if (client === "light") {
    const answers = await Promise.all(urls.map((url) => lightGet(url, headers(origin, cookie, { accept: "*/*" }), agent)));
    return { ms: performance.now() - started, ok: answers.every((a) => a.status === 200) && answers.some((a) => a.bytes > 5_000) };
  }
  const answers = await Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, { headers: headers(origin, cookie, { accept: "*/*" }) });
      return { status: res.status, length: (await res.text()).length };
    }),
  );
  return { ms: performance.now() - started, ok: answers.every((a) => a.status === 200) && answers.some((a) => a.length > 10_000) };
}

const server = await startServer({ port, dataDir, processes, keepData: true });
try {
  const cookies = [];
  for (let i = 0; i < concurrency; i++) {
    const cookie = await signIn(origin);
    await selectContext(origin, cookie, ids);
    cookies.push(cookie);
  }
  for (let i = 0; i < 10; i++) await load(cookies[0]); // warm-up
  // What every user is answered, decoded once: the screen's data with the rows of every plot.
  for (const cookie of cookies) {
    const text = await (await fetch(urls[0], { headers: headers(origin, cookie, { accept: "*/*" }) })).text();
    if (!text.includes("screen.interventions") || text.length < 30_000) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  }
  // The bare baseline in the same run: the health check (no session, one `select 1`), CPU of the server processes.
  const bareStart = treeCpuMs(server.pid);
  for (let i = 0; i < 100; i++) await (await fetch(`${origin}/healthz`)).text();
  const bareCpu = (treeCpuMs(server.pid) - bareStart) / 100;
  const one = [];
  const cpuStart = treeCpuMs(server.pid);
  for (let i = 0; i < 100; i++) one.push(await load(cookies[0]));
  const cpu = (treeCpuMs(server.pid) - cpuStart) / 100;
  const loadBefore = loadAverage();
  let panelCpu = null;
  const res = await fetch(panel, { headers: headers(origin, cookies[0], { accept: "*/*" }) });
  // Before decision 0076 the address is no route (the shell's page for an unknown address).
  if (res.status === 200 && (await res.text()).includes("indicateurs")) {
    const panelStart = treeCpuMs(server.pid);
    for (let i = 0; i < 100; i++) await (await fetch(panel, { headers: headers(origin, cookies[0], { accept: "*/*" }) })).text();
    panelCpu = (treeCpuMs(server.pid) - panelStart) / 100;
  }
  const writer = afterWrite ? new Database(path.join(dataDir, "sillon.sqlite")) : null;
  writer?.pragma("busy_timeout = 5000");
  const write = writer?.prepare("update action set frequence = ? where id = ?");
  let writes = 0;
  /** `requests` loads by `concurrency` users; with `writing`, each load after its user's write of one row. */
  async function phase(writing) {
    const samples = [];
    let next = 0;
    const clientStart = process.cpuUsage();
    const serverStart = treeCpuMs(server.pid);
    await Promise.all(
      cookies.map(async (cookie, user) => {
        while (next++ < requests) {
          if (writing) write.run(1 + (++writes % 2), ids.written[user % ids.written.length]);
          samples.push(await load(cookie));
        }
      }),
    );
    return { samples, clientCpu: process.cpuUsage(clientStart), serverCpu: (treeCpuMs(server.pid) - serverStart) / samples.length };
  }
  const cached = await phase(false);
  const written = afterWrite ? await phase(true) : null;
  writer?.close();
  const { samples: many, clientCpu, serverCpu: concurrentServerCpu } = cached;
  if (process.env.BENCH_DIST) {
    const ms = many.map((m) => m.ms).sort((x, y) => x - y);
    console.log(
      "distribution",
      [10, 25, 50, 75, 90, 95, 99, 100].map((p) => `p${p} ${ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))].toFixed(0)}`).join(" "),
    );
    console.log("sequence", many.map((m) => m.ms.toFixed(0)).join(" "));
  }
  const a = summary(one);
  const b = summary(many);
  console.log(
    `Server CPU per request (one user, 100 sequential): ${cpu.toFixed(1)} ms; bare baseline (/healthz): ${bareCpu.toFixed(1)} ms. Load average ${loadBefore} before the concurrent phase, ${loadAverage()} after.`,
  );
  console.log(
    `Concurrent phase: server CPU ${concurrentServerCpu.toFixed(1)} ms per request; the load generator's own CPU (${client === "light" ? "reading the bytes" : "fetch, inflate, decode"}, on the same cores) ${((clientCpu.user + clientCpu.system) / 1000 / many.length).toFixed(1)} ms per request.`,
  );
  if (panelCpu != null) console.log(`The indicator panel's own request (asked once the grid shows): ${panelCpu.toFixed(1)} ms of server CPU.`);
  console.log(
    `Load-test farm: ${ids.actions} interventions on ${ids.plots.length} plots, all selected. Server processes: ${processes || "default"}; cores: ${(await import("node:os")).availableParallelism()}; load generator: ${client}.`,
  );
  console.log("| measure | requests | errors | p50 ms | p95 ms |");
  console.log("|---|---|---|---|---|");
  const what = everyLoader ? "interventions screen opened from another screen (every loader)" : "interventions loader alone (the chosen plots changed)";
  console.log(`| ${what}, one user | ${a.count} | ${a.errors} | ${fmt(a.p50)} | ${fmt(a.p95)} |`);
  console.log(`| ${what}, ${concurrency} concurrent users | ${b.count} | ${b.errors} | ${fmt(b.p50)} | ${fmt(b.p95)} |`);
  if (written) {
    const w = summary(written.samples);
    console.log(`| ${what}, ${concurrency} concurrent users, each load after its user's write | ${w.count} | ${w.errors} | ${fmt(w.p50)} | ${fmt(w.p95)} |`);
    console.log(
      `After a write: server CPU ${written.serverCpu.toFixed(1)} ms per load (cached ${concurrentServerCpu.toFixed(1)} ms, ${(written.serverCpu / concurrentServerCpu).toFixed(2)}x); p95 ${(w.p95 / b.p95).toFixed(2)}x the cached p95 of this run.`,
    );
  }
} finally {
  server.kill("SIGTERM");
  if (server.exitCode === null && server.signalCode === null) await new Promise((resolve) => server.once("exit", resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
