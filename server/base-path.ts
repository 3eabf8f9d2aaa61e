/** Normalises BASE_PATH ("sillon", "/sillon/", "") to "/sillon/" or "/". */
export function basePath(raw: string | undefined): string {
  const trimmed = (raw ?? "/").trim().replace(/^\/+|\/+$/g, "");
  return trimmed ? `/${trimmed}/` : "/";
}

/**
 * A redirect thrown by a middleware, inside the app: React Router puts the base path before the redirects of
 * loaders and actions, but not before those of middleware, which would leave the app (/login instead of
 * /sillon/login). Other responses pass unchanged.
 */
export function withinBasePath(thrown: unknown, raw: string | undefined): unknown {
  if (!(thrown instanceof Response)) return thrown;
  const location = thrown.headers.get("Location");
  const base = basePath(raw);
  if (!location || !location.startsWith("/") || location.startsWith("//") || base === "/" || location.startsWith(base)) return thrown;
  const headers = new Headers(thrown.headers);
  headers.set("Location", base.slice(0, -1) + location);
  return new Response(thrown.body, { status: thrown.status, headers });
}
