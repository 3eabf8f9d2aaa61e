import { ServiceError } from "#server/errors";
import { resourceAction, resourceLoader } from "#server/http/route.server";
import { FICHIER_TROP_GROS, maxBytes, uploadFichier } from "#server/observation/service.server";
import { env } from "#server/env.server";
import { fieldId } from "#server/http/fields";
import { limitedFormData } from "#server/http/limited-form-data.server";

/**
 * Upload of a file attached to an observation series (spec 2 §7 POST fichier_attache_series: multipart with `file`
 * and `idObservationSerie`; B-FILE-03). The body is read within the size limit (ATTACHMENT_MAX_MB) before anything
 * else; the service checks the rights, the name, the type from the bytes.
 */
export const action = resourceAction(async ({ scope, request }) => {
  const tooLarge = () => new ServiceError(FICHIER_TROP_GROS, 413, { file: [FICHIER_TROP_GROS] }, { max: env().ATTACHMENT_MAX_MB });
  const limit = maxBytes() + 64 * 1024;
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const formData = await limitedFormData(request, limit, tooLarge).catch((e: unknown) => {
    if (e instanceof ServiceError) throw e;
    throw new ServiceError("warning.invalid-form", 400);
  });
  const file = formData.get("file");
  if (!(file instanceof File) || !file.name) throw new ServiceError("warning.required", 400, { file: ["warning.required"] });
  const idSerie = fieldId(formData.get("idObservationSerie"), "idObservationSerie");
  const id = await uploadFichier(scope, idSerie, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
  return { ok: true as const, id, notice: "observations.fichiers.ajoute" };
});

/** The address typed in the browser (GET): the measures screen, where the files are. */
export const loader = resourceLoader("/home/description/au_champs/mesures");
