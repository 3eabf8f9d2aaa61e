import { z } from "zod";

/** A layer of the IGN Géoplateforme WMTS service in Web Mercator tiles (open data, no key). */
const IGN_WMTS = (layer: string, format: string) =>
  `https://data.geopf.fr/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${layer}&STYLE=normal&TILEMATRIXSET=PM&FORMAT=${format}&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}`;

/** An http(s) address of an external page, or empty (not configured). */
const externalUrl = z
  .string()
  .trim()
  .default("")
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/.test(v), { message: "must be an http(s) address or empty" });

/** Every setting the server reads, parsed once at start-up: a bad value stops the server with a clear message. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Server processes sharing the port (server/start.js); empty: one per core, at most 4. */
  WEB_CONCURRENCY: z.union([z.literal(""), z.coerce.number().int().min(1).max(64)]).optional(),
  BASE_PATH: z.string().default("/"),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || v.startsWith("file:") || /^postgres(ql)?:\/\//.test(v), {
      message: "DATABASE_URL must be file:<path> or postgres://...",
    }),
  SESSION_SECRET: z.string().min(16).optional(),
  /** "1": the session cookie is sent over HTTPS only; "0": also over plain HTTP; empty: HTTPS-only when NODE_ENV=production. */
  COOKIE_SECURE: z.enum(["0", "1", "true", "false", ""]).default(""),
  /** "1" behind a reverse proxy: the client's address, scheme and host come from its X-Forwarded-* headers. */
  TRUST_PROXY: z.enum(["0", "1"]).default("0"),
  /** Environment label shown in the footer; "production" shows none. */
  APP_ENV: z.string().default("production"),
  MAINTENANCE: z.enum(["0", "1", "true", "false", ""]).default("0"),
  SUPPORT_EMAIL: z.string().email().default("support@sillon.example"),
  /** External pages: each link or menu entry is hidden while its address is not set. */
  FORGOT_PASSWORD_URL_FR: externalUrl,
  FORGOT_PASSWORD_URL_EN: externalUrl,
  NO_ACCOUNT_URL: externalUrl,
  ACTUALISATION_URL: externalUrl,
  DATA_DIR: z.string().default("data"),
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  /** Raster tiles of the plot map ({z}/{x}/{y}); an empty value turns the layer off (plain background). */
  MAP_IMAGERY_TILES: z.string().default(IGN_WMTS("ORTHOIMAGERY.ORTHOPHOTOS", "image/jpeg")),
  MAP_LABELS_TILES: z.string().default(IGN_WMTS("GEOGRAPHICALNAMES.NAMES", "image/png")),
  MAP_ATTRIBUTION: z.string().default("© IGN Géoplateforme"),
  /** What the server writes: error, warn, info (one line per request), debug. */
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
  /** Feature flag of spec 3 §4.9: "1" leaves the farm duplication's base-folder flag dupliBaseDossier undefined. */
  FARM_DUPLICATION_FLAG: z.enum(["0", "1"]).default("0"),
  /** Largest file attached to an observation series, in megabytes (the upload route's body limit is 16 MB). */
  ATTACHMENT_MAX_MB: z.coerce.number().min(0.01).max(15).default(10),
  /** Jobs (calculations, exports) one container runs at once (server/tache, decision 0051). */
  TACHES_CONCURRENCE: z.coerce.number().int().min(1).max(16).default(2),
});

export type Env = z.infer<typeof EnvSchema>;

/** The names of every setting (the README's settings table lists exactly these). */
export const ENV_NAMES = Object.keys(EnvSchema.shape);

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment settings:\n${lines}`);
  }
  cached = parsed.data;
  return cached;
}

export function isMaintenance(): boolean {
  const v = env().MAINTENANCE;
  return v === "1" || v === "true";
}

export function isProduction(): boolean {
  return env().APP_ENV === "production";
}

/** Whether the session cookie carries the Secure flag (COOKIE_SECURE, else NODE_ENV=production). */
export function cookieSecure(): boolean {
  const v = env().COOKIE_SECURE;
  if (v === "0" || v === "false") return false;
  if (v === "1" || v === "true") return true;
  return env().NODE_ENV === "production";
}

/** Whether X-Forwarded-For/-Proto/-Host are believed (TRUST_PROXY=1). */
export function trustProxy(): boolean {
  return env().TRUST_PROXY === "1";
}

/** The plot map's tile sources (B-MAP-17), as the browser needs them. */
export function mapConfig(): { imageryTiles: string | null; labelsTiles: string | null; attribution: string } {
  const e = env();
  return { imageryTiles: e.MAP_IMAGERY_TILES.trim() || null, labelsTiles: e.MAP_LABELS_TILES.trim() || null, attribution: e.MAP_ATTRIBUTION };
}

/** The farm duplication feature flag (spec 3 §4.9, docs/decisions/0014-farm-duplication-flag.md). */
export function farmDuplicationFlag(): boolean {
  return env().FARM_DUPLICATION_FLAG === "1";
}
