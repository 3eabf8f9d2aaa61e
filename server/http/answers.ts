import fs from "node:fs";
import { Readable } from "node:stream";
import { data } from "react-router";
import type { z } from "zod";
import { INVALID_FORM } from "~/domain/validation";
import { isServiceError } from "../errors";

/**
 * The one error path of the route adapter. Every refusal is a 4xx with a message key (shown in the error
 * dialog) and, where it names fields, the field errors (shown beside the fields); nothing is written.
 */
export type Refusal = { ok: false; error: string; fieldErrors?: Record<string, string[]>; params?: Record<string, string | number> };

/** A refusal answered to an action (the screen shows it; the status tells the browser it failed). */
export function refuse(error: string, status = 400, fieldErrors?: Record<string, string[]>, params?: Record<string, string | number>) {
  return data<Refusal>({ ok: false, error, ...(fieldErrors ? { fieldErrors } : {}), ...(params ? { params } : {}) }, { status });
}

/** The field errors of a failed zod parse, by dotted path, as i18n keys. */
export function zodFieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    const message = issue.message.startsWith("warning.") ? issue.message : "warning.invalid";
    (out[key] ??= []).push(message);
  }
  return out;
}

/** A ServiceError becomes its refusal; anything else is a bug and goes on (500, logged by React Router). */
export function refusalOf(e: unknown) {
  if (isServiceError(e)) return refuse(e.key, e.status, e.fieldErrors, e.params);
  throw e;
}

/** For the routes outside the adapter (sign-in, profile): runs `fn`, a ServiceError becomes its refusal. */
export async function runAction<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (e) {
    return refusalOf(e);
  }
}

/** A form that failed validation: its field errors (conform's reply), status 400, nothing changed. */
export function invalid(submission: unknown) {
  return data({ ok: false as const, submission }, { status: 400 });
}

/** A read refused in a loader becomes the error page of the route family (403, 404, ...), never a 500. */
export function refusedRead(e: unknown): never {
  if (isServiceError(e)) throw data({ error: e.key, params: e.params }, { status: e.status });
  throw e;
}

export { INVALID_FORM };

/** The request's form: a body that is not one (JSON to a form route, a broken multipart) is a 400, never a 500. */
export async function formOf(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw refuse(INVALID_FORM, 400);
  }
}

/** A download's Content-Disposition: an ASCII name for old clients, the exact name (RFC 5987) for the others. */
export const attachment = (nom: string) =>
  `attachment; filename="${nom.replace(/[^\x20-\x7e]/g, "_").replace(/"/g, "")}"; filename*=UTF-8''${encodeURIComponent(nom)}`;

/**
 * The one download answer of a stored file or of bytes: its type, its name, never cached, never sniffed. A file is
 * streamed from the disk, not read whole.
 */
export function fileResponse(contenu: { chemin: string } | { bytes: Uint8Array }, nom: string, type: string): Response {
  const corps = "chemin" in contenu ? (Readable.toWeb(fs.createReadStream(contenu.chemin)) as ReadableStream<Uint8Array>) : contenu.bytes;
  const taille = "chemin" in contenu ? fs.statSync(contenu.chemin).size : contenu.bytes.byteLength;
  return new Response(corps as BodyInit, {
    headers: {
      "Content-Type": type,
      "Content-Length": String(taille),
      "Content-Disposition": attachment(nom),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
