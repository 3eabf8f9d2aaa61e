// The HTTP edge of Sillon (issue 10, defects 3, 5 and 7): checks every request passes before React Router
// sees it. Plain JavaScript, because server/start.js runs it without a build step.
// docs/decisions/0020-http-edge.md explains the choices.
import { randomBytes } from "node:crypto";

/** Body sizes accepted before anything is parsed: forms and JSON, and the plot import's upload. */
export const BODY_LIMITS = {
  default: 1024 * 1024,
  /** The import route reads its file within its own limit (10 MB + its fields) and says so in the form. */
  upload: 16 * 1024 * 1024,
};

/** Routes whose body is an uploaded file. */
const UPLOAD_PATHS = [/\/home\/description\/exploitation\/parcelle\/import(\.data)?$/, /\/home\/description\/au_champs\/mesures\/fichiers(\.data)?$/];

/** The JSON login of API clients (spec 1 §7): the one write that may come with no Origin at all. */
const API_LOGIN = /\/api\/v1\/login_check$/;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Body types the app reads: forms (React Router's own and plain HTML ones) and JSON. */
const ACCEPTED_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "application/json"]);

/** The JSON API (decision 0098): its refusals are problem documents, with the error key its clients read. */
const API_PATH = /\/api\/v\d+\//;
const API_KEYS = {
  400: "errors.api.invalid-json",
  403: "errors.forbidden",
  411: "errors.api.body-too-large",
  413: "errors.api.body-too-large",
  415: "errors.api.content-type",
};

function refuse(res, status, message) {
  // The body was not read: the connection cannot be reused for another request.
  res.set("Connection", "close");
  if (API_PATH.test(res.req?.path ?? "")) {
    const body = { type: "about:blank", title: message, status, key: API_KEYS[status] ?? "errors.forbidden" };
    return res.status(status).type("application/problem+json; charset=utf-8").send(JSON.stringify(body));
  }
  res.status(status).type("text/plain; charset=utf-8").send(`${message}\n`);
}

/** The host the browser addressed: the proxy's X-Forwarded-Host when TRUST_PROXY=1, else Host. */
export function requestHost(req, trustProxy) {
  const forwarded = trustProxy
    ? String(req.headers["x-forwarded-host"] ?? "")
        .split(",")[0]
        .trim()
    : "";
  return (forwarded || String(req.headers.host ?? "")).toLowerCase();
}

/**
 * Cross-site request forgery (defect 3): a write is refused (403) when the browser says it comes from
 * another site (Sec-Fetch-Site) or another origin (Origin). A write with neither header does not come
 * from a browser of this decade: only the JSON API login and bearer-token calls may come that way.
 */
export function csrfCheck({ trustProxy }) {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.headers["sec-fetch-site"];
    const origin = req.headers.origin;
    if (site !== undefined && site !== "same-origin" && site !== "none") {
      return refuse(res, 403, "Cross-site request refused.");
    }
    if (origin !== undefined) {
      let host;
      try {
        host = origin === "null" ? null : new URL(origin).host.toLowerCase();
      } catch {
        host = null;
      }
      if (!host || host !== requestHost(req, trustProxy)) return refuse(res, 403, "Cross-origin request refused.");
      return next();
    }
    if (site !== undefined) return next();
    const bearer = /^Bearer\s+\S+/i.test(String(req.headers.authorization ?? ""));
    if (API_LOGIN.test(req.path) || bearer) return next();
    return refuse(res, 403, "Request refused: no Origin header.");
  };
}

/**
 * Bodies (defect 7): a declared size over the limit is refused (413) before anything is read, a body
 * of unknown length (chunked) is refused (411), and a body of a type the app does not read is refused
 * (415): JSON only as application/json, never as text/plain.
 */
export function bodyCheck() {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const declared = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (declared === undefined && chunked) return refuse(res, 411, "A request body needs a Content-Length.");
    const length = declared === undefined ? 0 : Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) return refuse(res, 400, "Bad Content-Length.");
    const limit = UPLOAD_PATHS.some((p) => p.test(req.path)) ? BODY_LIMITS.upload : BODY_LIMITS.default;
    if (length > limit) return refuse(res, 413, `Request body too large (at most ${Math.round(limit / 1024)} KB).`);
    if (length === 0) return next();
    const type = String(req.headers["content-type"] ?? "")
      .split(";")[0]
      .trim()
      .toLowerCase();
    if (!ACCEPTED_TYPES.has(type)) return refuse(res, 415, "Unsupported content type: send a form or application/json.");
    return next();
  };
}

/**
 * Security headers (defect 5) on every response; the Content-Security-Policy on pages, with a fresh
 * nonce per request (res.locals.cspNonce) for the inline scripts React Router writes.
 * `tileOrigins`: the hosts of the map tiles (MAP_IMAGERY_TILES, MAP_LABELS_TILES);
 * `formTargets`: external pages a form of the app is redirected to (the actualisation page).
 */
export function securityHeaders({ tileOrigins = [], formTargets = [] }) {
  const tiles = [...new Set(tileOrigins.filter(Boolean))].join(" ");
  const forms = [...new Set(formTargets.filter(Boolean))].join(" ");
  return (req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.set("X-Content-Type-Options", "nosniff");
    res.set("Referrer-Policy", "strict-origin-when-cross-origin");
    // The app's own PDF documents (terms, manuals) are shown in a frame of its pages.
    const framedDocument = /\/docs\/[^/]+\/[^/]+\.pdf$/.test(req.path);
    res.set("X-Frame-Options", framedDocument ? "SAMEORIGIN" : "DENY");
    if (req.secure) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // A PDF gets no policy: the browser's PDF viewer is not a page of the app.
    if (framedDocument) return next();
    res.set(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        // React and the UI libraries set style attributes; no script can come in through a style.
        "style-src 'self' 'unsafe-inline'",
        `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ""}`,
        `connect-src 'self'${tiles ? ` ${tiles}` : ""}`,
        "worker-src 'self' blob:",
        "font-src 'self' data:",
        "frame-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        `form-action 'self'${forms ? ` ${forms}` : ""}`,
        "frame-ancestors 'none'",
      ].join("; "),
    );
    next();
  };
}
