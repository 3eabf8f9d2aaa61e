import { z } from "zod";
import { dateString, email, flag, MAX_IDS, mustMatch, optional, optionalNumber, optionalText, password, requiredNumber, requiredText } from "./validation";

/**
 * Administration screens (issue 3, beyond the spec: a self-hosted install needs accounts): users, user
 * groups, networks (oad) and the news posts of the home page. One schema per form, shared by the
 * browser (conform) and the services; messages are i18n keys.
 */

export const ROLE_TEST = "ROLE_TEST";
export const DEFAULT_POST_CATEGORY = "actualite";

/** Ticked ids: none, one form value or several. */
const idList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v.filter((x) => x !== "") : [v]),
  z.array(requiredNumber({ integer: true, min: 1 })).max(MAX_IDS, "warning.too-many"),
);
const rowId = () => optionalNumber({ integer: true, min: 1 });
/** The edited row's updated timestamp, sent back so that a stale save is refused. */
const updatedAt = () => optionalText();

/** Refinements that must also run when another field failed, so every error shows at once. */
const always = { when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null };

/** An edit (an id) sends back its updatedAt token: without it the save would overwrite unchecked, so it is refused. */
function editNeedsToken(v: { id?: number; updatedAt?: string }, ctx: z.RefinementCtx) {
  if (v.id && !v.updatedAt) ctx.addIssue({ code: "custom", message: "warning.required", path: ["updatedAt"] });
}

/** No spaces in a username (it is typed at sign-in). */
const username = () => requiredText({ max: 180 }).refine((s) => !/\s/.test(s), "warning.invalid");

/**
 * Create or edit a user. Without an id it is a creation, and the first password is required
 * (8 characters or more, confirmed); an edit never changes the password (see ResetPasswordSchema).
 */
export const AdminUserSchema = mustMatch(
  z.object({
    id: rowId(),
    updatedAt: updatedAt(),
    username: username(),
    nom: requiredText({ max: 120 }),
    prenom: requiredText({ max: 120 }),
    email: optional(email()),
    admin: flag(),
    roleTest: flag(),
    groupes: idList,
    password: optional(password()),
    confirmation: z.string().optional(),
  }),
  "password",
  "confirmation",
).superRefine((v, ctx) => {
  if (!v.id && !v.password) ctx.addIssue({ code: "custom", message: "warning.required", path: ["password"] });
  editNeedsToken(v, ctx);
}, always);
export type AdminUserInput = z.infer<typeof AdminUserSchema>;

/** The admin types the new password twice; the user's sessions are then ended. */
export const ResetPasswordSchema = mustMatch(
  z.object({ id: requiredNumber({ integer: true, min: 1 }), password: password(), confirmation: z.string().optional() }),
  "password",
  "confirmation",
);
export type ResetPasswordInput = z.infer<typeof ResetPasswordSchema>;

export const GroupeSchema = z
  .object({
    id: rowId(),
    updatedAt: updatedAt(),
    nomGroupe: requiredText({ max: 180 }),
    membres: idList,
  })
  .superRefine(editNeedsToken, always);
export type GroupeInput = z.infer<typeof GroupeSchema>;

/** A network (oad): short name required, long name, international flag, access e-mail (shown to ask for access). */
export const OadSchema = z
  .object({
    id: rowId(),
    updatedAt: updatedAt(),
    libelle: requiredText({ max: 120 }),
    libelleLong: optionalText({ max: 255 }),
    international: flag(),
    emailAcces: optional(email()),
  })
  .superRefine(editNeedsToken, always);
export type OadInput = z.infer<typeof OadSchema>;

/** A news post of the home page; a blank date means now. */
export const PostSchema = z
  .object({
    id: rowId(),
    updatedAt: updatedAt(),
    title: requiredText({ max: 255 }),
    content: requiredText({ max: 20000, multiline: true }),
    postCategory: optionalText({ max: 60 }),
    creationDate: optional(dateString()),
  })
  .superRefine(editNeedsToken, always);
export type PostInput = z.infer<typeof PostSchema>;

/** Disable, enable, delete: the row's id. */
export const RowIdSchema = z.object({ id: requiredNumber({ integer: true, min: 1 }) });

/** The day (yyyy-mm-dd, UTC) of a timestamp, as the post form shows it. */
export function dayOf(iso: string | Date): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/**
 * The creation date a post gets from its form: blank keeps the current one (now for a new post);
 * today's day means now, so that the post comes first; the day it already had keeps its time;
 * any other day is stored at noon UTC, the same day in every European time zone.
 */
export function resolvePostDate(day: string | undefined, current: Date | null, now: Date): Date {
  if (!day) return current ?? now;
  if (current && dayOf(current) === day) return current;
  if (dayOf(now) === day) return now;
  return new Date(`${day}T12:00:00.000Z`);
}

/** The roles list with ROLE_TEST added or removed, other roles kept. */
export function withTestRole(roles: readonly string[], on: boolean): string[] {
  const rest = roles.filter((r) => r !== ROLE_TEST);
  return on ? [...rest, ROLE_TEST] : rest;
}
