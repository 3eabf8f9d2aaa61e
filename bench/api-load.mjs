// Load benchmark of the JSON API beside the screens it feeds (issue 26, "JSON API part 1"), through the built server.
//
//   node bench/api-load.mjs [--seconds 10] [--clients 20] [--runs 1] [--port 3650] [--processes N] [--addresses per-client|one]
//
// Starts its own server on a fresh, seeded data folder under the system's temporary folder (removed at the end;
// port 3650, base path /), then, with EARL des Tilleuls 2025:
//   - makes 20 personal access tokens (POST /api/v1/login_check, then POST /api/v1/jetons, read-only, one day) spread
//     over the demo users who see the farm (animateur, redacteur, lecteur), and 20 signed-in cookie sessions of
//     `animateur` with the farm and campaign selected;
//   - for each path, `--clients` concurrent clients without think time for `--seconds` (a fresh set of tokens per
//     API run, so that no token reaches its quota): the campaign's plots (GET /api/v1/campagnes/{id}/parcelles) and
//     the farm's description (GET /api/v1/exploitations/{id}), then the two screens they feed, as a browser asks
//     them: the document (middleware, loaders and server rendering, as bench/load.mjs measures it) and the `.data`
//     request of a navigation (middleware and the loaders, no rendering).
// The API is rate-limited per token (600 calls a minute) and per client address (1,200 a minute, server/auth/api-quota.ts),
// and no setting changes those limits. `--addresses per-client` (the default) gives each client its own loopback
// source address (127.0.0.2, 127.0.0.3, ...), as 20 integrations on 20 hosts would be, so that the figures are those
// of the call and not of the limiter; `--addresses one` sends everything from 127.0.0.1 and shows the limiter (429).
// The figures are written to stdout as a Markdown table for docs/performance.md.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { argsOf, fmt, headers as headersOf, lightGet, loadAverage, selectContext, signIn, startServer, summary, demoIds as idsOf } from "./lib.mjs";

const args = argsOf(process.argv.slice(2));
const seconds = Number(args.seconds ?? 10);
const clients = Number(args.clients ?? 20);
const runs = Math.min(3, Math.max(1, Number(args.runs ?? 1)));
const port = Number(args.port ?? 3650);
const processes = args.processes ?? process.env.WEB_CONCURRENCY ?? "";
const addresses = args.addresses ?? "per-client";
const origin = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-api-"));
const TOKEN_USERS = ["animateur", "redacteur", "lecteur"];

function demoIds() {
  const db = new Database(path.join(dataDir, "sillon.sqlite"), { readonly: true });
  const ids = idsOf(db);
  db.close();
  return ids;
}

/** The setting-up calls (sign-in, tokens) come from an address of their own, outside the clients' quotas. */
const setupAgent = new http.Agent({ keepAlive: true, localAddress: "127.0.0.254" });
function api(method, url, token, body) {
  const payload = body ? JSON.stringify(body) : undefined;
  const requestHeaders = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { "content-type": "application/json" } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${url}`, { method, agent: setupAgent, headers: requestHeaders }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode, json: text ? JSON.parse(text) : null }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** The sign-in tokens of the demo users who see the farm (POST /api/v1/login_check). */
async function signInTokens(ids) {
  const found = [];
  for (const username of TOKEN_USERS) {
    const login = await api("POST", "/api/v1/login_check", null, { username, password: "demo1234" });
    if (login.status !== 200) throw new Error(`login_check of ${username} answered ${login.status}`);
    const farm = await api("GET", `/api/v1/exploitations/${ids.exploitation}`, login.json.token);
    if (farm.status === 200) found.push({ username, token: login.json.token });
  }
  if (!found.length) throw new Error("no demo user sees EARL des Tilleuls through the API");
  return found;
}

/** `count` personal access tokens (POST /api/v1/jetons), spread over the users. */
async function personalTokens(users, count, label) {
  const tokens = [];
  for (let i = 0; i < count; i++) {
    const user = users[i % users.length];
    const res = await api("POST", "/api/v1/jetons", user.token, { nom: `bench ${label} ${i + 1}`, acces: "lecture", joursValidite: 1 });
    if (res.status !== 201) throw new Error(`POST /api/v1/jetons answered ${res.status}: ${JSON.stringify(res.json)}`);
    tokens.push({ token: res.json.token, id: res.json.id, user });
  }
  return tokens;
}

/** Revokes tokens made by personalTokens (a user holds at most 50). */
async function revoke(tokens) {
  for (const t of tokens) {
    const res = await api("DELETE", `/api/v1/jetons/${t.id}`, t.user.token);
    if (res.status >= 300) throw new Error(`DELETE /api/v1/jetons/${t.id} answered ${res.status}`);
  }
}

/** One keep-alive agent per client, each on its own loopback source address unless `--addresses one`. */
const agents = Array.from(
  { length: clients },
  (_, i) => new http.Agent({ keepAlive: true, maxSockets: 1, ...(addresses === "one" ? {} : { localAddress: `127.0.0.${2 + i}` }) }),
);

/** `clients` loops without think time for `seconds`; each client asks `requestOf(i)`. */
async function saturate(requestOf) {
  // Warm-up: two requests per client, not counted.
  await Promise.all(agents.map(async (agent, i) => (await lightGet(...requestOf(i, agent)), await lightGet(...requestOf(i, agent)))));
  const samples = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    agents.map(async (agent, i) => {
      while (performance.now() < end) {
        const t = performance.now();
        const { status, bytes } = await lightGet(...requestOf(i, agent));
        samples.push({ ms: performance.now() - t, ok: status === 200 && bytes > 0, limited: status === 429 });
      }
    }),
  );
  const s = summary(samples);
  return { ...s, limited: samples.filter((x) => x.limited).length, perSecond: (s.count - s.errors) / ((performance.now() - started) / 1000) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await startServer({ port, dataDir, processes });
try {
  const ids = demoIds();
  const users = await signInTokens(ids);
  const cookies = [];
  for (let i = 0; i < clients; i++) {
    const cookie = await signIn(origin);
    await selectContext(origin, cookie, ids);
    cookies.push(cookie);
  }

  const plotsUrl = `${origin}/api/v1/campagnes/${ids.campagne}/parcelles`;
  const farmUrl = `${origin}/api/v1/exploitations/${ids.exploitation}`;
  const parcelleScreen = `${origin}/home/description/exploitation/parcelle`;
  const descriptionScreen = `${origin}/home/description/exploitation/description`;

  // What each path answers, checked once before measuring.
  const checkTokens = await personalTokens(users, 1, "check");
  const sample = checkTokens[0].token;
  const plots = await api("GET", `/api/v1/campagnes/${ids.campagne}/parcelles`, sample);
  if (plots.status !== 200 || !Array.isArray(plots.json) || !plots.json.length) throw new Error(`the plots call answered ${plots.status}`);
  const farm = await api("GET", `/api/v1/exploitations/${ids.exploitation}`, sample);
  if (farm.status !== 200 || farm.json.libelle !== "EARL des Tilleuls") throw new Error(`the farm call answered ${farm.status}`);
  for (const url of [parcelleScreen, descriptionScreen]) {
    const doc = await fetch(url, { headers: headersOf(origin, cookies[0], { accept: "text/html" }), redirect: "manual" });
    if (doc.status !== 200 || !(await doc.text()).includes("</html>")) throw new Error(`${url} answered ${doc.status}`);
    const data = await fetch(`${url}.data`, { headers: headersOf(origin, cookies[0]), redirect: "manual" });
    if (data.status !== 200) throw new Error(`${url}.data answered ${data.status}`);
    await data.text();
  }
  await revoke(checkTokens);

  const screenGet = (url, accept) => (i, agent) => [url, headersOf(origin, cookies[i], accept ? { accept } : {}), agent];
  const PATHS = [
    { key: "api-plots", label: "API: GET /api/v1/campagnes/{id}/parcelles", kind: "api", url: plotsUrl, screen: "screen-plots-data" },
    { key: "api-farm", label: "API: GET /api/v1/exploitations/{id}", kind: "api", url: farmUrl, screen: "screen-description-data" },
    { key: "screen-plots-doc", label: "screen: plot list, document", request: screenGet(parcelleScreen, "text/html") },
    { key: "screen-plots-data", label: "screen: plot list, `.data` (loaders)", request: screenGet(`${parcelleScreen}.data`) },
    { key: "screen-description-doc", label: "screen: description, document", request: screenGet(descriptionScreen, "text/html") },
    { key: "screen-description-data", label: "screen: description, `.data` (loaders)", request: screenGet(`${descriptionScreen}.data`) },
  ];
  const results = {};
  for (const p of PATHS) {
    results[p.key] = [];
    for (let run = 0; run < runs; run++) {
      if (p.kind !== "api") {
        results[p.key].push(await saturate(p.request));
        continue;
      }
      const tokens = await personalTokens(users, clients, `${p.key} ${run + 1}`);
      results[p.key].push(await saturate((i, agent) => [p.url, { authorization: `Bearer ${tokens[i].token}` }, agent]));
      await revoke(tokens);
    }
  }

  const cores = os.availableParallelism();
  console.log(`Server processes: ${processes || "default (one per core, at most 4)"}; cores: ${cores}; load average at the end: ${loadAverage()}`);
  console.log(`Client addresses: ${addresses === "one" ? "all from 127.0.0.1" : `one per client (127.0.0.2 to 127.0.0.${1 + clients})`}`);
  console.log(`${clients} concurrent clients, no think time, ${seconds} s per run, ${runs} run(s) per path (median of the runs)`);
  console.log("");
  console.log("| path | requests | errors | of which 429 | p50 ms | p95 ms | requests/s |");
  console.log("|---|---|---|---|---|---|---|");
  const med = (key, field) => median(results[key].map((r) => r[field]));
  const sum = (key, field) => results[key].reduce((n, r) => n + r[field], 0);
  for (const p of PATHS) {
    console.log(
      `| ${p.label} | ${sum(p.key, "count")} | ${sum(p.key, "errors")} | ${sum(p.key, "limited")} | ${fmt(med(p.key, "p50"))} | ${fmt(med(p.key, "p95"))} | ${fmt(med(p.key, "perSecond"))} |`,
    );
  }
  console.log("");
  console.log("| API call | screen's p95 it is compared with | API p95 / `.data` p95 | API p95 / document p95 | goal ≤ 1.5 |");
  console.log("|---|---|---|---|---|");
  for (const [apiKey, screen, doc] of [
    ["api-plots", "plot list", "screen-plots-doc"],
    ["api-farm", "description", "screen-description-doc"],
  ]) {
    const dataKey = PATHS.find((p) => p.key === apiKey).screen;
    const toData = med(apiKey, "p95") / med(dataKey, "p95");
    const toDoc = med(apiKey, "p95") / med(doc, "p95");
    console.log(
      `| ${PATHS.find((p) => p.key === apiKey).label.slice(5)} | ${screen} | ${toData.toFixed(2)} | ${toDoc.toFixed(2)} | ${toData <= 1.5 ? "met" : "not met"} |`,
    );
  }
} finally {
  server.kill("SIGTERM");
  for (const agent of [...agents, setupAgent]) agent.destroy();
  await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
