import { data } from "react-router";
import { visibleUsersOfGroupe } from "#server/dossier/service.server";
import { idField, resourceLoader } from "#server/http/route.server";

/** GET utilisateurs?idGroupe=… (spec 1 §7): the visible users of a group, to share a folder with. Typed in the browser: the folder settings. */
export const loader = resourceLoader("/home/description/parametre_dossier", async ({ db, user, query }) => {
  if (!user.isVisible) return data({ users: [] }, { status: 403 });
  const idGroupe = idField.safeParse(query.get("idGroupe"));
  if (!idGroupe.success) return data({ users: [] }, { status: 400 });
  return { users: await visibleUsersOfGroupe(db, idGroupe.data) };
});
