import { z } from "zod";
import { idField, resourceLoader } from "#server/http/route.server";
import { expliquerResultat } from "#server/calcul-serie/service.server";

const Query = z.object({ niveau: z.enum(["parcelle", "culture", "modeConduite", "exploitation", "intervention"]), id: z.string().min(1).max(40), code: z.string().min(1).max(80) });

/** The explanation of one figure of a series (formula, entries, missing data): GET resultats/calcul/:idSerie/explication?niveau&id&code. */
export const loader = resourceLoader("/home/resultats/calcul", ({ db, user, params, query }) => {
  const q = Query.parse({ niveau: query.get("niveau"), id: query.get("id"), code: query.get("code") });
  return expliquerResultat(db, user, idField.parse(params.idSerie), { niveau: q.niveau, idEntite: q.id, code: q.code });
});
