import { RouterContextProvider } from "react-router";
import { expect } from "vitest";
import { z } from "zod";
import { loader as apiLoader, action as apiAction } from "~/routes/api/api";
import { issueApiToken } from "../../server/auth/api-token";
import { openApiDocument, ProblemSchema, type ApiCall } from "../../server/http/api.server";
import { dbContext } from "../../server/http/context.server";
import { clientIpContext } from "../../server/security/context";
import type { Db } from "../../server/db/knex";
import type { DemoIds } from "../../server/demo/seed-demo";
import { attendre, tacheFinie } from "./attendre";

export { attendre, tacheFinie };

/**
 * A JSON API client for service tests (issue 27): requests sent as over HTTP, through the route module of /api/v1
 * (GET: its loader, else its action), with a bearer token; every answer recorded for the contract check.
 */

export type Answered = { method: string; path: string; status: number; body: unknown; contentType: string | null };
type Call = { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> };

const BASE = "http://sillon.test/sillon";

/** `ip`: the client address the calls come from (the API's quota counts per address). */
export function apiClient(t: { db: () => Db; demo: () => DemoIds }, { ip = "203.0.113.27" }: { ip?: string } = {}) {
  const answered: Answered[] = [];
  async function api(method: string, path: string, o: Call = {}) {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) {
      headers["Content-Type"] ??= "application/json";
      headers["Content-Length"] = String(Buffer.byteLength(body));
    }
    const request = new Request(`${BASE}${path}`, { method, headers, body });
    const context = new RouterContextProvider();
    context.set(dbContext, t.db());
    context.set(clientIpContext, ip);
    const response: Response = await (method === "GET" ? apiLoader : apiAction)({ request, params: {}, context } as never);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const contentType = response.headers.get("content-type");
    // A file answer (decision 0111) is kept as its text; every other answer is JSON.
    const json = !text ? undefined : contentType && !contentType.includes("json") ? text : JSON.parse(text);
    answered.push({ method, path: path.split("?")[0], status: response.status, body: json, contentType });
    return { status: response.status, body: json, text, bytes, headers: response.headers };
  }
  async function tokenOf(username: string, extra: Record<string, unknown> = {}) {
    const id = t.demo().users[username as keyof DemoIds["users"]];
    return issueApiToken(t.db(), id, { label: "test", nature: "connexion", ...extra });
  }
  /** Polls GET `href` (taches/{id}) as a client does until the job ended; every answer a 200. */
  async function attendreTache<T extends { etat: string }>(token: string, href: string, o?: Parameters<typeof attendre>[2]): Promise<T> {
    const lire = async () => {
      const r = await api("GET", href, { token });
      expect(r.status).toBe(200);
      return r.body as T;
    };
    return attendre(lire, tacheFinie, o);
  }
  return { api, tokenOf, answered, attendreTache };
}

type Media = { schema: Record<string, unknown> };
type OpenApiResponse = { $ref?: string; content?: Record<string, Media> };
type OpenApi = {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
  components: { schemas: Record<string, unknown>; responses?: Record<string, OpenApiResponse> };
};

/** An answer of the document, its `$ref` to `components/responses` followed. */
function resolved(doc: OpenApi, response: OpenApiResponse | undefined): OpenApiResponse | undefined {
  const ref = response?.$ref?.match(/^#\/components\/responses\/(.+)$/)?.[1];
  return ref ? doc.components.responses?.[ref] : response;
}

/**
 * A zod schema from a schema of the document: its `$ref`s to `components/schemas` (decision 0134) become `$defs`,
 * the only references `z.fromJSONSchema` follows, with every component beside it. Cached by schema.
 */
function schemaReader(doc: OpenApi) {
  const toDefs = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(toDefs)
      : x && typeof x === "object"
        ? Object.fromEntries(
            Object.entries(x).map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "#/$defs/") : toDefs(v)]),
          )
        : x;
  const $defs = toDefs(doc.components.schemas);
  const cache = new Map<string, z.ZodType>();
  return (schema: Record<string, unknown>) => {
    const key = JSON.stringify(schema);
    let out = cache.get(key);
    if (!out) cache.set(key, (out = z.fromJSONSchema({ ...(toDefs(schema) as object), $defs } as never)));
    return out;
  };
}

/** `x` (a part of the document) with every `$ref` to its components replaced by what it names: the document as it reads. */
export function inlineRefs(doc: unknown, x: unknown, seen: string[] = []): unknown {
  if (Array.isArray(x)) return x.map((v) => inlineRefs(doc, v, seen));
  if (!x || typeof x !== "object") return x;
  const { $ref, ...rest } = x as Record<string, unknown>;
  if (typeof $ref === "string" && $ref.startsWith("#/") && !seen.includes($ref)) {
    const target = $ref
      .slice(2)
      .split("/")
      .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], doc);
    return { ...(inlineRefs(doc, target, [...seen, $ref]) as object), ...(inlineRefs(doc, rest, seen) as object) };
  }
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, inlineRefs(doc, v, seen)]));
}

/**
 * The contract (issue 26): every path and method of `calls` was called, no answer was a 500, and every answer
 * validates against the schema the OpenAPI document gives for its status.
 */
export function expectContract(calls: readonly ApiCall[], answered: Answered[]) {
  const doc = openApiDocument(calls) as OpenApi;
  const schemaOf = schemaReader(doc);
  const templates = Object.keys(doc.paths).map((p) => ({ p, re: new RegExp(`^${p.replace(/\{\w+\}/g, "[^/]+")}$`) }));
  const called = new Set<string>();
  const failures: string[] = [];
  for (const a of answered) {
    if (a.status >= 500) failures.push(`${a.method} ${a.path}: ${a.status}`);
    // The literal path wins over a template ("/parcelles/{id}/saison" over "/parcelles/{id}/{x}").
    const template = templates.filter((x) => x.re.test(a.path)).sort((x, y) => x.p.split("{").length - y.p.split("{").length);
    const op = template.map((x) => ({ p: x.p, op: doc.paths[x.p][a.method.toLowerCase()] })).find((x) => x.op);
    if (!op) continue;
    called.add(`${a.method} ${op.p}`);
    const response = resolved(doc, op.op.responses[String(a.status)]);
    if (!response) {
      failures.push(`${a.method} ${op.p}: status ${a.status} not documented`);
      continue;
    }
    if (a.status === 204) {
      if (a.body !== undefined) failures.push(`${a.method} ${op.p}: 204 with a body`);
      continue;
    }
    const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
    if (!a.contentType?.startsWith(type ?? "-")) failures.push(`${a.method} ${op.p}: ${a.contentType} for ${type}`);
    const check = schemaOf(media!.schema).safeParse(a.body);
    if (!check.success) failures.push(`${a.method} ${op.p} ${a.status}: ${check.error.message}`);
    if (a.status >= 400) ProblemSchema.parse(a.body);
  }
  const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
  const missing = documented.filter((d) => !called.has(d));
  expect({ missing, failures }).toEqual({ missing: [], failures: [] });
}
