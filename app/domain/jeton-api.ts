import { z } from "zod";
import { requiredNumber, requiredText } from "./validation";

/** Personal access tokens of the JSON API (issue 26, decision 0098): the form of the profile page and of the API call. */
export const JETON_ACCES = ["lecture", "ecriture"] as const;
export const JETON_JOURS_MAX = 365;

export const JetonPersonnelSchema = z.object({
  nom: requiredText({ max: 120 }),
  acces: z.enum(JETON_ACCES, { error: "warning.invalid" }),
  joursValidite: requiredNumber({ integer: true, min: 1, max: JETON_JOURS_MAX }),
});
export type JetonPersonnelInput = z.infer<typeof JetonPersonnelSchema>;
