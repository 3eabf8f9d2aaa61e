import { z } from "zod";
import { mustMatch, optional, password, requiredText } from "./validation";

/** Terms acceptance (spec 1 §4): the mandatory box must be ticked; visibility is optional. */
export const CguSchema = z.object({
  accept: z.literal("on", { error: "warning.required" }),
  isVisible: z.literal("on").optional(),
});

/** Profile (spec 1 §5): names required, new password of 8 characters or more, confirmed. */
export const ProfileSchema = mustMatch(
  z.object({
    nom: requiredText({ max: 120 }),
    prenom: requiredText({ max: 120 }),
    password: optional(password()),
    confirmation: z.string().optional(),
    /** Required with a new password (issue 10, defect 6), checked by the server. */
    currentPassword: z.string().max(200).optional(),
    isVisible: z.literal("on").optional(),
    /** The token the form was loaded with (a stale save is refused, server/db/stale.ts). */
    updatedAt: z.string({ error: "warning.required" }).min(1, "warning.required").max(64),
  }),
  "password",
  "confirmation",
).superRefine(
  (data, ctx) => {
    if (data.password && !data.currentPassword) ctx.addIssue({ code: "custom", message: "warning.required", path: ["currentPassword"] });
  },
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);
export type ProfileInput = z.infer<typeof ProfileSchema>;
