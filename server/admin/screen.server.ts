import type { z } from "zod";
import { AdminUserSchema, GroupeSchema, OadSchema, PostSchema, ResetPasswordSchema } from "~/domain/admin";
import type { SubmissionResult } from "@conform-to/react";
import type { AdminActionData as AdminAnswer, AdminScreen } from "~/domain/contracts/admin";
import type { Db } from "../db/knex";
import { formIntent, rowIntent, screenAction, screenLoader, sendAway } from "../http/route.server";
import type { Utilisateur } from "../utilisateur/repo";
import {
  deleteGroupe,
  deleteOad,
  deletePost,
  getAdminGroupes,
  getAdminOads,
  getAdminPosts,
  getAdminUsers,
  resetPassword,
  saveGroupe,
  saveOad,
  savePost,
  saveUser,
  setUserActive,
} from "./service";

/**
 * The loaders and actions of the administration screens (app/routes/admin/*), on the route adapter
 * (server/http/route.server.ts): the intents of each screen and what its loader gives. The use cases are in ./service.ts.
 */

/** What the admin screens' actions answer: a notice, a service error key, or the form's submission with its field errors. */
export type AdminActionData = AdminAnswer<SubmissionResult<string[]>>;

/**
 * The admin layout's loader: a page of the administration is for admins; anybody else goes to the home page,
 * which tells him why. (A loader, not a middleware: React Router gives a middleware's redirect no base path.)
 * Posts go on: the use cases refuse non-admins themselves (403 in the error dialog), so nothing changes.
 */
export const adminLayoutLoader = screenLoader(async ({ user }) => {
  if (!user.admin) throw sendAway("/home/description/home", "shell.refused.admin");
  return null;
});

/** Creates (no id) or edits a row from its form; answers the row's id so that the screen selects it. */
function saveIntent<S extends z.ZodType<{ id?: number }>>(schema: S, save: (db: Db, caller: Utilisateur, value: z.output<S>) => Promise<number>) {
  return formIntent(
    schema,
    async ({ db, user }, value) => ({ id: await save(db, user, value), notice: value.id ? "ui.update-confirmation" : "ui.create-confirmation" }),
    { reset: true },
  );
}

const deleteIntent = (remove: (db: Db, caller: Utilisateur, id: number) => Promise<void>) =>
  rowIntent(({ db, user }, id) => remove(db, user, id), "ui.delete-confirmation");

export const adminScreens = {
  utilisateurs: {
    loader: screenLoader(async ({ db, user }) => ({ ...(await getAdminUsers(db, user)), me: user.id })),
    action: screenAction({
      save: saveIntent(AdminUserSchema, saveUser),
      password: formIntent(ResetPasswordSchema, ({ db, user }, value) => resetPassword(db, user, value), {
        notice: "admin.users.password-confirmation",
        reset: true,
      }),
      disable: rowIntent(({ db, user }, id) => setUserActive(db, user, id, false), "ui.update-confirmation"),
      enable: rowIntent(({ db, user }, id) => setUserActive(db, user, id, true), "ui.update-confirmation"),
    }),
  },
  groupes: {
    loader: screenLoader(({ db, user }) => getAdminGroupes(db, user)),
    action: screenAction({ save: saveIntent(GroupeSchema, saveGroupe), delete: deleteIntent(deleteGroupe) }),
  },
  reseaux: {
    loader: screenLoader(({ db, user }) => getAdminOads(db, user)),
    action: screenAction({ save: saveIntent(OadSchema, saveOad), delete: deleteIntent(deleteOad) }),
  },
  actualites: {
    loader: screenLoader(({ db, user }) => getAdminPosts(db, user)),
    action: screenAction({ save: saveIntent(PostSchema, savePost), delete: deleteIntent(deletePost) }),
  },
} satisfies Record<AdminScreen, unknown>;

export type { AdminScreen };
