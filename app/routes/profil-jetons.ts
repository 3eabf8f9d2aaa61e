import { JetonPersonnelSchema } from "~/domain/jeton-api";
import { formIntent, resourceLoader, rowIntent, screenAction } from "#server/http/route.server";
import { createJetonPersonnel, getJetonsPersonnels, revokeJetonPersonnel } from "#server/jeton-api/service.server";

/**
 * The personal access tokens of the profile page (issue 26, decision 0098): the list (fetched by the panel), a new
 * token (its value answered once) and a revocation. Typed in the browser, the address shows the profile.
 */
export const loader = resourceLoader("/home/profil", ({ db, user }) => getJetonsPersonnels(db, user));

export const action = screenAction({
  create: formIntent(JetonPersonnelSchema, async ({ db, user }, value) => ({ created: await createJetonPersonnel(db, user, value) }), {
    notice: "jetons-api.cree-confirmation",
    reset: true,
  }),
  revoke: rowIntent(({ db, user }, id) => revokeJetonPersonnel(db, user, id), "jetons-api.revoque-confirmation"),
});
