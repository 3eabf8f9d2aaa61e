import { z } from "zod";
import { validate } from "~/domain/validation";
import { requestScope, type Scope } from "../access/scope";
import { API_QUOTA, takeQuota, type QuotaRules } from "../auth/api-quota";
import { authenticateApiToken, type Bearer } from "../auth/api-token";
import { IDEMPOTENCY_KEY, keepAnswer, keptAnswer, requestFingerprint } from "../auth/api-idempotence";
import { contextViewOfCampaign, type ContextView } from "../contexte/service";
import type { Db } from "../db/knex";
import { isServiceError, ServiceError } from "../errors";
import { fileResponse } from "./answers";
import { limitedFormData } from "./limited-form-data.server";

/**
 * The API adapter (issue 26, decision 0098): the JSON API's sibling of the route adapter (route.server.ts). Every call
 * of /api/v1 and /api/v2 is declared once with `apiCall` — method, path, the zod schemas of its path parameters, query
 * and body (the screens' own schemas from app/domain), the schema of its answer, and the service it calls — and
 * `answerApi` runs it: bearer token → user → the request scope of the screens (server/access/scope.ts), input parsed
 * by the schemas, the service called in one transaction (the services ask the rights module and the lock check, as
 * for the screens), every refusal a `application/problem+json` answer with the spec's error key. The OpenAPI document
 * is written from the same declarations (`openApiDocument`), so what is documented is what runs.
 *
 * Cookie sessions never authenticate an API call: only `Authorization: Bearer <token>` does, so a page of another
 * site cannot make the browser write through the API (no CSRF).
 */

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Locale = "fr" | "en";

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type ApiInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> = {
  /** The request scope: the same the screens' services take. With `campaign`, its view is the named campaign's. */
  scope: Scope;
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  locale: Locale;
  bearer: Bearer;
};

export type ApiCall<P extends AnyObject = AnyObject, Q extends AnyObject = AnyObject, B extends z.ZodType = z.ZodType, A extends z.ZodType = z.ZodType> = {
  method: ApiMethod;
  /** The spec's path, with {name} parameters: "/api/v1/dossiers/{id}". */
  path: string;
  tag: string;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The answer's schema; none: 204 with no body. */
  answer?: A;
  /** 201 for a creation. */
  status?: 200 | 201 | 202;
  /** Refusals the call may answer beside 400, 401, 403 (a read-only token, terms not accepted), 413, 415 and 429: 404, 409, ... */
  refusals?: number[];
  /**
   * The campaign the call is about, from its parsed input: the scope's view is then that campaign's (its farm, a
   * folder linking it, its lock), so the campaign services answer for it without touching the user's selection.
   */
  campaign?: (input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }, db: Db) => number | Promise<number | null>;
  /** A call a user who has not accepted the terms may make (the terms call itself). */
  beforeTerms?: boolean;
  /**
   * A file answer (decision 0111): the handle returns an `ApiFile` (answer: ApiFileAnswer), sent as a download of
   * this media type (fileResponse), not as JSON.
   */
  file?: string;
  /**
   * A multipart/form-data body read within `limit` bytes (an upload): its fields, files as File, parsed by `body`. A
   * function is read at each call (a limit from the environment, as ATTACHMENT_MAX_MB).
   */
  multipart?: { limit: number | (() => number) };
  handle: (input: ApiInput<P, Q, B>) => Promise<A extends z.ZodType ? z.input<A> : void>;
};

/** Declares a call (typed by its schemas). */
export function apiCall<
  P extends AnyObject = z.ZodObject<Record<string, never>>,
  Q extends AnyObject = z.ZodObject<Record<string, never>>,
  B extends z.ZodType = z.ZodUndefined,
  A extends z.ZodType = z.ZodVoid,
>(def: ApiCall<P, Q, B, A>): ApiCall {
  return def as unknown as ApiCall;
}

/** The answer of a file call (`file`): a stored file or bytes, and the name it is downloaded under. */
export type ApiFile = ({ chemin: string } | { bytes: Uint8Array }) & { nom: string };
export const ApiFileAnswer = z.custom<ApiFile>((v) => typeof v === "object" && v !== null && "nom" in v);

/** Largest JSON body read (the edge refuses a larger declared length first; this holds without it). */
export const API_BODY_LIMIT = 1024 * 1024;

const PROBLEM_TYPE = "application/problem+json";

/** The error keys of the adapter itself (the services' keys pass through). */
export const API_ERRORS = {
  unauthorized: "errors.api.unauthorized",
  notFound: "errors.not-found",
  method: "errors.api.method-not-allowed",
  json: "errors.api.invalid-json",
  contentType: "errors.api.content-type",
  tooLarge: "errors.api.body-too-large",
  readOnly: "errors.api.read-only-token",
  terms: "errors.api.terms-not-accepted",
  tooMany: "errors.api.too-many-requests",
  forbidden: "errors.forbidden",
  server: "errors.api.server-error",
  campaignRequired: "errors.api.campaign-required",
  idempotencyKey: "api-terrain.idempotence.invalide",
  idempotencyReused: "api-terrain.idempotence.reutilisee",
} as const;

const TITLES: Record<number, [string, string]> = {
  400: ["Requête invalide", "Bad request"],
  401: ["Authentification requise", "Authentication required"],
  403: ["Accès refusé", "Forbidden"],
  404: ["Introuvable", "Not found"],
  405: ["Méthode non permise", "Method not allowed"],
  409: ["Conflit", "Conflict"],
  412: ["Condition préalable non remplie", "Precondition failed"],
  413: ["Corps trop volumineux", "Payload too large"],
  415: ["Type de contenu non pris en charge", "Unsupported media type"],
  422: ["Requête non traitable", "Unprocessable content"],
  429: ["Trop de requêtes", "Too many requests"],
  500: ["Erreur du serveur", "Server error"],
};

/** The problem document (RFC 9457) of a refusal: the spec's error key, and the field errors of a refused input. */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  key: z.string(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export function problem(
  status: number,
  key: string,
  o: { locale?: Locale; fieldErrors?: Record<string, string[]>; params?: Record<string, string | number>; headers?: Record<string, string> } = {},
): Response {
  const title = (TITLES[status] ?? TITLES[status >= 500 ? 500 : 400])[o.locale === "en" ? 1 : 0];
  const body: Problem = {
    type: "about:blank",
    title,
    status,
    key,
    ...(o.fieldErrors ? { fieldErrors: o.fieldErrors } : {}),
    ...(o.params ? { params: o.params } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": `${PROBLEM_TYPE}; charset=utf-8`, "Cache-Control": "no-store", ...o.headers },
  });
}

/** A thrown refusal to end the call with (the adapter answers it as is). */
class Refused extends Error {
  constructor(readonly response: Response) {
    super("refused");
  }
}

type Compiled = { call: ApiCall; pattern: RegExp; names: string[] };

function compile(call: ApiCall): Compiled {
  const names: string[] = [];
  const source = call.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), "([^/]+)"));
  return { call, pattern: new RegExp(`^${source}$`), names };
}

/** The path of the API below the base path: "/sillon/api/v1/oads" → "/api/v1/oads". */
export function apiPath(pathname: string): string {
  const at = pathname.search(/\/api\/v\d+(\/|$)/);
  return at === -1 ? pathname : pathname.slice(at);
}

/** A schema that refuses unknown fields: an API client's typo is a 400, not a silently ignored field. */
function strict<T extends z.ZodType>(schema: T): z.ZodType {
  if (schema instanceof z.ZodObject) return (schema as unknown as AnyObject).strict();
  // A z.preprocess(...) over an object (the plot's schema): the same steps, the object strict.
  if (schema instanceof z.ZodPipe && schema.out instanceof z.ZodObject) return z.pipe(schema.in, (schema.out as unknown as AnyObject).strict());
  return schema;
}

function parsed<T extends z.ZodType>(schema: T | undefined, input: unknown, locale: Locale, prefix = ""): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  const checked = strict(schema);
  const r = validate(checked, input);
  if (r.success) return r.data as z.output<T>;
  const fieldErrors: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(r.fieldErrors ?? {})) fieldErrors[prefix + k] = v;
  // An unknown field is named by itself (zod reports it on the object).
  const unknown = checked.safeParse(input);
  if (!unknown.success)
    for (const issue of unknown.error.issues)
      if (issue.code === "unrecognized_keys") {
        // validate() names the object "rows[0]" (an item of a list): that entry goes too.
        const listed = issue.path.reduce<string>((acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), "");
        for (const name of [issue.path.join("."), listed, "form"]) delete fieldErrors[prefix + name];
        for (const key of issue.keys) fieldErrors[prefix + [...issue.path, key].join(".")] = ["warning.invalid"];
      }
  throw new Refused(problem(400, "warning.invalid-form", { locale, fieldErrors }));
}

async function readJson(request: Request, locale: Locale): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw new Refused(problem(415, API_ERRORS.contentType, { locale }));
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > API_BODY_LIMIT) throw new Refused(problem(413, API_ERRORS.tooLarge, { locale }));
  const reader = request.body?.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  if (reader)
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > API_BODY_LIMIT) {
        await reader.cancel();
        throw new Refused(problem(413, API_ERRORS.tooLarge, { locale }));
      }
      parts.push(value);
    }
  const text = Buffer.concat(parts).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new Refused(problem(400, API_ERRORS.json, { locale }));
  }
}

/** A multipart body's fields (a repeated field: its values), refused past `limit` bytes (413) or not multipart (415). */
async function readForm(request: Request, locale: Locale, limit: number): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "multipart/form-data") throw new Refused(problem(415, API_ERRORS.contentType, { locale }));
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw new Refused(problem(413, API_ERRORS.tooLarge, { locale }));
  const tooLarge = () => new Refused(problem(413, API_ERRORS.tooLarge, { locale }));
  const form = await limitedFormData(request, limit, tooLarge).catch((e: unknown) => {
    if (e instanceof Refused) throw e;
    throw new Refused(problem(400, API_ERRORS.json, { locale }));
  });
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

export type ApiOptions = { quota?: QuotaRules; clientIp?: string };

/** The API's answer to one request: the call it names run as its bearer's user, or a problem answer. */
export async function answerApi(calls: readonly ApiCall[], request: Request, db: Db, options: ApiOptions = {}): Promise<Response> {
  const url = new URL(request.url);
  const locale: Locale = url.searchParams.get("locale") === "en" ? "en" : "fr";
  try {
    return await runCall(compiledOf(calls), request, url, db, locale, options);
  } catch (e) {
    if (e instanceof Refused) return e.response;
    if (isServiceError(e)) return problem(e.status >= 500 ? 500 : e.status, e.key, { locale, fieldErrors: e.fieldErrors, params: e.params });
    // A campaign required (412 of campaignContext) or another Response of a service.
    if (e instanceof Response) return problem(e.status, e.status === 412 ? API_ERRORS.campaignRequired : API_ERRORS.server, { locale });
    console.error("[api]", e);
    return problem(500, API_ERRORS.server, { locale });
  }
}

const compiledCache = new WeakMap<readonly ApiCall[], Compiled[]>();
function compiledOf(calls: readonly ApiCall[]): Compiled[] {
  let c = compiledCache.get(calls);
  if (!c) compiledCache.set(calls, (c = calls.map(compile)));
  return c;
}

async function runCall(compiled: Compiled[], request: Request, url: URL, db: Db, locale: Locale, options: ApiOptions): Promise<Response> {
  const path = apiPath(url.pathname);
  const method = request.method.toUpperCase();
  const onPath = compiled.map((c) => ({ c, m: c.pattern.exec(path) })).filter((x) => x.m);
  if (!onPath.length) return problem(404, API_ERRORS.notFound, { locale });
  const found = onPath.find((x) => x.c.call.method === method);
  if (!found) return problem(405, API_ERRORS.method, { locale, headers: { Allow: onPath.map((x) => x.c.call.method).join(", ") } });
  const { call, names } = found.c;
  const quota = options.quota ?? API_QUOTA;

  // The address's quota first: it also slows a search for tokens.
  if (options.clientIp) {
    const wait = await takeQuota(db, `ip:${options.clientIp}`, quota.perAddress, quota.windowMs);
    if (wait) return problem(429, API_ERRORS.tooMany, { locale, headers: { "Retry-After": String(wait) } });
  }
  const auth = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  const bearer = auth ? await authenticateApiToken(db, auth[1]) : null;
  if (!bearer) return problem(401, API_ERRORS.unauthorized, { locale, headers: { "WWW-Authenticate": 'Bearer realm="sillon"' } });
  const wait = await takeQuota(db, `jeton:${bearer.idToken}`, quota.perToken, quota.windowMs);
  if (wait) return problem(429, API_ERRORS.tooMany, { locale, headers: { "Retry-After": String(wait) } });
  if (method !== "GET" && bearer.acces === "lecture") return problem(403, API_ERRORS.readOnly, { locale });
  if (!bearer.user.acceptcgu && !call.beforeTerms) return problem(403, API_ERRORS.terms, { locale });

  const rawParams = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found.m![i + 1])]));
  const params = parsed(call.params ?? z.object({}), rawParams, locale);
  const rawQuery: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (key === "locale") continue;
    const all = url.searchParams.getAll(key);
    rawQuery[key] = all.length > 1 ? all : all[0];
  }
  const query = parsed(call.query ?? z.object({}), rawQuery, locale);
  const raw = call.body
    ? call.multipart
      ? await readForm(request, locale, typeof call.multipart.limit === "function" ? call.multipart.limit() : call.multipart.limit)
      : await readJson(request, locale)
    : undefined;
  const body = call.body ? parsed(call.body, raw, locale) : undefined;
  if (!call.body && (method === "POST" || method === "PUT" || method === "PATCH") && Number(request.headers.get("content-length") ?? "0") > 0)
    await readJson(request, locale);

  // Idempotency-Key on a creating call (decision 0113): the answer kept with the key is given again to the same request.
  const idemKey = method === "POST" ? request.headers.get("idempotency-key") : null;
  if (idemKey !== null && !IDEMPOTENCY_KEY.test(idemKey)) return problem(400, API_ERRORS.idempotencyKey, { locale });
  const fingerprint = idemKey === null ? "" : requestFingerprint(method, path, body);
  const replay = (kept: { requete: string; statut: number; reponse: string }) =>
    kept.requete !== fingerprint
      ? problem(422, API_ERRORS.idempotencyReused, { locale })
      : new Response(kept.reponse || null, {
          status: kept.statut,
          headers: {
            ...(kept.reponse ? { "Content-Type": "application/json; charset=utf-8" } : {}),
            "Cache-Control": "no-store",
            "Idempotent-Replayed": "true",
          },
        });

  let kept: Response | undefined;
  const answer = await db
    .transaction(async (trx) => {
      if (idemKey !== null) {
        const prior = await keptAnswer(trx, bearer.user.id, idemKey);
        if (prior) {
          kept = replay(prior);
          return undefined;
        }
      }
      let view: ContextView | undefined;
      if (call.campaign) {
        // The campaign the call is about (named by the address, the body, or the row it writes); a row of none is a 404.
        const idCampagne = await call.campaign({ params, query, body }, trx);
        if (idCampagne == null) throw new ServiceError(API_ERRORS.notFound, 404);
        const campagne = await trx("campagne").where({ id: idCampagne }).first("idExploitation");
        if (!campagne) throw new ServiceError("errors.services.campagnes-service-error", 404);
        const found = await contextViewOfCampaign(trx, bearer.user, idCampagne, Number(campagne.idExploitation));
        if (!found) throw new ServiceError(API_ERRORS.forbidden, 403);
        view = found;
      }
      const scope = requestScope(trx, bearer.user, { lectureSeule: bearer.acces === "lecture", ...(view ? { view: async () => view! } : {}) });
      const value = await call.handle({ scope, params, query, body, locale, bearer });
      // The answer is checked against its documented schema before it leaves: what the document says is what is sent.
      const checked = call.answer ? call.answer.parse(value) : undefined;
      if (idemKey !== null && !call.file)
        await keepAnswer(trx, bearer.user.id, idemKey, {
          requete: fingerprint,
          statut: call.answer ? (call.status ?? 200) : 204,
          reponse: call.answer ? JSON.stringify(checked) : "",
        });
      return checked;
    })
    .catch(async (e: unknown) => {
      // The same key sent twice at once: the second transaction failed on the key's unique index and stored nothing.
      if (idemKey === null || e instanceof Refused || isServiceError(e) || e instanceof Response) throw e;
      const prior = await keptAnswer(db, bearer.user.id, idemKey).catch(() => null);
      if (!prior) throw e;
      kept = replay(prior);
      return undefined;
    });
  if (kept) return kept;
  if (!call.answer) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  if (call.file) {
    const { nom, ...contenu } = answer as ApiFile;
    return fileResponse(contenu as { chemin: string } | { bytes: Uint8Array }, nom, call.file);
  }
  return new Response(JSON.stringify(answer), {
    status: call.status ?? 200,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI 3.1, written from the declarations.

type Json = Record<string, unknown>;
const SCHEMAS = "#/components/schemas/";

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  void _drop;
  return rest;
};

const pascal = (s: string) => s.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase()).replace(/[^a-zA-Z0-9]/g, "");

/** Every `$ref` of `x` (a JSON value) mapped by `rename`, deeply, as a new value. */
function mapRefs(x: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(x)) return x.map((v) => mapRefs(v, rename));
  if (!x || typeof x !== "object") return x;
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? rename(v) : mapRefs(v, rename)]));
}

/**
 * The schemas of the document's `components` (issue 26, decision 0134): one entry per distinct schema, by name.
 * `put` gives the name a schema is kept under: the same content is the same name; a name already taken by another
 * content gets a suffix (the input and output forms of one zod schema differ: `additionalProperties`, defaults).
 */
class Components {
  readonly schemas: Record<string, unknown> = {};
  private readonly names = new Map<string, string>();
  put(name: string, schema: unknown, suffix = ""): string {
    const key = JSON.stringify(schema);
    const known = this.names.get(key);
    if (known) return known;
    const base = name in this.schemas && suffix ? `${name}${suffix}` : name;
    let final = base;
    for (let n = 2; final in this.schemas; n++) final = `${base}${n}`;
    this.schemas[final] = schema;
    this.names.set(key, final);
    return final;
  }
  /** A call's schema in JSON Schema; the zod schemas named with `.meta({ id })` go to the components, referenced. */
  of(schema: z.ZodType, io: "input" | "output"): Json {
    const { $defs, ...rest } = jsonSchema(schema, io) as Json & { $defs?: Record<string, unknown> };
    if (!$defs) return rest;
    const rename = new Map<string, string>();
    const local = (ref: string) => (ref.startsWith("#/$defs/") ? `${SCHEMAS}${rename.get(ref.slice(8)) ?? ref.slice(8)}` : ref);
    for (const [id, def] of Object.entries($defs)) rename.set(id, this.put(id, mapRefs(def, local), io === "input" ? "Answer" : "Input"));
    return mapRefs(rest, local) as Json;
  }
}

/** A schema worth a component: one that holds an object with named fields (a list of scalars stays where it is read). */
const COMPOSITE = (x: Json, key: string) => key.length >= 100 && key.includes('"properties":');

/**
 * Factors the sub-schemas holding objects found more than once in the operations' request and answer schemas into
 * `components`, named from where they are first met: the property that holds them, else the call's resource (a list:
 * `…List`). Repeated until none is left, so a shape inside a factored one is factored in its turn.
 */
function factorSchemas(paths: Record<string, Record<string, Json>>, components: Components) {
  type Root = { hint: string; component: boolean; get: () => unknown; set: (v: unknown) => void };
  const roots = (): Root[] => {
    const out: Root[] = [];
    for (const [path, ops] of Object.entries(paths)) {
      const resource = pascal(path.replace(/\/api\/v\d+/, "").replace(/\{\w+\}/g, "")) || "Racine";
      for (const op of Object.values(ops)) {
        const contents: [string, Json][] = [];
        const body = op.requestBody as { content?: Record<string, Json> } | undefined;
        for (const media of Object.values(body?.content ?? {})) contents.push([`${resource}Input`, media]);
        for (const r of Object.values(op.responses as Record<string, { content?: Record<string, Json> }>))
          for (const media of Object.values(r.content ?? {})) contents.push([resource, media]);
        for (const [hint, media] of contents) out.push({ hint, component: false, get: () => media.schema, set: (v) => (media.schema = v) });
      }
    }
    for (const name of Object.keys(components.schemas))
      out.push({ hint: name, component: true, get: () => components.schemas[name], set: (v) => (components.schemas[name] = v) });
    return out;
  };
  for (let pass = 0; pass < 10; pass++) {
    const counts = new Map<string, number>();
    const count = (x: unknown, top: boolean) => {
      if (!x || typeof x !== "object") return;
      if (!Array.isArray(x) && !top) {
        const key = JSON.stringify(x);
        if (COMPOSITE(x as Json, key)) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const v of Object.values(x)) count(v, false);
    };
    const all = roots();
    // A whole answer or body counts too (a POST and a PATCH answer the same); a component's own root does not.
    for (const r of all) count(r.get(), r.component);
    if (![...counts.values()].some((n) => n > 1)) return;
    const factor = (x: unknown, hint: string, top: boolean): unknown => {
      if (!x || typeof x !== "object") return x;
      if (Array.isArray(x)) return x.map((v) => factor(v, hint, false));
      const o = x as Json;
      if (!top && (counts.get(JSON.stringify(o)) ?? 0) > 1) return { $ref: `${SCHEMAS}${components.put(o.type === "array" ? `${hint}List` : hint, o)}` };
      return Object.fromEntries(
        Object.entries(o).map(([k, v]) => {
          if (k === "properties" && v && typeof v === "object")
            return [k, Object.fromEntries(Object.entries(v).map(([p, s]) => [p, factor(s, pascal(p), false)]))];
          if (k === "items") return [k, factor(v, hint, false)];
          if (k === "$defs" || k === "enum" || k === "const" || k === "default" || k === "examples") return [k, v];
          return [k, factor(v, hint, false)];
        }),
      );
    };
    for (const r of all) r.set(factor(r.get(), r.hint, r.component));
  }
}

function parametersOf(call: ApiCall, components: Components) {
  const out: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ["path", call.params],
    ["query", call.query],
  ] as const) {
    if (!schema) continue;
    const shape = (schema as AnyObject).shape;
    const doc = components.of(schema, "output") as { properties?: Record<string, unknown>; required?: string[] };
    for (const name of Object.keys(shape))
      out.push({ name, in: where, required: where === "path" || (doc.required ?? []).includes(name), schema: doc.properties?.[name] ?? {} });
  }
  if (call.method === "POST")
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      schema: { type: "string", minLength: 1, maxLength: 255 },
      description: "A retried request with the same key is answered as the first was, and creates nothing more (kept a day)",
    });
  if (call.method === "GET")
    out.push({ name: "locale", in: "query", required: false, schema: { type: "string", enum: ["fr", "en"] }, description: "en: English labels and messages" });
  return out;
}

/** The parameters met in more than one operation (the path's id, `locale`, `Idempotency-Key`) go to `components/parameters`. */
function factorParameters(paths: Record<string, Record<string, Json>>): Record<string, unknown> {
  const ops = Object.values(paths).flatMap((o) => Object.values(o));
  const counts = new Map<string, number>();
  for (const op of ops) for (const p of op.parameters as Json[]) counts.set(JSON.stringify(p), (counts.get(JSON.stringify(p)) ?? 0) + 1);
  const shared: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const op of ops)
    op.parameters = (op.parameters as Json[]).map((p) => {
      const key = JSON.stringify(p);
      if ((counts.get(key) ?? 0) < 2) return p;
      let name = names.get(key);
      if (!name) {
        const base = pascal(String(p.name));
        name = base in shared ? `${base}${pascal(String(p.in))}` : base;
        for (let n = 2; name in shared; n++) name = `${base}${n}`;
        shared[name] = p;
        names.set(key, name);
      }
      return { $ref: `#/components/parameters/${name}` };
    });
  return shared;
}

/** The refusals, each one answer of `components/responses` (a problem document) that every call refers to. */
const REFUSALS: Record<number, [name: string, description: string]> = {
  400: ["BadRequest", "Invalid input (field errors by field)"],
  401: ["Unauthorized", "No valid bearer token"],
  403: ["Forbidden", "Refused by the user's rights, the campaign lock, or a read-only token"],
  404: ["NotFound", "Not found"],
  405: ["MethodNotAllowed", "Method not allowed"],
  409: ["Conflict", "Stale updatedAt or a rule of the data"],
  412: ["NoCampaign", "No campaign"],
  422: ["IdempotencyKeyReused", "Idempotency-Key reused with another request"],
  413: ["PayloadTooLarge", "Body too large"],
  415: ["UnsupportedMediaType", "Not application/json"],
  429: ["TooManyRequests", "Rate limit; see Retry-After"],
  500: ["ServerError", "Server error"],
};

/** The OpenAPI 3.1 document of these calls. */
export function openApiDocument(calls: readonly ApiCall[], basePath = "/"): Record<string, unknown> {
  const components = new Components();
  const problem = components.put("Problem", components.of(ProblemSchema, "output"));
  const refusals: Record<string, unknown> = {};
  const refusal = (s: number) => {
    const [name, description] = REFUSALS[s] ?? [`Refused${s}`, "Refused"];
    refusals[name] ??= { description, content: { [PROBLEM_TYPE]: { schema: { $ref: `${SCHEMAS}${problem}` } } } };
    return { $ref: `#/components/responses/${name}` };
  };
  const paths: Record<string, Record<string, Json>> = {};
  for (const call of calls) {
    const responses: Record<string, unknown> = {};
    const status = call.answer ? String(call.status ?? 200) : "204";
    responses[status] = call.file
      ? { description: "The file", content: { [call.file]: { schema: { type: "string", format: "binary" } } } }
      : call.answer
        ? { description: "OK", content: { "application/json": { schema: components.of(call.answer, "input") } } }
        : { description: "No content" };
    const refused = new Set([400, 401, 403, 429, ...(call.body ? [413, 415] : []), ...(call.method === "POST" ? [422] : []), ...(call.refusals ?? [])]);
    for (const s of [...refused].sort()) responses[String(s)] = refusal(s);
    (paths[call.path] ??= {})[call.method.toLowerCase()] = {
      tags: [call.tag],
      summary: call.summary,
      operationId: `${call.method.toLowerCase()}${call.path
        .replace(/\/api\/v\d+/, "")
        .replace(/[{}]/g, "")
        .replace(/[/_-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      parameters: parametersOf(call, components),
      ...(call.body
        ? {
            requestBody: {
              required: true,
              content: { [call.multipart ? "multipart/form-data" : "application/json"]: { schema: components.of(call.body, "output") } },
            },
          }
        : {}),
      responses,
      security: [{ bearer: [] }],
    };
  }
  factorSchemas(paths, components);
  const parameters = factorParameters(paths);
  return {
    openapi: "3.1.0",
    info: {
      title: "Sillon API",
      version: "1",
      description:
        "The JSON API of Sillon (spec 1 §7, spec 2 §7). Sign in with POST /api/v1/login_check, or make a personal access token on the profile page, then send `Authorization: Bearer <token>`. Errors are application/problem+json with the error key in `key`.",
    },
    servers: [{ url: basePath.replace(/\/+$/, "") || "/" }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: components.schemas,
      responses: refusals,
      parameters,
    },
  };
}
