import type { Config } from "@react-router/dev/config";
import { basePath } from "./server/base-path.ts";

export default {
  ssr: true,
  basename: basePath(process.env.BASE_PATH),
  future: { v8_middleware: true },
} satisfies Config;
