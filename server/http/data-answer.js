// React Router's navigation data (`….data` requests, what every screen change and revalidation asks) sent in one
// piece (decision 0083): the answer is gathered, compressed at once and written with its headers and its length in a
// single socket write. Through the streaming compression, a 2,000-row answer took four socket writes (the gzip
// header, the body, the gzip trailer, the chunked terminator: React Router's adapter flushes after each piece) and
// three hand-offs to zlib's thread pool; each write over TCP costs the kernel's work of both ends.
// The data answers are never streamed here (no loader returns promises to await later), so nothing arrives later
// than before. Pages, files and exports keep the streaming compression of server/start.js.
import zlib from "node:zlib";

/** Below this size an answer is sent as is (compressing saves no packet). */
export const COMPRESS_FROM_BYTES = 1024;
/** Above this size the compression runs on zlib's thread pool, not in the request's own turn. */
const SYNC_UP_TO_BYTES = 256 * 1024;

export const isDataRequest = (path) => path.endsWith(".data");

/** gzip, else deflate, when the client accepts it (q above 0, or `*`); null otherwise. */
export function acceptedEncoding(header) {
  const accepted = new Map();
  for (const part of String(header ?? "").split(",")) {
    const [rawName, ...params] = part.toLowerCase().split(";");
    const name = rawName.trim();
    if (!name) continue;
    const q = params.map((p) => p.replace(/\s/g, "")).find((p) => p.startsWith("q="));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const wants = (name) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return wants("gzip") ? "gzip" : wants("deflate") ? "deflate" : null;
}

const asBuffer = (chunk, encoding) =>
  Buffer.isBuffer(chunk)
    ? chunk
    : typeof chunk === "string"
      ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8")
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Express middleware: gathers a data answer and sends it in one piece, gzip level `level` (1: the pages' level,
 * decision 0074) when accepted and worth it. Other requests pass untouched.
 */
export function wholeDataAnswers({ level = 1 } = {}) {
  return (req, res, next) => {
    if (!isDataRequest(req.path) || req.method === "HEAD") return next();
    const parts = [];
    const write = res.write;
    const end = res.end;
    const callLater = (cb) => typeof cb === "function" && process.nextTick(cb);
    res.write = (chunk, encoding, cb) => {
      if (chunk != null && chunk.length !== 0) parts.push(asBuffer(chunk, encoding));
      callLater(typeof encoding === "function" ? encoding : cb);
      return true;
    };
    // React Router's adapter flushes after each piece: nothing to flush before the end.
    res.flush = () => {};
    res.end = (chunk, encoding, cb) => {
      if (typeof chunk === "function") [chunk, cb] = [null, chunk];
      if (chunk != null && chunk.length !== 0) parts.push(asBuffer(chunk, encoding));
      res.write = write;
      res.end = end;
      const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      const send = (bytes, coding) => {
        if (coding) {
          res.setHeader("Content-Encoding", coding);
          res.removeHeader("Content-Length");
        }
        if (res.statusCode !== 204 && res.statusCode !== 304) res.setHeader("Content-Length", bytes.length);
        end.call(res, bytes, typeof encoding === "function" ? encoding : cb);
      };
      const vary = res.getHeader("Vary");
      if (!vary) res.setHeader("Vary", "Accept-Encoding");
      else if (!/accept-encoding|\*/i.test(String(vary))) res.setHeader("Vary", `${vary}, Accept-Encoding`);
      const coding = acceptedEncoding(req.headers["accept-encoding"]);
      if (!coding || body.length < COMPRESS_FROM_BYTES || res.getHeader("Content-Encoding") || res.statusCode === 204 || res.statusCode === 304)
        return send(body, null);
      const compress = coding === "gzip" ? { sync: zlib.gzipSync, async: zlib.gzip } : { sync: zlib.deflateSync, async: zlib.deflate };
      if (body.length <= SYNC_UP_TO_BYTES) return send(compress.sync(body, { level }), coding);
      compress.async(body, { level }, (error, out) => (error ? res.destroy(error) : send(out, coding)));
      return res;
    };
    next();
  };
}
