import type { AddressInfo } from "node:net";
// @ts-expect-error express ships no types and @types/express is not installed
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bodyCheck, csrfCheck, securityHeaders } from "./edge.js";

/** The edge middlewares in front of an app that answers 200 "ok", with or without TRUST_PROXY. */
async function serve(trustProxy: boolean) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(securityHeaders({ tileOrigins: ["https://tuiles.example"], formTargets: [] }));
  app.use(csrfCheck({ trustProxy }));
  app.use(bodyCheck());
  app.all("*", (_req: unknown, res: { send: (body: string) => void }) => res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

let direct: Awaited<ReturnType<typeof serve>>;
let proxied: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  direct = await serve(false);
  proxied = await serve(true);
});
afterAll(async () => {
  await direct.close();
  await proxied.close();
});

test("[C-ERR-06] a JSON API body over the limit is refused as a problem document with its error key", async () => {
  const big = await fetch(`${direct.url}/sillon/api/v1/dossiers`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer x" },
    body: JSON.stringify({ libelle: "x".repeat(10 * 1024 * 1024) }),
  });
  expect(big.status).toBe(413);
  expect(big.headers.get("content-type")).toContain("application/problem+json");
  expect(await big.json()).toMatchObject({ status: 413, key: "errors.api.body-too-large" });
  const text = await fetch(`${direct.url}/sillon/api/v1/dossiers`, {
    method: "POST",
    headers: { "Content-Type": "text/plain", Authorization: "Bearer x" },
    body: "{}",
  });
  expect(text.status).toBe(415);
  expect(await text.json()).toMatchObject({ key: "errors.api.content-type" });
});

describe("HTTP edge (issue 10)", () => {
  test("[issue10-5] HSTS only over HTTPS: behind a trusted proxy that says https, never from a client's own header", async () => {
    const https = { "X-Forwarded-Proto": "https" };
    expect((await fetch(`${proxied.url}/`, { headers: https })).headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect((await fetch(`${proxied.url}/`)).headers.get("strict-transport-security")).toBeNull();
    expect((await fetch(`${direct.url}/`, { headers: https })).headers.get("strict-transport-security")).toBeNull();
  });

  test("[issue10-5] the CSP allows the configured tile host for images and fetches, and a fresh nonce each time", async () => {
    const a = (await fetch(`${direct.url}/`)).headers.get("content-security-policy")!;
    const b = (await fetch(`${direct.url}/`)).headers.get("content-security-policy")!;
    expect(a).toMatch(/img-src 'self' data: blob: https:\/\/tuiles\.example;/);
    expect(a).toMatch(/connect-src 'self' https:\/\/tuiles\.example;/);
    expect(a).not.toBe(b);
  });

  test("[issue10-3] the Origin is compared with the host the browser addressed: X-Forwarded-Host behind a trusted proxy only", async () => {
    const post = (url: string, headers: Record<string, string>) =>
      fetch(`${url}/sillon/locale`, { method: "POST", headers, body: new URLSearchParams({ locale: "en" }) });
    expect((await post(proxied.url, { Origin: "https://sillon.exemple.fr", "X-Forwarded-Host": "sillon.exemple.fr" })).status).toBe(200);
    expect((await post(proxied.url, { Origin: "https://ailleurs.example", "X-Forwarded-Host": "sillon.exemple.fr" })).status).toBe(403);
    // Not trusted: a forged X-Forwarded-Host does not make another origin acceptable.
    expect((await post(direct.url, { Origin: "https://sillon.exemple.fr", "X-Forwarded-Host": "sillon.exemple.fr" })).status).toBe(403);
    expect((await post(direct.url, { Origin: direct.url })).status).toBe(200);
    expect((await post(direct.url, { Origin: "null" })).status).toBe(403);
    expect((await post(direct.url, { "Sec-Fetch-Site": "same-site" })).status).toBe(403);
    expect((await post(direct.url, { "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    // No header at all: only the API login, and calls carrying a bearer token.
    expect((await post(direct.url, {})).status).toBe(403);
    expect((await post(direct.url, { Authorization: "Bearer abc" })).status).toBe(200);
    expect((await fetch(`${direct.url}/sillon/api/v1/login_check`, { method: "POST", body: new URLSearchParams({ username: "a" }) })).status).toBe(200);
  });

  test("[issue10-7] bodies: 413 over the limit before reading, 415 for a type the app does not read, 411 without a length", async () => {
    const origin = { Origin: direct.url };
    const big = await fetch(`${direct.url}/x`, {
      method: "POST",
      headers: { ...origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=".padEnd(1024 * 1024 + 1, "b"),
    });
    expect(big.status).toBe(413);
    const text = await fetch(`${direct.url}/x`, { method: "POST", headers: { ...origin, "Content-Type": "text/plain" }, body: "{}" });
    expect(text.status).toBe(415);
    const json = await fetch(`${direct.url}/x`, { method: "POST", headers: { ...origin, "Content-Type": "application/json; charset=utf-8" }, body: "{}" });
    expect(json.status).toBe(200);
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode("a=b")), c.close()) });
    const chunked = await fetch(`${direct.url}/x`, {
      method: "POST",
      headers: { ...origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
  });
});
