import { resourceLoader } from "#server/http/route.server";
import { paramId } from "#server/http/fields";
import { etatExecution } from "#server/calcul-serie/service.server";

/** The running state of a series (its progress bar polls it; a reload finds it again): GET resultats/calcul/:idSerie/etat. */
export const loader = resourceLoader("/home/resultats/calcul", ({ db, user, params }) => etatExecution(db, user, paramId(params, "idSerie")));
