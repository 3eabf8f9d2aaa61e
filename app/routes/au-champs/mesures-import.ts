import { ServiceError } from "#server/errors";
import { fieldId } from "#server/http/fields";
import { resourceAction, resourceLoader } from "#server/http/route.server";
import { importSeries } from "#server/observation/service.server";

/** Import of series exported from the measures screen into a plot (decision 0039): multipart with `fichier` and `idParcelle`. */
export const action = resourceAction(async ({ scope, request }) => {
  const formData = await request.formData().catch(() => {
    throw new ServiceError("warning.invalid-form", 400);
  });
  const file = formData.get("fichier");
  if (!(file instanceof File) || !file.name) throw new ServiceError("warning.required", 400, { fichier: ["warning.required"] });
  const count = await importSeries(scope, fieldId(formData.get("idParcelle"), "idParcelle") ?? 0, await file.text());
  return { ok: true as const, count, notice: "observations.import.fait", params: { count } };
});

export const loader = resourceLoader("/home/description/au_champs/mesures");
