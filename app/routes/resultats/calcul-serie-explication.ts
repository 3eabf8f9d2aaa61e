import { z } from "zod";
import { ServiceError } from "#server/errors";
import { paramId } from "#server/http/fields";
import { noControlCharacter } from "~/domain/validation";
import { resourceLoader } from "#server/http/route.server";
import { expliquerResultat } from "#server/calcul-serie/service.server";

const Query = z.object({
  niveau: z.enum(["parcelle", "culture", "modeConduite", "exploitation", "intervention"]),
  id: z.string().min(1).max(40).check(noControlCharacter()),
  code: z.string().min(1).max(80).check(noControlCharacter()),
});

/** The explanation of one figure of a series (formula, entries, missing data): GET resultats/calcul/:idSerie/explication?niveau&id&code. */
export const loader = resourceLoader("/home/resultats/calcul", ({ db, user, params, query }) => {
  const parsed = Query.safeParse({ niveau: query.get("niveau"), id: query.get("id"), code: query.get("code") });
  if (!parsed.success) throw new ServiceError("warning.invalid", 400);
  const q = parsed.data;
  return expliquerResultat(db, user, paramId(params, "idSerie"), { niveau: q.niveau, idEntite: q.id, code: q.code });
});
