import { abilities, type Abilities } from "~/domain/access/abilities";
import { campaignLock } from "~/domain/access/lock";
import type { FarmRight } from "~/domain/access/rights";
import type { Db } from "../db/knex";
import { bool } from "../db/dialect";
import { ServiceError } from "../errors";
import { findContexte, findFolderRight } from "../contexte/repo";
import type { Utilisateur } from "../utilisateur/repo";

export async function findFarmLink(db: Db, idDossier: number, idExploitation: number): Promise<(FarmRight & { id: number }) | null> {
  const r = await db("dossier_exploitation").where({ idDossier, idExploitation }).first();
  if (!r) return null;
  return {
    id: r.id,
    dexEcriture: bool(r.dexEcriture),
    dexLecture: bool(r.dexLecture),
    dexSynthese: bool(r.dexSynthese),
    dexAnimation: bool(r.dexAnimation),
    dexNominatif: bool(r.dexNominatif),
  };
}

/** The user's abilities on a folder, and on one of its farms and campaigns when given. */
export async function abilitiesFor(db: Db, user: Utilisateur, where: { idDossier: number; idExploitation?: number; idCampagne?: number }): Promise<Abilities> {
  const folder = await findFolderRight(db, user.id, where.idDossier);
  const farm = where.idExploitation ? await findFarmLink(db, where.idDossier, where.idExploitation) : null;
  let lock = null;
  if (where.idCampagne) {
    const c = await db("campagne").where({ id: where.idCampagne }).first("serieValide", "indicateurPublie");
    if (c) {
      const ctx = await findContexte(db, user.id);
      lock = campaignLock({ serieValide: bool(c.serieValide), indicateurPublie: bool(c.indicateurPublie) }, ctx.idCampagneDeverrouillee === where.idCampagne);
    }
  }
  return abilities({ user, folder, farm, lock });
}

/**
 * Writes on a farm and its campaigns (farm form, delete farm, folder links, new, deleted, unlocked campaign, scenarios):
 * the farm write (or animation) right of the folder's link, used by someone who writes in that folder, i.e. who may
 * open the farm settings (canAccessGestionExploitation). A folder reader whose folder's link gives write stays
 * read-only (README: `lecteur` reads Beauce, whose link on EARL des Tilleuls gives animation).
 */
export function canWriteFarm(a: Abilities): boolean {
  return a.canAccessGestionExploitation && a.isDoEcritureExEcriture;
}

/** Farm animation (add or remove folders, edit link rights), with the same folder-writing condition as canWriteFarm. */
export function canAnimateFarm(a: Abilities): boolean {
  return a.canAccessGestionExploitation && a.isDoAnimationExEcriture;
}

/** Refuses (403, errors.forbidden) unless the ability holds: a refused write changes nothing. */
export function ensure(ability: boolean): void {
  if (!ability) throw new ServiceError("errors.forbidden", 403);
}

/**
 * Listing the members of a user group (decision 0019, issue 10 defect 8): groups help to find users when granting
 * a right on a folder, so only a user who may grant rights (animation right on at least one folder) or an
 * administrator may list them.
 */
export async function canListGroupMembers(db: Db, user: Utilisateur): Promise<boolean> {
  if (user.admin) return true;
  return (await db("utilisateur_dossier").where({ idUser: user.id }).where("udoAnimation", true).first("id")) !== undefined;
}
