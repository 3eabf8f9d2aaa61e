import { campaignLock } from "~/domain/access/lock";
import { hasFarmPermission } from "~/domain/access/rights";
import { TYPE_PROPRIETE, financingRate, machineCosts, showsPowerField } from "~/domain/calc/materiel";
import { materielForCalc, type DuplicationParcMaterielInput, type ParcMaterielInput } from "~/domain/parc-materiel";
import { abilitiesFor } from "../access/abilities";
import { campaignContext, writableCampaign } from "../access/description";
import { findCampagneCible } from "../campagne/repo";
import { findContexte, listCampagnesOfExploitations, listExploitationsOfDossier } from "../contexte/repo";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { foldersReadableBy } from "../dossier/repo";
import { ServiceError } from "../errors";
import {
  deleteParcMateriels,
  findCategorie,
  findLongTermeTaux,
  findParcMateriel,
  findReference,
  insertParcMateriel,
  listCategories,
  listClasses,
  listParcMateriels,
  listParcMaterielsByIds,
  listReferencesOfCategories,
  updateParcMateriel,
  type CategorieMateriel,
  type ParcMaterielRow,
  type ParcMaterielValues,
  type ReferenceMateriel,
} from "./repo";
import type { Scope } from "../access/scope";

/** The error keys of this screen (spec 2 §8 gives none for machines; they follow the labour ones). */
export const ERRORS = {
  update: "parcMateriel.errors.update-service-error",
  delete: "parcMateriel.errors.delete-service-error",
  duplicate: "parcMateriel.errors.duplicate-service-error",
  locked: "parcMateriel.errors.campagne-verrouillee",
} as const;

/** The campaign's financing rate for the machine calculation: its long-term loan rate, else the default (D-MAT-5). */
async function campaignFinancingRate(db: Db, idCampagne: number): Promise<number> {
  return financingRate({ longTermeTaux: await findLongTermeTaux(db, idCampagne) });
}

/** A machine with its calculated figures (spec 2 §3 "Also calculated"; B-MACH-03). */
export function withCalcul(row: ParcMaterielRow, reference: ReferenceMateriel | undefined, tauxFinancement: number) {
  return { ...row, calcul: machineCosts(materielForCalc(row, reference), tauxFinancement) };
}

/** A machine reference read by id (GET reference_materiels/{id}; B-MACH-16): unknown ids answer 404. */
export const REFERENCE_NOT_FOUND = "parcMateriel.errors.reference-service-error";
export async function getReferenceMateriel(scope: Scope, id: number): Promise<ReferenceMateriel> {
  const { db } = scope;
  // Reference data: any signed-in user reads it, with or without a selected campaign (decisions 0120, 0128).
  const reference = Number.isInteger(id) && id > 0 ? await findReference(db, id) : undefined;
  if (!reference) throw new ServiceError(REFERENCE_NOT_FOUND, 404);
  return reference;
}

/** A machine class's categories (GET classe_materiels/{id}/categorie_materiels; B-MACH-09): an unknown class answers 404. */
export async function getCategoriesOfClasse(scope: Scope, idClasse: number): Promise<CategorieMateriel[]> {
  const { db } = scope;
  if (!(await listClasses(db)).some((c) => c.id === idClasse)) throw new ServiceError("errors.not-found", 404);
  return (await listCategories(db)).filter((c) => c.idClasseMateriel === idClasse);
}

/**
 * A category's references (GET categorie_materiels/{id}/reference_materiels; B-MACH-10), by label. `archive` keeps
 * those whose archive flag is the one asked; `numeroClasse` is the class the form chose: a category of another class
 * has none for it. An unknown category answers 404.
 */
export async function getReferencesOfCategorie(
  scope: Scope,
  idCategorie: number,
  filtre: { archive?: boolean; numeroClasse?: number } = {},
): Promise<ReferenceMateriel[]> {
  const { db } = scope;
  const categorie = await findCategorie(db, idCategorie);
  if (!categorie) throw new ServiceError("errors.not-found", 404);
  if (filtre.numeroClasse !== undefined && filtre.numeroClasse !== categorie.idClasseMateriel) return [];
  return (await listReferencesOfCategories(db, [idCategorie])).filter((r) => filtre.archive === undefined || r.archive === filtre.archive);
}

/** The campaign of a machine, null when there is none (the API names the machine, not the campaign). */
export async function parcMaterielCampaign(db: Db, id: number): Promise<number | null> {
  return (await findParcMateriel(db, id))?.idCampagne ?? null;
}

/** One machine of the scope's campaign with its figures, as the list shows it (GET parc_materiels/{id}). */
export async function getParcMateriel(scope: Scope, id: number) {
  const row = (await getParcMateriels(scope)).rows.find((r) => r.id === id);
  if (!row) throw new ServiceError("errors.not-found", 404);
  return row;
}

/**
 * The machinery fleet screen: the campaign's machines (newest first) with their figures, the classes and
 * categories, the characteristics of the categories in use and of `idCategorie` (the class → category →
 * characteristic cascade, B-MACH-09, B-MACH-10), and what the user may do.
 */
export async function getParcMateriels(scope: Scope, options: { idCategorie?: number | null } = {}) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const rows = await listParcMateriels(db, ctx.idCampagne);
  const tauxFinancement = await campaignFinancingRate(db, ctx.idCampagne);
  const wanted = rows.map((r) => r.idCategorieMateriel);
  if (options.idCategorie) wanted.push(options.idCategorie);
  const references = await listReferencesOfCategories(db, wanted);
  const byId = new Map(references.map((r) => [r.id, r]));
  return {
    rows: rows.map((r) => withCalcul(r, byId.get(r.idBasemeq), tauxFinancement)),
    canWrite: ctx.abilities.canWriteDescriptif,
    isDoAnimation: ctx.abilities.isDoAnimation,
    idDossier: ctx.view.selected.idDossier,
    idExploitation: ctx.idExploitation,
    idCampagne: ctx.idCampagne,
    tauxFinancement,
    classes: await listClasses(db),
    categories: await listCategories(db),
    references,
  };
}

/**
 * The stored values of a valid form: the category must belong to the class and the characteristic to
 * the category (an archived characteristic only if the machine already had it); noCategorie and
 * idenBasemeq come from them; no power outside the power categories; no co-ownership unless own (D-PM-3).
 */
async function resolveValues(db: Db, input: ParcMaterielInput, current?: ParcMaterielRow): Promise<ParcMaterielValues> {
  const categorie = await findCategorie(db, input.idCategorieMateriel);
  if (!categorie || categorie.idClasseMateriel !== input.noClasse) {
    throw new ServiceError("warning.invalid-form", 400, { idCategorieMateriel: ["warning.invalid"] });
  }
  const reference = await findReference(db, input.idBasemeq);
  if (!reference || reference.idCategorieMateriel !== categorie.id || (reference.archive && current?.idBasemeq !== reference.id)) {
    throw new ServiceError("warning.invalid-form", 400, { idBasemeq: ["warning.invalid"] });
  }
  const own = input.typePropriete === TYPE_PROPRIETE.PROPRE;
  return {
    libelle: input.libelle,
    noClasse: input.noClasse,
    noCategorie: categorie.ordre,
    idCategorieMateriel: categorie.id,
    idBasemeq: reference.id,
    idenBasemeq: reference.identifiant,
    typePropriete: input.typePropriete as ParcMaterielValues["typePropriete"],
    copropriete: own ? (input.copropriete ?? null) : null,
    poids: input.poids ?? null,
    puissance: showsPowerField(categorie.id) ? (input.puissance ?? null) : null,
    debit: input.debit ?? null,
    neufOccasion: input.neufOccasion ?? null,
    ageAchat: input.ageAchat ?? null,
    typePompe: input.typePompe ?? null,
    coutEntretienReparation: input.coutEntretienReparation ?? null,
    coutLocation: input.coutLocation ?? null,
    prixAchat: input.prixAchat ?? null,
    prixNeuf: input.prixNeuf ?? null,
    utilisationAnnuelle: input.utilisationAnnuelle ?? null,
    // Calculated from the interventions, never typed: kept as they are.
    utilisationAnnuelleCalculeeP: current?.utilisationAnnuelleCalculeeP ?? null,
    utilisationAnnuelleCalculeeR: current?.utilisationAnnuelleCalculeeR ?? null,
    usure: input.usure ?? null,
    obsolescence: input.obsolescence ?? null,
    dureeAmortissement: input.dureeAmortissement ?? null,
    tauxRevente: input.tauxRevente ?? null,
    remarque: input.remarque ?? null,
  };
}

/** Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) a machine. Needs canWriteDescriptif. */
export async function saveParcMateriel(scope: Scope, input: ParcMaterielInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return db.transaction(async (trx) => {
    if (!existing) return insertParcMateriel(trx, ctx.idCampagne, await resolveValues(trx, input));
    const current = await findParcMateriel(trx, existing.id);
    if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.update, 404);
    await updateParcMateriel(trx, existing, await resolveValues(trx, input, current));
    return existing.id;
  });
}

/** Deletes ticked machines of the selected campaign; an unknown id refuses the whole deletion. */
export async function removeParcMateriels(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await db.transaction(async (trx) => {
    const n = await deleteParcMateriels(trx, ctx.idCampagne, ids);
    if (n !== ids.length) throw new ServiceError(ERRORS.delete, 404);
  });
}

// ---- Duplication to other campaigns (spec 2 §2 Machinery fleet, §5 Duplication, §6)

export type DuplicationOptions = {
  /** Folders the user writes in (of the selected network); only the current one without folder animation. */
  dossiers: { id: number; libelle: string }[];
  /** The folder can be changed only with isDoAnimation (B-RIGHTS-10, B-RIGHTS-11). */
  dossierModifiable: boolean;
  /** Farms of the chosen folder whose link gives write access (dexEcriture; B-RIGHTS-12). */
  exploitations: { id: number; libelle: string }[];
  /** Campaigns of the chosen farm other than the current one; a locked one cannot be chosen. */
  campagnes: { id: number; libelle: string; anneeRecolte: number; locked: boolean }[];
};

/** What the duplication dialog offers for a chosen folder and farm. */
export async function getDuplicationOptions(scope: Scope, chosen: { idDossier?: number | null; idExploitation?: number | null }): Promise<DuplicationOptions> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  const dossierModifiable = ctx.abilities.isDoAnimation;
  const current = ctx.view.selected.idDossier;
  const dossiers = (await foldersReadableBy(db, user.id, "Ecriture"))
    .filter((d) => d.idOad === ctx.view.selected.idOad && (dossierModifiable || d.id === current))
    .map(({ id, libelle }) => ({ id, libelle }));
  const idDossier = chosen.idDossier ?? current;
  const exploitations = dossiers.some((d) => d.id === idDossier)
    ? (await listExploitationsOfDossier(db, idDossier!)).filter((e) => hasFarmPermission(e.right, "Ecriture")).map(({ id, libelle }) => ({ id, libelle }))
    : [];
  let campagnes: DuplicationOptions["campagnes"] = [];
  if (chosen.idExploitation && exploitations.some((e) => e.id === chosen.idExploitation)) {
    const { idCampagneDeverrouillee } = await findContexte(db, user.id);
    campagnes = (await listCampagnesOfExploitations(db, [chosen.idExploitation]))
      .filter((c) => c.id !== ctx.idCampagne)
      .map((c) => ({ id: c.id, libelle: c.libelle, anneeRecolte: c.anneeRecolte, locked: campaignLock(c, idCampagneDeverrouillee === c.id).locked }));
  }
  return { dossiers, dossierModifiable, exploitations, campagnes };
}

/**
 * Copies the ticked machines of the selected campaign into each chosen campaign, in one transaction
 * (B-MACH-29, B-MACH-30). Refused: another folder without folder animation (B-RIGHTS-11), a folder or
 * farm the user does not write (B-RIGHTS-12), a campaign of another farm or the current one, a locked
 * campaign. The copies keep every field except the annual use calculated from the source's interventions.
 */
export async function duplicateParcMateriels(scope: Scope, input: DuplicationParcMaterielInput): Promise<{ copies: number }> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  if (input.idDossier !== ctx.view.selected.idDossier && !ctx.abilities.isDoAnimation) throw new ServiceError("errors.forbidden", 403);
  const ids = [...new Set(input.ids)];
  const campagneIds = [...new Set(input.campagnes)];
  for (const idCampagne of campagneIds) {
    const campagne = await findCampagneCible(db, idCampagne);
    if (!campagne || campagne.idExploitation !== input.idExploitation || campagne.id === ctx.idCampagne) {
      throw new ServiceError(ERRORS.duplicate, 400, { campagnes: ["warning.invalid"] });
    }
    const a = await abilitiesFor(db, user, { idDossier: input.idDossier, idExploitation: input.idExploitation, idCampagne });
    if (!a.canDuplicateToFarm) throw new ServiceError("errors.forbidden", 403);
    if (!a.canWriteDescriptif) throw new ServiceError(ERRORS.locked, 403, undefined, { annee: Number(campagne.anneeRecolte) });
  }
  return db.transaction(async (trx) => {
    const sources = await listParcMaterielsByIds(trx, ctx.idCampagne, ids);
    if (sources.length !== ids.length) throw new ServiceError(ERRORS.duplicate, 404);
    let copies = 0;
    for (const idCampagne of campagneIds) {
      for (const { id: _id, idCampagne: _c, updatedAt: _u, ...values } of sources) {
        await insertParcMateriel(trx, idCampagne, { ...values, utilisationAnnuelleCalculeeP: null, utilisationAnnuelleCalculeeR: null });
        copies += 1;
      }
    }
    return { copies };
  });
}
