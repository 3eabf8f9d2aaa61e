import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { z } from "zod";
import { SENT_AWAY_PARAM } from "~/domain/contracts/sent-away";
import { writableCampaign } from "../access/description";
import type { Token } from "../db/stale";
import { invalidField, isServiceError } from "../errors";
import { formOf, invalid, INVALID_FORM, refuse, refusalOf, refusedRead, zodFieldErrors } from "./answers";
import { routeArgs, type RouteArgs, type RouterArgs } from "./context.server";
import { idField, idsField, optionalIdField, stampField } from "./fields";

/**
 * The route adapter (docs/architecture.md): every loader and action of app/routes is built here.
 * - the database, the user and his context view come from the middleware (server/http/context.server.ts);
 * - an action declares its intents; the posted `intent` field picks one through a zod discriminated union
 *   built from their envelope fields (ids, id, updatedAt: all through zod), then the intent's form schema
 *   is parsed with conform (field errors go back beside the fields);
 * - a campaign screen's writes pass the write gate (rights and lock) first, in one place: `writeGate`;
 * - one error path: ServiceError → its 4xx (field errors beside the fields when it names some),
 *   bad input → 400, a refused read in a loader → the route family's error page.
 */

/** What an action answers the screen (useActionFeedback shows notice and error). */
export type ActionAnswer = {
  ok: boolean;
  notice?: string;
  error?: string;
  id?: number;
  submission?: SubmissionResult<string[]>;
  fieldErrors?: Record<string, string[]>;
  params?: Record<string, string | number>;
};

type Envelope = z.ZodRawShape;
/** One intent of an action: the envelope fields it reads (zod) and what it does. */
export type Intent<F extends Envelope = Envelope, A = unknown> = {
  fields: F;
  /** The form's schema of saveIntent and formIntent (read by the property-based test of the intents). */
  schema?: SchemaOf<z.ZodType>;
  run: (args: RouteArgs, envelope: z.output<z.ZodObject<F>>, formData: FormData) => Promise<A>;
};

/** Any intent: its own envelope fields and answer. */
export function intent<F extends Envelope, A>(fields: F, run: Intent<F, A>["run"]): Intent<F, A> {
  return { fields, run };
}

/** The row being edited: its id and the updatedAt the form was loaded with (the stale check, server/db/stale.ts). */
export type Edit = Token;

const editFields = { id: optionalIdField, updatedAt: stampField };

/** An edit (an id) names its updatedAt token: without it the post is a refused form, never an unchecked overwrite. */
export function editOf(envelope: { id?: number; updatedAt?: string | null }): Edit | undefined {
  if (!envelope.id) return undefined;
  if (!envelope.updatedAt) throw invalidField("updatedAt", "warning.required");
  return { id: envelope.id, updatedAt: envelope.updatedAt };
}

/** A form's schema, or how to get it when it depends on the user or on other data (a commune required by the country). */
export type SchemaOf<S extends z.ZodType> = S | ((args: RouteArgs, formData: FormData) => S | Promise<S>);

/**
 * Parses a form with its schema (conform), runs `fn` with the value; a refusal that names fields goes back
 * beside them in the form's submission.
 */
async function withForm<S extends z.ZodType, A>(
  args: RouteArgs,
  formData: FormData,
  schemaOf: SchemaOf<S>,
  fn: (value: z.output<S>, reply: (reset?: boolean) => SubmissionResult<string[]>) => Promise<A>,
) {
  const schema = typeof schemaOf === "function" ? await schemaOf(args, formData) : schemaOf;
  const s = parseWithZod(formData, { schema });
  if (s.status !== "success") return invalid(s.reply());
  try {
    return await fn(s.value, (reset) => s.reply(reset ? { resetForm: true } : undefined));
  } catch (e) {
    // The fields say what is wrong: fieldErrors keeps the error dialog closed (feedbackOnce).
    if (isServiceError(e) && e.fieldErrors) {
      return data({ ok: false as const, error: e.key, fieldErrors: e.fieldErrors, submission: s.reply({ fieldErrors: e.fieldErrors }) }, { status: e.status });
    }
    throw e;
  }
}

/**
 * Creates (no id) or edits (id + updatedAt) a row from its form; answers the saved row's id, so that the list
 * selects it, with any extra figures the save returns.
 */
export function saveIntent<S extends z.ZodType, X extends object = object>(
  schema: SchemaOf<S>,
  save: (args: RouteArgs, value: z.output<S>, edit: Edit | undefined) => Promise<number | ({ id: number } & X)>,
) {
  const run = intent(editFields, (args, envelope, formData) =>
    withForm(args, formData, schema, async (value) => {
      const edit = editOf(envelope);
      const saved = await save(args, value, edit);
      const extra = typeof saved === "number" ? { id: saved } : saved;
      return { ok: true as const, ...extra, notice: edit ? "ui.update-confirmation" : "ui.create-confirmation" };
    }),
  );
  return { ...run, schema: schema as SchemaOf<z.ZodType> };
}

/**
 * A form that is not a row of a list (a settings form, a dialog): parsed with its schema, then `run` gets the
 * value and the envelope fields (hidden updatedAt tokens, ...). Answers the notice, what `run` returns, and
 * the submission (reset when `reset`).
 */
export function formIntent<S extends z.ZodType, F extends Envelope, R extends object | void>(
  schema: SchemaOf<S>,
  run: (args: RouteArgs, value: z.output<S>, envelope: z.output<z.ZodObject<F>>) => Promise<R>,
  options: { fields?: F; notice?: string; reset?: boolean } = {},
) {
  const form = intent((options.fields ?? {}) as F, (args, envelope, formData) =>
    withForm(args, formData, schema, async (value, reply) => {
      const result = await run(args, value, envelope);
      return { ok: true as const, ...(options.notice ? { notice: options.notice } : {}), ...(result ?? {}), submission: reply(options.reset) };
    }),
  );
  return { ...form, schema: schema as SchemaOf<z.ZodType> };
}

/** Deletes the selected rows of a list (their ids as a JSON array). */
export function deleteIntent(remove: (args: RouteArgs, ids: number[]) => Promise<unknown>) {
  return intent({ ids: idsField }, async (args, { ids }) => {
    await remove(args, ids);
    return { ok: true as const, notice: "ui.delete-confirmation" };
  });
}

/** A row action (delete one row, disable, enable) posted with the row's id. */
export function rowIntent(run: (args: RouteArgs, id: number) => Promise<unknown>, notice: string) {
  return intent({ id: idField }, async (args, { id }) => {
    await run(args, id);
    return { ok: true as const, notice };
  });
}

/**
 * The write gate of the campaign screens: the rights and lock check every write of a campaign passes first, and
 * the campaign the page showed against the one selected now (decision 0092). The one place it is called from the
 * routes; the services ask the same scope again, which answers without reading anything twice.
 */
async function writeGate(args: RouteArgs) {
  await writableCampaign(args.scope);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each intent reads its own envelope
type Intents = Record<string, { fields: Envelope; run: (args: RouteArgs, envelope: any, formData: FormData) => Promise<unknown> }>;

/**
 * The action of a screen from its intents. A post without an `intent` field runs `save` (the screen's main
 * form). `gate: "campaign"`: the intents write the selected campaign, so the write gate runs first; `gateExcept`
 * names those that do not (a read such as an estimate, or a write decided by another right, checked by its service).
 */
export function screenAction<I extends Intents>(intents: I, options: { gate?: "campaign"; gateExcept?: (keyof I & string)[] } = {}) {
  const branches = Object.entries(intents).map(([name, i]) => z.object({ intent: z.literal(name), ...(i.fields as Envelope) }));
  const schema = z.discriminatedUnion("intent", branches as unknown as [z.ZodObject<{ intent: z.ZodLiteral<string> }>]);
  const action = async (router: RouterArgs): Promise<Awaited<ReturnType<I[keyof I]["run"]>> | ReturnType<typeof refuse>> => {
    const args = routeArgs(router);
    const formData = await formOf(router.request);
    const fields: Record<string, unknown> = {};
    for (const [k, v] of formData) if (typeof v === "string" && !(k in fields)) fields[k] = v;
    fields.intent ??= "save";
    const name = String(fields.intent);
    // The rights come first: a reader is refused (403) whatever he posts, before his fields are judged.
    const gated = Object.hasOwn(intents, name) && options.gate === "campaign" && !options.gateExcept?.includes(name);
    if (gated) {
      try {
        await writeGate(args);
      } catch (e) {
        return refusalOf(e);
      }
    }
    const envelope = schema.safeParse(fields);
    if (!envelope.success) return refuse(INVALID_FORM, 400, zodFieldErrors(envelope.error));
    const chosen = intents[envelope.data.intent];
    try {
      return (await chosen.run(args, envelope.data as never, formData)) as Awaited<ReturnType<I[keyof I]["run"]>>;
    } catch (e) {
      return refusalOf(e);
    }
  };
  // The intents stay readable on the action: the property-based test feeds each one (server/http/intents.service.test.ts).
  return Object.assign(action, { intents: intents as Intents });
}

/**
 * The loader of a screen. A refused read (403, 404, ...) throws the route family's error page. With
 * `loadError`, that catalogued failure of the load is answered as `{ ok: false, error }` instead, so the screen
 * shows it in the error dialog (B-ERR-*).
 */
export function screenLoader<T>(load: (args: RouteArgs) => Promise<T>): (router: RouterArgs) => Promise<T>;
export function screenLoader<T extends object>(
  load: (args: RouteArgs) => Promise<T>,
  options: { loadError: string },
): (router: RouterArgs) => Promise<({ ok: true } & T) | { ok: false; error: string }>;
export function screenLoader<T>(load: (args: RouteArgs) => Promise<T>, options?: { loadError: string }) {
  return async (router: RouterArgs) => {
    const args = routeArgs(router);
    try {
      const value = await load(args);
      return options ? { ok: true as const, ...value } : value;
    } catch (e) {
      if (options && isServiceError(e) && e.key === options.loadError) return { ok: false as const, error: e.key };
      return refusedRead(e);
    }
  };
}

/** A resource route's action: the same adapter without intents (JSON or file bodies), one error path. */
export function resourceAction<T>(run: (args: RouteArgs) => Promise<T>) {
  return async (router: RouterArgs) => {
    const args = routeArgs(router);
    try {
      return await run(args);
    } catch (e) {
      return refusalOf(e);
    }
  };
}

export { idField, idsField, jsonField, optionalIdField, queryId, queryIds, queryNumber, rowTokenField, stampField, tokenField } from "./fields";

/**
 * A reader may not open this screen: he goes to `to`, which tells him why (`reason`, an i18n key under
 * shell.refused, shown by the shell's SentAwayNotice), rather than landing on a page that says nothing.
 */
export function sendAway(to: string, reason: string): Response {
  return redirect(`${to}${to.includes("?") ? "&" : "?"}${SENT_AWAY_PARAM}=${encodeURIComponent(reason)}`);
}

/**
 * Whether the request is the browser opening the address itself (typed, bookmarked), not a script's fetch:
 * the browser says so (Sec-Fetch-*), or asks for a page (Accept text/html; scripts' fetches ask for anything).
 */
export function isNavigation(request: Request): boolean {
  if (request.headers.get("Sec-Fetch-Mode") === "navigate" || request.headers.get("Sec-Fetch-Dest") === "document") return true;
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

/**
 * The loader of a resource route (JSON or a file for the screens' scripts). A reader who types its address
 * gets the screen it belongs to (`page`), not raw JSON; without `load` (a route that only takes posts), every
 * GET goes to `page`.
 */
export function resourceLoader<T>(page: string, load?: (args: RouteArgs) => Promise<T>) {
  return async (router: RouterArgs): Promise<T> => {
    if (!load || isNavigation(router.request)) throw redirect(page);
    const args = routeArgs(router);
    try {
      return await load(args);
    } catch (e) {
      return refusedRead(e);
    }
  };
}
export { fileResponse } from "./answers";
