import { buildDisplayName, compareFolderUsers, lastAnimatorViolation, cascadeFolderUser, FOLDER_RIGHT_LEVELS } from "~/domain/access/rights";

const FOLDER_RIGHT_FIELDS = FOLDER_RIGHT_LEVELS;
import type { DossierInput, FolderRightsInput } from "~/domain/partage";
import { abilitiesFor, ensure } from "../access/abilities";
import { ensureWrite } from "../access/description";
import { listAudit, recordAudit } from "../audit/repo";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import {
  deleteDossierRow,
  deleteFolderUser,
  farmsOnlyInDossier,
  findActiveUser,
  findDossier,
  foldersReadableBy,
  insertDossier,
  insertFolderUser,
  listFolderUsers,
  listGroupes,
  listOads,
  listOadsLong,
  listVisibleUsersOfGroupe,
  updateDossierRow,
  updateFolderUser,
} from "./repo";
import type { Scope } from "../access/scope";

const who = (u: Utilisateur) => buildDisplayName(u.nom, u.prenom);

/** Failures of the folder's user rights (spec 1 §8; the mapping is decision 0066). */
export const DROITS_ERRORS = {
  groupes: "errors.services.reference_groupes_utilisateurs-service-error",
  creation: "errors.services.utilisateurs-create-service-error",
  modification: "errors.services.utilisateur-update-service-error",
  retraitDroits: "errors.services.utilisateur-delete-service-error",
  retraitDossier: "errors.services.utilisateurs_dossiers-delete-service-error",
} as const;

/** Folder settings (spec 1 §2): shown only with the animation right on the folder. */
export async function getDossierSettings(db: Db, user: Utilisateur, idDossier: number) {
  const dossier = await findDossier(db, idDossier);
  if (!dossier) throw new ServiceError("errors.services.dossier-service-error", 404);
  const a = await abilitiesFor(db, user, { idDossier });
  ensure(a.isDoAnimation);
  const users = (await listFolderUsers(db, idDossier)).map((u) => ({ ...u, displayName: buildDisplayName(u.nom, u.prenom) })).sort(compareFolderUsers);
  // A failed group list leaves the screen usable without groups and says so in the error dialog (A-ERR-08); read in
  // its own (sub)transaction so that its failure does not abort a caller's PostgreSQL transaction.
  let groupesError: string | null = null;
  const groupes = a.hasAcceptedCGUVisibility
    ? await failingWith(DROITS_ERRORS.groupes, () => db.transaction((trx) => listGroupes(trx))).catch((e: unknown) => {
        groupesError = e instanceof ServiceError ? e.key : DROITS_ERRORS.groupes;
        return [];
      })
    : [];
  return {
    dossier,
    // Without accepted visibility the list is not shown (A-FOLDER-09..11): it is not even sent.
    users: a.hasAcceptedCGUVisibility ? users : null,
    groupes,
    groupesError,
    oads: await listOads(db),
    audit: await listAudit(db, { idDossier }),
  };
}

/** Saves the folder's settings from a form loaded with the folder's `updatedAt` (a stale save is refused). */
export async function updateDossier(scope: Scope, idDossier: number, input: DossierInput & { updatedAt: string }) {
  const { db, user } = scope;
  await ensureWrite(scope, { dossier: idDossier, animation: true });
  await db.transaction(async (trx) => {
    await updateDossierRow(trx, { id: idDossier, updatedAt: input.updatedAt }, input);
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "dossier.update",
      entite: "dossier",
      idEntite: idDossier,
      idDossier,
      details: { libelle: input.libelle },
    });
  });
}

/** A folder as the API reads it (GET dossiers/{id}): any right on the folder (synthesis or higher). */
export async function getDossier(db: Db, user: Utilisateur, idDossier: number) {
  const dossier = await findDossier(db, idDossier);
  if (!dossier) throw new ServiceError("errors.services.dossier-service-error", 404);
  ensure((await abilitiesFor(db, user, { idDossier })).canReadFolder);
  // The folder's libelle is sent as apiLibelle too, beside its optional suffixe (spec 1 §3, A-ENT-01).
  return { ...dossier, apiLibelle: dossier.libelle };
}

/**
 * The folder's user rights as the API reads them (GET utilisateurs_dossiers?idDossier=…, A-API-20): what the folder
 * settings list, so the same condition (folder animation, visibility accepted).
 */
export async function folderUserRights(db: Db, user: Utilisateur, idDossier: number) {
  const { users } = await getDossierSettings(db, user, idDossier);
  if (!users) throw new ServiceError("dossier.visibility-required", 403);
  return users.map((u) => ({ ...u, idDossier }));
}

/** The folders of a network the user may read, or write with `ecriture` (GET v2 dossiers). */
export async function dossiersOfOad(db: Db, user: Utilisateur, idOad: number, ecriture: boolean) {
  return (await foldersReadableBy(db, user.id, ecriture ? "Ecriture" : "Lecture"))
    .filter((d) => Number(d.idOad) === idOad)
    .map((d) => ({ ...d, apiLibelle: d.libelle }));
}

/** The networks (GET oads); every signed-in user sees them in the context bar. */
export function getOads(db: Db) {
  return listOadsLong(db);
}

export async function getOad(db: Db, id: number) {
  const [oad] = await listOadsLong(db, id);
  if (!oad) throw new ServiceError("errors.not-found", 404);
  return oad;
}

/** The folders on which the user holds at least reading (linking a farm) or writing (duplicating a farm into). */
export async function foldersOfUser(db: Db, user: Utilisateur, level: "Lecture" | "Ecriture" = "Lecture") {
  return foldersReadableBy(db, user.id, level);
}

/** The visible users of a group, to share a folder with (GET utilisateurs?idGroupe=…). */
export async function visibleUsersOfGroupe(db: Db, idGroupe: number) {
  return listVisibleUsersOfGroupe(db, idGroupe);
}

/** Any signed-in user may open a folder; its creator animates it. */
export async function createDossier(db: Db, user: Utilisateur, input: DossierInput): Promise<number> {
  return db.transaction(async (trx) => {
    const id = await insertDossier(trx, input);
    await insertFolderUser(trx, {
      idUser: user.id,
      idDossier: id,
      udoAnimation: true,
      udoEcriture: true,
      udoLecture: true,
      udoSynthese: true,
      udoProprietaire: true,
      ordre: 1,
    });
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "dossier.create",
      entite: "dossier",
      idEntite: id,
      idDossier: id,
      details: { libelle: input.libelle },
    });
    return id;
  });
}

/** Deleting a folder would leave farms with no folder: refused, naming them (a farm keeps at least one folder). */
export async function deleteDossier(scope: Scope, idDossier: number): Promise<void> {
  const { db, user } = scope;
  await ensureWrite(scope, { dossier: idDossier, animation: true });
  await db.transaction(async (trx) => {
    const orphans = await farmsOnlyInDossier(trx, idDossier);
    if (orphans.length) throw new ServiceError("dossier.delete-orphan-farms", 409, undefined, { farms: orphans.map((f) => f.libelle).join(", ") });
    const dossier = await findDossier(trx, idDossier);
    await deleteDossierRow(trx, idDossier);
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "dossier.delete",
      entite: "dossier",
      idEntite: idDossier,
      idDossier,
      details: { libelle: dossier?.libelle },
    });
  });
}

/**
 * Saves the folder's user rights together (A-FOLDER-16): new users added, rights changed with the cascade,
 * users removed; refused as a whole when no animator would remain (A-CASC-15) or a user is not visible.
 */
export async function saveFolderRights(scope: Scope, idDossier: number, input: FolderRightsInput): Promise<void> {
  const { db, user } = scope;
  const a = await ensureWrite(scope, { dossier: idDossier, animation: true });
  if (!a.hasAcceptedCGUVisibility) throw new ServiceError("dossier.visibility-required", 403);
  await db.transaction(async (trx) => {
    const before = await listFolderUsers(trx, idDossier);
    const byUser = new Map(before.map((r) => [r.idUser, r]));
    const after = new Map(
      before.map((r) => [
        r.idUser,
        { idUser: r.idUser, udoAnimation: r.udoAnimation, udoEcriture: r.udoEcriture, udoLecture: r.udoLecture, udoSynthese: r.udoSynthese },
      ]),
    );
    const added: number[] = [];
    for (const row of input.rows) {
      if (row.removed) {
        after.delete(row.idUser);
        continue;
      }
      let rights = { udoAnimation: row.udoAnimation, udoEcriture: row.udoEcriture, udoLecture: row.udoLecture, udoSynthese: row.udoSynthese };
      // Normalise with the cascade: a higher right implies the lower ones.
      if (rights.udoAnimation) rights = cascadeFolderUser(rights, "udoAnimation", true);
      else if (rights.udoEcriture) rights = cascadeFolderUser(rights, "udoEcriture", true);
      else if (rights.udoLecture) rights = cascadeFolderUser(rights, "udoLecture", true);
      if (!byUser.has(row.idUser)) {
        const target = await findActiveUser(trx, row.idUser);
        if (!target) throw new ServiceError("errors.services.utilisateurs-create-service-error", 404);
        if (!target.isVisible) throw new ServiceError("dossier.user-not-visible", 400);
        added.push(row.idUser);
      }
      after.set(row.idUser, { idUser: row.idUser, ...rights });
    }
    const violation = lastAnimatorViolation([...byUser.values()], [...after.values()]);
    if (violation) throw new ServiceError(violation, 409);
    for (const r of before) if (!after.has(r.idUser)) await failingWith(DROITS_ERRORS.retraitDossier, () => deleteFolderUser(trx, r.id));
    for (const r of after.values()) {
      const existing = byUser.get(r.idUser);
      const values = { udoAnimation: r.udoAnimation, udoEcriture: r.udoEcriture, udoLecture: r.udoLecture, udoSynthese: r.udoSynthese };
      // A user left with no right at all has no business in the folder: the right row goes (decision 0066).
      const aucun = !values.udoAnimation && !values.udoEcriture && !values.udoLecture && !values.udoSynthese;
      if (!existing) {
        if (!aucun)
          await failingWith(DROITS_ERRORS.creation, () => insertFolderUser(trx, { idUser: r.idUser, idDossier, ...values, ordre: before.length + 1 }));
      } else if (aucun) await failingWith(DROITS_ERRORS.retraitDroits, () => deleteFolderUser(trx, existing.id));
      else if (FOLDER_RIGHT_FIELDS.some((f) => existing[f] !== values[f]))
        await failingWith(DROITS_ERRORS.modification, () => updateFolderUser(trx, existing.id, values));
    }
    const changes = input.rows.map((r) => ({ idUser: r.idUser, removed: !!r.removed, added: added.includes(r.idUser), ...after.get(r.idUser) }));
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "dossier.droits",
      entite: "dossier",
      idEntite: idDossier,
      idDossier,
      details: { changes },
    });
  });
}
