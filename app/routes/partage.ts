import { INVALID_FORM } from "~/domain/validation";
import { runContextIntent } from "#server/contexte/actions.server";
import { ServiceError } from "#server/errors";
import { resourceAction, resourceLoader } from "#server/http/route.server";

/** Actions of the context bar's dialogs (new folder, farm, campaign; unlock; add folder to farm; farm duplication). */
export const action = resourceAction(async ({ db, user, request }) => {
  const formData = await request.formData().catch(() => {
    throw new ServiceError(INVALID_FORM, 400);
  });
  return runContextIntent(db, user, formData);
});

/** The address typed in the browser: the home page, where the context bar is. */
export const loader = resourceLoader("/home/description/home");
