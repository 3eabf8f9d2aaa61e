import os from "node:os";
import path from "node:path";

const basePort = Number(process.env.E2E_PORT ?? 3210);
const basePath = "/sillon/";
/** The worker's slot (0 .. workers-1; Playwright sets it in each worker process, 0 in the runner). */
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const port = basePort + 2 * slot;
/** The data folder set up once (built app, migrated and seeded): each worker copies it. */
const templateDir = path.resolve(process.env.E2E_DATA_DIR ?? "tests/.artifacts/e2e-data");

/**
 * The e2e servers of this worker: the app under a base path (checks A-ROUTE-01) on E2E_PORT + 2 × slot, and
 * a second one in maintenance mode on the next port. Each worker has its own copy of the data folder, so a
 * journey that writes does not disturb the journeys running in the other workers.
 */
export const E2E = {
  basePort,
  port,
  maintenancePort: port + 1,
  basePath,
  baseURL: `http://127.0.0.1:${port}${basePath}`,
  templateDir,
  dataDir: `${templateDir}-w${slot}`,
  maintenanceDataDir: `${templateDir}-w${slot}-maintenance`,
  /**
   * Parallel workers: E2E_WORKERS, else one per two cores. A worker drives a browser and its own server, which
   * together keep about two cores busy: on a 2-core machine two workers made every journey twice as slow and
   * a dozen ran out of their 30 s, restarting their worker (and its servers) each time.
   */
  workers: Number(process.env.E2E_WORKERS ?? Math.max(1, Math.floor(os.availableParallelism() / 2))),
};
