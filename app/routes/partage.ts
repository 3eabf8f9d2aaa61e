import type { Route } from "./+types/partage";

/** Actions of the context bar's dialogs (new folder, farm, campaign; unlock; add folder to farm; farm duplication). */
export async function action({ request }: Route.ActionArgs) {
  const { requireAcceptedUser } = await import("../../server/auth/session");
  const { runContextIntent } = await import("../../server/contexte/actions");
  const { db } = await import("../../server/db");
  const { runAction } = await import("../../server/http");
  const user = await requireAcceptedUser(request);
  const formData = await request.formData();
  return runAction(() => runContextIntent(db(), user, formData));
}
