#!/usr/bin/env node
// Replays the Dockerfile's runtime stage in a temporary folder (issue 16: no Docker daemon on the development
// and CI machines): the production dependencies installed with `npm ci --omit=dev` as the deps stage does, the
// runtime stage's COPY lines, then the server started as an unprivileged user on a fresh DATA_DIR; it must
// answer /healthz, sign a demo user in, serve a screen and stop cleanly on SIGTERM. A file or a dependency the
// runtime stage misses fails here.
//
// Needs the app built (`node server/start.js --build-only`, or the test command's build); the build's own base
// path is used. Usage: node scripts/runtime-check.mjs [--keep]
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const PORT = Number(process.env.RUNTIME_CHECK_PORT ?? 3390);

function fail(message) {
  console.error(`runtime check: ${message}`);
  process.exit(1);
}

/** The lines of one stage of the Dockerfile, continuations joined. */
function stageLines(name) {
  const text = fs.readFileSync(path.join(repo, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const start = lines.findIndex((l) => new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${name}$`, "i").test(l));
  if (start < 0) fail(`the Dockerfile has no stage ${name}`);
  const end = lines.findIndex((l, i) => i > start && /^FROM\s/i.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** ENV lines of a stage: KEY=value pairs (values without spaces, as ours are). */
function stageEnv(lines) {
  const env = {};
  for (const l of lines.filter((x) => /^ENV\s/i.test(x))) {
    for (const pair of l.replace(/^ENV\s+/i, "").split(/\s+/)) {
      const [k, ...v] = pair.split("=");
      env[k] = v.join("=");
    }
  }
  return env;
}

const build = fs.realpathSync(path.join(repo, "build"));
if (!fs.existsSync(path.join(build, "server/index.js"))) fail("no build: run `node server/start.js --build-only` first");
const basePath = fs.readFileSync(path.join(build, ".base-path"), "utf8");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-runtime-"));
fs.chmodSync(tmp, 0o755);
const depsDir = path.join(tmp, "deps");
const app = path.join(tmp, "app");
fs.mkdirSync(depsDir);
fs.mkdirSync(app);

// The deps stage: its COPY of the manifests and its `npm ci`.
const deps = stageLines("deps");
const ci = deps.find((l) => /^RUN\s+npm ci\b/.test(l));
if (!ci) fail("the deps stage runs no `npm ci`");
for (const f of ["package.json", "package-lock.json"]) fs.copyFileSync(path.join(repo, f), path.join(depsDir, f));
console.log(`runtime check: ${ci.replace(/^RUN\s+/, "")} (in ${depsDir})`);
execFileSync("sh", ["-c", `${ci.replace(/^RUN\s+/, "")} --prefer-offline --loglevel=error`], { cwd: depsDir, stdio: "inherit" });

// The runtime stage's COPY lines: sources under /app of the build stage (the repository, its build as
// /app/image-build) or of the deps stage; destinations relative to WORKDIR /app.
const runtime = stageLines("runtime");
const env = stageEnv(runtime);
for (const l of runtime.filter((x) => /^COPY\s/i.test(x))) {
  const m = /^COPY\s+--from=(\w+)\s+(\S+)\s+(\S+)$/i.exec(l);
  if (!m) fail(`a runtime COPY line this check cannot replay: ${l}`);
  const [, from, src, dest] = m;
  if (!src.startsWith("/app/")) fail(`a COPY source outside /app: ${l}`);
  const rel = src.slice("/app/".length);
  const source = from === "deps" ? path.join(depsDir, rel) : rel === "image-build" ? build : path.join(repo, rel);
  if (!fs.existsSync(source)) fail(`${l}: ${source} does not exist`);
  const target = path.resolve(app, dest);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(source, target, { recursive: true, dereference: true, filter: (s) => !path.basename(s).startsWith(".in-use-") });
}

// The runtime stage's user owns DATA_DIR only; here `nobody` stands for it when this runs as root.
const dataDir = path.join(app, "data");
fs.mkdirSync(dataDir, { recursive: true });
const asRoot = process.getuid?.() === 0;
// setpriv executes node in its place (no process in between), so SIGTERM reaches the server itself.
const setpriv = asRoot ? ["/usr/bin/setpriv", "/bin/setpriv"].find((f) => fs.existsSync(f)) : undefined;
if (setpriv) execFileSync("chown", ["-R", "nobody", dataDir]);
const cmd = runtime.find((l) => /^CMD\s/i.test(l));
const argv = JSON.parse(cmd.replace(/^CMD\s+/i, ""));
if (argv[0] !== "node") fail(`the CMD does not start node: ${cmd}`);
const serverEnv = {
  PATH: process.env.PATH,
  HOME: dataDir,
  ...env,
  BASE_PATH: basePath,
  DATA_DIR: dataDir,
  PORT: String(PORT),
  HOST: "127.0.0.1",
  COOKIE_SECURE: "0",
};
const [command, args] = setpriv
  ? [setpriv, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, ...argv.slice(1)]]
  : [process.execPath, argv.slice(1)];
console.log(`runtime check: starting ${argv.join(" ")} in ${app}${setpriv ? " as nobody" : ""}, BASE_PATH ${basePath}`);
const server = spawn(command, args, { cwd: app, env: serverEnv, stdio: ["ignore", "pipe", "pipe"] });
let out = "";
server.stdout.on("data", (b) => (out += b));
server.stderr.on("data", (b) => (out += b));
const exited = new Promise((resolve) => server.once("exit", (code, signal) => resolve({ code, signal })));

const origin = `http://127.0.0.1:${PORT}`;
async function waitHealthy() {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server stopped (code ${server.exitCode})`);
    const res = await fetch(`${origin}/healthz`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("no answer from /healthz within 3 minutes");
}

let ok = false;
try {
  await waitHealthy();
  console.log("runtime check: /healthz answers 200");
  const signIn = await fetch(`${origin}${basePath}login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "redacteur", password: "demo1234" }),
  });
  const cookie = (signIn.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  if (signIn.status !== 302 || !cookie) throw new Error(`the demo user's sign-in answered ${signIn.status}`);
  const screen = await fetch(`${origin}${basePath}home/description/home`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await screen.text();
  if (screen.status !== 200 || !html.includes("Sillon")) throw new Error(`the home screen answered ${screen.status}`);
  console.log("runtime check: the demo user signs in and gets a screen");
  if (setpriv && fs.readdirSync(path.join(app, "build")).some((f) => f.startsWith(".in-use-"))) throw new Error("the server wrote outside DATA_DIR");
  server.kill("SIGTERM");
  const stop = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 15_000))]);
  if (!stop || stop.code !== 0) throw new Error(`SIGTERM did not stop the server cleanly (${JSON.stringify(stop)})`);
  console.log("runtime check: SIGTERM stops it cleanly");
  ok = true;
} catch (e) {
  console.error(`runtime check failed: ${e instanceof Error ? e.message : e}\n--- server output ---\n${out}`);
} finally {
  if (server.exitCode === null) server.kill("SIGKILL");
  if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
