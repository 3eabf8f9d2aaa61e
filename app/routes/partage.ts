import { runContextIntent } from "#server/contexte/actions.server";
import { formOf } from "#server/http/answers";
import { resourceAction, resourceLoader } from "#server/http/route.server";

/** Actions of the context bar's dialogs (new folder, farm, campaign; unlock; add folder to farm; farm duplication). */
export const action = resourceAction(async ({ scope, request }) => {
  return runContextIntent(scope, await formOf(request));
});

/** The address typed in the browser: the home page, where the context bar is. */
export const loader = resourceLoader("/home/description/home");
