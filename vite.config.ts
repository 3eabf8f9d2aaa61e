import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { basePath } from "./server/base-path.ts";

const alias = {
  "~": fileURLToPath(new URL("./app", import.meta.url)),
  "#server": fileURLToPath(new URL("./server", import.meta.url)),
};

export default defineConfig(({ mode }) => ({
  base: basePath(process.env.BASE_PATH),
  plugins: mode === "test" ? [] : [tailwindcss(), reactRouter()],
  resolve: { alias },
  optimizeDeps: { exclude: ["knex", "better-sqlite3", "pg"] },
  ssr: { external: ["knex", "better-sqlite3", "pg"] },
}));
