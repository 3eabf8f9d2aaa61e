import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { z } from "zod";
import { AdminUserSchema, GroupeSchema, OadSchema, PostSchema, ResetPasswordSchema, RowIdSchema } from "~/domain/admin";
import { requireAcceptedUser } from "../auth/session";
import { db } from "../db";
import type { Db } from "../db/knex";
import { isServiceError } from "../errors";
import { runAction } from "../http";
import type { Utilisateur } from "../utilisateur/repo";
import {
  deleteGroupe, deleteOad, deletePost, getAdminGroupes, getAdminOads, getAdminPosts, getAdminUsers,
  resetPassword, saveGroupe, saveOad, savePost, saveUser, setUserActive,
} from "./service";

/**
 * The loaders and actions of the administration screens (app/routes/admin/*), written once: the admin
 * guard, the form parsing and the answers. The use cases themselves are in ./service.ts.
 */

/** What the admin screens' actions answer: a notice, a service error key, or the form's submission with its field errors. */
export type AdminActionData = { ok: boolean; notice?: string; error?: string; id?: number; intent?: string; submission?: SubmissionResult<string[]> };

/** The signed-in user, if he has the admin flag; anybody else is sent to the home page. */
export async function requireAdminUser(request: Request): Promise<Utilisateur> {
  const user = await requireAcceptedUser(request);
  if (!user.admin) throw redirect("/home/description/home");
  return user;
}

/**
 * One admin form posted to an action: parsed with its shared schema (bad input: 400 with the field errors), then
 * the use case runs; a refusal that names fields (a username taken, ...) goes back beside those fields. Other
 * service errors are left to runAction (server/http.ts), which shows them in the error dialog.
 */
async function runAdminForm<S extends z.ZodType>(
  formData: FormData,
  intent: string,
  schema: S,
  run: (value: z.output<S>) => Promise<{ notice: string; id?: number }>,
) {
  const s = parseWithZod(formData, { schema });
  if (s.status !== "success") return data<AdminActionData>({ ok: false, intent, submission: s.reply() }, { status: 400 });
  try {
    const result = await run(s.value);
    return { ok: true, intent, ...result, submission: s.reply({ resetForm: true }) } satisfies AdminActionData as AdminActionData;
  } catch (e) {
    if (isServiceError(e) && e.fieldErrors) return data<AdminActionData>({ ok: false, intent, submission: s.reply({ fieldErrors: e.fieldErrors }) }, { status: e.status });
    throw e;
  }
}

type AdminAnswer = Awaited<ReturnType<typeof runAdminForm>>;
/** What an admin screen does with one intent of its forms. */
type AdminIntent = (formData: FormData, intent: string, db: Db, caller: Utilisateur) => Promise<AdminAnswer>;

/** Creates (no id) or edits a row from its form; answers the row's id so that the screen selects it. */
function saveIntent<S extends z.ZodType<{ id?: number }>>(schema: S, save: (db: Db, caller: Utilisateur, value: z.output<S>) => Promise<number>): AdminIntent {
  return (formData, intent, db, caller) =>
    runAdminForm(formData, intent, schema, async (value) => ({
      id: await save(db, caller, value),
      notice: value.id ? "ui.update-confirmation" : "ui.create-confirmation",
    }));
}

/** A form that changes a row without answering one (a new password). */
function formIntent<S extends z.ZodType>(schema: S, run: (db: Db, caller: Utilisateur, value: z.output<S>) => Promise<void>, notice: string): AdminIntent {
  return (formData, intent, db, caller) =>
    runAdminForm(formData, intent, schema, async (value) => {
      await run(db, caller, value);
      return { notice };
    });
}

/** A row action (delete, disable, enable) posted with the row's id. */
function rowIntent(run: (db: Db, caller: Utilisateur, id: number) => Promise<void>, notice: string): AdminIntent {
  return async (formData, intent, db, caller) => {
    const parsed = RowIdSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return data<AdminActionData>({ ok: false, intent, error: "warning.invalid-form" }, { status: 400 });
    await run(db, caller, parsed.data.id);
    return { ok: true, intent, notice } satisfies AdminActionData as AdminActionData;
  };
}

const deleteIntent = (remove: (db: Db, caller: Utilisateur, id: number) => Promise<void>) => rowIntent(remove, "ui.delete-confirmation");

/** Each admin screen: what its loader gives, and the intents its forms post. */
const ADMIN_SCREENS = {
  utilisateurs: {
    load: async (db: Db, caller: Utilisateur) => ({ ...(await getAdminUsers(db, caller)), me: caller.id }),
    intents: {
      save: saveIntent(AdminUserSchema, saveUser),
      password: formIntent(ResetPasswordSchema, resetPassword, "admin.users.password-confirmation"),
      disable: rowIntent((db, caller, id) => setUserActive(db, caller, id, false), "ui.update-confirmation"),
      enable: rowIntent((db, caller, id) => setUserActive(db, caller, id, true), "ui.update-confirmation"),
    },
  },
  groupes: { load: getAdminGroupes, intents: { save: saveIntent(GroupeSchema, saveGroupe), delete: deleteIntent(deleteGroupe) } },
  reseaux: { load: getAdminOads, intents: { save: saveIntent(OadSchema, saveOad), delete: deleteIntent(deleteOad) } },
  actualites: { load: getAdminPosts, intents: { save: saveIntent(PostSchema, savePost), delete: deleteIntent(deletePost) } },
} satisfies Record<string, { load: (db: Db, caller: Utilisateur) => Promise<unknown>; intents: Record<string, AdminIntent> }>;

export type AdminScreen = keyof typeof ADMIN_SCREENS;

/** The loader of an admin screen: admins only (the others go to the home page). */
export async function loadAdminScreen<K extends AdminScreen>(request: Request, screen: K): Promise<Awaited<ReturnType<(typeof ADMIN_SCREENS)[K]["load"]>>> {
  const caller = await requireAdminUser(request);
  const load = ADMIN_SCREENS[screen].load as (db: Db, caller: Utilisateur) => Promise<Awaited<ReturnType<(typeof ADMIN_SCREENS)[K]["load"]>>>;
  return load(db(), caller);
}

/**
 * The action of an admin screen: runs the posted intent. The use cases refuse non-admins themselves
 * (a 403 that runAction turns into the error dialog), so a refused post changes nothing.
 */
export async function runAdminScreenAction(request: Request, screen: AdminScreen) {
  const caller = await requireAcceptedUser(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const intents: Record<string, AdminIntent> = ADMIN_SCREENS[screen].intents;
  return runAction(async () => {
    if (!Object.hasOwn(intents, intent)) return data<AdminActionData>({ ok: false, error: "warning.invalid-form" }, { status: 400 });
    return intents[intent](formData, intent, db(), caller);
  });
}
