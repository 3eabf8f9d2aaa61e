import { z } from "zod";
import { email, frenchPhone, optional, optionalNumber, optionalText, postalCode, siret } from "./validation";

/** Country id of France (spec 2 §4, §9): it shows the department and commune pickers. */
export const FRANCE_ID = 26;
export const isFrance = (idPays: number | string | null | undefined) => Number(idPays) === FRANCE_ID;

/**
 * The farm coordinates form (spec 2 §2 "Farm coordinates", §3 Farm, §5 Farm):
 * SIRET checked, e-mail pattern, French mobile phone, postal code of 5 characters; in France
 * (country 26) the commune is required when the chosen department has a commune list.
 *
 * For France the commune picker sends the commune's INSEE code as `codeInsee`; the server
 * takes the town name (`ville`) from the commune list. Elsewhere `ville` and `codeInsee` are typed.
 * `communeRequired`: the browser knows whether the list it shows is empty; the server asks the database.
 */
export function coordonneesSchema({ communeRequired = false }: { communeRequired?: boolean } = {}) {
  return z
    .object({
      raisonSociale: optionalText({ max: 255 }),
      siret: optional(siret()),
      nom: optionalText({ max: 120 }),
      prenom: optionalText({ max: 120 }),
      adresse: optionalText({ max: 2000, multiline: true }),
      idPays: optionalNumber({ integer: true }),
      libelleDepartement: optionalText({ max: 120 }),
      ville: optionalText({ max: 255 }),
      codeInsee: optionalText({ max: 5 }),
      codePostal: optional(postalCode()),
      email: optional(email()),
      portable: optional(frenchPhone()),
    })
    .superRefine(
      (value, ctx) => {
        if (isFrance(value.idPays) && value.libelleDepartement && communeRequired && !value.codeInsee) {
          ctx.addIssue({ code: "custom", message: "warning.required", path: ["codeInsee"] });
        }
      },
      // Also run when another field failed, so that every error shows at once.
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    );
}
export type CoordonneesInput = z.infer<ReturnType<typeof coordonneesSchema>>;
