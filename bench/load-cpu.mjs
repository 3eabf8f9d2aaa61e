// Server CPU time per page of the load benchmark's two screens (issue 10), less sensitive to a busy machine than latency.
//
//   node bench/load-cpu.mjs [--requests 300] [--port 3601] [--only parcelle|operations|frame]
//
// Starts one server process (WEB_CONCURRENCY=1) on a fresh, seeded data folder under the system's temporary folder (removed at the end), signs in `animateur`, selects
// EARL des Tilleuls 2025, warms up, then reads the process's CPU time (/proc/<pid>/stat, user + system) around
// N sequential full page requests of each screen, and around N requests of /healthz (the bare baseline: express,
// the security headers and one database query) and of the signed-in frame (the layouts' data alone). BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=..." profiles it.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { argsOf, demoIds, headers, selectContext, signIn, startServer, stopServer, tempDataDir } from "./lib.mjs";

const args = argsOf(process.argv.slice(2));
const port = Number(args.port ?? 3601);
const requests = Number(args.requests ?? 300);
const only = args.only; // one screen's name: measure only it (for a profile)
const origin = `http://127.0.0.1:${port}`;
const dataDir = tempDataDir("cpu");
const SCREENS = {
  parcelle: "/home/description/exploitation/parcelle",
  operations: "/home/description/exploitation/operations_culturales",
};
// The frame every signed-in request pays (decision 0082): the root and /home layouts' data alone (session, user,
// context view, farm types), as a navigation asks it, with express, the security headers and compression.
const FRAME = ["frame (layouts' .data)", "/home/description/home.data?_routes=root,home"];
const TICK_MS = 10; // USER_HZ = 100 on Linux

function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14 and 15)
}
const loadAverage = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const server = await startServer({ port, dataDir, processes: "1" });
try {
  const db = new Database(path.join(dataDir, "sillon.sqlite"), { readonly: true });
  const ids = demoIds(db);
  db.close();
  const cookie = await signIn(origin);
  await selectContext(origin, cookie, ids);
  const get = async (url, accept = "text/html") => {
    const res = await fetch(`${origin}${url}`, { headers: headers(origin, cookie, { accept }), redirect: "manual" });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    return text.length;
  };
  const measure = async (url) => {
    for (let i = 0; i < 30; i++) await get(url); // warm-up (JIT, caches)
    const cpu0 = cpuMs(server.pid);
    const t0 = performance.now();
    let bytes = 0;
    for (let i = 0; i < requests; i++) bytes = await get(url);
    return { cpu: (cpuMs(server.pid) - cpu0) / requests, wall: (performance.now() - t0) / requests, bytes };
  };
  console.log(`load average before: ${loadAverage()}`);
  const rows = [];
  const measured = only === "frame" ? [FRAME] : only ? [[only, SCREENS[only]]] : [["healthz (baseline)", "/healthz"], FRAME, ...Object.entries(SCREENS)];
  for (const [name, url] of measured) {
    const r = await measure(url);
    rows.push(`| ${name} | ${requests} | ${r.cpu.toFixed(2)} | ${r.wall.toFixed(2)} | ${r.bytes} |`);
  }
  console.log(`load average after: ${loadAverage()}`);
  console.log("| request | sequential requests | server CPU ms / request | wall ms / request | bytes (uncompressed) |");
  console.log("|---|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
