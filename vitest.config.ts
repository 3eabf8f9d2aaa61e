import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "~": fileURLToPath(new URL("./app", import.meta.url)),
  "#server": fileURLToPath(new URL("./server", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    setupFiles: ["./tests/setup/vitest-console.ts"],
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.{ts,tsx}", "tests/lint/**/*.test.ts"],
          exclude: ["**/*.service.test.ts", "node_modules/**"],
          setupFiles: ["./tests/setup/vitest-console.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "service",
          include: ["server/**/*.service.test.ts", "tests/routes/**/*.service.test.ts"],
          setupFiles: ["./tests/setup/vitest-console.ts"],
          globalSetup: ["./tests/setup/service-global.ts"],
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: true,
        },
      },
    ],
  },
});
