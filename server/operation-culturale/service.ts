import { listIndicateurs } from "../protocole/repo";
import { getMainOeuvres } from "../main-oeuvre/service";
import { getInterventions } from "../intervention/service";
import { financingRate, isTractor, type Materiel } from "~/domain/calc/materiel";
import {
  calculatedWorkRate,
  effectiveWorkRate,
  fuelUseReference,
  operationCosts,
  roundFuel,
  roundOperationCosts,
  roundOrNull,
  type CoutsOperation,
  type EntreeConsoCarburant,
} from "~/domain/calc/operation";
import { appliesToType, requiredActualErrors, type OperationCulturaleInput } from "~/domain/operation-culturale";
import { materielForCalc } from "~/domain/parc-materiel";
import { machineCosts } from "~/domain/calc/materiel";
import { campaignContext, writableCampaign } from "../access/description";
import type { Db } from "../db/knex";
import type { Token } from "../db/stale";
import { ServiceError } from "../errors";
import { listParcMateriels, listReferencesOfCategories, type ParcMaterielRow } from "../parc-materiel/repo";
import { getParcMateriels } from "../parc-materiel/service";
import {
  deleteOperationsCulturales,
  findOperationCulturale,
  fuelPrice,
  insertOperationCulturale,
  listCoefficientsConsoCarburant,
  listOperationsCulturales,
  listProfondeursTravail,
  listTypesAction,
  listWorkforce,
  longTermRate,
  propagateWorkRate,
  replaceLinks,
  updateOperationCulturale,
  type OperationCulturaleRow,
  type OperationCulturaleValues,
  type TypeActionRef,
} from "./repo";
import type { Scope } from "../access/scope";

/** The error keys of this screen (spec 2 §8 gives none for operations; they follow the labour ones). */
export const ERRORS = {
  update: "operation.errors.update-service-error",
  delete: "operation.errors.delete-service-error",
} as const;

/** Decimals of the stored work rates (decimal(10,3)) and fuel uses (decimal(10,2)). */
const DECIMALES_DEBIT_STOCKE = 3;

type Machine = ParcMaterielRow & { calcul: ReturnType<typeof machineCosts>; forCalc: Materiel };

/** The campaign's machines, each with the fields the calculations read (its reference's lives filling its own) and its figures. */
export async function campaignMachines(db: Db, idCampagne: number, tauxFinancement: number): Promise<Machine[]> {
  const rows = await listParcMateriels(db, idCampagne);
  const references = new Map(
    (
      await listReferencesOfCategories(
        db,
        rows.map((r) => r.idCategorieMateriel),
      )
    ).map((r) => [r.id, r]),
  );
  return rows.map((r) => {
    const forCalc: Materiel = { ...materielForCalc(r, references.get(r.idBasemeq)), id: r.id, libelle: r.libelle };
    return { ...r, forCalc, calcul: machineCosts(forCalc, tauxFinancement) };
  });
}

/** The calculated costs of an operation (B-OPS-07), rounded for display. */
export function costsOf(
  op: OperationCulturaleRow,
  type: TypeActionRef | undefined,
  machines: Map<number, Machine>,
  prixFioul: number | null,
  tauxFinancement: number,
): CoutsOperation {
  const tractant = op.materielTractant != null ? (machines.get(op.materielTractant)?.forCalc ?? null) : null;
  const tractes = op.materielTractes.map((id) => machines.get(id)?.forCalc).filter((m): m is Materiel => !!m);
  return roundOperationCosts(operationCosts({ ...op, typeAction: type, materielTractant: tractant, materielTractes: tractes }, { prixFioul, tauxFinancement }));
}

/**
 * The cultural operations screen (GET campagnes/{id}/operation_culturales): the campaign's operations,
 * newest first, each with its calculated costs; the operation types, working depths, machines (with
 * their own figures) and labour items the form offers; and what the user may do.
 */
export async function getOperationsCulturales(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const tauxFinancement = financingRate({ longTermeTaux: await longTermRate(db, ctx.idCampagne) });
  const prixFioul = await fuelPrice(db, ctx.idCampagne);
  const typesAction = await listTypesAction(db);
  const types = new Map(typesAction.map((t) => [t.id, t]));
  const machines = await campaignMachines(db, ctx.idCampagne, tauxFinancement);
  const byId = new Map(machines.map((m) => [m.id, m]));
  const rows = (await listOperationsCulturales(db, ctx.idCampagne)).map((op) => ({
    ...op,
    calcul: costsOf(op, types.get(op.idTypeAction), byId, prixFioul, tauxFinancement),
  }));
  return {
    rows,
    canWrite: ctx.abilities.canWriteDescriptif,
    typesAction,
    profondeurs: await listProfondeursTravail(db),
    machines: machines.map(({ forCalc: _f, ...m }) => ({
      id: m.id,
      libelle: m.libelle,
      idCategorieMateriel: m.idCategorieMateriel,
      typePropriete: m.typePropriete,
      puissance: m.puissance,
      debit: m.debit,
      coutHoraire: m.calcul.coutHoraire,
    })),
    mainOeuvres: await listWorkforce(db, ctx.idCampagne),
    prixFioul,
    tauxFinancement,
  };
}

/**
 * The fuel-use reference, L/ha (GET calculs/indicateurs/conso_carburant with id_type_action, debit,
 * puissance, profondeur_travail; the answer's field is consoCarburant): fuelUseReference on the
 * reference_conso_carburant row of the type. Null when type, power or depth is missing (B-OPS-21) or
 * the type has no reference. Reference data: any signed-in user may ask, with or without a selected campaign
 * (decision 0128).
 */
export async function getConsoCarburantReference(scope: Scope, entree: EntreeConsoCarburant): Promise<{ consoCarburant: number | null }> {
  const { db } = scope;
  if (entree.idTypeAction == null) return { consoCarburant: null };
  const coefficients = await listCoefficientsConsoCarburant(db, entree.idTypeAction);
  return { consoCarburant: fuelUseReference(coefficients, entree) };
}

const invalidForm = (fieldErrors: Record<string, string[]>) => new ServiceError("warning.invalid-form", 400, fieldErrors);

/**
 * The stored values of a valid form: the type must exist; the tractor must be a machine of the campaign
 * with power above 0; the towed equipment machines of the campaign (not the tractor); the workforce
 * labour items of the campaign, and none when the workforce is external. The calculated work rate and
 * the fuel reference are computed here from the stored machines (the form's own values are ignored),
 * then the actual values are required where no calculated one exists (B-OPS-30, B-OPS-32).
 */
async function resolveValues(db: Db, idCampagne: number, input: OperationCulturaleInput) {
  const type = (await listTypesAction(db)).find((t) => t.id === input.idTypeAction);
  if (!type) throw invalidForm({ idTypeAction: ["warning.invalid"] });
  const machines = await listParcMateriels(db, idCampagne);
  const byId = new Map(machines.map((m) => [m.id, m]));
  const tractant = input.materielTractant != null ? byId.get(input.materielTractant) : undefined;
  if (input.materielTractant != null && (!tractant || !isTractor(tractant))) throw invalidForm({ materielTractant: ["warning.invalid"] });
  const towedIds = [...new Set(input.materielTractes)];
  if (towedIds.some((id) => !byId.has(id) || id === input.materielTractant)) throw invalidForm({ materielTractes: ["warning.invalid"] });
  const tractes = towedIds.map((id) => byId.get(id)!);
  const workforceIds = input.eta ? [] : [...new Set(input.mainOeuvre)];
  if (workforceIds.length) {
    const own = new Set((await listWorkforce(db, idCampagne)).map((w) => w.id));
    if (workforceIds.some((id) => !own.has(id))) throw invalidForm({ mainOeuvre: ["warning.invalid"] });
  }

  const applies = appliesToType(type);
  const profondeurTravail = applies.profondeurTravail ? (input.profondeurTravail ?? 0) : 0;
  const debitCalcule = roundOrNull(calculatedWorkRate(type, tractant ?? null, tractes), DECIMALES_DEBIT_STOCKE);
  const debitReel = input.debitReel ?? null;
  const consoCarburantCalculee = roundFuel(
    fuelUseReference(await listCoefficientsConsoCarburant(db, type.id), {
      idTypeAction: type.id,
      puissance: tractant?.puissance ?? null,
      profondeurTravail,
      debit: effectiveWorkRate({ debitReel, debitCalcule }),
    }),
  );
  const consoCarburantReelle = input.consoCarburantReelle ?? null;
  const missing = requiredActualErrors({ debitReel, debitCalcule, consoCarburantReelle, consoCarburantCalculee });
  if (Object.keys(missing).length) throw invalidForm(missing);

  const values: OperationCulturaleValues = {
    idTypeAction: type.id,
    libelle: input.libelle,
    remarque: input.remarque ?? null,
    materielTractant: tractant?.id ?? null,
    eta: input.eta,
    debitReel,
    debitCalcule,
    consoCarburantReelle,
    consoCarburantCalculee,
    profondeurTravail,
    debitIrrigation: applies.debitIrrigation ? (input.debitIrrigation ?? null) : null,
    // Empty unless typed (issue 10): the form offers 1000 L/ha on a spraying type only.
    volumeBouillie: input.volumeBouillie ?? null,
    proportionSurfaceTravaillee: input.proportionSurfaceTravaillee ?? 1,
    surfaceTravaillee: null,
    nombrePassage: null,
  };
  return { values, materielTractes: towedIds, mainOeuvre: workforceIds };
}

export type SaveResult = {
  id: number;
  /** The propagation answer as received (B-OPS-26); false on a create. */
  repercutAction: boolean;
  /** Interventions whose work rate was updated (0 until the interventions table exists). */
  actionsMisesAJour: number;
};

/**
 * Creates (no id) or updates (id, with the row's updatedAt: a stale save is refused) an operation with
 * its towed equipment and workforce rows, in one transaction (POST / PATCH operation_culturales).
 * Needs canWriteDescriptif. On an update whose effective work rate changed, repercutAction true
 * propagates the new rate to the linked interventions (B-OPS-25, B-OPS-26).
 */
export async function saveOperationCulturale(scope: Scope, input: OperationCulturaleInput, existing?: Token): Promise<SaveResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return db.transaction(async (trx) => {
    const { values, materielTractes, mainOeuvre } = await resolveValues(trx, ctx.idCampagne, input);
    if (!existing) {
      const id = await insertOperationCulturale(trx, ctx.idCampagne, values);
      await replaceLinks(trx, id, materielTractes, mainOeuvre);
      return { id, repercutAction: false, actionsMisesAJour: 0 };
    }
    const current = await findOperationCulturale(trx, existing.id);
    if (!current || current.idCampagne !== ctx.idCampagne) throw new ServiceError(ERRORS.update, 404);
    await updateOperationCulturale(trx, existing, values);
    await replaceLinks(trx, existing.id, materielTractes, mainOeuvre);
    const before = effectiveWorkRate(current);
    const after = effectiveWorkRate(values);
    const changed = roundOrNull(before, DECIMALES_DEBIT_STOCKE) !== roundOrNull(after, DECIMALES_DEBIT_STOCKE);
    const actionsMisesAJour = input.repercutAction && changed ? await propagateWorkRate(trx, existing.id, after) : 0;
    return { id: existing.id, repercutAction: input.repercutAction, actionsMisesAJour };
  });
}

/** Deletes ticked operations of the selected campaign; an unknown id refuses the whole deletion (DELETE operation_culturales/{id}). */
export async function removeOperationsCulturales(scope: Scope, ids: number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await db.transaction(async (trx) => {
    const n = await deleteOperationsCulturales(trx, ctx.idCampagne, ids);
    if (n !== ids.length) throw new ServiceError(ERRORS.delete, 404);
  });
}

/** The campaign of a cultural operation, null when there is none (the API names the operation, not the campaign). */
export async function operationCulturaleCampaign(db: Db, id: number): Promise<number | null> {
  return (await findOperationCulturale(db, id))?.idCampagne ?? null;
}

/** One operation of the scope's campaign with its costs, as the list shows it (GET operation_culturales/{id}). */
export async function getOperationCulturale(scope: Scope, id: number) {
  const row = (await getOperationsCulturales(scope)).rows.find((r) => r.id === id);
  if (!row) throw new ServiceError("errors.not-found", 404);
  return row;
}

/** The labour items an operation is done with (GET operation_culturales/{id}/main_oeuvres). */
export async function getMainOeuvresOfOperation(scope: Scope, id: number) {
  const operation = await getOperationCulturale(scope, id);
  const ids = new Set(operation.mainOeuvre);
  return (await getMainOeuvres(scope)).rows.filter((r) => ids.has(r.id));
}

/** The machines an operation is done with, the tractor first, with their figures (GET operation_culturales/{id}/parc_materiels). */
export async function getParcMaterielsOfOperation(scope: Scope, id: number) {
  const operation = await getOperationCulturale(scope, id);
  const byId = new Map((await getParcMateriels(scope)).rows.map((m) => [m.id, m]));
  const ids = [...(operation.materielTractant == null ? [] : [operation.materielTractant]), ...operation.materielTractes];
  return ids.map((i) => byId.get(i)).filter((m) => m !== undefined);
}

/** The interventions made with an operation, on every plot of the campaign (GET operation_culturales/{id}/actions). */
export async function getActionsOfOperation(scope: Scope, id: number) {
  await getOperationCulturale(scope, id);
  const { parcelles } = await getInterventions(scope);
  if (!parcelles.length) return [];
  const { rows } = await getInterventions(scope, { parcelleIds: parcelles.map((p) => p.id) });
  return rows.filter((r) => r.idOperationCulturale === id);
}

export type IndicateurFiltre = { indCode?: string; idGroupeIndicateur?: number; idIndicateurPere?: number };

/**
 * The indicator reference list (GET indicateurs, GET indicateurs/{id}; B-API-13), filtered on its code, group or
 * parent indicator. Reference data: any signed-in user reads it.
 */
export async function getIndicateurs(scope: Scope, filtre: IndicateurFiltre = {}) {
  return (await listIndicateurs(scope.db)).filter(
    (i) =>
      (filtre.indCode === undefined || i.indCode === filtre.indCode) &&
      (filtre.idGroupeIndicateur === undefined || i.idGroupeIndicateur === filtre.idGroupeIndicateur) &&
      (filtre.idIndicateurPere === undefined || i.idIndicateurPere === filtre.idIndicateurPere),
  );
}

export async function getIndicateur(scope: Scope, id: number) {
  const found = (await listIndicateurs(scope.db)).find((i) => i.idIndicateur === id);
  if (!found) throw new ServiceError("errors.not-found", 404);
  return found;
}
