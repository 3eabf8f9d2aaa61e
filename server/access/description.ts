import { data } from "react-router";
import type { Abilities } from "~/domain/access/abilities";
import { loadContextView, type ContextView } from "../contexte/service";
import type { Db } from "../db/knex";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";

export type CampaignContext = { view: ContextView; idCampagne: number; idExploitation: number; abilities: Abilities };

/** The selected campaign of a description screen, with the user's abilities on it (412 without one). */
export async function campaignContext(db: Db, user: Utilisateur): Promise<CampaignContext> {
  const view = await loadContextView(db, user);
  // The same answer as the campaign-required layout (a Response, not an error to log).
  if (!view.campagne) throw data({ campaignRequired: true }, { status: 412 });
  return { view, idCampagne: view.campagne.id, idExploitation: view.campagne.idExploitation, abilities: view.abilities };
}

/** Description writes need canWriteDescriptif: folder animation or writing, farm writing, campaign not locked (spec 1 §6). */
export async function writableCampaign(db: Db, user: Utilisateur): Promise<CampaignContext> {
  const ctx = await campaignContext(db, user);
  if (!ctx.abilities.canWriteDescriptif) throw new ServiceError("errors.forbidden", 403);
  return ctx;
}
