import { data } from "react-router";
import { abilities, lectureSeule, type Abilities } from "~/domain/access/abilities";
import type { ContextView } from "../contexte/service";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { abilitiesFor, canAnimateFarm, canWriteFarm, ensure } from "./abilities";
import type { Scope } from "./scope";

export type { Scope } from "./scope";

/** The refusal of a write posted from a page of another campaign than the one selected now (decision 0092). */
export const CAMPAIGN_CHANGED = "errors.campaign-changed";

export type CampaignContext = { view: ContextView; idCampagne: number; idExploitation: number; abilities: Abilities };

/**
 * The user's abilities on the selected campaign: the folder right and the right of the folder's link on the
 * campaign's OWN farm, with the campaign's lock. Not the combined right of the selected farms (A-RIGHTS-03
 * serves the context selectors only): with farms A (write) and B (read) selected, a campaign of B is read-only.
 */
export function campaignAbilities(user: Utilisateur, view: ContextView): Abilities {
  const folder = view.dossiers.find((d) => d.id === view.selected.idDossier)?.right ?? null;
  const farm = view.campagne ? (view.exploitations.find((e) => e.id === view.campagne!.idExploitation)?.right ?? null) : null;
  return abilities({ user, folder, farm, lock: view.campagne ? view.lock : null });
}

/** The selected campaign of a description screen, with the user's abilities on it (412 without one); once per scope. */
export function campaignContext(scope: Scope): Promise<CampaignContext> {
  return scope.remember("campaign", async () => {
    const view = await scope.view();
    // The same answer as the campaign-required layout (a Response, not an error to log).
    if (!view.campagne) throw data({ campaignRequired: true }, { status: 412 });
    const a = campaignAbilities(scope.user, view);
    return { view, idCampagne: view.campagne.id, idExploitation: view.campagne.idExploitation, abilities: scope.lectureSeule ? lectureSeule(a) : a };
  });
}

/**
 * What a write touches, named by the row that owns it:
 * - `campagne`: data of a campaign (description, plots, machinery, ...): canWriteDescriptif on the campaign's own
 *   farm (folder animation or writing, farm writing) and the campaign not locked (A-RIGHTS-07, B-RIGHTS-01, 02);
 *   deleting a campaign is such a write too (issue 10, defect 2);
 * - `exploitation`: the farm row and its campaigns list (farm settings): farm writing, or farm animation with
 *   `animation` (A-RIGHTS-11, 12);
 * - `dossier` alone: the folder (folder settings, with `animation`: isDoAnimation, A-RIGHTS-09) or a new farm in
 *   it (canCreateExploitation, A-RIGHTS-06).
 * `dossier` is the folder through which the user reaches the row (the selected one).
 */
export type WriteTarget =
  { dossier: number | null; campagne: number } | { dossier: number; exploitation: number; animation?: boolean } | { dossier: number; animation?: boolean };

/**
 * The one write gate: every service write asks it first. It reads the rights of the row's owner from the
 * database (never the context's combined abilities) and refuses with 403 errors.forbidden; a campaign that does
 * not exist is a 404. Returns the abilities on the owner; once per scope and target.
 */
export function ensureWrite(scope: Scope, target: WriteTarget): Promise<Abilities> {
  const key =
    "campagne" in target
      ? `write:campagne:${target.dossier}:${target.campagne}`
      : "exploitation" in target
        ? `write:exploitation:${target.dossier}:${target.exploitation}:${!!target.animation}`
        : `write:dossier:${target.dossier}:${!!target.animation}`;
  return scope.remember(key, () => rightsOnOwner(scope, target));
}

async function rightsOnOwner({ db, user, lectureSeule }: Scope, target: WriteTarget): Promise<Abilities> {
  if (target.dossier == null || lectureSeule) throw new ServiceError("errors.forbidden", 403);
  if ("campagne" in target) {
    const c = await db("campagne").where({ id: target.campagne }).first("idExploitation");
    if (!c) throw new ServiceError("errors.not-found", 404);
    const a = await abilitiesFor(db, user, { idDossier: target.dossier, idExploitation: Number(c.idExploitation), idCampagne: target.campagne });
    ensure(a.canWriteDescriptif);
    return a;
  }
  if ("exploitation" in target) {
    const a = await abilitiesFor(db, user, { idDossier: target.dossier, idExploitation: target.exploitation });
    ensure(target.animation ? canAnimateFarm(a) : canWriteFarm(a));
    return a;
  }
  const a = await abilitiesFor(db, user, { idDossier: target.dossier });
  ensure(target.animation ? a.isDoAnimation : a.canCreateExploitation);
  return a;
}

/**
 * Description writes on the selected campaign: the context, after the write gate on the campaign's own farm; once
 * per scope. A write posted from a page of another campaign than the one selected now is refused (409
 * errors.campaign-changed, decision 0092) before anything is read of the rights.
 */
export function writableCampaign(scope: Scope): Promise<CampaignContext> {
  return scope.remember("writable-campaign", async () => {
    if (scope.shownCampaign != null && (await scope.view()).selected.idCampagne !== scope.shownCampaign) throw new ServiceError(CAMPAIGN_CHANGED, 409);
    const ctx = await campaignContext(scope);
    const abilitiesOnOwner = await ensureWrite(scope, { dossier: ctx.view.selected.idDossier, campagne: ctx.idCampagne });
    return { ...ctx, abilities: abilitiesOnOwner };
  });
}
