// Load benchmark of two screens (the plot list and the cultural operations), through the built server.
//
//   node bench/load.mjs [--scenario all|one|steady|saturation] [--seconds 60] [--users 50] [--processes N]
//
// Starts its own server on a fresh, seeded data folder under the system's temporary folder (removed at the end;
// port 3600, base path /), signs in the demo user `animateur` once per simulated user (one session each), selects
// EARL des Tilleuls 2025, then measures full page requests (the document a browser asks for: loaders + server
// rendering):
//   one        one user, sequential requests: latency p50 / p95 per screen
//   steady     N users each opening a screen every 2 s for the given time: p95 and errors
//   saturation no think time, 20 concurrent users for 20 s: screens per second and p95
// The figures are written to stdout as a Markdown table for docs/performance.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { argsOf, fmt, headers as headersOf, selectContext as select, signIn as signInAs, startServer as start, summary, demoIds as idsOf } from "./lib.mjs";

const args = argsOf(process.argv.slice(2));
const scenario = args.scenario ?? "all";
const steadySeconds = Number(args.seconds ?? 60);
const steadyUsers = Number(args.users ?? 50);
const port = Number(args.port ?? 3600);
// Server processes (WEB_CONCURRENCY); empty: the server's default, one per core up to 4.
const processes = args.processes ?? process.env.WEB_CONCURRENCY ?? "";
const origin = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-load-"));
const SCREENS = {
  parcelle: "/home/description/exploitation/parcelle",
  operations: "/home/description/exploitation/operations_culturales",
};

const startServer = () => start({ port, dataDir, processes });
const headers = (cookie, extra = {}) => headersOf(origin, cookie, extra);
const signIn = () => signInAs(origin);

function demoIds() {
  const db = new Database(path.join(dataDir, "sillon.sqlite"), { readonly: true });
  const ids = idsOf(db);
  db.close();
  return ids;
}

const selectContext = (cookie, ids) => select(origin, cookie, ids);

async function openScreen(cookie, screen) {
  const started = performance.now();
  const res = await fetch(`${origin}${SCREENS[screen]}`, { headers: headers(cookie, { accept: "text/html" }), redirect: "manual" });
  const text = await res.text();
  const ms = performance.now() - started;
  const ok = res.status === 200 && text.includes("</html>");
  return { ms, ok };
}

async function oneUser(cookie, screen) {
  for (let i = 0; i < 10; i++) await openScreen(cookie, screen); // warm-up
  const samples = [];
  for (let i = 0; i < 200; i++) samples.push(await openScreen(cookie, screen));
  return summary(samples);
}

async function steady(cookies, screen, seconds) {
  const samples = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    cookies.map(async (cookie, i) => {
      await new Promise((r) => setTimeout(r, (i * 2000) / cookies.length)); // users spread over the 2 s period
      while (Date.now() < end) {
        const tick = Date.now();
        samples.push(await openScreen(cookie, screen));
        const wait = 2000 - (Date.now() - tick);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }),
  );
  return summary(samples);
}

async function saturation(cookies, screen, seconds) {
  const samples = [];
  const started = Date.now();
  const end = started + seconds * 1000;
  await Promise.all(
    cookies.map(async (cookie) => {
      while (Date.now() < end) samples.push(await openScreen(cookie, screen));
    }),
  );
  const s = summary(samples);
  return { ...s, perSecond: (s.count - s.errors) / ((Date.now() - started) / 1000) };
}

const server = await startServer();
try {
  const ids = demoIds();
  const users = Math.max(steadyUsers, 20);
  const cookies = [];
  for (let i = 0; i < users; i++) {
    const cookie = await signIn();
    await selectContext(cookie, ids);
    cookies.push(cookie);
  }
  const rows = [];
  for (const screen of Object.keys(SCREENS)) {
    if (scenario === "all" || scenario === "one") {
      const r = await oneUser(cookies[0], screen);
      rows.push(`| ${screen} | one user, 200 sequential | ${r.count} | ${r.errors} | ${fmt(r.p50)} | ${fmt(r.p95)} | – |`);
    }
    if (scenario === "all" || scenario === "steady") {
      const r = await steady(cookies.slice(0, steadyUsers), screen, steadySeconds);
      rows.push(
        `| ${screen} | ${steadyUsers} users, one screen every 2 s, ${steadySeconds} s | ${r.count} | ${r.errors} | ${fmt(r.p50)} | ${fmt(r.p95)} | – |`,
      );
    }
    if (scenario === "all" || scenario === "saturation") {
      const r = await saturation(cookies.slice(0, 20), screen, 20);
      rows.push(`| ${screen} | saturation, 20 users, no think time, 20 s | ${r.count} | ${r.errors} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.perSecond)} |`);
    }
  }
  console.log(`Server processes: ${processes || "default (one per core, at most 4)"}; cores: ${os.availableParallelism()}`);
  console.log("| screen | scenario | requests | errors | p50 ms | p95 ms | screens/s |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
