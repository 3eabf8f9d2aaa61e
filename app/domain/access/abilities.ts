/**
 * Every ability of spec 1 §6 (and the uses listed in spec 2 §6 and spec 3 §6), computed from the
 * user, the user's right on the selected folder, the combined right of the selected farm(s)
 * (see `highestFarmRight`) and the campaign lock. Loaders and actions ask it before reading or
 * writing; the UI greys out with the same answers.
 *
 * Decisions:
 * - Admins do not bypass data rights. The spec gives admins only the admin-only economic cards
 *   (spec 2) and administration; `isAdmin` is reported and nothing else depends on it.
 * - Rows are not assumed cascaded: a level includes the levels below it ("folder writing" holds
 *   for udoAnimation or udoEcriture, "folder reading" for udoLecture or higher, "farm writing" for
 *   dexEcriture or dexAnimation).
 * - The farm right is the right of the selected folder's link on the farm; it reaches the user
 *   only through the folder, so without any right on the folder every farm ability is false.
 * - Without a campaign (lock null), description data cannot be written: canWriteDescriptif false.
 * - canCalculate (launch calculations, open a calculation detail) needs the farm write right and
 *   not the unlocked campaign: spec 3 §6 ties calculations to isDoEcritureExEcriture, and a
 *   locked campaign (validated or published) must still be recalculated and republished.
 *
 * Pure: no I/O.
 */
import { hasFarmPermission, hasFolderPermission, type FarmRight, type FolderRight } from "./rights";

export const ROLE_TEST = "ROLE_TEST";

export type AbilityUser = { admin: boolean; roles: readonly string[]; acceptcgu: boolean; isVisible: boolean };

export type AbilitiesInput = {
  user: AbilityUser;
  folder?: FolderRight | null;
  farm?: FarmRight | null;
  lock?: { locked: boolean } | null;
};

export type Abilities = {
  /** Admin flag (A-RIGHTS-17). */
  isAdmin: boolean;
  /** Test role ROLE_TEST: export version selector (A-RIGHTS-18). */
  hasRoleTest: boolean;
  /** Terms accepted (A-RIGHTS-19). */
  hasAcceptedCGU: boolean;
  /** Visibility accepted: folder user list and sharing (A-RIGHTS-20, A-FOLDER-09). */
  hasAcceptedCGUVisibility: boolean;

  /** Any right on the folder (synthesis or higher): context selectors. */
  canReadFolder: boolean;
  /** Folder animation or writing (A-RIGHTS-06). */
  canCreateExploitation: boolean;
  /** Folder animation: folder settings, folder change in duplication dialogs (A-RIGHTS-09, 10). */
  isDoAnimation: boolean;
  /** Validation (visa) of calculation series is done by an animator (A-RIGHTS-24). */
  canValidateResults: boolean;
  /** The folder is a duplication destination: folder writing (A-RIGHTS-21). */
  canDuplicateToFolder: boolean;

  /** Any right on the farm (synthesis or higher): context selectors. */
  canReadFarm: boolean;
  /** Farm writing: farm form, delete farm, add campaign, unlock icon, campaigns (A-RIGHTS-11). */
  isDoEcritureExEcriture: boolean;
  /** Farm animation: add or remove folders on the farm, edit link rights (A-RIGHTS-12). */
  isDoAnimationExEcriture: boolean;
  /** Launch calculations and open their detail; unavailable in read mode (A-RIGHTS-25). */
  canCalculate: boolean;
  /** The farm is a duplication destination: folder writing and farm writing (A-RIGHTS-22). */
  canDuplicateToFarm: boolean;
  /** Farm settings: (folder animation or writing) and (farm writing or reading) (A-RIGHTS-05, 13). */
  canAccessGestionExploitation: boolean;
  /** (Folder animation or writing) and farm writing and campaign not locked (A-RIGHTS-07). */
  canWriteDescriptif: boolean;
  /** Folder writing and farm writing: every calculation (A-RIGHTS-14). */
  canExportAllCalculations: boolean;
  /** Folder reading and farm reading: published calculations (A-RIGHTS-16). */
  canExportPublishedCalculations: boolean;
};

/** The abilities of a read-only access (a read-only API token): every write flag off, the reading ones kept. */
export function lectureSeule(a: Abilities): Abilities {
  return {
    ...a,
    canCreateExploitation: false,
    isDoAnimation: false,
    canValidateResults: false,
    canDuplicateToFolder: false,
    isDoEcritureExEcriture: false,
    isDoAnimationExEcriture: false,
    canCalculate: false,
    canDuplicateToFarm: false,
    canWriteDescriptif: false,
  };
}

export function abilities(input: AbilitiesInput): Abilities {
  const { user, folder, lock } = input;
  const canReadFolder = hasFolderPermission(folder, "Synthese");
  // The farm right applies only to a user holding some right on the folder.
  const farm = canReadFolder ? input.farm : null;

  const folderAnimates = hasFolderPermission(folder, "Animation");
  const folderWrites = hasFolderPermission(folder, "Ecriture");
  const folderReads = hasFolderPermission(folder, "Lecture");
  const farmAnimates = hasFarmPermission(farm, "Animation");
  const farmWrites = hasFarmPermission(farm, "Ecriture");
  const farmReads = hasFarmPermission(farm, "Lecture");
  const unlocked = lock != null && !lock.locked;

  return {
    isAdmin: user.admin,
    hasRoleTest: user.roles.includes(ROLE_TEST),
    hasAcceptedCGU: user.acceptcgu,
    hasAcceptedCGUVisibility: user.isVisible,

    canReadFolder,
    canCreateExploitation: folderWrites,
    isDoAnimation: folderAnimates,
    canValidateResults: folderAnimates,
    canDuplicateToFolder: folderWrites,

    canReadFarm: hasFarmPermission(farm, "Synthese"),
    // A link's write right reaches only users who write in the folder: a folder reader never writes its farms.
    isDoEcritureExEcriture: folderWrites && farmWrites,
    isDoAnimationExEcriture: folderWrites && farmAnimates,
    canCalculate: folderWrites && farmWrites,
    canDuplicateToFarm: folderWrites && farmWrites,
    canAccessGestionExploitation: folderWrites && farmReads,
    canWriteDescriptif: folderWrites && farmWrites && unlocked,
    canExportAllCalculations: folderWrites && farmWrites,
    canExportPublishedCalculations: folderReads && farmReads,
  };
}

// ---------------------------------------------------------------------------------------------
// Raw-export campaign search (A-RIGHTS-15)

/**
 * The campaigns a user may search on the raw-export screen, for one farm: all of them with
 * canExportAllCalculations (folder writing and farm writing), otherwise only those whose indicators
 * are published (indicateurPublie true). Order is kept.
 */
export function exportableCampaigns<C extends { indicateurPublie: boolean }>(campagnes: readonly C[], a: Pick<Abilities, "canExportAllCalculations">): C[] {
  return a.canExportAllCalculations ? [...campagnes] : campagnes.filter((c) => c.indicateurPublie);
}

// ---------------------------------------------------------------------------------------------
// Inputs of the folder base (A-RIGHTS-28)

/** Origin of an unreferenced input of a folder (dossier intrant), spec 3 §9. */
export const ORIGINE_INTRANT_DOSSIER = 777;

/** The input fields that decide whether it may be edited (spec 3 §3.2, §3.5). */
export type FolderInputOwnership = { dicIdOrigineIntrant: number | null; idDossier: number | null };

/**
 * Whether the user may edit an input of the folder base (spec 1 §6 "a user may lack the right to edit
 * an input of the folder base"; spec 3 §5 and §6): only an unreferenced input (origin 777) that belongs
 * to the currently selected folder, and only for a user holding the animation right on that folder
 * (isDoAnimation). Reference inputs (other origins), inputs of another folder, and every user below
 * animation get a read-only input.
 */
export function canEditFolderInput(a: Pick<Abilities, "isDoAnimation">, input: FolderInputOwnership, idDossierCourant: number | null | undefined): boolean {
  return a.isDoAnimation && input.dicIdOrigineIntrant === ORIGINE_INTRANT_DOSSIER && idDossierCourant != null && input.idDossier === idDossierCourant;
}

/**
 * Whether the user may assign the greenhouse-gas categories of the folder's fertilisers (plots screen,
 * Other menu; PATCH dossier/{id}/affectation_eges): the Other menu's right (canWriteDescriptif) and the
 * right to edit the folder's inputs (isDoAnimation, as canEditFolderInput). docs/decisions/0018.
 */
export function canAffecterEges(a: Pick<Abilities, "canWriteDescriptif" | "isDoAnimation">): boolean {
  return a.canWriteDescriptif && a.isDoAnimation;
}
