import { describe, expect, test } from "vitest";
import { campagneLibelle, farmDuplicationPayload } from "./partage";

describe("farm duplication payload", () => {
  const input = { libelle: "EARL des Tilleuls_", idTypeExploitation: 2, idDossier: 7, campagnesCibles: [31, 30] };
  const here = { idDossier: 7, idExploitation: 12 };

  test("[C-SCEN-12] the payload holds libelle, idTypeExploitation, idDossier, dupliBaseDossier, dossierSource, exploitationSource, campagnesCibles", () => {
    const payload = farmDuplicationPayload(input, here, false);
    expect(Object.keys(payload).sort()).toEqual(
      ["campagnesCibles", "dossierSource", "dupliBaseDossier", "exploitationSource", "idDossier", "idTypeExploitation", "libelle"].sort(),
    );
    expect(payload).toEqual({
      libelle: "EARL des Tilleuls_",
      idTypeExploitation: 2,
      idDossier: 7,
      dupliBaseDossier: false,
      dossierSource: 7,
      exploitationSource: 12,
      campagnesCibles: [31, 30],
    });
  });

  test("[C-SCEN-10] dupliBaseDossier is true when the destination folder differs from the current folder, false otherwise", () => {
    expect(farmDuplicationPayload({ ...input, idDossier: 8 }, here, false).dupliBaseDossier).toBe(true);
    expect(farmDuplicationPayload(input, here, false).dupliBaseDossier).toBe(false);
  });

  test("[C-SCEN-11] with the feature flag on, dupliBaseDossier is left undefined (same or other folder); the rest is unchanged", () => {
    for (const idDossier of [7, 8]) {
      const payload = farmDuplicationPayload({ ...input, idDossier }, here, true);
      expect(payload.dupliBaseDossier).toBeUndefined();
      expect(payload).toMatchObject({ idDossier, dossierSource: 7, exploitationSource: 12, campagnesCibles: [31, 30] });
    }
  });
});

describe("campaign label", () => {
  test("[A-ENT-04] a campaign's label is its prefix followed by its own label, the prefix alone when it has none", () => {
    expect(campagneLibelle({ prefixeCampagne: "2025", apiLibelle: "Blé après colza" })).toBe("2025 Blé après colza");
    expect(campagneLibelle({ prefixeCampagne: "2025", apiLibelle: "" })).toBe("2025");
  });
});
