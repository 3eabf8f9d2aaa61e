import type { Config } from "@react-router/dev/config";
import { basePath } from "./server/base-path.ts";

export default {
  ssr: true,
  // server/start.js builds each time into a fresh folder (docs/decisions/0022-atomic-build.md).
  buildDirectory: process.env.SILLON_BUILD_DIR ?? "build",
  basename: basePath(process.env.BASE_PATH),
  future: { v8_middleware: true },
} satisfies Config;
