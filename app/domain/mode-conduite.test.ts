import { describe, expect, test } from "vitest";
import { issuesToFieldErrors } from "./validation";
import { AssuranceSchema, DuplicationModeConduiteSchema, ModeConduiteSchema, compterCultures, hasAssurance } from "./mode-conduite";

const errors = (input: unknown) => {
  const r = ModeConduiteSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(Object.entries(issuesToFieldErrors(r.error)).map(([k, v]) => [k, v[0]]));
};

describe("crop management mode form", () => {
  test("[B-CROP-11] [B-CROP-12] name is required and the coupled aid numeric", () => {
    expect(errors({})).toEqual({ libelle: "warning.required" });
    expect(errors({ libelle: "Blé", aideCouplee: "beaucoup" })).toEqual({ aideCouplee: "warning.numeric" });
    const ok = ModeConduiteSchema.parse({ libelle: " Blé ", aideCouplee: "12,5" });
    expect(ok).toMatchObject({ libelle: "Blé", aideCouplee: 12.5, cultures: [], assurance: {} });
  });

  test("[B-CROP-13] [B-CROP-03] each crop row needs a crop; category and qualifier are optional", () => {
    expect(errors({ libelle: "x", cultures: [{ idCulture: "1" }, { idCatCulture: "9017" }] })).toEqual({ "cultures[1].idCulture": "warning.required" });
    expect(ModeConduiteSchema.parse({ libelle: "x", cultures: [{ id: "4", idCulture: "1", idCatCulture: "9017", idQualifiant: "2" }] }).cultures).toEqual([
      { id: 4, idCulture: 1, idCatCulture: 9017, idQualifiant: 2 },
    ]);
  });

  test("[B-INS-09] [B-INS-10] [B-INS-11] insurance values numeric; crop required once a value is filled; output type once a crop is chosen", () => {
    expect(errors({ libelle: "x", assurance: { rendementAssure: "neuf", mtPrixAssure: "abc" } })).toEqual({
      "assurance.rendementAssure": "warning.numeric",
      "assurance.mtPrixAssure": "warning.numeric",
    });
    expect(errors({ libelle: "x", assurance: { mtCotisationAssurance: "25" } })).toEqual({ "assurance.idCulture": "warning.required" });
    expect(errors({ libelle: "x", assurance: { idCulture: "1" } })).toEqual({ "assurance.idTypeSortie": "warning.required" });
    expect(errors({ libelle: "x", assurance: { idCulture: "1", idTypeSortie: "661", txFranchise: "120" } })).toEqual({
      "assurance.txFranchise": "warning.minmax",
    });
    const ok = AssuranceSchema.parse({ idCulture: "1", idTypeSortie: "661", rendementAssure: "9", txFranchise: "20", mtPrixAssure: "200" });
    expect(hasAssurance(ok)).toBe(true);
    expect(hasAssurance(AssuranceSchema.parse({}))).toBe(false);
  });

  test("[B-CROP-15] duplication needs the ticked modes, a farm and at least one campaign", () => {
    const r = DuplicationModeConduiteSchema.safeParse({ ids: ["1"], idDossier: "2", idExploitation: "", campagnes: [] });
    expect(r.success ? {} : issuesToFieldErrors(r.error)).toEqual({ idExploitation: ["warning.required"], campagnes: ["warning.required"] });
    expect(DuplicationModeConduiteSchema.parse({ ids: "1", idDossier: "2", idExploitation: "3", campagnes: "4" })).toEqual({
      ids: [1],
      idDossier: 2,
      idExploitation: 3,
      campagnes: [4],
    });
  });

  test("[B-CROP-05] the counts are the rows by category; a row without category counts in its crop's default one", () => {
    const codes = new Map([
      [9017, "principale"],
      [9018, "intermediaire"],
      [9019, "derobee"],
    ]);
    const defaults = new Map([
      [1, 9017],
      [33, 9018],
      [50, null],
    ]);
    const rows = [
      { idCulture: 1, idCatCulture: 9017 },
      { idCulture: 33 },
      { idCulture: 1, idCatCulture: 9019 },
      { idCulture: 33, idCatCulture: 9018 },
      { idCulture: 50 },
    ];
    expect(
      compterCultures(
        rows,
        (id) => codes.get(id),
        (id) => defaults.get(id),
      ),
    ).toEqual({ nbCulturesPrincipales: 1, nbCulturesIntermediaires: 2, nbCulturesDerobees: 1 });
    expect(compterCultures([], (id) => codes.get(id))).toEqual({ nbCulturesPrincipales: 0, nbCulturesIntermediaires: 0, nbCulturesDerobees: 0 });
  });
});
