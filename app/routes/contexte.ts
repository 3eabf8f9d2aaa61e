import { data, redirect } from "react-router";
import type { Route } from "./+types/contexte";

/** Records one choice of the context bar; the first campaign chosen opens the description route. */
export async function action({ request }: Route.ActionArgs) {
  const { requireAcceptedUser } = await import("../../server/auth/session");
  const { ContextSelectionSchema, selectInContext } = await import("../../server/contexte/service");
  const { db } = await import("../../server/db");
  const { runAction } = await import("../../server/http");
  const user = await requireAcceptedUser(request);
  const parsed = ContextSelectionSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return data({ ok: false as const, error: "warning.invalid-form" }, { status: 400 });
  return runAction(async () => {
    const { firstCampaign } = await selectInContext(db(), user, parsed.data);
    if (firstCampaign) throw redirect("/home/description");
    return { ok: true as const };
  });
}
