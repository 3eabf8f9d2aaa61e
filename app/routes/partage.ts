import { runContextIntent } from "#server/contexte/actions.server";
import { resourceAction, resourceLoader } from "#server/http/route.server";

/** Actions of the context bar's dialogs (new folder, farm, campaign; unlock; add folder to farm; farm duplication). */
export const action = resourceAction(({ db, user, request }) => request.formData().then((formData) => runContextIntent(db, user, formData)));

/** The address typed in the browser: the home page, where the context bar is. */
export const loader = resourceLoader("/home/description/home");
