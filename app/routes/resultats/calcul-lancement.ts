import { resourceLoader } from "#server/http/route.server";
import { paramId } from "#server/http/fields";
import { etatLancement } from "#server/calcul-serie/lancement.server";

/** A calculation's launch job (issue 30): its bar, its checks once ended, the series it created; GET resultats/calcul/lancement/:idTache. */
export const loader = resourceLoader("/home/resultats/calcul", ({ db, user, params }) => etatLancement(db, user, paramId(params, "idTache")));
