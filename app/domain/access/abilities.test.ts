import { describe, expect, test } from "vitest";
import { abilities, canAffecterEges, canEditFolderInput, exportableCampaigns, ORIGINE_INTRANT_DOSSIER, type Abilities, type AbilityUser } from "./abilities";
import { campaignLock } from "./lock";
import { highestFarmRight, NO_FARM_RIGHT, NO_FOLDER_RIGHT, type FarmRight, type FolderRight } from "./rights";

// ---------------------------------------------------------------------------------------------
// Fixtures: cascaded rights, as the cascades store them.

const FOLDER = {
  none: NO_FOLDER_RIGHT,
  synthese: { udoAnimation: false, udoEcriture: false, udoLecture: false, udoSynthese: true },
  lecture: { udoAnimation: false, udoEcriture: false, udoLecture: true, udoSynthese: true },
  ecriture: { udoAnimation: false, udoEcriture: true, udoLecture: true, udoSynthese: true },
  animation: { udoAnimation: true, udoEcriture: true, udoLecture: true, udoSynthese: true },
} satisfies Record<string, FolderRight>;

const FARM = {
  none: NO_FARM_RIGHT,
  synthese: { ...NO_FARM_RIGHT, dexSynthese: true },
  lecture: { ...NO_FARM_RIGHT, dexLecture: true, dexSynthese: true },
  ecriture: { ...NO_FARM_RIGHT, dexEcriture: true, dexLecture: true, dexSynthese: true },
  animation: { ...NO_FARM_RIGHT, dexAnimation: true, dexEcriture: true, dexLecture: true, dexSynthese: true },
} satisfies Record<string, FarmRight>;

type FolderLevel = keyof typeof FOLDER;
type FarmLevel = keyof typeof FARM;
const FOLDER_LEVELS: FolderLevel[] = ["none", "synthese", "lecture", "ecriture", "animation"];
const FARM_LEVELS: FarmLevel[] = ["none", "synthese", "lecture", "ecriture", "animation"];

const plainUser: AbilityUser = { admin: false, roles: [], acceptcgu: true, isVisible: true };
const adminUser: AbilityUser = { admin: true, roles: ["ROLE_TEST"], acceptcgu: true, isVisible: false };

// ---------------------------------------------------------------------------------------------
// The expectation table, written by hand.
// One grid per ability: a row per folder right (none, synthese, lecture, ecriture, animation),
// a column per farm right (none, synthese, lecture, ecriture, ecriture+animation); 1 = granted.
// A single grid holds for both lock states; lock-dependent abilities give { unlocked, locked }.

type Grid = [string, string, string, string, string];
type DataAbility = Exclude<keyof Abilities, "isAdmin" | "hasRoleTest" | "hasAcceptedCGU" | "hasAcceptedCGUVisibility">;

const NOTHING: Grid = ["00000", "00000", "00000", "00000", "00000"];

const EXPECTED: Record<DataAbility, Grid | { unlocked: Grid; locked: Grid }> = {
  canReadFolder: ["00000", "11111", "11111", "11111", "11111"],
  canCreateExploitation: ["00000", "00000", "00000", "11111", "11111"],
  isDoAnimation: ["00000", "00000", "00000", "00000", "11111"],
  canValidateResults: ["00000", "00000", "00000", "00000", "11111"],
  canDuplicateToFolder: ["00000", "00000", "00000", "11111", "11111"],
  canReadFarm: ["00000", "01111", "01111", "01111", "01111"],
  isDoEcritureExEcriture: ["00000", "00000", "00000", "00011", "00011"],
  isDoAnimationExEcriture: ["00000", "00000", "00000", "00001", "00001"],
  canCalculate: ["00000", "00000", "00000", "00011", "00011"],
  canDuplicateToFarm: ["00000", "00000", "00000", "00011", "00011"],
  canAccessGestionExploitation: ["00000", "00000", "00000", "00111", "00111"],
  canWriteDescriptif: {
    unlocked: ["00000", "00000", "00000", "00011", "00011"],
    locked: NOTHING,
  },
  canExportAllCalculations: ["00000", "00000", "00000", "00011", "00011"],
  canExportPublishedCalculations: ["00000", "00000", "00111", "00111", "00111"],
};

function expectedValue(ability: DataAbility, folder: number, farm: number, locked: boolean): boolean {
  const entry = EXPECTED[ability];
  const grid = Array.isArray(entry) ? entry : locked ? entry.locked : entry.unlocked;
  return grid[folder][farm] === "1";
}

const MATRIX = FOLDER_LEVELS.flatMap((folder, folderIndex) =>
  FARM_LEVELS.flatMap((farm, farmIndex) =>
    [false, true].flatMap((locked) =>
      [plainUser, adminUser].map((user) => ({
        folder,
        farm,
        lock: locked ? "locked" : "unlocked",
        who: user.admin ? "admin" : "user",
        user,
        locked,
        folderIndex,
        farmIndex,
      })),
    ),
  ),
);

describe("abilities matrix", () => {
  test("[A-RIGHTS-05] the expectation table covers every ability", () => {
    const computed = Object.keys(abilities({ user: plainUser })).sort();
    const tabled = [...Object.keys(EXPECTED), "isAdmin", "hasRoleTest", "hasAcceptedCGU", "hasAcceptedCGUVisibility"].sort();
    expect(computed).toEqual(tabled);
    expect(MATRIX).toHaveLength(5 * 5 * 2 * 2);
  });

  test.each(MATRIX)(
    "[A-RIGHTS-05] [A-RIGHTS-06] [A-RIGHTS-07] [A-RIGHTS-09] [A-RIGHTS-11] [A-RIGHTS-12] [A-RIGHTS-13] [A-RIGHTS-14] [A-RIGHTS-16] [A-RIGHTS-21] [A-RIGHTS-22] [A-RIGHTS-24] [A-RIGHTS-25] folder $folder, farm $farm, $lock, $who",
    ({ folder, farm, user, locked, folderIndex, farmIndex }) => {
      const result = abilities({ user, folder: FOLDER[folder], farm: FARM[farm], lock: { locked } });
      const expected = Object.fromEntries(
        (Object.keys(EXPECTED) as DataAbility[]).map((ability) => [ability, expectedValue(ability, folderIndex, farmIndex, locked)]),
      );
      const { isAdmin, hasRoleTest, hasAcceptedCGU, hasAcceptedCGUVisibility, ...data } = result;
      expect(data).toEqual(expected);
      expect({ isAdmin, hasRoleTest, hasAcceptedCGU, hasAcceptedCGUVisibility }).toEqual(
        user.admin
          ? { isAdmin: true, hasRoleTest: true, hasAcceptedCGU: true, hasAcceptedCGUVisibility: false }
          : { isAdmin: false, hasRoleTest: false, hasAcceptedCGU: true, hasAcceptedCGUVisibility: true },
      );
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Targeted cases: missing context, non-cascaded rows, user flags.

describe("abilities without context", () => {
  test("[A-ROUTE-07] [A-ROUTE-08] [A-RIGHTS-09] without a selected folder isDoAnimation is false", () => {
    expect(abilities({ user: plainUser }).isDoAnimation).toBe(false);
    expect(abilities({ user: plainUser, folder: null, farm: FARM.animation, lock: { locked: false } }).isDoAnimation).toBe(false);
  });

  test("[A-ROUTE-08] [A-RIGHTS-09] folder settings need the animation right on the selected folder", () => {
    expect(abilities({ user: plainUser, folder: FOLDER.ecriture }).isDoAnimation).toBe(false);
    expect(abilities({ user: plainUser, folder: FOLDER.animation }).isDoAnimation).toBe(true);
  });

  test("[A-ROUTE-09] [A-ROUTE-10] [A-RIGHTS-13] without a selected farm canAccessGestionExploitation is false", () => {
    expect(abilities({ user: plainUser, folder: FOLDER.animation }).canAccessGestionExploitation).toBe(false);
    expect(abilities({ user: plainUser, folder: FOLDER.animation, farm: null }).canAccessGestionExploitation).toBe(false);
    expect(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.lecture }).canAccessGestionExploitation).toBe(true);
  });

  test("[A-RIGHTS-07] without a selected campaign canWriteDescriptif is false", () => {
    const base = { user: plainUser, folder: FOLDER.ecriture, farm: FARM.ecriture };
    expect(abilities(base).canWriteDescriptif).toBe(false);
    expect(abilities({ ...base, lock: null }).canWriteDescriptif).toBe(false);
    expect(abilities({ ...base, lock: { locked: false } }).canWriteDescriptif).toBe(true);
  });

  test("[A-RIGHTS-07] [A-LOCK-02] [A-LOCK-04] canWriteDescriptif follows the campaign lock", () => {
    const base = { user: plainUser, folder: FOLDER.animation, farm: FARM.ecriture };
    const published = { serieValide: false, indicateurPublie: true };
    expect(abilities({ ...base, lock: campaignLock(published, false) }).canWriteDescriptif).toBe(false);
    expect(abilities({ ...base, lock: campaignLock(published, true) }).canWriteDescriptif).toBe(true);
  });

  test("[A-RIGHTS-05] a farm right without any right on the folder gives nothing", () => {
    const result = abilities({ user: plainUser, folder: null, farm: FARM.animation, lock: { locked: false } });
    const { isAdmin, hasRoleTest, hasAcceptedCGU, hasAcceptedCGUVisibility, ...data } = result;
    expect(Object.values(data).every((value) => value === false)).toBe(true);
    expect({ isAdmin, hasRoleTest, hasAcceptedCGU, hasAcceptedCGUVisibility }).toEqual({
      isAdmin: false,
      hasRoleTest: false,
      hasAcceptedCGU: true,
      hasAcceptedCGUVisibility: true,
    });
  });
});

describe("abilities on rows that are not cascaded", () => {
  const only = (field: keyof FolderRight): FolderRight => ({ ...NO_FOLDER_RIGHT, [field]: true });
  const farmOnly = (field: keyof FarmRight): FarmRight => ({ ...NO_FARM_RIGHT, [field]: true });
  const unlocked = { locked: false };

  test("[A-RIGHTS-06] [A-RIGHTS-07] udoAnimation alone counts as folder writing", () => {
    const result = abilities({ user: plainUser, folder: only("udoAnimation"), farm: FARM.ecriture, lock: unlocked });
    expect(result.canCreateExploitation).toBe(true);
    expect(result.canWriteDescriptif).toBe(true);
    expect(result.canExportAllCalculations).toBe(true);
    expect(result.canExportPublishedCalculations).toBe(true);
  });

  test("[A-RIGHTS-16] udoEcriture alone counts as folder reading; udoSynthese alone does not", () => {
    expect(abilities({ user: plainUser, folder: only("udoEcriture"), farm: FARM.lecture }).canExportPublishedCalculations).toBe(true);
    expect(abilities({ user: plainUser, folder: only("udoSynthese"), farm: FARM.lecture }).canExportPublishedCalculations).toBe(false);
  });

  test("[A-RIGHTS-11] [A-RIGHTS-14] dexEcriture alone is farm writing; dexLecture alone is not", () => {
    const writes = abilities({ user: plainUser, folder: FOLDER.ecriture, farm: farmOnly("dexEcriture") });
    expect(writes.isDoEcritureExEcriture).toBe(true);
    expect(writes.canExportAllCalculations).toBe(true);
    expect(writes.canExportPublishedCalculations).toBe(true);
    const reads = abilities({ user: plainUser, folder: FOLDER.ecriture, farm: farmOnly("dexLecture") });
    expect(reads.isDoEcritureExEcriture).toBe(false);
    expect(reads.canExportAllCalculations).toBe(false);
  });

  test("[A-RIGHTS-12] dexAnimation alone is the farm animation right (and counts as writing)", () => {
    const result = abilities({ user: plainUser, folder: FOLDER.ecriture, farm: farmOnly("dexAnimation") });
    expect(result.isDoAnimationExEcriture).toBe(true);
    expect(result.isDoEcritureExEcriture).toBe(true);
    const reader = abilities({ user: plainUser, folder: FOLDER.lecture, farm: farmOnly("dexAnimation") });
    expect(reader.isDoAnimationExEcriture).toBe(false);
    expect(reader.isDoEcritureExEcriture).toBe(false);
  });

  test("[A-RIGHTS-02] dexNominatif alone gives no farm ability", () => {
    const result = abilities({ user: plainUser, folder: FOLDER.animation, farm: farmOnly("dexNominatif") });
    expect(result.canReadFarm).toBe(false);
    expect(result.canAccessGestionExploitation).toBe(false);
  });
});

describe("farm settings and folder settings effects", () => {
  test("[A-FARM-19] [A-FARM-20] [A-FARM-21] [A-FARM-22] without farm writing the farm form, delete, add-campaign and unlock are off", () => {
    expect(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.lecture }).isDoEcritureExEcriture).toBe(false);
    expect(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.ecriture }).isDoEcritureExEcriture).toBe(true);
  });

  test("[A-FARM-12] [A-FARM-13] adding or removing folders on the farm needs the farm animation right", () => {
    expect(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.ecriture }).isDoAnimationExEcriture).toBe(false);
    expect(abilities({ user: plainUser, folder: FOLDER.ecriture, farm: FARM.animation }).isDoAnimationExEcriture).toBe(true);
  });

  test("[A-RIGHTS-10] changing the folder in duplication dialogs needs isDoAnimation", () => {
    expect(abilities({ user: plainUser, folder: FOLDER.ecriture, farm: FARM.ecriture }).isDoAnimation).toBe(false);
    expect(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.ecriture }).isDoAnimation).toBe(true);
  });

  test("[A-RIGHTS-24] [A-RIGHTS-25] validation needs an animator; calculation needs farm writing, even when locked", () => {
    const writer = abilities({ user: plainUser, folder: FOLDER.ecriture, farm: FARM.ecriture, lock: { locked: true } });
    expect(writer.canValidateResults).toBe(false);
    expect(writer.canCalculate).toBe(true);
    const readOnly = abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.lecture, lock: { locked: false } });
    expect(readOnly.canValidateResults).toBe(true);
    expect(readOnly.canCalculate).toBe(false);
  });

  test("[A-RIGHTS-03] [A-RIGHTS-14] several farms: the combined (highest-ranking) right drives the abilities", () => {
    const farm = highestFarmRight([FARM.synthese, FARM.ecriture, FARM.lecture]);
    const result = abilities({ user: plainUser, folder: FOLDER.ecriture, farm, lock: { locked: false } });
    expect(result.isDoEcritureExEcriture).toBe(true);
    expect(result.canExportAllCalculations).toBe(true);
  });
});

describe("user abilities", () => {
  const user = (patch: Partial<AbilityUser>): AbilityUser => ({ ...plainUser, ...patch });

  test("[A-RIGHTS-17] isAdmin is the admin flag", () => {
    expect(abilities({ user: user({ admin: true }) }).isAdmin).toBe(true);
    expect(abilities({ user: user({ admin: false }) }).isAdmin).toBe(false);
  });

  test("[A-RIGHTS-17] an admin gets no data right without folder and farm rights", () => {
    const result = abilities({ user: user({ admin: true }), folder: null, farm: null, lock: { locked: false } });
    const { isAdmin, hasRoleTest, hasAcceptedCGU, hasAcceptedCGUVisibility, ...data } = result;
    expect(isAdmin).toBe(true);
    expect(Object.values(data).every((value) => value === false)).toBe(true);
    expect({ hasRoleTest, hasAcceptedCGU, hasAcceptedCGUVisibility }).toEqual({
      hasRoleTest: false,
      hasAcceptedCGU: true,
      hasAcceptedCGUVisibility: true,
    });
  });

  test("[A-RIGHTS-18] hasRoleTest holds for the test role ROLE_TEST only", () => {
    expect(abilities({ user: user({ roles: ["ROLE_USER", "ROLE_TEST"] }) }).hasRoleTest).toBe(true);
    expect(abilities({ user: user({ roles: ["ROLE_USER"] }) }).hasRoleTest).toBe(false);
    expect(abilities({ user: user({ roles: ["role_test"] }) }).hasRoleTest).toBe(false);
  });

  test("[A-RIGHTS-19] hasAcceptedCGU reflects acceptcgu", () => {
    expect(abilities({ user: user({ acceptcgu: true }) }).hasAcceptedCGU).toBe(true);
    expect(abilities({ user: user({ acceptcgu: false }) }).hasAcceptedCGU).toBe(false);
  });

  test("[A-RIGHTS-20] [A-FOLDER-09] hasAcceptedCGUVisibility reflects the visibility flag (isVisible)", () => {
    expect(abilities({ user: user({ isVisible: true }) }).hasAcceptedCGUVisibility).toBe(true);
    expect(abilities({ user: user({ isVisible: false }) }).hasAcceptedCGUVisibility).toBe(false);
  });
});

describe("raw-export campaign search", () => {
  const campagnes = [
    { id: 1, libelle: "2025", indicateurPublie: false },
    { id: 2, libelle: "2024", indicateurPublie: true },
    { id: 3, libelle: "2025 Simulation", indicateurPublie: false },
    { id: 4, libelle: "2023", indicateurPublie: true },
  ];
  const cases = FOLDER_LEVELS.flatMap((folder) => FARM_LEVELS.map((farm) => ({ folder, farm })));

  test.each(cases)(
    "[A-RIGHTS-14] [A-RIGHTS-15] folder $folder, farm $farm: all campaigns with canExportAllCalculations, otherwise only published ones",
    ({ folder, farm }) => {
      const a = abilities({ user: plainUser, folder: FOLDER[folder], farm: FARM[farm] });
      const writesBoth = (folder === "ecriture" || folder === "animation") && (farm === "ecriture" || farm === "animation");
      expect(a.canExportAllCalculations).toBe(writesBoth);
      expect(exportableCampaigns(campagnes, a).map((c) => c.id)).toEqual(writesBoth ? [1, 2, 3, 4] : [2, 4]);
    },
  );

  test("[A-RIGHTS-15] the list is a copy; an empty list stays empty", () => {
    const all = exportableCampaigns(campagnes, { canExportAllCalculations: true });
    expect(all).not.toBe(campagnes);
    expect(exportableCampaigns([], { canExportAllCalculations: false })).toEqual([]);
  });
});

describe("inputs of the folder base", () => {
  const CURRENT = 10;
  const own = { dicIdOrigineIntrant: ORIGINE_INTRANT_DOSSIER, idDossier: CURRENT };

  test.each(FOLDER_LEVELS)("[A-RIGHTS-28] folder right %s: an unreferenced input of the current folder is editable only with animation", (folder) => {
    const a = abilities({ user: plainUser, folder: FOLDER[folder], farm: FARM.ecriture, lock: { locked: false } });
    expect(canEditFolderInput(a, own, CURRENT)).toBe(folder === "animation");
  });

  test("[A-RIGHTS-28] an animator may not edit a reference input, an input of another folder, or any input without a current folder", () => {
    const a = abilities({ user: plainUser, folder: FOLDER.animation });
    expect(ORIGINE_INTRANT_DOSSIER).toBe(777);
    expect(canEditFolderInput(a, own, CURRENT)).toBe(true);
    for (const origin of [773, 776, null]) expect(canEditFolderInput(a, { ...own, dicIdOrigineIntrant: origin }, CURRENT)).toBe(false);
    expect(canEditFolderInput(a, { ...own, idDossier: 11 }, CURRENT)).toBe(false);
    expect(canEditFolderInput(a, { ...own, idDossier: null }, CURRENT)).toBe(false);
    expect(canEditFolderInput(a, own, null)).toBe(false);
    expect(canEditFolderInput(a, own, undefined)).toBe(false);
  });

  test("[A-RIGHTS-28] the admin flag gives no right to edit an input of the folder base", () => {
    const admin = abilities({ user: adminUser, folder: FOLDER.ecriture });
    expect(canEditFolderInput(admin, own, CURRENT)).toBe(false);
  });
});

describe("greenhouse-gas categories of the folder's fertilisers", () => {
  test.each(FOLDER_LEVELS)("[B-PLOT-04] [A-RIGHTS-28] folder right %s, farm writing: assigning needs the folder's animation right", (folder) => {
    const a = abilities({ user: plainUser, folder: FOLDER[folder], farm: FARM.ecriture, lock: { locked: false } });
    expect(canAffecterEges(a)).toBe(folder === "animation");
  });

  test("[B-PLOT-04] an animator may not assign on a locked campaign or a farm he only reads", () => {
    expect(canAffecterEges(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.ecriture, lock: { locked: true } }))).toBe(false);
    expect(canAffecterEges(abilities({ user: plainUser, folder: FOLDER.animation, farm: FARM.lecture, lock: { locked: false } }))).toBe(false);
  });
});
