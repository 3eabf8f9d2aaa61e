import { defineConfig } from "@playwright/test";
import { E2E } from "./tests/e2e/settings";

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: `./tests/.artifacts/results-${E2E.port}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: E2E.baseURL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    viewport: { width: 1366, height: 850 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: [
    {
      command: "node server/start.js",
      url: `${E2E.baseURL}login`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(E2E.port), BASE_PATH: E2E.basePath, DATA_DIR: E2E.dataDir, APP_ENV: "production", SESSION_SECRET: "e2e-session-secret-0123456789",
        // Tile addresses on this server that answer 404: the journeys see the map ask for both layers and still draw offline.
        MAP_IMAGERY_TILES: `${E2E.baseURL}tuiles-absentes/ortho/{z}/{x}/{y}.jpg`,
        MAP_LABELS_TILES: `${E2E.baseURL}tuiles-absentes/noms/{z}/{x}/{y}.png`,
        // The external pages are hidden until configured: the journeys configure them.
        FORGOT_PASSWORD_URL_FR: "https://sillon.example/fr/mot-de-passe-oublie",
        FORGOT_PASSWORD_URL_EN: "https://sillon.example/en/forgot-password",
        NO_ACCOUNT_URL: "https://sillon.example/fr/demander-un-compte",
        ACTUALISATION_URL: "https://sillon.example/actualisation",
      },
    },
    {
      command: "node server/start.js",
      url: `http://127.0.0.1:${E2E.maintenancePort}${E2E.basePath}favicon.svg`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { PORT: String(E2E.maintenancePort), BASE_PATH: E2E.basePath, DATA_DIR: `${E2E.dataDir}-maintenance`, MAINTENANCE: "1", SEED_DEMO: "0" },
    },
  ],
});
