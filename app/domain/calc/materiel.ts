/**
 * Machinery fleet (parc matériel) calculations of spec 2 (§3 Machine, §4 machine form rules, §5,
 * §9) and the mechanisation-cost method of research/indicators-and-reference-data.md §3.1
 * (Chambres d'agriculture / BCMA barème). Every formula is documented in docs/indicators.md.
 *
 * Pure functions only: no I/O, nothing from the server.
 *
 * Decisions (the spec and the research leave them open; each is repeated in docs/indicators.md):
 * - D-MAT-1 Unit of annual use. Annual use (utilisationAnnuelle, utilisationAnnuelleCalculeeP/R)
 *   is in hours of work per year for every machine, so that it matches wear life (usure, hours),
 *   the work rate (debit, ha/h) and the per-unit repair and rental costs. "Per unit of work"
 *   therefore means "per hour"; per hectare is per hour ÷ work rate.
 * - D-MAT-2 Retained annual use = the entered annual use when above 0, otherwise the annual use
 *   calculated from the actual (réalisées, R) interventions, otherwise from the planned (prévues,
 *   P) ones. The entered value wins: the interventions recorded may cover only part of the work.
 * - D-MAT-3 Depreciation duration = the entered dureeAmortissement when above 0, otherwise
 *   min(remaining obsolescence life, wear life ÷ retained annual use), where the remaining
 *   obsolescence life = obsolescence − age at purchase, at least 1 year. A life at 0 or empty is
 *   "unknown" (not "zero years").
 * - D-MAT-4 Resale value = purchase price × tauxRevente / 100 (the research's VR is a share of the
 *   purchase price, PA). An empty resale rate counts as 0 % (full depreciation).
 * - D-MAT-5 Financing (frais financiers) = average capital (PA + VR) / 2 × financing rate. The rate
 *   is the campaign's long-term loan rate (longTermeTaux, admin card) when set, otherwise
 *   TAUX_FINANCEMENT_DEFAUT = 3.5 % (research: "i ≈ 3–4 %", confidence L). The ivan shares are not
 *   used for machines.
 * - D-MAT-6 Ownership. Own machines (0) carry depreciation and financing times the co-ownership
 *   share (copropriete %, empty counts as 100 %) and their maintenance/repair cost. ETA (1) and
 *   CUMA (2) machines carry no depreciation nor financing; their cost is the rental cost
 *   (coutLocation). coutEntretienReparation and coutLocation are € per hour of work.
 * - D-MAT-7 Name suffix "_machine/workforce" with E external and I internal: own → none (I/I),
 *   CUMA → _E/I (the farm drives a cooperative machine), ETA → _E/E (contractor's machine and
 *   driver), own machine with external workforce (an operation with eta true) → _I/E.
 */

// ---------------------------------------------------------------------------------------------
// Constants (spec 2 §5, §9)
// ---------------------------------------------------------------------------------------------

/** Ownership codes (B-MACH-04): 0 own, 1 ETA (contractor), 2 CUMA (cooperative). */
export const TYPE_PROPRIETE = { PROPRE: 0, ETA: 1, CUMA: 2 } as const;
export type TypePropriete = (typeof TYPE_PROPRIETE)[keyof typeof TYPE_PROPRIETE];

/** Pump types (B-MACH-07): g diesel, e electric. */
export const TYPES_POMPE = { GAZOLE: "g", ELECTRIQUE: "e" } as const;

/** Machine category id of traction (spec 2 §5: "category id 1 is traction"). */
export const ID_CATEGORIE_TRACTION = 1;

/** Machine categories whose form shows the power field (B-MACH-19). */
export const CATEGORIES_AVEC_PUISSANCE: readonly number[] = [1, 2, 8, 12, 13, 17];

/** Bounds of the machine form (spec 2 §5 and §9; B-MACH-24/25/27/28, B-CONST-01/02/03). */
export const LIMITES_MATERIEL = {
  ageAchat: { min: 0, max: 20 },
  prixAchat: { min: 0, max: 2_000_000 },
  utilisationAnnuelleTraction: { min: 0, max: 10_000 },
  utilisationAnnuelleAutre: { min: 0, max: 50_000 },
  tauxRevente: { min: 0, max: 100 },
  obsolescence: { min: 0, max: 20 },
  usure: { min: 0, max: 500_000 },
} as const;

/** Financing rate (%) when the campaign has no long-term rate (D-MAT-5; research §3.1 "i ≈ 3–4 %", [L]). */
export const TAUX_FINANCEMENT_DEFAUT = 3.5;

/** Minimum remaining obsolescence life of a machine bought used (D-MAT-3), years. */
export const DUREE_AMORTISSEMENT_MIN = 1;

// ---------------------------------------------------------------------------------------------
// Types (spec 2 §3 field names)
// ---------------------------------------------------------------------------------------------

type Num = number | null | undefined;

/** The machine fields the calculations read. Units: € , h, ha/h, years, %. */
export type Materiel = {
  id?: number | null;
  libelle?: string | null;
  idCategorieMateriel?: number | null;
  typePropriete: TypePropriete;
  /** Co-ownership share, % (own machines only). */
  copropriete?: Num;
  /** Power, ch; above 0 means a tractor or a self-propelled machine. */
  puissance?: Num;
  /** Work rate, ha/h. */
  debit?: Num;
  /** Purchase price, €. */
  prixAchat?: Num;
  /** New price, €. */
  prixNeuf?: Num;
  /** Age at purchase, years. */
  ageAchat?: Num;
  /** Entered annual use, h/year (D-MAT-1). */
  utilisationAnnuelle?: Num;
  /** Annual use calculated from planned interventions, h/year. */
  utilisationAnnuelleCalculeeP?: Num;
  /** Annual use calculated from actual interventions, h/year. */
  utilisationAnnuelleCalculeeR?: Num;
  /** Wear life, hours. */
  usure?: Num;
  /** Obsolescence life, years. */
  obsolescence?: Num;
  /** Entered depreciation duration, years. */
  dureeAmortissement?: Num;
  /** Resale rate at the end of the depreciation, % of the purchase price. */
  tauxRevente?: Num;
  /** Maintenance and repair cost, € per hour of work (own machines). */
  coutEntretienReparation?: Num;
  /** Rental cost, € per hour of work (ETA and CUMA machines). */
  coutLocation?: Num;
};

/** A machine reference (basemeq) as far as the form defaults need it (B-MACH-16/17). */
export type ReferenceMateriel = {
  prixMoyen?: Num;
  poids?: Num;
  puissance?: Num;
  debit?: Num;
  reparation?: Num;
  anneeprix?: Num;
};

/** One pass of the machine in an intervention: surface (ha), passes, work rate (ha/h). */
export type PassageMateriel = { surface: Num; nombrePassage?: Num; debit: Num };

/** The campaign characteristics the financing rate reads. */
export type CaracteristiquesFinancement = { longTermeTaux?: Num };

/** Calculated figures of a machine (B-MACH-03). Amounts are the farm's share. */
export type CalculMateriel = {
  /** Retained annual use ("usage"), h/year. */
  utilisationRetenue: number | null;
  /** Depreciation duration, years. */
  dureeAmortissement: number | null;
  /** Resale value at the end of the depreciation, €. */
  valeurRevente: number | null;
  /** Depreciation, €/year. */
  amortissement: number | null;
  /** Financing cost, €/year. */
  financement: number | null;
  /** Depreciation + financing, €/year. */
  chargesFixesAnnuelles: number | null;
  /** Fixed charges per hour of work, €/h. */
  chargesFixesHoraires: number | null;
  /** Rental (ETA, CUMA) or maintenance and repair (own), €/h. */
  entretienLocation: number | null;
  /** Mechanisation charges per unit of work, €/h. */
  coutHoraire: number | null;
  /** Mechanisation charges per hectare at the machine's own work rate, €/ha. */
  chargesMecaHa: number | null;
  /** Fields whose absence left a figure empty. */
  manquants: (keyof Materiel)[];
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const isNum = (value: Num): value is number => typeof value === "number" && Number.isFinite(value);
const positiveOrNull = (value: Num): number | null => (isNum(value) && value > 0 ? value : null);

// ---------------------------------------------------------------------------------------------
// Kinds of machine and form rules
// ---------------------------------------------------------------------------------------------

/** A tractor is equipment with power above 0 (B-OPS-16). */
export function isTractor(materiel: Pick<Materiel, "puissance">): boolean {
  return isNum(materiel.puissance) && materiel.puissance > 0;
}

/** Self-propelled: power above 0 and a category other than 1 (traction) (B-OPS-17). */
export function isSelfPropelled(materiel: Pick<Materiel, "puissance" | "idCategorieMateriel">): boolean {
  return isTractor(materiel) && materiel.idCategorieMateriel !== ID_CATEGORIE_TRACTION;
}

/** Category 1 is traction (B-MACH-27). */
export function isTractionCategory(idCategorieMateriel: number | null | undefined): boolean {
  return idCategorieMateriel === ID_CATEGORIE_TRACTION;
}

/** The power field is shown for categories 1, 2, 8, 12, 13, 17 (B-MACH-19). */
export function showsPowerField(idCategorieMateriel: number | null | undefined): boolean {
  return idCategorieMateriel != null && CATEGORIES_AVEC_PUISSANCE.includes(idCategorieMateriel);
}

/** Upper bound of annual use: 10,000 for traction, 50,000 otherwise (B-MACH-27, B-MACH-28). */
export function annualUseMax(idCategorieMateriel: number | null | undefined): number {
  return isTractionCategory(idCategorieMateriel) ? LIMITES_MATERIEL.utilisationAnnuelleTraction.max : LIMITES_MATERIEL.utilisationAnnuelleAutre.max;
}

/** A new machine starts as own, 100 % co-ownership, age 0 (B-MACH-11). */
export function newMachineDefaults(): { typePropriete: TypePropriete; copropriete: number; ageAchat: number } {
  return { typePropriete: TYPE_PROPRIETE.PROPRE, copropriete: 100, ageAchat: 0 };
}

/** Co-ownership after an ownership change: 100 for own, null otherwise (B-MACH-14, B-MACH-15). */
export function coOwnershipForOwnership(typePropriete: TypePropriete): number | null {
  return typePropriete === TYPE_PROPRIETE.PROPRE ? 100 : null;
}

/**
 * Name suffix by ownership (B-MACH-05, B-MACH-06; D-MAT-7): machine origin / workforce origin,
 * E external, I internal; none when both are internal. `eta` is the workforce flag of an operation
 * (true = external), false on the machine screen.
 */
export function ownershipSuffix(typePropriete: TypePropriete, eta = false): "" | "_E/I" | "_E/E" | "_I/E" {
  const machineExterne = typePropriete !== TYPE_PROPRIETE.PROPRE;
  const mainOeuvreExterne = typePropriete === TYPE_PROPRIETE.ETA || eta;
  if (!machineExterne) return mainOeuvreExterne ? "_I/E" : "";
  return mainOeuvreExterne ? "_E/E" : "_E/I";
}

/** The label with its ownership suffix (suffixedLibelle). */
export function suffixedLibelle(libelle: string, typePropriete: TypePropriete, eta = false): string {
  return `${libelle}${ownershipSuffix(typePropriete, eta)}`;
}

/** The year range of the new-price label: "anneeprix-1 - anneeprix", e.g. "2023-2024" (B-MACH-18). */
export function priceYearRange(anneeprix: Num): string | null {
  if (!isNum(anneeprix) || !Number.isInteger(anneeprix)) return null;
  return `${anneeprix - 1}-${anneeprix}`;
}

/**
 * Defaults filled when a characteristic (machine reference) is chosen: power, flow, weight, repair
 * cost and new price; the purchase price too, on creation only (B-MACH-16, B-MACH-17).
 */
export function defaultsFromReference(
  reference: ReferenceMateriel,
  creation: boolean,
): { puissance: Num; debit: Num; poids: Num; coutEntretienReparation: Num; prixNeuf: Num; prixAchat?: Num } {
  const defaults = {
    puissance: reference.puissance,
    debit: reference.debit,
    poids: reference.poids,
    coutEntretienReparation: reference.reparation,
    prixNeuf: reference.prixMoyen,
  };
  return creation ? { ...defaults, prixAchat: reference.prixMoyen } : defaults;
}

// ---------------------------------------------------------------------------------------------
// Use, lives and costs
// ---------------------------------------------------------------------------------------------

/**
 * Annual use calculated from interventions (utilisationAnnuelleCalculeeP or R), h/year:
 * Σ surface (ha) × passes / work rate (ha/h). Passes default to 1; passes without a surface or a
 * work rate above 0 are skipped. Null when no pass counts.
 */
export function annualUseFromPassages(passages: readonly PassageMateriel[]): number | null {
  let heures = 0;
  let compte = 0;
  for (const passage of passages) {
    const debit = positiveOrNull(passage.debit);
    if (!isNum(passage.surface) || debit === null) continue;
    const nombre = isNum(passage.nombrePassage) ? passage.nombrePassage : 1;
    heures += (passage.surface * nombre) / debit;
    compte += 1;
  }
  return compte ? heures : null;
}

/** Retained annual use (the calculated "usage"), h/year (D-MAT-2). */
export function retainedAnnualUse(
  materiel: Pick<Materiel, "utilisationAnnuelle" | "utilisationAnnuelleCalculeeR" | "utilisationAnnuelleCalculeeP">,
): number | null {
  return (
    positiveOrNull(materiel.utilisationAnnuelle) ??
    positiveOrNull(materiel.utilisationAnnuelleCalculeeR) ??
    positiveOrNull(materiel.utilisationAnnuelleCalculeeP)
  );
}

/**
 * Depreciation duration from the lives, years (D-MAT-3):
 * min(max(obsolescence − ageAchat, 1), usure / annual use). Null when neither life is known.
 */
export function depreciationDurationFromLives(materiel: Pick<Materiel, "usure" | "obsolescence" | "ageAchat">, utilisationAnnuelle: Num): number | null {
  const obsolescence = positiveOrNull(materiel.obsolescence);
  const age = isNum(materiel.ageAchat) && materiel.ageAchat > 0 ? materiel.ageAchat : 0;
  const parObsolescence = obsolescence === null ? null : Math.max(obsolescence - age, DUREE_AMORTISSEMENT_MIN);
  const usure = positiveOrNull(materiel.usure);
  const utilisation = positiveOrNull(utilisationAnnuelle);
  const parUsure = usure !== null && utilisation !== null ? usure / utilisation : null;
  if (parObsolescence === null) return parUsure;
  if (parUsure === null) return parObsolescence;
  return Math.min(parObsolescence, parUsure);
}

/** Depreciation duration retained: the entered one when above 0, otherwise from the lives (D-MAT-3). */
export function depreciationDuration(materiel: Materiel): number | null {
  return positiveOrNull(materiel.dureeAmortissement) ?? depreciationDurationFromLives(materiel, retainedAnnualUse(materiel));
}

/** Resale value, € = prixAchat × tauxRevente / 100 (D-MAT-4). */
export function resaleValue(materiel: Pick<Materiel, "prixAchat" | "tauxRevente">): number | null {
  if (!isNum(materiel.prixAchat)) return null;
  const taux = isNum(materiel.tauxRevente) ? materiel.tauxRevente : 0;
  return (materiel.prixAchat * taux) / 100;
}

/** Share of the fixed charges borne by the farm: copropriete / 100 for own machines, 0 for ETA and CUMA (D-MAT-6). */
export function ownershipShare(materiel: Pick<Materiel, "typePropriete" | "copropriete">): number {
  if (materiel.typePropriete !== TYPE_PROPRIETE.PROPRE) return 0;
  return isNum(materiel.copropriete) ? materiel.copropriete / 100 : 1;
}

/** Financing rate, %: the campaign's long-term rate, otherwise TAUX_FINANCEMENT_DEFAUT (D-MAT-5). */
export function financingRate(caracteristiques: CaracteristiquesFinancement | null | undefined): number {
  const taux = caracteristiques?.longTermeTaux;
  return isNum(taux) ? taux : TAUX_FINANCEMENT_DEFAUT;
}

/** Annual depreciation (farm share), €/year = (prixAchat − resale value) / duration × share. 0 for ETA and CUMA. */
export function annualDepreciation(materiel: Materiel): number | null {
  const part = ownershipShare(materiel);
  if (part === 0) return 0;
  const valeurRevente = resaleValue(materiel);
  const duree = depreciationDuration(materiel);
  if (valeurRevente === null || duree === null || !isNum(materiel.prixAchat)) return null;
  return ((materiel.prixAchat - valeurRevente) / duree) * part;
}

/** Annual financing cost (farm share), €/year = (prixAchat + resale value) / 2 × rate / 100 × share. 0 for ETA and CUMA. */
export function annualFinancing(materiel: Materiel, tauxFinancement: number): number | null {
  const part = ownershipShare(materiel);
  if (part === 0) return 0;
  const valeurRevente = resaleValue(materiel);
  if (valeurRevente === null || !isNum(materiel.prixAchat)) return null;
  return ((materiel.prixAchat + valeurRevente) / 2) * (tauxFinancement / 100) * part;
}

/** Rental or repair cost, €/h: coutEntretienReparation for own machines, coutLocation for ETA and CUMA (D-MAT-6). */
export function repairOrRentalCost(materiel: Materiel): number | null {
  const cout = materiel.typePropriete === TYPE_PROPRIETE.PROPRE ? materiel.coutEntretienReparation : materiel.coutLocation;
  return isNum(cout) ? cout : null;
}

/**
 * All calculated figures of a machine (B-MACH-03): usage, depreciation duration, depreciation,
 * financing, rental or repair, mechanisation charges per hour and per ha.
 * `tauxFinancement` is in % (see financingRate).
 */
export function machineCosts(materiel: Materiel, tauxFinancement: number): CalculMateriel {
  const manquants: (keyof Materiel)[] = [];
  const proprietaire = materiel.typePropriete === TYPE_PROPRIETE.PROPRE;
  const utilisationRetenue = retainedAnnualUse(materiel);
  const dureeAmortissement = proprietaire ? depreciationDuration(materiel) : null;
  const valeurRevente = proprietaire ? resaleValue(materiel) : null;
  const amortissement = annualDepreciation(materiel);
  const financement = annualFinancing(materiel, tauxFinancement);
  const chargesFixesAnnuelles = amortissement !== null && financement !== null ? amortissement + financement : null;

  if (proprietaire) {
    if (!isNum(materiel.prixAchat)) manquants.push("prixAchat");
    if (dureeAmortissement === null) manquants.push("dureeAmortissement");
  }
  let chargesFixesHoraires: number | null;
  if (chargesFixesAnnuelles === 0) chargesFixesHoraires = 0;
  else if (chargesFixesAnnuelles !== null && utilisationRetenue !== null) chargesFixesHoraires = chargesFixesAnnuelles / utilisationRetenue;
  else chargesFixesHoraires = null;
  if (proprietaire && utilisationRetenue === null) manquants.push("utilisationAnnuelle");

  const entretienLocation = repairOrRentalCost(materiel);
  if (entretienLocation === null) manquants.push(proprietaire ? "coutEntretienReparation" : "coutLocation");

  const coutHoraire = chargesFixesHoraires !== null && entretienLocation !== null ? chargesFixesHoraires + entretienLocation : null;
  const debit = positiveOrNull(materiel.debit);
  const chargesMecaHa = coutHoraire !== null && debit !== null ? coutHoraire / debit : null;

  return {
    utilisationRetenue,
    dureeAmortissement,
    valeurRevente,
    amortissement,
    financement,
    chargesFixesAnnuelles,
    chargesFixesHoraires,
    entretienLocation,
    coutHoraire,
    chargesMecaHa,
    manquants,
  };
}
