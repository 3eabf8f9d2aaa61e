// Starts Sillon: builds the app when needed (first start, or BASE_PATH changed), migrates and seeds the
// database, then serves on PORT. `--setup-only` stops after the database is ready.
import { execFileSync } from "node:child_process";
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
const serverBuild = path.join(root, "build/server/index.js");
const stamp = path.join(root, "build/.base-path");

const built = fs.existsSync(serverBuild) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === basename;
if (!built || process.env.FORCE_BUILD === "1") {
  console.log(`Building Sillon for base path ${basename} ...`);
  execFileSync(path.join(root, "node_modules/.bin/react-router"), ["build"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  fs.writeFileSync(stamp, basename);
}

const build = await import(pathToFileURL(serverBuild).href);
try {
  await build.entry.module.bootstrap();
} catch (error) {
  console.error(`Sillon could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
if (process.argv.includes("--setup-only")) process.exit(0);

const { default: express } = await import("express");
const { default: compression } = await import("compression");
const { createRequestHandler } = await import("@react-router/express");
const { RouterContextProvider } = await import("react-router");

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", process.env.TRUST_PROXY === "1");
app.use(compression());
app.use(`${basename}assets`, express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
app.use(basename, express.static("build/client", { maxAge: "1h", index: false }));
if (basename !== "/") app.get("/", (_req, res) => res.redirect(basename));
app.all("*", createRequestHandler({ build, getLoadContext: () => new RouterContextProvider() }));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
const server = app.listen(port, host, () => console.log(`Sillon listens on http://${host === "0.0.0.0" ? "localhost" : host}:${port}${basename}`));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
