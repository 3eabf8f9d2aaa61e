import type { Route } from "./+types/parcelle-import";

/**
 * Plot import (docs/decisions/0015-import-parcelles.md): POST multipart with the file (`fichier`) and
 * `intent` = "preview" (the candidate plots) or "create" (with `selection`, the JSON list of the ticked
 * candidates' indexes). The body is read within the size limit before anything else.
 */
export async function action({ request }: Route.ActionArgs) {
  const { requireAcceptedUser } = await import("../../../server/auth/session");
  const { importParcelles, previewImport } = await import("../../../server/parcelle/import-service");
  const { IMPORT_MAX_BYTES } = await import("../../../server/parcelle/geo-import");
  const { db } = await import("../../../server/db");
  const { runAction } = await import("../../../server/http");
  const { ServiceError } = await import("../../../server/errors");
  const user = await requireAcceptedUser(request);
  return runAction(async () => {
    const tooLarge = () => new ServiceError("parcelle.import.errors.too-large", 413, { fichier: ["parcelle.import.errors.too-large"] }, { max: IMPORT_MAX_BYTES / 1024 / 1024 });
    // The file plus the form's few other fields.
    const limit = IMPORT_MAX_BYTES + 64 * 1024;
    if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
    const formData = await limitedFormData(request, limit, tooLarge);
    const file = formData.get("fichier");
    if (!(file instanceof File) || !file.name) throw new ServiceError("parcelle.import.errors.no-file", 400, { fichier: ["parcelle.import.errors.no-file"] });
    const upload = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
    const intent = formData.get("intent");
    if (intent === "preview") return { ok: true as const, preview: await previewImport(db(), user, upload) };
    if (intent === "create") {
      let selection: unknown;
      try {
        selection = JSON.parse(String(formData.get("selection") ?? "[]"));
      } catch {
        selection = null;
      }
      if (!Array.isArray(selection) || !selection.every((i) => Number.isInteger(i))) throw new ServiceError("parcelle.import.errors.bad-selection", 400);
      const ids = await importParcelles(db(), user, upload, selection as number[]);
      return { ok: true as const, ids, notice: "parcelle.import.created" };
    }
    throw new ServiceError("warning.invalid-form", 400);
  });
}

/** The request's form, refused (`tooLarge`) as soon as its body passes `limit` bytes, whatever its headers say. */
async function limitedFormData(request: Request, limit: number, tooLarge: () => Error): Promise<FormData> {
  if (!request.body) return request.formData();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Response(new Blob(chunks as BlobPart[]), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
}
