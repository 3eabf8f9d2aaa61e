import path from "node:path";

const port = Number(process.env.E2E_PORT ?? 3210);
const basePath = "/sillon/";

/** The e2e servers: the app under a base path (checks A-ROUTE-01), and a second one in maintenance mode. */
export const E2E = {
  port,
  maintenancePort: port + 1,
  basePath,
  baseURL: `http://127.0.0.1:${port}${basePath}`,
  dataDir: path.resolve(process.env.E2E_DATA_DIR ?? "tests/.artifacts/e2e-data"),
};
