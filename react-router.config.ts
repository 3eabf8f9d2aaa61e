import type { Config } from "@react-router/dev/config";
import { basePath } from "./server/base-path.ts";

export default {
  ssr: true,
  // server/start.js builds each time into a fresh folder (docs/decisions/0022-atomic-build.md).
  buildDirectory: process.env.SILLON_BUILD_DIR ?? "build",
  basename: basePath(process.env.BASE_PATH),
  future: { v8_middleware: true },
  // The whole route manifest as one static file (about 5 KB compressed, cached for a year) instead of the routes
  // of each page worked out and inlined by the server on every document request, and asked for again on
  // navigation (\`/__manifest\`): matching the page's paths against every route was some 5 % of the server's
  // time per page (bench/load.mjs, issue 10).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
