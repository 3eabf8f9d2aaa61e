import { data } from "react-router";
import { abilities, type Abilities } from "~/domain/access/abilities";
import { contextViewOf, type ContextView } from "../contexte/service";
import type { Db } from "../db/knex";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { abilitiesFor, canAnimateFarm, canWriteFarm, ensure } from "./abilities";

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

/** The selected campaign of a description screen, with the user's abilities on it (412 without one). */
export async function campaignContext(db: Db, user: Utilisateur): Promise<CampaignContext> {
  const view = await contextViewOf(db, user);
  // The same answer as the campaign-required layout (a Response, not an error to log).
  if (!view.campagne) throw data({ campaignRequired: true }, { status: 412 });
  return { view, idCampagne: view.campagne.id, idExploitation: view.campagne.idExploitation, abilities: campaignAbilities(user, view) };
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
  | { dossier: number | null; campagne: number }
  | { dossier: number; exploitation: number; animation?: boolean }
  | { dossier: number; animation?: boolean };

/**
 * The one write gate: every service write asks it first. It reads the rights of the row's owner from the
 * database (never the context's combined abilities) and refuses with 403 errors.forbidden; a campaign that does
 * not exist is a 404. Returns the abilities on the owner.
 */
export async function ensureWrite(db: Db, user: Utilisateur, target: WriteTarget): Promise<Abilities> {
  if (target.dossier == null) throw new ServiceError("errors.forbidden", 403);
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

/** Description writes on the selected campaign: the context, after the write gate on the campaign's own farm. */
export async function writableCampaign(db: Db, user: Utilisateur): Promise<CampaignContext> {
  const ctx = await campaignContext(db, user);
  const abilitiesOnOwner = await ensureWrite(db, user, { dossier: ctx.view.selected.idDossier, campagne: ctx.idCampagne });
  return { ...ctx, abilities: abilitiesOnOwner };
}
