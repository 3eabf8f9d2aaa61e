import type { AddressInfo } from "node:net";
import http from "node:http";
import zlib from "node:zlib";
// @ts-expect-error express ships no types and @types/express is not installed
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptedEncoding, COMPRESS_FROM_BYTES, wholeDataAnswers } from "./data-answer.js";

const big = "x".repeat(COMPRESS_FROM_BYTES) + "é".repeat(3000);

/** An app whose answers come in pieces, as React Router's adapter writes them (write, flush, write, end). */
async function serve() {
  const app = express();
  app.use(wholeDataAnswers());
  app.get("*", (req: { path: string }, res: { type: (t: string) => void; write: (c: unknown) => boolean; flush?: () => void; end: (c?: unknown) => void }) => {
    res.type("text/x-script");
    const body = req.path.includes("small") ? "[1]" : big;
    res.write(Buffer.from(body.slice(0, 500)));
    res.flush?.();
    res.write(body.slice(500, 1500));
    res.flush?.();
    res.end(new TextEncoder().encode(body.slice(1500)));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
}

/** The raw answer: headers and bytes as sent, and the socket writes that carried the answer. */
function get(port: number, path: string, encoding?: string, method = "GET") {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer; status: number }>((resolve, reject) => {
    const req = http.request({ port, path, method, headers: encoding ? { "accept-encoding": encoding } : {} }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(parts), status: res.statusCode! }));
    });
    req.on("error", reject);
    req.end();
  });
}

let app: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => (app = await serve()));
afterAll(() => app.close());

describe("data answers in one piece (decision 0083)", () => {
  test("[issue11-perf] a .data answer is gathered, gzip-compressed when accepted, with its length and Vary", async () => {
    const r = await get(app.port, "/home/x.data", "gzip, deflate, br");
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(r.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(r.headers["content-length"])).toBe(r.body.length);
    expect(r.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.gunzipSync(r.body).toString()).toBe(big);
  });

  test("[issue11-perf] deflate when only deflate is accepted; as is without an accepted coding or when small", async () => {
    const deflated = await get(app.port, "/home/x.data", "deflate");
    expect(deflated.headers["content-encoding"]).toBe("deflate");
    expect(zlib.inflateSync(deflated.body).toString()).toBe(big);
    for (const refused of [undefined, "identity", "gzip;q=0, deflate;q=0", "br"]) {
      const plain = await get(app.port, "/home/x.data", refused);
      expect(plain.headers["content-encoding"], refused).toBeUndefined();
      expect(plain.body.toString(), refused).toBe(big);
      expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    }
    const small = await get(app.port, "/home/small.data", "gzip");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe("[1]");
  });

  test("[issue11-perf] other addresses pass untouched (streamed as the app writes them)", async () => {
    const page = await get(app.port, "/home/x", "gzip");
    expect(page.headers["content-encoding"]).toBeUndefined();
    expect(page.headers["transfer-encoding"]).toBe("chunked");
    expect(page.body.toString()).toBe(big);
  });

  test("[issue11-perf] the Accept-Encoding header is read as browsers and proxies write it", () => {
    expect(acceptedEncoding("gzip, deflate, br, zstd")).toBe("gzip");
    expect(acceptedEncoding("deflate;q=0.5, gzip;q=0")).toBe("deflate");
    expect(acceptedEncoding("*")).toBe("gzip");
    expect(acceptedEncoding("*;q=0, identity")).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding(" GZIP ; q=1 ")).toBe("gzip");
  });
});
