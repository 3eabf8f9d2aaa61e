/**
 * Campaign lock of spec 1 (§3 "Campaign permissions", §4 "Campaign lock").
 *
 * A campaign is locked when its series is validated or its indicators are published, unless the
 * user unlocked it. Only a campaign whose series is not validated can be unlocked, so an unlock
 * flag on a validated campaign is ignored (it stays locked). Selecting a campaign locks it again:
 * callers pass `unlockedByUser` false after a new selection (A-LOCK-09).
 *
 * Pure functions only: no I/O.
 */

export type CampaignLockState = { serieValide: boolean; indicateurPublie: boolean };

/** The campaign permissions (A-LOCK-10). */
export type CampaignPermissions = { locked: boolean; unlockable: boolean };

/** Locked and unlockable state of a campaign (A-LOCK-01..05). */
export function campaignLock(campagne: CampaignLockState, unlockedByUser: boolean): CampaignPermissions {
  const lockedByData = campagne.serieValide || campagne.indicateurPublie;
  const locked = campagne.serieValide || (lockedByData && !unlockedByUser);
  return { locked, unlockable: locked && !campagne.serieValide };
}

/** Unlocking a campaign with published results requires a recalculation and republication (A-LOCK-08). */
export function unlockNeedsRepublication(campagne: Pick<CampaignLockState, "indicateurPublie">): boolean {
  return campagne.indicateurPublie;
}
