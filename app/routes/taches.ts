import { ServiceError } from "#server/errors";
import { resourceLoader } from "#server/http/route.server";
import { lireTache } from "#server/jobs/service.server";

/**
 * The state of one of the user's jobs (issue 14): what the progress bar polls (app/components/tache/barre-progression.tsx).
 * Another user's job is a 404, as a missing one. A typed address gets the home page.
 */
export const loader = resourceLoader("/home", async ({ db, user, params }) => {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new ServiceError("errors.not-found", 404);
  return lireTache(db, user, id);
});
