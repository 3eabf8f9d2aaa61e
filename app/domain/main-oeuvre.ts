import { z } from "zod";
import { decimalMax, optionalNumber, optionalText, positive, requiredNumber, requiredText } from "./validation";

import { TYPE_MAIN_OEUVRE } from "./calc/main-oeuvre";

/** Labour types (spec 2 §3): 951 and 952 salaried, 953 family. */
export const TYPES_MAIN_OEUVRE = Object.values(TYPE_MAIN_OEUVRE);

/** The labour form (spec 2 §5): name and type required; UTH numeric, required and positive; amount numeric. */
export const MainOeuvreSchema = z.object({
  libelle: requiredText({ max: 255 }),
  idTypeUser: requiredNumber({ integer: true }).refine((v) => (TYPES_MAIN_OEUVRE as readonly number[]).includes(v), "warning.invalid"),
  uta: positive({ max: decimalMax(8, 3) }),
  montant: optionalNumber(),
  remarque: optionalText({ max: 4000, multiline: true }),
});
export type MainOeuvreInput = z.infer<typeof MainOeuvreSchema>;
