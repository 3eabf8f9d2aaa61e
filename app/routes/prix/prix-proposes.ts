import { queryId, resourceLoader } from "#server/http/route.server";
import { ServiceError } from "#server/errors";
import { getPrixPropose } from "#server/prix/service.server";

/** The proposed prices of a supply price row (GET prix_proposes; spec 3 §3.7, §7): `?id=` the row. A typed address gets the screen. */
export const loader = resourceLoader("/home/description/prix/prix_approvisionnement", async ({ db, user, query }) => {
  const id = queryId(query, "id");
  if (!id) throw new ServiceError("warning.invalid", 400, { id: ["warning.invalid"] });
  return getPrixPropose(db, user, id);
});
