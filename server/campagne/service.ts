import { buildDisplayName } from "~/domain/access/rights";
import { isSimulationYear, type NewCampagneInput } from "~/domain/partage";
import { campaignContext, ensureWrite } from "../access/description";
import { abilitiesFor, canWriteFarm } from "../access/abilities";
import { listFoldersOfFarm } from "../contexte/repo";
import {
  deleteCampagneRow,
  farmExists,
  findCampagneFlagsOfFarm,
  insertCampagne,
  listCampagnesOfFarm,
  setCampagneSimulation,
  updateCampagneLabel,
  type CampagneListee,
  type FiltresCampagnes,
} from "./repo";
import { recordAudit } from "../audit/repo";
import { findCampagneDates, findContexte, listCampagnesOfExploitations, saveContexte } from "../contexte/repo";
import { ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import "./campaign-tables";
import { copyCampaignContent } from "./duplication";
import type { Scope } from "../access/scope";

const who = (u: Utilisateur) => buildDisplayName(u.nom, u.prenom);

/**
 * Creates a campaign (POST campagnes, spec 1 §3 and §5): the simulation flag is computed (a campaign of that
 * year exists), the history reference follows the source when it is of the previous year, and with a source
 * everything campaign-scoped is copied in the same transaction.
 */
export async function createCampagne(scope: Scope, ctx: { idDossier: number; idExploitation: number }, input: NewCampagneInput): Promise<number> {
  const { db, user } = scope;
  await ensureWrite(scope, { dossier: ctx.idDossier, exploitation: ctx.idExploitation });
  return db.transaction(async (trx) => {
    const existing = await listCampagnesOfExploitations(trx, [ctx.idExploitation]);
    const simulation = isSimulationYear(
      existing.map((c) => c.anneeRecolte),
      input.anneeRecolte,
    );
    const source = input.campagneSource ? existing.find((c) => c.id === input.campagneSource) : undefined;
    if (input.campagneSource && !source) throw new ServiceError("errors.services.campagnes-service-error", 400);
    let histo: number | null = null;
    if (source && source.anneeRecolte === input.anneeRecolte - 1) histo = source.id;
    else if (input.campagneHistoParcelle) {
      const ref = existing.find((c) => c.id === input.campagneHistoParcelle);
      if (!ref || ref.anneeRecolte !== input.anneeRecolte - 1 || ref.simulation !== simulation)
        throw new ServiceError("campagne.invalid-history-reference", 400, { campagneHistoParcelle: ["warning.invalid"] });
      histo = ref.id;
    }
    // The duplication options mean something only with a source (A-CAMP-11); the sub-options follow their option.
    const options = source
      ? {
          inter: input.inter,
          majDtInter: input.inter && input.majDtInter,
          obs: input.obs,
          eltObserve: input.obs && input.eltObserve,
          valeur: input.obs && input.valeur,
          prix: input.prix,
        }
      : { inter: false, majDtInter: false, obs: false, eltObserve: false, valeur: false, prix: false };
    const id = await insertCampagne(trx, {
      idExploitation: ctx.idExploitation,
      anneeRecolte: input.anneeRecolte,
      prefixeCampagne: String(input.anneeRecolte),
      apiLibelle: input.apiLibelle ?? "",
      simulation,
      idCampagneSource: source?.id ?? null,
      idCampagneHistoParcelle: histo,
      ...options,
    });
    let copied: Record<string, number> = {};
    if (source) {
      copied = await copyCampaignContent({
        trx,
        sourceCampagne: source.id,
        targetCampagne: id,
        targetExploitation: ctx.idExploitation,
        yearShift: input.anneeRecolte - source.anneeRecolte,
        options,
        ids: new Map(),
      });
    }
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "campagne.create",
      entite: "campagne",
      idEntite: id,
      idDossier: ctx.idDossier,
      idExploitation: ctx.idExploitation,
      details: { anneeRecolte: input.anneeRecolte, simulation, source: source?.id ?? null, copied },
    });
    return id;
  });
}

/**
 * Deleting the base campaign of a year is refused while simulations of that year exist (A-CAMP-17, C-SCEN-03).
 * Deleting is a write on the campaign: the write gate refuses a locked campaign (validated series, or published
 * indicators not unlocked by the user), like every other write (issue 10, defect 2).
 */
export async function deleteCampagne(scope: Scope, ctx: { idDossier: number; idExploitation: number }, idCampagne: number): Promise<void> {
  const { db, user } = scope;
  await ensureWrite(scope, { dossier: ctx.idDossier, exploitation: ctx.idExploitation });
  if (!(await listCampagnesOfExploitations(db, [ctx.idExploitation])).some((x) => x.id === idCampagne)) {
    throw new ServiceError("errors.services.campagnes-service-error", 404);
  }
  await ensureWrite(scope, { dossier: ctx.idDossier, campagne: idCampagne });
  await db.transaction(async (trx) => {
    const all = await listCampagnesOfExploitations(trx, [ctx.idExploitation]);
    const c = all.find((x) => x.id === idCampagne);
    if (!c) throw new ServiceError("errors.services.campagnes-service-error", 404);
    if (!c.simulation && all.some((x) => x.anneeRecolte === c.anneeRecolte && x.simulation)) {
      throw new ServiceError("campagne.base-not-deletable", 409, undefined, { annee: c.anneeRecolte });
    }
    await deleteCampagneRow(trx, idCampagne);
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "campagne.delete",
      entite: "campagne",
      idEntite: idCampagne,
      idDossier: ctx.idDossier,
      idExploitation: ctx.idExploitation,
      details: { anneeRecolte: c.anneeRecolte, simulation: c.simulation },
    });
  });
}

/** Unlocks the selected campaign for this user (spec 1 §4): only with farm write, only when unlockable. */
export async function unlockCampagne(scope: Scope, ctx: { idDossier: number; idExploitation: number }, idCampagne: number): Promise<void> {
  const { db, user } = scope;
  await ensureWrite(scope, { dossier: ctx.idDossier, exploitation: ctx.idExploitation });
  const c = await findCampagneFlagsOfFarm(db, ctx.idExploitation, idCampagne);
  if (!c) throw new ServiceError("errors.services.campagnes-service-error", 404);
  if (c.serieValide) throw new ServiceError("campagne.not-unlockable", 409);
  const stored = await findContexte(db, user.id);
  await saveContexte(db, { ...stored, idCampagneDeverrouillee: idCampagne });
  await recordAudit(db, {
    idUser: user.id,
    userLabel: who(user),
    action: "campagne.unlock",
    entite: "campagne",
    idEntite: idCampagne,
    idDossier: ctx.idDossier,
    idExploitation: ctx.idExploitation,
  });
}

/** Chooses the base campaign of a harvest year; the others become simulations (C-SCEN-01, 02). */
export async function setScenarios(
  scope: Scope,
  ctx: { idDossier: number; idExploitation: number },
  campagnes: { id: number; simulation: boolean }[],
): Promise<void> {
  const { db, user } = scope;
  await ensureWrite(scope, { dossier: ctx.idDossier, exploitation: ctx.idExploitation });
  if (campagnes.filter((c) => !c.simulation).length !== 1) throw new ServiceError("campagne.scenario-one-base", 400);
  // A campaign whose flag changes is written: a locked one refuses the whole choice.
  const before = await listCampagnesOfExploitations(db, [ctx.idExploitation]);
  for (const c of campagnes) {
    const current = before.find((x) => x.id === c.id);
    if (current && current.simulation !== c.simulation) await ensureWrite(scope, { dossier: ctx.idDossier, campagne: c.id });
  }
  await db.transaction(async (trx) => {
    const all = await listCampagnesOfExploitations(trx, [ctx.idExploitation]);
    const years = new Set(campagnes.map((c) => all.find((x) => x.id === c.id)?.anneeRecolte));
    if (years.size !== 1 || years.has(undefined)) throw new ServiceError("errors.services.campagnes-service-error", 400);
    const year = [...years][0]!;
    if (all.filter((x) => x.anneeRecolte === year).length !== campagnes.length) throw new ServiceError("campagne.scenario-one-base", 400);
    for (const c of campagnes) await setCampagneSimulation(trx, c.id, c.simulation);
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: who(user),
      action: "campagne.scenario",
      entite: "campagne",
      idDossier: ctx.idDossier,
      idExploitation: ctx.idExploitation,
      details: { anneeRecolte: year, base: campagnes.find((c) => !c.simulation)!.id },
    });
  });
}

/** A campaign as the API reads it (GET campagnes/{id}, B-API-06): the scope's campaign, its lock and its dates. */
export async function getCampagne(scope: Scope) {
  const ctx = await campaignContext(scope);
  const row = await findCampagneDates(scope.db, ctx.idCampagne);
  return { ...ctx.view.campagne!, ...row, locked: ctx.view.lock?.locked ?? false };
}

/**
 * The folder through which the user reaches a farm (the API names a farm, not a folder): with `ecriture`, the first
 * folder through which he may write the farm, else the first through which he reads it. A farm he reaches through no
 * folder is refused (403), a farm that does not exist is a 404.
 */
async function dossierDeFerme(scope: Scope, idExploitation: number, ecriture: boolean): Promise<number> {
  const { db, user } = scope;
  if (!(await farmExists(db, idExploitation))) throw new ServiceError("errors.not-found", 404);
  let lisible: number | null = null;
  for (const { idDossier } of await listFoldersOfFarm(db, idExploitation)) {
    const a = await abilitiesFor(db, user, { idDossier, idExploitation });
    if (!a.canReadFarm) continue;
    if (!ecriture || canWriteFarm(a)) return idDossier;
    lisible ??= idDossier;
  }
  if (lisible == null) throw new ServiceError("errors.forbidden", 403);
  return lisible;
}

/** The campaigns of a farm the user reads (GET campagnes?exploitation=, GET exploitations/{id}/campagnes; A-API-24, 25). */
export async function campagnesDeFerme(scope: Scope, idExploitation: number, filtres: FiltresCampagnes = {}): Promise<CampagneListee[]> {
  await dossierDeFerme(scope, idExploitation, false);
  return listCampagnesOfFarm(scope.db, idExploitation, filtres);
}

/** POST campagnes (A-API-25): the campaign screen's creation on the farm named, through a folder the user writes it by. */
export async function creerCampagneDeFerme(scope: Scope, idExploitation: number, input: NewCampagneInput): Promise<CampagneListee> {
  const idDossier = await dossierDeFerme(scope, idExploitation, true);
  const id = await createCampagne(scope, { idDossier, idExploitation }, input);
  const [c] = await listCampagnesOfFarm(scope.db, idExploitation, { ids: [id] });
  return c;
}

/**
 * PATCH campagnes/{id} (A-API-25): the campaign's label (apiLibelle; its year and flags are not edited). A write on
 * the campaign and its farm: farm writing, the campaign not locked, the updatedAt it was read with (409 otherwise).
 */
export async function renommerCampagne(scope: Scope, input: { apiLibelle: string; updatedAt: string }): Promise<CampagneListee> {
  const ctx = await campaignContext(scope);
  const idDossier = ctx.view.selected.idDossier;
  if (idDossier == null) throw new ServiceError("errors.forbidden", 403);
  await ensureWrite(scope, { dossier: idDossier, exploitation: ctx.idExploitation });
  await ensureWrite(scope, { dossier: idDossier, campagne: ctx.idCampagne });
  await updateCampagneLabel(scope.db, { id: ctx.idCampagne, updatedAt: input.updatedAt }, input.apiLibelle);
  await recordAudit(scope.db, {
    idUser: scope.user.id,
    userLabel: who(scope.user),
    action: "campagne.update",
    entite: "campagne",
    idEntite: ctx.idCampagne,
    idDossier,
    idExploitation: ctx.idExploitation,
    details: { apiLibelle: input.apiLibelle },
  });
  const [c] = await listCampagnesOfFarm(scope.db, ctx.idExploitation, { ids: [ctx.idCampagne] });
  return c;
}

/** DELETE campagnes/{id} (A-API-25): the scope's campaign, deleted as the campaign screen does (deleteCampagne). */
export async function supprimerCampagne(scope: Scope): Promise<void> {
  const ctx = await campaignContext(scope);
  if (ctx.view.selected.idDossier == null) throw new ServiceError("errors.forbidden", 403);
  await deleteCampagne(scope, { idDossier: ctx.view.selected.idDossier, idExploitation: ctx.idExploitation }, ctx.idCampagne);
}
