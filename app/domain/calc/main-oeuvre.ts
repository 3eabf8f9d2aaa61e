/**
 * Labour (main d'oeuvre) figures of spec 2 (§3 Labour item, §4 labour norms, §9 labour types):
 * the norm of a labour item and the totals panel. Documented in docs/indicators.md.
 *
 * Pure functions only: no I/O, nothing from the server.
 *
 * Decisions (repeated in docs/indicators.md):
 * - D-MO-1 "Reference value index 3 / index 2" is the 0-based position in the reference-value list
 *   (referenceValeurs) as the caller receives it, sorted by its `ordre`: index 3 is the salaried
 *   norm, index 2 the family norm. The norms are € per UTH per year, so a norm is in €.
 * - D-MO-2 "uta is numeric": a finite number, or a text that reads as a number with a comma or a
 *   point as decimal separator ("0,5"). Otherwise the item has no norm (null).
 * - D-MO-3 Totals panel: totals of UTH, amount and norm for all items, for salaried (951 + 952),
 *   for family (953) and per type. Empty amounts and norms are left out of the sums; a sum with
 *   nothing in it is 0.
 */

import { toNumber } from "../validation";

/** Labour types (B-LAB-03): 951 and 952 salaried, 953 family. */
export const TYPE_MAIN_OEUVRE = { SALARIE_1: 951, SALARIE_2: 952, FAMILIAL: 953 } as const;
export type TypeMainOeuvre = (typeof TYPE_MAIN_OEUVRE)[keyof typeof TYPE_MAIN_OEUVRE];
export const TYPES_SALARIES: readonly number[] = [TYPE_MAIN_OEUVRE.SALARIE_1, TYPE_MAIN_OEUVRE.SALARIE_2];

/** Positions of the norms in the reference-value list (spec 2 §4; D-MO-1). */
export const INDEX_NORME_SALARIALE = 3;
export const INDEX_NORME_FAMILIALE = 2;

type Num = number | null | undefined;

/** A labour item as the calculations read it (spec 2 §3). uta may still be form text. */
export type MainOeuvre = {
  id?: number | null;
  libelle?: string | null;
  /** Annual work units (UTH). */
  uta: number | string | null | undefined;
  idTypeUser: number | null | undefined;
  /** Amount, €. */
  montant?: Num;
};

/** Reference norms, € per UTH per year. */
export type NormesMainOeuvre = { salariale: number | null; familiale: number | null };

/** One line of the totals panel. */
export type TotalMainOeuvre = { uta: number; montant: number; norme: number };

/** The totals panel figures (B-LAB-01). */
export type TotauxMainOeuvre = {
  total: TotalMainOeuvre;
  salarie: TotalMainOeuvre;
  familial: TotalMainOeuvre;
  parType: Record<TypeMainOeuvre, TotalMainOeuvre>;
};

/** uta as a number when it is numeric (D-MO-2), otherwise null. */
export function numericUta(uta: MainOeuvre["uta"]): number | null {
  const value = toNumber(uta);
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The salaried (index 3) and family (index 2) norms from the reference values (B-LAB-05, B-LAB-06; D-MO-1). */
export function normsFromReferenceValues(valeurs: readonly Num[]): NormesMainOeuvre {
  const at = (index: number) => {
    const value = valeurs[index];
    return typeof value === "number" && Number.isFinite(value) ? value : null;
  };
  return { salariale: at(INDEX_NORME_SALARIALE), familiale: at(INDEX_NORME_FAMILIALE) };
}

/** The reference norm of a labour type: salaried for 951 and 952, family for 953, otherwise null. */
export function referenceNorm(idTypeUser: number | null | undefined, normes: NormesMainOeuvre): number | null {
  if (idTypeUser != null && TYPES_SALARIES.includes(idTypeUser)) return normes.salariale;
  if (idTypeUser === TYPE_MAIN_OEUVRE.FAMILIAL) return normes.familiale;
  return null;
}

/** Norm of a labour item, € = uta × reference norm when uta is numeric (B-LAB-04); null otherwise. */
export function labourNorm(item: Pick<MainOeuvre, "uta" | "idTypeUser">, normes: NormesMainOeuvre): number | null {
  const uta = numericUta(item.uta);
  const reference = referenceNorm(item.idTypeUser, normes);
  return uta !== null && reference !== null ? uta * reference : null;
}

const zero = (): TotalMainOeuvre => ({ uta: 0, montant: 0, norme: 0 });

function add(total: TotalMainOeuvre, uta: number | null, montant: Num, norme: number | null): void {
  if (uta !== null) total.uta += uta;
  if (typeof montant === "number" && Number.isFinite(montant)) total.montant += montant;
  if (norme !== null) total.norme += norme;
}

/** The totals panel (B-LAB-01; D-MO-3). */
export function labourTotals(items: readonly MainOeuvre[], normes: NormesMainOeuvre): TotauxMainOeuvre {
  const totaux: TotauxMainOeuvre = {
    total: zero(),
    salarie: zero(),
    familial: zero(),
    parType: { 951: zero(), 952: zero(), 953: zero() },
  };
  for (const item of items) {
    const uta = numericUta(item.uta);
    const norme = labourNorm(item, normes);
    add(totaux.total, uta, item.montant, norme);
    if (item.idTypeUser != null && TYPES_SALARIES.includes(item.idTypeUser)) add(totaux.salarie, uta, item.montant, norme);
    if (item.idTypeUser === TYPE_MAIN_OEUVRE.FAMILIAL) add(totaux.familial, uta, item.montant, norme);
    if (item.idTypeUser === 951 || item.idTypeUser === 952 || item.idTypeUser === 953) add(totaux.parType[item.idTypeUser], uta, item.montant, norme);
  }
  return totaux;
}

/**
 * Legal annual working time of one full-time work unit, h (Code du travail, art. L3121-41: 1,607 hours a year), by
 * which the labour screen's yearly amounts become an hourly rate (decision 0106).
 */
export const HEURES_PAR_UTH = 1607;

/**
 * The campaign's labour cost per hour, €/h, for the labour-cost indicator (CMO): the amounts the labour screen records
 * over the work they pay, Σ montant / (Σ uta × 1,607 h), counting only items with both an amount and a numeric uta
 * above 0. Null when no item has both: the indicator then lists the rate missing rather than assuming a norm.
 */
export function tauxHoraireMainOeuvre(items: readonly Pick<MainOeuvre, "uta" | "montant">[]): number | null {
  let montant = 0;
  let uta = 0;
  for (const item of items) {
    const u = numericUta(item.uta);
    const m = typeof item.montant === "number" && Number.isFinite(item.montant) ? item.montant : null;
    if (u === null || u <= 0 || m === null || m <= 0) continue;
    montant += m;
    uta += u;
  }
  return uta > 0 ? montant / (uta * HEURES_PAR_UTH) : null;
}
