import { ServiceError } from "#server/errors";
import { idField, resourceLoader } from "#server/http/route.server";
import { listGroupMembers } from "#server/utilisateur/service.server";

/**
 * GET utilisateurs?idGroupe=… (spec 1 §7): the visible users of a group, to share a folder with. Typed in the browser:
 * the folder settings. Only for a user who may grant rights, or an admin (decision 0019: 403); a malformed id is a 400.
 */
export const loader = resourceLoader("/home/description/parametre_dossier", async ({ db, user, query }) => {
  const idGroupe = idField.safeParse(query.get("idGroupe"));
  if (!idGroupe.success) throw new ServiceError("warning.invalid", 400);
  return { users: await listGroupMembers(db, user, idGroupe.data) };
});
