/**
 * Cultural operation figures of spec 2 (§3 Cultural operation, §4 work rate and tractor rules, §9
 * units and defaults): calculated work rate, fuel-use reference, costs table (mechanisation,
 * maintenance/rental, fuel, primary energy and GHG of fuel) and display rounding. Formulas and
 * sources: research/indicators-and-reference-data.md §3.1, §4, §5 (G1), §6 (E2); each one has a
 * section in docs/indicators.md.
 *
 * Pure functions only: no I/O, nothing from the server.
 *
 * Decisions (repeated in docs/indicators.md):
 * - D-OP-1 Calculated work rate: rates null, 0 or negative are ignored (a zero rate would make every
 *   per-hectare figure infinite), so "minimum non-null rate" is the minimum rate above 0.
 * - D-OP-2 Effective work rate = actual rate (debitReel) when above 0, otherwise the calculated rate
 *   (debitCalcule); effective fuel use = actual (consoCarburantReelle) when set, otherwise the
 *   reference (consoCarburantCalculee).
 * - D-OP-3 Fuel-use reference (L/ha), per operation type, from a reference table row:
 *   power method when the row has a load factor and power and work rate are known:
 *     puissance (ch) × 0.7355 (kW/ch) × tauxCharge × consoSpecifique (L/kWh) / debit (ha/h);
 *   otherwise the row's flat rate consoHectare (L/ha at the reference depth). Either is then scaled
 *   by depth / profondeurReference when the row has a reference depth and the depth is above 0.
 * - D-OP-4 Costs per hectare: each machine's € per hour (see materiel.ts) divided by the
 *   operation's effective work rate (the whole chain works at that rate), then multiplied by the
 *   share of surface worked (proportionSurfaceTravaillee, default 1), like fuel, energy and GHG.
 *   chargesMecaTotales = fixed charges (depreciation + financing) + maintenance/rental + fuel.
 *   Missing inputs count as 0 in the sums and are listed in `manquants`.
 * - D-OP-5 Fuel cost is 0 when the tractor (the machine that burns the fuel) is an ETA machine: the
 *   contractor's price includes fuel. Fuel energy and GHG are still counted.
 * - D-OP-6 Fuel factors: primary energy 43 MJ/L (research E2, GNR incl. upstream, [M-L]); GHG
 *   3.10 kg CO2e/L (research G1, Base Carbone gazole B7, [H]; research advises it for GNR until the
 *   Base Carbone GNR entry G5 is verified).
 */

import { type Materiel, TYPE_PROPRIETE, isSelfPropelled, machineCosts } from "./materiel";

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** Defaults of a new operation (B-OPS-11): share of surface 1, spray volume 1000 L/ha, depth 0. */
export const DEFAUTS_OPERATION = { proportionSurfaceTravaillee: 1, volumeBouillie: 1000, profondeurTravail: 0 } as const;

/** Metric horsepower to kW (1 ch = 735.5 W). */
export const KW_PAR_CH = 0.7355;

/** Specific fuel consumption at working load, L/kWh (research §4.1 option 3: 0.25–0.30, [M]); used when a row has none. */
export const CONSO_SPECIFIQUE_DEFAUT = 0.27;

/** Primary energy of diesel / GNR including upstream, MJ/L (research §6 E2, [M-L]). */
export const ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L = 43;

/** GHG of diesel, upstream + combustion, kg CO2e/L (research §5 G1, Base Carbone, [H]). */
export const GES_CARBURANT_KG_CO2E_PAR_L = 3.1;

/** Units shown with the operation figures (B-CONST-07; spec 2 §9). */
export const UNITES_OPERATION = {
  debit: "ha/h",
  carburant: "L/ha",
  debitIrrigation: "m3/h",
  volumeBouillie: "L/ha",
  charges: "€/ha",
  chargesParTonne: "€/t",
  energie: "MJ/ha",
  ges: "kg CO2-eq/ha",
} as const;

/** Display decimals per figure (B-OPS-23: fuel to 2 decimals). */
export const DECIMALES = {
  carburant: 2,
  debit: 2,
  euros: 2,
  energie: 0,
  ges: 1,
} as const;

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

type Num = number | null | undefined;

/** Operation type (reference typeOperations) with its flags. */
export type TypeAction = {
  id: number;
  libelle?: string;
  profondeurTravail?: boolean;
  /** Irrigation type. */
  debitIrrigation?: boolean;
  volumeBouillie?: boolean;
};

/** A machine of an operation: the machine fields of materiel.ts (debit in ha/h, puissance in ch). */
export type MaterielOperation = Materiel;

/** Reference coefficients for the fuel use of one operation type (a row of the reference table). */
export type CoefficientsConsoCarburant = {
  idTypeAction: number;
  /** Flat reference fuel use at the reference depth, L/ha. */
  consoHectare?: Num;
  /** Engine load factor, 0–1 (power method). */
  tauxCharge?: Num;
  /** Specific fuel consumption, L/kWh (power method); CONSO_SPECIFIQUE_DEFAUT when empty. */
  consoSpecifique?: Num;
  /** Depth at which the row's figures hold, cm; empty means no depth scaling. */
  profondeurReference?: Num;
};

/** What the fuel-use reference needs (the query of GET calculs/indicateurs/conso_carburant). */
export type EntreeConsoCarburant = {
  idTypeAction: number | null | undefined;
  /** Tractor power, ch. */
  puissance: Num;
  /** Working depth, cm. */
  profondeurTravail: Num;
  /** Work rate, ha/h. */
  debit: Num;
};

/** The operation fields the costs read. */
export type OperationCalcul = {
  typeAction?: TypeAction | null;
  debitReel?: Num;
  debitCalcule?: Num;
  consoCarburantReelle?: Num;
  consoCarburantCalculee?: Num;
  proportionSurfaceTravaillee?: Num;
  materielTractant?: MaterielOperation | null;
  materielTractes?: readonly MaterielOperation[];
};

export type ParametresCoutsOperation = {
  /** Fuel price, €/L (campaign prixFioul). */
  prixFioul: Num;
  /** Financing rate, % (see financingRate in materiel.ts). */
  tauxFinancement: number;
  /** Primary energy of fuel, MJ/L; ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L when omitted. */
  energiePrimaireCarburant?: number;
  /** GHG of fuel, kg CO2e/L; GES_CARBURANT_KG_CO2E_PAR_L when omitted. */
  gesCarburant?: number;
};

/** The calculated costs table of an operation (B-OPS-07), per hectare of the plot. */
export type CoutsOperation = {
  /** Effective work rate, ha/h. */
  debit: number | null;
  /** Effective fuel use, L/ha worked. */
  consoCarburant: number | null;
  /** Depreciation + financing, €/ha. */
  chargesFixes: number;
  /** Maintenance and repair (own) or rental (ETA, CUMA), €/ha. */
  chargesEntretienLocation: number;
  /** Fuel, €/ha. */
  chargesCarburant: number;
  /** Total mechanisation charges, €/ha. */
  chargesMecaTotales: number;
  /** Primary energy of fuel, MJ/ha. */
  consoNRJPrimaireCarburant: number;
  /** GHG of fuel, kg CO2e/ha. */
  EGESCarburant: number;
  /** Missing inputs, e.g. "debit", "prixFioul", "consoCarburant", "materiel:Charrue:prixAchat". */
  manquants: string[];
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const isNum = (value: Num): value is number => typeof value === "number" && Number.isFinite(value);
const positiveOrNull = (value: Num): number | null => (isNum(value) && value > 0 ? value : null);

/** Rounds half away from zero to `decimales` decimals, without binary artefacts (1.005 → 1.01). */
export function round(value: number, decimales: number): number {
  const sign = value < 0 ? -1 : 1;
  const absolu = Math.abs(value);
  const texte = String(absolu);
  // Shift the decimal point in the decimal text (not by a binary product) unless already exponential.
  const decale = texte.includes("e") ? absolu * 10 ** decimales : Number(`${texte}e${decimales}`);
  return (sign * Math.round(decale)) / 10 ** decimales + 0;
}

/** Rounds for display; null stays null. */
export function roundOrNull(value: Num, decimales: number): number | null {
  return isNum(value) ? round(value, decimales) : null;
}

/** Fuel use shown to 2 decimals (B-OPS-23). */
export function roundFuel(value: Num): number | null {
  return roundOrNull(value, DECIMALES.carburant);
}

// ---------------------------------------------------------------------------------------------
// Work rate and fuel use
// ---------------------------------------------------------------------------------------------

/** Irrigation types are flagged debitIrrigation. */
export function isIrrigationType(typeAction: TypeAction | null | undefined): boolean {
  return typeAction?.debitIrrigation === true;
}

/**
 * Calculated work rate, ha/h (B-OPS-18, B-OPS-19): the minimum rate above 0 among the towed
 * equipment and the tractor when it is self-propelled; null for irrigation types and when no rate
 * counts (D-OP-1).
 */
export function calculatedWorkRate(
  typeAction: TypeAction | null | undefined,
  materielTractant: MaterielOperation | null | undefined,
  materielTractes: readonly MaterielOperation[],
): number | null {
  if (isIrrigationType(typeAction)) return null;
  const candidats = [...materielTractes];
  if (materielTractant && isSelfPropelled(materielTractant)) candidats.push(materielTractant);
  const debits = candidats.map((m) => positiveOrNull(m.debit)).filter((d): d is number => d !== null);
  return debits.length ? Math.min(...debits) : null;
}

/** Effective work rate, ha/h: actual when above 0, otherwise calculated (D-OP-2). */
export function effectiveWorkRate(operation: Pick<OperationCalcul, "debitReel" | "debitCalcule">): number | null {
  return positiveOrNull(operation.debitReel) ?? positiveOrNull(operation.debitCalcule);
}

/** Effective fuel use, L/ha: actual when set, otherwise the reference (D-OP-2). */
export function effectiveFuelUse(operation: Pick<OperationCalcul, "consoCarburantReelle" | "consoCarburantCalculee">): number | null {
  if (isNum(operation.consoCarburantReelle)) return operation.consoCarburantReelle;
  return isNum(operation.consoCarburantCalculee) ? operation.consoCarburantCalculee : null;
}

/** The fuel reference is fetched only when type, tractor power and depth are all set (B-OPS-21). */
export function canComputeFuelReference(entree: Pick<EntreeConsoCarburant, "idTypeAction" | "puissance" | "profondeurTravail">): boolean {
  return entree.idTypeAction != null && isNum(entree.puissance) && isNum(entree.profondeurTravail);
}

/**
 * Fuel-use reference, L/ha (D-OP-3), from the reference coefficients of the operation type.
 * Null when the preconditions of B-OPS-21 fail, the type has no row, or the row gives no figure
 * for these inputs (no flat rate and the power method lacks power or work rate).
 */
export function fuelUseReference(coefficients: readonly CoefficientsConsoCarburant[], entree: EntreeConsoCarburant): number | null {
  if (!canComputeFuelReference(entree)) return null;
  const ligne = coefficients.find((c) => c.idTypeAction === entree.idTypeAction);
  if (!ligne) return null;

  const puissance = positiveOrNull(entree.puissance);
  const debit = positiveOrNull(entree.debit);
  const tauxCharge = positiveOrNull(ligne.tauxCharge);
  let conso: number | null = null;
  if (tauxCharge !== null && puissance !== null && debit !== null) {
    const cse = positiveOrNull(ligne.consoSpecifique) ?? CONSO_SPECIFIQUE_DEFAUT;
    conso = (puissance * KW_PAR_CH * tauxCharge * cse) / debit;
  } else if (isNum(ligne.consoHectare) && ligne.consoHectare >= 0) {
    conso = ligne.consoHectare;
  }
  if (conso === null) return null;

  const profondeurReference = positiveOrNull(ligne.profondeurReference);
  const profondeur = positiveOrNull(entree.profondeurTravail);
  return profondeurReference !== null && profondeur !== null ? (conso * profondeur) / profondeurReference : conso;
}

// ---------------------------------------------------------------------------------------------
// Fuel cost, energy and GHG (per ha worked × share of surface)
// ---------------------------------------------------------------------------------------------

/** Fuel cost, €/ha = L/ha × €/L × share of surface. */
export function fuelCost(consoCarburant: number, prixFioul: number, proportion = 1): number {
  return consoCarburant * prixFioul * proportion;
}

/** Primary energy of fuel, MJ/ha = L/ha × MJ/L × share of surface (research E2). */
export function fuelPrimaryEnergy(consoCarburant: number, proportion = 1, facteur: number = ENERGIE_PRIMAIRE_CARBURANT_MJ_PAR_L): number {
  return consoCarburant * facteur * proportion;
}

/** GHG of fuel, kg CO2e/ha = L/ha × kg CO2e/L × share of surface (research G1). */
export function fuelGhg(consoCarburant: number, proportion = 1, facteur: number = GES_CARBURANT_KG_CO2E_PAR_L): number {
  return consoCarburant * facteur * proportion;
}

// ---------------------------------------------------------------------------------------------
// Costs table
// ---------------------------------------------------------------------------------------------

function nomMateriel(materiel: MaterielOperation, index: number): string {
  return materiel.libelle || (materiel.id != null ? String(materiel.id) : `#${index + 1}`);
}

/**
 * The calculated costs table of an operation (B-OPS-07): chargesMecaTotales,
 * chargesEntretienLocation, chargesCarburant (€/ha), consoNRJPrimaireCarburant (MJ/ha),
 * EGESCarburant (kg CO2e/ha), plus the fixed charges. Unrounded; see roundOperationCosts.
 */
export function operationCosts(operation: OperationCalcul, parametres: ParametresCoutsOperation): CoutsOperation {
  const manquants: string[] = [];
  const proportion = isNum(operation.proportionSurfaceTravaillee) ? operation.proportionSurfaceTravaillee : DEFAUTS_OPERATION.proportionSurfaceTravaillee;
  const debit = effectiveWorkRate(operation);
  const materiels = [...(operation.materielTractant ? [operation.materielTractant] : []), ...(operation.materielTractes ?? [])];

  let chargesFixes = 0;
  let chargesEntretienLocation = 0;
  if (materiels.length && debit === null) manquants.push("debit");
  materiels.forEach((materiel, index) => {
    const calcul = machineCosts(materiel, parametres.tauxFinancement);
    const nom = nomMateriel(materiel, index);
    for (const champ of calcul.manquants) manquants.push(`materiel:${nom}:${champ}`);
    if (debit === null) return;
    if (calcul.chargesFixesHoraires !== null) chargesFixes += (calcul.chargesFixesHoraires / debit) * proportion;
    if (calcul.entretienLocation !== null) chargesEntretienLocation += (calcul.entretienLocation / debit) * proportion;
  });

  const consoCarburant = effectiveFuelUse(operation);
  let chargesCarburant = 0;
  let consoNRJPrimaireCarburant = 0;
  let EGESCarburant = 0;
  if (consoCarburant === null) manquants.push("consoCarburant");
  else {
    consoNRJPrimaireCarburant = fuelPrimaryEnergy(consoCarburant, proportion, parametres.energiePrimaireCarburant);
    EGESCarburant = fuelGhg(consoCarburant, proportion, parametres.gesCarburant);
    const carburantFactureParEta = operation.materielTractant?.typePropriete === TYPE_PROPRIETE.ETA;
    if (!carburantFactureParEta) {
      if (isNum(parametres.prixFioul)) chargesCarburant = fuelCost(consoCarburant, parametres.prixFioul, proportion);
      else manquants.push("prixFioul");
    }
  }

  return {
    debit,
    consoCarburant,
    chargesFixes,
    chargesEntretienLocation,
    chargesCarburant,
    chargesMecaTotales: chargesFixes + chargesEntretienLocation + chargesCarburant,
    consoNRJPrimaireCarburant,
    EGESCarburant,
    manquants,
  };
}

/** The costs table rounded for display: € and L to 2 decimals, MJ to 0, kg CO2e to 1, ha/h to 2. */
export function roundOperationCosts(couts: CoutsOperation): CoutsOperation {
  return {
    debit: roundOrNull(couts.debit, DECIMALES.debit),
    consoCarburant: roundFuel(couts.consoCarburant),
    chargesFixes: round(couts.chargesFixes, DECIMALES.euros),
    chargesEntretienLocation: round(couts.chargesEntretienLocation, DECIMALES.euros),
    chargesCarburant: round(couts.chargesCarburant, DECIMALES.euros),
    chargesMecaTotales: round(couts.chargesMecaTotales, DECIMALES.euros),
    consoNRJPrimaireCarburant: round(couts.consoNRJPrimaireCarburant, DECIMALES.energie),
    EGESCarburant: round(couts.EGESCarburant, DECIMALES.ges),
    manquants: couts.manquants,
  };
}
