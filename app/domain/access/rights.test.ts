import { describe, expect, test } from "vitest";
import {
  EMPTY_FOLDERS_WARNING,
  FARM_RIGHT_LEVELS,
  FARM_RIGHT_RANK,
  FOLDER_RIGHT_LEVELS,
  NO_FARM_RIGHT,
  NO_FOLDER_RIGHT,
  PERMISSION_FILTERS,
  REQUIRED_ANIMATOR_ERROR,
  buildDisplayName,
  canEditFarmLinkRights,
  canShareBetween,
  canUntickAnimation,
  cascadeFarmLink,
  cascadeFolderUser,
  compareFolderUsers,
  farmKeepsAFolder,
  hasFarmPermission,
  hasFolderPermission,
  highestFarmRight,
  lastAnimatorViolation,
  rankFarmRight,
  removeFarmLinks,
  toggleFolderUserRight,
  type FarmRight,
  type FolderRight,
  type FolderUserListEntry,
  type FolderUserRight,
} from "./rights";

const link = (rights: Partial<FarmRight> = {}): FarmRight => ({ ...NO_FARM_RIGHT, ...rights });
const folderRight = (rights: Partial<FolderRight> = {}): FolderRight => ({ ...NO_FOLDER_RIGHT, ...rights });

const fullLink = link({ dexEcriture: true, dexLecture: true, dexSynthese: true, dexAnimation: true });
const fullFolder = folderRight({ udoAnimation: true, udoEcriture: true, udoLecture: true, udoSynthese: true });

describe("levels and permission names", () => {
  test("[A-RIGHTS-01] folder rights are animation, writing, reading and synthesis", () => {
    expect([...FOLDER_RIGHT_LEVELS].sort()).toEqual(["udoAnimation", "udoEcriture", "udoLecture", "udoSynthese"]);
  });

  test("[A-RIGHTS-02] farm rights are writing, reading and synthesis (plus the link's animation)", () => {
    expect(Object.keys(FARM_RIGHT_RANK).sort()).toEqual(["dexEcriture", "dexLecture", "dexSynthese"]);
    expect(FARM_RIGHT_LEVELS).toContain("dexAnimation");
  });

  test("[A-RIGHTS-23] the permission filter names are Animation, Ecriture, Lecture and Synthese", () => {
    expect(PERMISSION_FILTERS).toEqual(["Animation", "Ecriture", "Lecture", "Synthese"]);
  });

  test("[A-RIGHTS-01] a folder level includes the lower levels even when the row is not cascaded", () => {
    const writerOnly = folderRight({ udoEcriture: true });
    expect(hasFolderPermission(writerOnly, "Synthese")).toBe(true);
    expect(hasFolderPermission(writerOnly, "Lecture")).toBe(true);
    expect(hasFolderPermission(writerOnly, "Ecriture")).toBe(true);
    expect(hasFolderPermission(writerOnly, "Animation")).toBe(false);
    expect(hasFolderPermission(null, "Synthese")).toBe(false);
    expect(hasFolderPermission(NO_FOLDER_RIGHT, "Synthese")).toBe(false);
  });

  test("[A-RIGHTS-02] a farm level includes the lower levels; dexNominatif alone gives no right", () => {
    const animatorOnly = link({ dexAnimation: true });
    expect(hasFarmPermission(animatorOnly, "Ecriture")).toBe(true);
    expect(hasFarmPermission(animatorOnly, "Synthese")).toBe(true);
    expect(hasFarmPermission(link({ dexLecture: true }), "Ecriture")).toBe(false);
    expect(hasFarmPermission(link({ dexNominatif: true }), "Synthese")).toBe(false);
    expect(hasFarmPermission(undefined, "Synthese")).toBe(false);
  });

  test("[A-RIGHTS-21] [A-RIGHTS-22] duplication destinations are the folders and farms with write access", () => {
    const folders = [
      { id: 1, right: folderRight({ udoSynthese: true }) },
      { id: 2, right: folderRight({ udoSynthese: true, udoLecture: true }) },
      { id: 3, right: folderRight({ udoSynthese: true, udoLecture: true, udoEcriture: true }) },
      { id: 4, right: fullFolder },
    ];
    expect(folders.filter((f) => hasFolderPermission(f.right, "Ecriture")).map((f) => f.id)).toEqual([3, 4]);
    const farms = [
      { id: 10, right: link({ dexSynthese: true, dexLecture: true }) },
      { id: 11, right: link({ dexSynthese: true, dexLecture: true, dexEcriture: true }) },
      { id: 12, right: link({ dexSynthese: true }) },
    ];
    expect(farms.filter((f) => hasFarmPermission(f.right, "Ecriture")).map((f) => f.id)).toEqual([11]);
  });
});

describe("cascadeFarmLink", () => {
  test("[A-CASC-01] [A-CASC-07] ticking write ticks read", () => {
    expect(cascadeFarmLink(link(), "dexEcriture", true)).toMatchObject({ dexEcriture: true, dexLecture: true });
  });

  test("[A-CASC-02] [A-CASC-08] ticking read ticks synthesis", () => {
    expect(cascadeFarmLink(link(), "dexLecture", true)).toEqual(link({ dexLecture: true, dexSynthese: true }));
  });

  test("[A-CASC-01] [A-CASC-02] [A-CASC-07] [A-CASC-08] ticking write cascades down to synthesis", () => {
    expect(cascadeFarmLink(link(), "dexEcriture", true)).toEqual(link({ dexEcriture: true, dexLecture: true, dexSynthese: true }));
  });

  test("[A-CASC-03] [A-CASC-09] unticking synthesis unticks read (and so write and animation)", () => {
    expect(cascadeFarmLink(fullLink, "dexSynthese", false)).toEqual(link());
  });

  test("[A-CASC-04] [A-CASC-10] unticking read unticks write (and so animation), keeps synthesis", () => {
    expect(cascadeFarmLink(fullLink, "dexLecture", false)).toEqual(link({ dexSynthese: true }));
  });

  test("[A-CASC-05] ticking animation ticks write (and so read and synthesis)", () => {
    expect(cascadeFarmLink(link(), "dexAnimation", true)).toEqual(fullLink);
  });

  test("[A-CASC-06] unticking write clears animation, keeps read and synthesis", () => {
    expect(cascadeFarmLink(fullLink, "dexEcriture", false)).toEqual(link({ dexLecture: true, dexSynthese: true }));
  });

  test("[A-CASC-06] unticking animation keeps write", () => {
    expect(cascadeFarmLink(fullLink, "dexAnimation", false)).toEqual(link({ dexEcriture: true, dexLecture: true, dexSynthese: true }));
  });

  test("[A-CASC-01] dexNominatif toggles alone; other fields of the row are kept; the input is not mutated", () => {
    const row = { ...link({ dexLecture: true, dexSynthese: true }), idDossierExploitation: 7 };
    const next = cascadeFarmLink(row, "dexNominatif", true);
    expect(next).toEqual({ ...row, dexNominatif: true });
    expect(row.dexNominatif).toBe(false);
    expect(cascadeFarmLink(row, "dexEcriture", true).idDossierExploitation).toBe(7);
  });
});

describe("cascadeFolderUser", () => {
  test("[A-CASC-11] ticking animation ticks write, read and synthesis", () => {
    expect(cascadeFolderUser(folderRight(), "udoAnimation", true)).toEqual(fullFolder);
  });

  test("[A-CASC-12] unticking synthesis unticks read, write and animation", () => {
    expect(cascadeFolderUser(fullFolder, "udoSynthese", false)).toEqual(folderRight());
  });

  test("[A-CASC-13] unticking read unticks write and animation, keeps synthesis", () => {
    expect(cascadeFolderUser(fullFolder, "udoLecture", false)).toEqual(folderRight({ udoSynthese: true }));
  });

  test("[A-CASC-14] unticking write unticks animation, keeps read and synthesis", () => {
    expect(cascadeFolderUser(fullFolder, "udoEcriture", false)).toEqual(folderRight({ udoLecture: true, udoSynthese: true }));
  });

  test("[A-CASC-11] ticking write ticks the lower levels, not animation", () => {
    expect(cascadeFolderUser(folderRight(), "udoEcriture", true)).toEqual(folderRight({ udoEcriture: true, udoLecture: true, udoSynthese: true }));
  });
});

describe("last animator of a folder", () => {
  const row = (idUser: number, rights: Partial<FolderRight>): FolderUserRight => ({
    ...folderRight(rights),
    idUser,
  });
  const animator = (idUser: number) => row(idUser, fullFolder);
  const reader = (idUser: number) => row(idUser, { udoLecture: true, udoSynthese: true });

  test("[A-CASC-15] the last remaining animator cannot be unticked; another animator can", () => {
    expect(canUntickAnimation([animator(1), reader(2)], 1)).toBe(false);
    expect(canUntickAnimation([animator(1), animator(2)], 1)).toBe(true);
    expect(canUntickAnimation([animator(1), reader(2)], 2)).toBe(true);
  });

  test("[A-CASC-15] [A-CASC-16] a change leaving no animator is a violation with dossier.required-animator-error", () => {
    expect(REQUIRED_ANIMATOR_ERROR).toBe("dossier.required-animator-error");
    expect(lastAnimatorViolation([animator(1), reader(2)], [reader(1), reader(2)])).toBe("dossier.required-animator-error");
    expect(lastAnimatorViolation([animator(1), reader(2)], [reader(2)])).toBe("dossier.required-animator-error");
    expect(lastAnimatorViolation([animator(1), animator(2)], [reader(1), animator(2)])).toBeNull();
    expect(lastAnimatorViolation([reader(1)], [row(1, {})])).toBeNull();
  });

  test("[A-CASC-15] [A-CASC-16] toggling off the last animator keeps the right ticked and returns the error", () => {
    const rows = [animator(1), reader(2)];
    for (const field of FOLDER_RIGHT_LEVELS) {
      const result = toggleFolderUserRight(rows, 1, field, false);
      expect(result.error).toBe("dossier.required-animator-error");
      expect(result.rows).toBe(rows);
      expect(result.rows[0].udoAnimation).toBe(true);
    }
  });

  test("[A-CASC-14] [A-CASC-15] toggling off an animator while another remains applies the cascade", () => {
    const result = toggleFolderUserRight([animator(1), animator(2)], 1, "udoEcriture", false);
    expect(result.error).toBeNull();
    expect(result.rows).toEqual([reader(1), animator(2)]);
  });

  test("[A-CASC-11] ticking animation of a user applies the cascade", () => {
    const result = toggleFolderUserRight([animator(1), row(2, {})], 2, "udoAnimation", true);
    expect(result).toEqual({ rows: [animator(1), animator(2)], error: null });
  });
});

describe("folders of a farm", () => {
  const links = [
    { ...fullLink, idDossierExploitation: 1 },
    { ...link({ dexLecture: true, dexSynthese: true }), idDossierExploitation: 2 },
  ];

  test("[A-FARM-14] [A-FARM-15] a farm keeps at least one folder", () => {
    expect(farmKeepsAFolder([links[0]])).toBe(true);
    expect(farmKeepsAFolder([])).toBe(false);
  });

  test("[A-FARM-14] [A-FARM-15] removing every link deletes nothing and warns exploitation.empty-folders-warning", () => {
    expect(EMPTY_FOLDERS_WARNING).toBe("exploitation.empty-folders-warning");
    expect(removeFarmLinks(links, [1, 2])).toEqual({ links, error: "exploitation.empty-folders-warning" });
    expect(removeFarmLinks(links, [2])).toEqual({ links: [links[0]], error: null });
  });

  test("[A-FARM-07] a link's rights are editable only with read on that folder and animation on the farm", () => {
    const reads = folderRight({ udoLecture: true, udoSynthese: true });
    const synthesisOnly = folderRight({ udoSynthese: true });
    const farmWriter = link({ dexEcriture: true, dexLecture: true, dexSynthese: true });
    expect(canEditFarmLinkRights(reads, fullLink)).toBe(true);
    expect(canEditFarmLinkRights(fullFolder, fullLink)).toBe(true);
    expect(canEditFarmLinkRights(synthesisOnly, fullLink)).toBe(false);
    expect(canEditFarmLinkRights(null, fullLink)).toBe(false);
    expect(canEditFarmLinkRights(fullFolder, farmWriter)).toBe(false);
    expect(canEditFarmLinkRights(fullFolder, null)).toBe(false);
  });
});

describe("highestFarmRight", () => {
  const writer = link({ dexEcriture: true, dexLecture: true, dexSynthese: true });
  const reader = link({ dexLecture: true, dexSynthese: true });
  const synthesis = link({ dexSynthese: true });

  test("[A-RIGHTS-03] ranks: write 0, read 1, synthesis 2, none null", () => {
    expect(rankFarmRight(writer)).toBe(0);
    expect(rankFarmRight(reader)).toBe(1);
    expect(rankFarmRight(synthesis)).toBe(2);
    expect(rankFarmRight(link())).toBeNull();
    expect(rankFarmRight(link({ dexAnimation: true }))).toBe(0);
  });

  test("[A-RIGHTS-03] with several farms the highest-ranking right (lowest rank number) wins", () => {
    expect(highestFarmRight([synthesis, writer, reader])).toEqual(writer);
    expect(highestFarmRight([synthesis, reader])).toEqual(reader);
    expect(highestFarmRight([synthesis, link()])).toEqual(synthesis);
    expect(highestFarmRight([reader])).toEqual(reader);
  });

  test("[A-RIGHTS-03] no farm or no right gives null; animation and nominatif come from the winning links", () => {
    expect(highestFarmRight([])).toBeNull();
    expect(highestFarmRight([link(), link({ dexNominatif: true })])).toBeNull();
    expect(highestFarmRight([writer, fullLink])).toEqual(fullLink);
    expect(highestFarmRight([reader, link({ ...synthesis, dexNominatif: true })])).toEqual(reader);
  });

  test("[A-RIGHTS-03] a non-cascaded winning link is returned cascaded", () => {
    expect(highestFarmRight([link({ dexLecture: true })])).toEqual(reader);
  });
});

describe("folder settings user list", () => {
  const entry = (nom: string, prenom: string, ordre: number, synthese: boolean): FolderUserListEntry => ({
    ...folderRight({ udoSynthese: synthese }),
    nom,
    prenom,
    ordre,
  });

  test("[A-FOLDER-04] the display name is built from last name and first name", () => {
    expect(buildDisplayName("Martin", "Élodie")).toBe("MARTIN Élodie");
  });

  test("[A-FOLDER-06] users holding the synthesis right are listed first", () => {
    const list = [entry("Abel", "Ana", 0, false), entry("Zola", "Zoé", 5, true)];
    expect([...list].sort(compareFolderUsers).map((u) => u.nom)).toEqual(["Zola", "Abel"]);
  });

  test("[A-FOLDER-07] after synthesis holders, users are sorted by order", () => {
    const list = [entry("Abel", "Ana", 2, true), entry("Zola", "Zoé", 1, true), entry("Moreau", "Max", 0, false)];
    expect([...list].sort(compareFolderUsers).map((u) => u.nom)).toEqual(["Zola", "Abel", "Moreau"]);
  });

  test("[A-FOLDER-08] after order, users are sorted by name (French order, accents and case ignored)", () => {
    const list = [entry("Durand", "Paul", 1, true), entry("écrivain", "Léa", 1, true), entry("Durand", "Anne", 1, true), entry("Blanc", "Zoé", 1, true)];
    expect([...list].sort(compareFolderUsers).map((u) => `${u.nom} ${u.prenom}`)).toEqual(["Blanc Zoé", "Durand Anne", "Durand Paul", "écrivain Léa"]);
  });
});

describe("sharing", () => {
  test("[A-RIGHTS-04] sharing works only between users who both accepted the visibility option", () => {
    expect(canShareBetween({ isVisible: true }, { isVisible: true })).toBe(true);
    expect(canShareBetween({ isVisible: true }, { isVisible: false })).toBe(false);
    expect(canShareBetween({ isVisible: false }, { isVisible: true })).toBe(false);
  });
});
