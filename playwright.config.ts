import { defineConfig } from "@playwright/test";
import { E2E } from "./tests/e2e/settings";

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: `./tests/.artifacts/results-${E2E.basePort}`,
  // Files are spread over the workers; the journeys of one file run in order, in the same worker.
  fullyParallel: false,
  workers: E2E.workers,
  // One retry: on the shared 2-core CI machine a journey now and then misses a 7 s wait; a real defect fails both
  // runs. The list reporter names every journey that passed only on retry ("flaky"), so none goes unseen.
  retries: 1,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    viewport: { width: 1366, height: 850 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // No webServer: each worker starts its own app and maintenance servers on its own copy of the data
  // (the worker fixture e2eServer in tests/e2e/fixtures.ts), once globalSetup has built the app and the data.
  globalSetup: "./tests/setup/e2e-global.ts",
});
