import { z } from "zod";
import { ServiceError } from "#server/errors";
import { MAX_IDS } from "#server/http/fields";
import { jsonField, resourceAction, resourceLoader } from "#server/http/route.server";
import { IMPORT_MAX_BYTES } from "#server/parcelle/geo-import.server";
import { importParcelles, previewImport } from "#server/parcelle/import-service.server";
import { limitedFormData } from "#server/http/limited-form-data.server";

/**
 * Plot import (docs/decisions/0015-import-parcelles.md): POST multipart with the file (`fichier`) and
 * `intent` = "preview" (the candidate plots) or "create" (with `selection`, the JSON list of the ticked
 * candidates' indexes). The body is read within the size limit before anything else.
 */
export const action = resourceAction(async ({ scope, request }) => {
  const tooLarge = () =>
    new ServiceError("parcelle.import.errors.too-large", 413, { fichier: ["parcelle.import.errors.too-large"] }, { max: IMPORT_MAX_BYTES / 1024 / 1024 });
  // The file plus the form's few other fields.
  const limit = IMPORT_MAX_BYTES + 64 * 1024;
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const formData = await limitedFormData(request, limit, tooLarge).catch((e: unknown) => {
    if (e instanceof ServiceError) throw e;
    throw new ServiceError("warning.invalid-form", 400);
  });
  const file = formData.get("fichier");
  if (!(file instanceof File) || !file.name) throw new ServiceError("parcelle.import.errors.no-file", 400, { fichier: ["parcelle.import.errors.no-file"] });
  const upload = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  const intent = formData.get("intent");
  if (intent === "preview") return { ok: true as const, preview: await previewImport(scope, upload) };
  if (intent === "create") {
    const selection = SelectionField.safeParse(formData.get("selection") ?? "[]");
    if (!selection.success) throw new ServiceError("parcelle.import.errors.bad-selection", 400);
    const ids = await importParcelles(scope, upload, selection.data);
    return { ok: true as const, ids, notice: "parcelle.import.created" };
  }
  throw new ServiceError("warning.invalid-form", 400);
});

/** The ticked candidates' indexes, as a JSON array. */
const SelectionField = jsonField(z.array(z.number().int().min(0)).max(MAX_IDS));

/** The address typed in the browser (GET): the plot screen, where the import dialog is. */
export const loader = resourceLoader("/home/description/exploitation/parcelle");
