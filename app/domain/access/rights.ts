/**
 * Sharing rights of spec 1 (§4 "Rights cascades", §6 "Roles and permissions").
 *
 * Two kinds of rights:
 * - a user's right on a folder (utilisateur_dossier): animation > ecriture > lecture > synthese;
 * - a folder's right on a farm (dossier_exploitation link): animation > ecriture > lecture > synthese,
 *   plus dexNominatif, which is outside the hierarchy.
 *
 * A level includes every level below it (the cascades keep rows that way), but the readers here
 * never assume a row is cascaded: `hasFolderPermission(r, "Lecture")` is true for a row holding
 * only udoEcriture.
 *
 * Pure functions only: no I/O.
 */

export type FolderRight = {
  udoAnimation: boolean;
  udoEcriture: boolean;
  udoLecture: boolean;
  udoSynthese: boolean;
};
export type FolderRightField = keyof FolderRight;

export type FarmRight = {
  dexEcriture: boolean;
  dexLecture: boolean;
  dexSynthese: boolean;
  dexAnimation: boolean;
  dexNominatif: boolean;
};
export type FarmRightField = keyof FarmRight;

/** A folder right held by one user (one utilisateur_dossier row). */
export type FolderUserRight = FolderRight & { idUser: number };

/** A row of the folder settings user list (A-FOLDER-04..08). */
export type FolderUserListEntry = FolderRight & { ordre: number; nom: string; prenom: string };

export const NO_FOLDER_RIGHT: Readonly<FolderRight> = Object.freeze({
  udoAnimation: false,
  udoEcriture: false,
  udoLecture: false,
  udoSynthese: false,
});

export const NO_FARM_RIGHT: Readonly<FarmRight> = Object.freeze({
  dexEcriture: false,
  dexLecture: false,
  dexSynthese: false,
  dexAnimation: false,
  dexNominatif: false,
});

/** Permission filter names of the API and the context selectors (A-RIGHTS-23). */
export const PERMISSION_FILTERS = ["Animation", "Ecriture", "Lecture", "Synthese"] as const;
export type PermissionFilter = (typeof PERMISSION_FILTERS)[number];

/** Folder right fields from the lowest level to the highest (A-RIGHTS-01). */
export const FOLDER_RIGHT_LEVELS = ["udoSynthese", "udoLecture", "udoEcriture", "udoAnimation"] as const;

/** Farm right fields from the lowest level to the highest (A-RIGHTS-02, plus the link's animation). */
export const FARM_RIGHT_LEVELS = ["dexSynthese", "dexLecture", "dexEcriture", "dexAnimation"] as const;

/** Rank of a farm right when several farms are selected: write 0, read 1, synthesis 2 (A-RIGHTS-03). */
export const FARM_RIGHT_RANK = { dexEcriture: 0, dexLecture: 1, dexSynthese: 2 } as const;
export type FarmRightRank = 0 | 1 | 2;

export const REQUIRED_ANIMATOR_ERROR = "dossier.required-animator-error";
export const EMPTY_FOLDERS_WARNING = "exploitation.empty-folders-warning";

const PERMISSION_LEVEL: Record<PermissionFilter, number> = {
  Synthese: 0,
  Lecture: 1,
  Ecriture: 2,
  Animation: 3,
};

// ---------------------------------------------------------------------------------------------
// Reading a right

/** Highest level held (0 synthese .. 3 animation), or -1 for none. */
function readTopLevel<T>(right: T | null | undefined, levels: readonly (keyof T)[]): number {
  if (!right) return -1;
  for (let level = levels.length - 1; level >= 0; level--) {
    if (right[levels[level]] === true) return level;
  }
  return -1;
}

/** Whether a folder right reaches the permission level (a higher level includes the lower ones). */
export function hasFolderPermission(right: FolderRight | null | undefined, permission: PermissionFilter): boolean {
  return readTopLevel(right, FOLDER_RIGHT_LEVELS) >= PERMISSION_LEVEL[permission];
}

/** Whether a farm right reaches the permission level (a higher level includes the lower ones). */
export function hasFarmPermission(right: FarmRight | null | undefined, permission: PermissionFilter): boolean {
  return readTopLevel(right, FARM_RIGHT_LEVELS) >= PERMISSION_LEVEL[permission];
}

// ---------------------------------------------------------------------------------------------
// Cascades (A-CASC-01..14)

/** Ticking a level ticks every lower level; unticking a level unticks every higher level. */
function cascadeLevels<T extends object>(rights: T, levels: readonly (keyof T)[], field: keyof T, value: boolean): T {
  const next = { ...rights };
  next[field] = value as T[keyof T];
  const index = levels.indexOf(field);
  if (index < 0) return next;
  const touched = value ? levels.slice(0, index) : levels.slice(index + 1);
  for (const level of touched) next[level] = value as T[keyof T];
  return next;
}

/**
 * Toggles one right of a farm-folder link, in the farm settings list and in the add-folder dialog
 * (A-CASC-01..10): write ticks read, read ticks synthesis, animation ticks write; unticking
 * synthesis unticks read, unticking read unticks write, unticking write clears animation.
 * dexNominatif is set alone. Other fields of the row are kept.
 */
export function cascadeFarmLink<T extends FarmRight>(rights: T, field: FarmRightField, value: boolean): T {
  return cascadeLevels(rights, FARM_RIGHT_LEVELS as readonly (keyof T)[], field, value);
}

/**
 * Toggles one right of a user on a folder (A-CASC-11..14): animation ticks write, read and
 * synthesis; unticking a level unticks the higher ones. Ticking write or read also ticks the
 * levels below it, so a row never holds a level without those below.
 * The last-animator rule is checked separately (`lastAnimatorViolation`).
 */
export function cascadeFolderUser<T extends FolderRight>(rights: T, field: FolderRightField, value: boolean): T {
  return cascadeLevels(rights, FOLDER_RIGHT_LEVELS as readonly (keyof T)[], field, value);
}

// ---------------------------------------------------------------------------------------------
// Last animator of a folder (A-CASC-15, A-CASC-16)

function countAnimators(rows: readonly FolderRight[]): number {
  return rows.filter((row) => row.udoAnimation).length;
}

/** False when the user is the only animator left among the folder's rights. */
export function canUntickAnimation(allUserRightsOfFolder: readonly FolderUserRight[], userId: number): boolean {
  const animators = allUserRightsOfFolder.filter((row) => row.udoAnimation);
  return !(animators.length === 1 && animators[0].idUser === userId);
}

/**
 * The error key when a change (toggle, removal) would leave a folder that had an animator without
 * any; null when the change is allowed.
 */
export function lastAnimatorViolation(before: readonly FolderRight[], after: readonly FolderRight[]): typeof REQUIRED_ANIMATOR_ERROR | null {
  return countAnimators(before) > 0 && countAnimators(after) === 0 ? REQUIRED_ANIMATOR_ERROR : null;
}

/**
 * Toggles one right of one user of the folder list with its cascade. When that would remove the
 * last animator, the list is returned unchanged with the error key (the right stays ticked).
 */
export function toggleFolderUserRight<T extends FolderUserRight>(
  rows: readonly T[],
  userId: number,
  field: FolderRightField,
  value: boolean,
): { rows: readonly T[]; error: typeof REQUIRED_ANIMATOR_ERROR | null } {
  const next = rows.map((row) => (row.idUser === userId ? cascadeFolderUser(row, field, value) : row));
  const error = lastAnimatorViolation(rows, next);
  return error ? { rows, error } : { rows: next, error: null };
}

// ---------------------------------------------------------------------------------------------
// Folders of a farm (A-FARM-07, A-FARM-14, A-FARM-15)

/** A farm needs at least one folder: true when some link would remain. */
export function farmKeepsAFolder(linksAfter: readonly unknown[]): boolean {
  return linksAfter.length > 0;
}

/**
 * Removes the given links from a farm, unless none would remain: then nothing is removed and the
 * warning key is returned.
 */
export function removeFarmLinks<T extends { idDossierExploitation: number }>(
  links: readonly T[],
  idsToRemove: readonly number[],
): { links: readonly T[]; error: typeof EMPTY_FOLDERS_WARNING | null } {
  const kept = links.filter((link) => !idsToRemove.includes(link.idDossierExploitation));
  return farmKeepsAFolder(kept) ? { links: kept, error: null } : { links, error: EMPTY_FOLDERS_WARNING };
}

/**
 * A link's rights are editable only when the current user reads the linked folder and holds the
 * animation right on the farm (A-FARM-07).
 */
export function canEditFarmLinkRights(userRightOnLinkedFolder: FolderRight | null | undefined, farm: FarmRight | null | undefined): boolean {
  return hasFolderPermission(userRightOnLinkedFolder, "Lecture") && hasFarmPermission(farm, "Animation");
}

// ---------------------------------------------------------------------------------------------
// Several selected farms (A-RIGHTS-03)

/** Rank of one farm right (write 0, read 1, synthesis 2; animation counts as write), null if none. */
export function rankFarmRight(right: FarmRight | null | undefined): FarmRightRank | null {
  if (hasFarmPermission(right, "Ecriture")) return FARM_RIGHT_RANK.dexEcriture;
  if (hasFarmPermission(right, "Lecture")) return FARM_RIGHT_RANK.dexLecture;
  if (hasFarmPermission(right, "Synthese")) return FARM_RIGHT_RANK.dexSynthese;
  return null;
}

/**
 * Combines the rights of several selected farms: the highest-ranking right (lowest rank number)
 * wins. The result is cascaded (write includes read and synthesis); dexAnimation and dexNominatif
 * hold when one of the winning links holds them. Null when no link gives any right.
 */
export function highestFarmRight(links: readonly FarmRight[]): FarmRight | null {
  const ranked = links.map((link) => ({ link, rank: rankFarmRight(link) }));
  const ranks = ranked.flatMap(({ rank }) => (rank === null ? [] : [rank]));
  if (ranks.length === 0) return null;
  const best = Math.min(...ranks);
  const winners = ranked.filter(({ rank }) => rank === best).map(({ link }) => link);
  return {
    dexEcriture: best <= FARM_RIGHT_RANK.dexEcriture,
    dexLecture: best <= FARM_RIGHT_RANK.dexLecture,
    dexSynthese: true,
    dexAnimation: winners.some((link) => link.dexAnimation),
    dexNominatif: winners.some((link) => link.dexNominatif),
  };
}

// ---------------------------------------------------------------------------------------------
// Folder settings user list (A-FOLDER-04, A-FOLDER-06..08) and sharing (A-RIGHTS-04)

/** Display name "NOM Prénom" of a user. */
export function buildDisplayName(nom: string, prenom: string): string {
  return `${nom.toLocaleUpperCase("fr")} ${prenom}`.trim();
}

/** Comparator: synthesis holders first, then `ordre` ascending, then display name (French order). */
export function compareFolderUsers(a: FolderUserListEntry, b: FolderUserListEntry): number {
  const synthesis = Number(hasFolderPermission(b, "Synthese")) - Number(hasFolderPermission(a, "Synthese"));
  if (synthesis !== 0) return synthesis;
  if (a.ordre !== b.ordre) return a.ordre - b.ordre;
  return buildDisplayName(a.nom, a.prenom).localeCompare(buildDisplayName(b.nom, b.prenom), "fr", {
    sensitivity: "base",
  });
}

/** Sharing works only between users who both accepted the sharing and visibility option. */
export function canShareBetween(a: { isVisible: boolean }, b: { isVisible: boolean }): boolean {
  return a.isVisible && b.isVisible;
}
