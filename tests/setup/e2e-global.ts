import { execFileSync } from "node:child_process";
import { E2E } from "../e2e/settings";

/**
 * Before any worker starts: the app is built for the e2e base path and the template data folder is migrated
 * and seeded (`node server/start.js --setup-only`; it builds only when no build for this base path exists, or
 * when FORCE_BUILD=1). Each worker then copies the template and starts its own servers (tests/e2e/fixtures.ts).
 */
export default function setup() {
  const env: NodeJS.ProcessEnv = { ...process.env, BASE_PATH: E2E.basePath, DATA_DIR: E2E.templateDir };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, ["server/start.js", "--setup-only"], { env, stdio: "inherit" });
}
