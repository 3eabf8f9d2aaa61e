// One line per request (issue 16): time, method, path (never the query string, which may carry a token), status,
// duration and the signed-in user's id — never passwords, tokens or cookies. JSON, so log tools can read it.
// The level (LOG_LEVEL: error, warn, info, debug) decides what is written: requests are "info" (5xx "error").

const LEVELS = { error: 0, warn: 1, info: 2, debug: 3 };

/** Whether a line of `level` is written at the configured level. */
export function enabled(configured, level) {
  return (LEVELS[level] ?? 2) <= (LEVELS[configured] ?? 2);
}

/** The line of one finished request. */
export function requestLine({ time, method, path, status, ms, userId }) {
  return JSON.stringify({
    t: time.toISOString(),
    level: status >= 500 ? "error" : "info",
    method,
    path,
    status,
    ms: Math.round(ms * 10) / 10,
    user: userId ?? null,
  });
}

/**
 * The express middleware: `res.locals.requestLog` is the object React Router's middleware fills with the user's id
 * (server/http/context.server.ts, through the load context); the line is written when the response is finished.
 */
export function requestLog(configured, write = (line) => process.stdout.write(`${line}\n`)) {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.locals.requestLog = { userId: null };
    res.on("finish", () => {
      const level = res.statusCode >= 500 ? "error" : "info";
      if (!enabled(configured, level)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      write(
        requestLine({
          time: new Date(),
          method: req.method,
          path: req.originalUrl.split("?")[0],
          status: res.statusCode,
          ms,
          userId: res.locals.requestLog.userId,
        }),
      );
    });
    next();
  };
}
