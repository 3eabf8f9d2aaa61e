// Starts Sillon: builds the app when needed (first start, BASE_PATH changed, or FORCE_BUILD=1), migrates and
// seeds the database, then serves on PORT. `--setup-only` stops after the database is ready; `--build-only`
// after the build (the image's build stage).
//
// This process is the primary: it builds, migrates and seeds, runs the job runner (calculations, exports, imports),
// and forks WEB_CONCURRENCY server processes sharing the port (node:cluster; default one per core, at most 4; one
// at least, so that no request ever waits on a job's work, decision 0139); sessions, context, sign-in counts and
// data all live in the database, so any process serves any user.
//
// Builds never change under a running server (docs/decisions/0022-atomic-build.md): each build goes into
// a fresh folder builds/<id>/, and `build` is a symbolic link swapped atomically to the newest one. A
// server resolves the link once at start and serves from its own folder until it stops; folders no live
// server uses are removed, keeping the newest ones.
import { execFileSync } from "node:child_process";
import cluster from "node:cluster";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NODE_ENV ??= "production";

const normalise = (raw) => {
  const t = (raw ?? "/").trim().replace(/^\/+|\/+$/g, "");
  return t ? `/${t}/` : "/";
};
const basename = normalise(process.env.BASE_PATH);
const buildsDir = path.join(root, "builds");
const link = path.join(root, "build");
const KEEP_BUILDS = 3;

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};
const readStamp = (dir) => {
  try {
    return fs.readFileSync(path.join(dir, ".base-path"), "utf8");
  } catch {
    return null;
  }
};
const complete = (dir) => fs.existsSync(path.join(dir, "server/index.js")) && readStamp(dir) !== null;
/** Live servers using a build folder: one marker file per server, .in-use-<pid>; markers of dead servers are removed. */
const users = (dir) => {
  let markers;
  try {
    markers = fs.readdirSync(dir).filter((f) => f.startsWith(".in-use-"));
  } catch {
    return [];
  }
  return markers.filter((f) => alive(Number(f.slice(8))) || (fs.rmSync(path.join(dir, f), { force: true }), false)).map((f) => Number(f.slice(8)));
};

const BUILD_NAME = /^\d{17}-\d+$/;
const newestFirst = (a, b) => (a < b ? 1 : a > b ? -1 : 0);
const buildId = () => `${new Date().toISOString().replace(/[-:.TZ]/g, "")}-${process.pid}`;

/** Points `build` at `dir`: a new link under a temporary name, renamed over the old one (atomic). */
function pointAt(dir) {
  const tmpLink = path.join(root, `.build-link-${process.pid}`);
  fs.rmSync(tmpLink, { force: true });
  fs.symlinkSync(path.relative(root, dir), tmpLink);
  fs.renameSync(tmpLink, link);
}

/** The newest complete build for this base path, or null. */
function newestBuild() {
  const names = fs.existsSync(buildsDir)
    ? fs
        .readdirSync(buildsDir)
        .filter((n) => BUILD_NAME.test(n))
        .sort(newestFirst)
    : [];
  const found = names.map((n) => path.join(buildsDir, n)).find((d) => complete(d) && readStamp(d) === basename);
  if (found) return found;
  // A `build` folder made by `react-router build` (the Dockerfile's): adopted as the first build.
  const old = fs.lstatSync(link, { throwIfNoEntry: false });
  if (old && !old.isSymbolicLink() && complete(link) && readStamp(link) === basename) {
    if (readOnlyInstall()) return link; // the production image's own build, served where it is
    fs.mkdirSync(buildsDir, { recursive: true });
    const dir = path.join(buildsDir, buildId());
    fs.renameSync(link, dir);
    pointAt(dir);
    return dir;
  }
  return null;
}

/**
 * An installation the server may not write to (the production image runs as a user owning only DATA_DIR):
 * it serves the build it was shipped with, keeps no markers and removes nothing.
 */
function readOnlyInstall() {
  try {
    fs.accessSync(root, fs.constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

function buildFresh() {
  const tool = path.join(root, "node_modules/.bin/react-router");
  if (readOnlyInstall() || !fs.existsSync(tool)) {
    // The production image holds no build tools: its build is made for one base path when the image is built.
    const shipped = readStamp(link);
    console.error(
      shipped
        ? `Sillon could not start: this installation was built for BASE_PATH ${shipped} and cannot build for ${basename}; build the image again with --build-arg BASE_PATH=${basename}.`
        : "Sillon could not start: no build is installed and the build tools are missing (run npm install, or build the image again).",
    );
    process.exit(1);
  }
  fs.mkdirSync(buildsDir, { recursive: true });
  const id = buildId();
  const tmp = path.join(buildsDir, `tmp-${id}`);
  const dir = path.join(buildsDir, id);
  console.log(`Building Sillon for base path ${basename} into ${path.relative(root, dir)} ...`);
  execFileSync(tool, ["build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", SILLON_BUILD_DIR: tmp },
  });
  fs.writeFileSync(path.join(tmp, ".base-path"), basename);
  fs.renameSync(tmp, dir);
  const old = fs.lstatSync(link, { throwIfNoEntry: false });
  // A `build` folder of an older Sillon (not a link) is moved aside, never emptied in place.
  if (old && !old.isSymbolicLink()) fs.renameSync(link, path.join(buildsDir, `legacy-${id}`));
  pointAt(dir);
  return dir;
}

/** Removes the builds no live server uses, keeping the newest KEEP_BUILDS and `own`. */
function removeOldBuilds(own) {
  if (!fs.existsSync(buildsDir)) return;
  const key = (dir) => path.basename(dir).replace(/^legacy-/, "");
  const dirs = fs
    .readdirSync(buildsDir)
    .map((n) => path.join(buildsDir, n))
    .sort((a, b) => newestFirst(key(a), key(b)));
  let kept = 0;
  for (const dir of dirs) {
    const name = path.basename(dir);
    if (dir === own) continue;
    if (name.startsWith("tmp-")) {
      // A build still running for another server has its pid in its name.
      if (!alive(Number(name.split("-").at(-1)))) fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    const used = users(dir).length > 0;
    if (kept < KEEP_BUILDS) {
      kept++;
      continue;
    }
    if (!used) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Server processes: WEB_CONCURRENCY, else one per core up to 4 (checked again with the other settings in server/env.ts). */
function concurrency() {
  const raw = process.env.WEB_CONCURRENCY;
  if (raw === undefined || raw === "") return Math.min(4, os.availableParallelism());
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : 1;
}

let buildDir;
let unmark = () => {};
if (cluster.isWorker) {
  // A forked server process: the primary chose the build, holds its marker and prepared the database.
  buildDir = process.env.SILLON_BUILD_FOLDER;
} else {
  const existing = process.env.FORCE_BUILD === "1" ? null : newestBuild();
  buildDir = existing ?? buildFresh();
  if (process.argv.includes("--build-only")) process.exit(0);
  if (!readOnlyInstall()) {
    const marker = path.join(buildDir, `.in-use-${process.pid}`);
    fs.writeFileSync(marker, "");
    unmark = () => fs.rmSync(marker, { force: true });
    process.on("exit", unmark);
    removeOldBuilds(buildDir);
  }
}

const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
if (cluster.isPrimary) {
  try {
    await build.entry.module.bootstrap();
  } catch (error) {
    console.error(`Sillon could not start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  if (process.argv.includes("--setup-only")) process.exit(0);
  // The job runner (calculations, exports): once per container, in this primary process (decision 0051).
  await build.entry.module.demarrerTaches();
}

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
const where = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}${basename}`;
const processes = concurrency();

if (cluster.isPrimary) {
  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork({ SILLON_BUILD_FOLDER: buildDir });
  cluster.on("listening", () => {
    if (++listening === processes) console.log(`Sillon listens on ${where} (${processes} server process${processes > 1 ? "es" : ""})`);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`A Sillon server process stopped (${signal ?? `code ${code}`}); starting another.`);
    fork();
  });
  for (let i = 0; i < processes; i++) fork();
  const stop = () => {
    if (stopping) return;
    stopping = true;
    unmark();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => process.exit(0), 6000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else {
  await serve();
}

async function serve() {
  const { default: express } = await import("express");
  const { default: compression } = await import("compression");
  const { createRequestHandler } = await import("@react-router/express");
  const { RouterContextProvider } = await import("react-router");
  const { bodyCheck, csrfCheck, securityHeaders } = await import("./security/edge.js");
  const { requestLog } = await import("./ops/request-log.js");
  const { isDataRequest, wholeDataAnswers } = await import("./http/data-answer.js");

  const edge = build.entry.module.edgeSettings();
  const { cspNonceContext, clientIpContext, requestLogContext } = build.entry.module;
  const app = express();
  app.disable("x-powered-by");
  // Nothing reads req.query (React Router reads the address itself): not parsing it spares each request a parse of
  // its whole query string (the interventions screen's chosen plots, decision 0083).
  app.set("query parser", false);
  app.set("trust proxy", edge.trustProxy);
  // The container's HEALTHCHECK (issue 16): 200 when the database answers, 503 otherwise, no details. At the root
  // too, so a probe need not know the base path.
  app.get([...new Set(["/healthz", `${basename}healthz`])], async (_req, res) => {
    const ok = await build.entry.module.healthy();
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .type("text/plain")
      .send(ok ? "ok" : "unavailable");
  });
  app.use(securityHeaders(edge));
  app.use(csrfCheck(edge));
  app.use(bodyCheck());
  // Pages and data are made anew for each request: deflate level 1 takes half the CPU time of the default (6) for
  // about 15 % more bytes (the plot list: 28 KB instead of 25 KB; bench/load.mjs, issue 10). Static files keep the
  // default level: each is sent once per browser (immutable for a year).
  // React Router's navigation data (`.data`) in one piece, compressed at the same level (decision 0083).
  const compressStatic = compression();
  const compressPages = compression({ level: 1 });
  const dataAnswers = wholeDataAnswers({ level: 1 });
  const staticPrefix = `${basename}assets/`;
  app.use((req, res, next) => (isDataRequest(req.path) ? dataAnswers : req.path.startsWith(staticPrefix) ? compressStatic : compressPages)(req, res, next));
  const client = path.join(buildDir, "client");
  app.use(`${basename}assets`, express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // The build's public files (favicon, logos, documents): only the addresses under one of the names at the top of the
  // client folder go to the disk; an application request no longer pays a stat() before its page (decision 0082).
  // The folder never changes under a running server (decision 0022), so its names are read once.
  const publicStatic = express.static(client, { maxAge: "1h", index: false });
  const publicNames = new Set(fs.readdirSync(client).filter((name) => name !== "assets"));
  const firstSegment = (p) => {
    const name = p.split("/")[1] ?? "";
    try {
      return decodeURIComponent(name);
    } catch {
      return name; // serve-static answers a malformed address itself
    }
  };
  app.use(basename, (req, res, next) => (publicNames.has(firstSegment(req.path)) ? publicStatic(req, res, next) : next()));
  if (basename !== "/") app.get("/", (_req, res) => res.redirect(basename));
  // After the static files: one line per request the application answers.
  app.use(requestLog(edge.logLevel));
  app.all(
    "*",
    createRequestHandler({
      build,
      getLoadContext: (req, res) => {
        const context = new RouterContextProvider();
        context.set(cspNonceContext, res.locals.cspNonce);
        context.set(clientIpContext, req.ip ?? "");
        context.set(requestLogContext, res.locals.requestLog);
        return context;
      },
    }),
  );

  const server = app.listen(port, host, () => {
    if (cluster.isPrimary) console.log(`Sillon listens on ${where}`);
  });
  const stop = () => {
    unmark();
    server.close(() => process.exit(0));
    // Idle keep-alive connections would hold the close; a request still running gets a few seconds.
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
