import { redirect } from "react-router";
import { ContextSelectionSchema, selectInContext } from "#server/contexte/service.server";
import { refuse } from "#server/http/answers";
import { resourceAction, resourceLoader } from "#server/http/route.server";

/** Records one choice of the context bar; the first campaign chosen opens the description route. */
export const action = resourceAction(async ({ db, user, request }) => {
  const parsed = ContextSelectionSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return refuse("warning.invalid-form", 400);
  const { firstCampaign } = await selectInContext(db, user, parsed.data);
  if (firstCampaign) throw redirect("/home/description");
  return { ok: true as const };
});

/** The address typed in the browser: the home page, where the context bar is. */
export const loader = resourceLoader("/home/description/home");
