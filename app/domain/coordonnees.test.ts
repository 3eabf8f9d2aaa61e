import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, test } from "vitest";
import { coordonneesSchema, FRANCE_ID, isFrance } from "./coordonnees";

/** The field errors of a form post, as conform reports them to the form. */
function errors(entries: Record<string, string>, communeRequired = false) {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  const s = parseWithZod(data, { schema: coordonneesSchema({ communeRequired }) });
  return s.status === "success" ? {} : s.error;
}

describe("farm coordinates schema", () => {
  test("[B-COORD-01] the form carries business name, SIRET, names, address, country, department, town, INSEE code, postal code, e-mail and mobile", () => {
    const r = coordonneesSchema().safeParse({
      raisonSociale: "EARL des Tilleuls",
      siret: "732 829 320 00074",
      nom: "Durand",
      prenom: "Bruno",
      adresse: "1 rue des Tilleuls",
      idPays: "26",
      libelleDepartement: "Eure-et-Loir",
      ville: "Chartres",
      codeInsee: "28085",
      codePostal: "28000",
      email: "earl@tilleuls.fr",
      portable: "06 12 34 56 78",
    });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ siret: "73282932000074", idPays: 26, codeInsee: "28085", codePostal: "28000", portable: "06 12 34 56 78" });
  });

  test("[B-COORD-01] every field may stay empty", () => {
    expect(errors({})).toEqual({});
    expect(errors({ raisonSociale: "", siret: "", email: "", portable: "", codePostal: "" })).toEqual({});
  });

  test("the SIRET is checked (14 digits and the Luhn key)", () => {
    expect(errors({ siret: "73282932000075" })).toEqual({ siret: ["warning.invalid"] });
    expect(errors({ siret: "1234" })).toEqual({ siret: ["warning.invalid"] });
    expect(errors({ siret: "73282932000074" })).toEqual({});
  });

  test("[B-COORD-03] the e-mail must match the e-mail pattern", () => {
    expect(errors({ email: "pas-un-email" })).toEqual({ email: ["warning.invalid"] });
    expect(errors({ email: "a@b" })).toEqual({ email: ["warning.invalid"] });
    expect(errors({ email: "contact@ferme.fr" })).toEqual({});
  });

  test("the mobile is a French phone number and the postal code has exactly 5 characters", () => {
    expect(errors({ portable: "12345" })).toEqual({ portable: ["warning.invalid"] });
    expect(errors({ portable: "+33 6 12 34 56 78" })).toEqual({});
    expect(errors({ codePostal: "2800" })).toEqual({ codePostal: ["warning.invalid"] });
    expect(errors({ codePostal: "280000" })).toEqual({ codePostal: ["warning.invalid"] });
  });

  test("[B-COORD-02] [B-COORD-04] in France (country 26) with a department whose commune list exists, the commune is required", () => {
    expect(FRANCE_ID).toBe(26);
    expect(isFrance("26")).toBe(true);
    expect(isFrance(1075)).toBe(false);
    expect(errors({ idPays: "26", libelleDepartement: "Eure-et-Loir" }, true)).toEqual({ codeInsee: ["warning.required"] });
    // No list (a department without communes), no department, or another country: not required.
    expect(errors({ idPays: "26", libelleDepartement: "Terres australes et antarctiques françaises" }, false)).toEqual({});
    expect(errors({ idPays: "26" }, true)).toEqual({});
    expect(errors({ idPays: "1075", libelleDepartement: "x" }, true)).toEqual({});
    expect(errors({ idPays: "26", libelleDepartement: "Eure-et-Loir", codeInsee: "28085" }, true)).toEqual({});
  });

  test("[B-COORD-04] the commune error shows together with the other fields' errors", () => {
    expect(errors({ idPays: "26", libelleDepartement: "Eure-et-Loir", email: "x" }, true)).toEqual({
      email: ["warning.invalid"],
      codeInsee: ["warning.required"],
    });
  });
});
