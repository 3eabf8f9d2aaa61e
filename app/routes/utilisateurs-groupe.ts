import { data } from "react-router";
import type { Route } from "./+types/utilisateurs-groupe";

/** GET utilisateurs?idGroupe=… (spec 1 §7): the visible users of a group, to share a folder with. */
export async function loader({ request }: Route.LoaderArgs) {
  const { requireAcceptedUser } = await import("../../server/auth/session");
  const { listVisibleUsersOfGroupe } = await import("../../server/dossier/repo");
  const { db } = await import("../../server/db");
  const user = await requireAcceptedUser(request);
  if (!user.isVisible) return data({ users: [] }, { status: 403 });
  const idGroupe = Number(new URL(request.url).searchParams.get("idGroupe"));
  if (!Number.isInteger(idGroupe) || idGroupe <= 0) return data({ users: [] }, { status: 400 });
  return { users: await listVisibleUsersOfGroupe(db(), idGroupe) };
}
