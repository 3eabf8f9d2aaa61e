import { describe, expect, test } from "vitest";
import { campaignLock, unlockNeedsRepublication } from "./lock";

const open = { serieValide: false, indicateurPublie: false };
const validated = { serieValide: true, indicateurPublie: false };
const published = { serieValide: false, indicateurPublie: true };
const validatedAndPublished = { serieValide: true, indicateurPublie: true };

describe("campaignLock", () => {
  test("[A-LOCK-01] a campaign whose series is validated is locked", () => {
    expect(campaignLock(validated, false).locked).toBe(true);
    expect(campaignLock(validatedAndPublished, false).locked).toBe(true);
  });

  test("[A-LOCK-02] a campaign whose indicators are published is locked", () => {
    expect(campaignLock(published, false).locked).toBe(true);
  });

  test("[A-LOCK-03] a campaign with neither a validated series nor published indicators is not locked", () => {
    expect(campaignLock(open, false)).toEqual({ locked: false, unlockable: false });
    expect(campaignLock(open, true)).toEqual({ locked: false, unlockable: false });
  });

  test("[A-LOCK-04] a locked campaign that the user has unlocked is no longer locked", () => {
    expect(campaignLock(published, true).locked).toBe(false);
  });

  test("[A-LOCK-05] a campaign is unlockable only when its series is not validated", () => {
    expect(campaignLock(published, false).unlockable).toBe(true);
    expect(campaignLock(validated, false).unlockable).toBe(false);
    expect(campaignLock(validatedAndPublished, false).unlockable).toBe(false);
  });

  test("[A-LOCK-05] an unlock on a validated series does not apply: it stays locked", () => {
    expect(campaignLock(validated, true)).toEqual({ locked: true, unlockable: false });
    expect(campaignLock(validatedAndPublished, true)).toEqual({ locked: true, unlockable: false });
  });

  test("[A-LOCK-06] the unlock icon state (unlockable) is false once the campaign is unlocked or when it is open", () => {
    expect(campaignLock(published, true).unlockable).toBe(false);
    expect(campaignLock(open, false).unlockable).toBe(false);
  });

  test("[A-LOCK-09] without the user's unlock (a new selection) a published campaign is locked again", () => {
    expect(campaignLock(published, true).locked).toBe(false);
    expect(campaignLock(published, false).locked).toBe(true);
  });

  test("[A-LOCK-10] the campaign permissions give exactly locked and unlockable", () => {
    expect(Object.keys(campaignLock(published, false)).sort()).toEqual(["locked", "unlockable"]);
  });
});

describe("unlockNeedsRepublication", () => {
  test("[A-LOCK-08] unlocking a campaign with published results requires a recalculation and republication", () => {
    expect(unlockNeedsRepublication(published)).toBe(true);
    expect(unlockNeedsRepublication(open)).toBe(false);
  });
});
