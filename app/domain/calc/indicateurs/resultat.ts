/**
 * Building indicators and aggregating them upward (docs/indicators.md §7.1, §7.2; decision 0044).
 *
 * - A figure is built with a `Cumul`: it adds contributions (with the entry that gave them), counts
 *   the data items it expected and lists those that were missing.
 * - Completeness = 100 × (expected − missing) / expected, 100 when nothing was expected.
 * - Upward (plot → crop → management mode → farm): the area-weighted mean of the plots' per-hectare
 *   values, Σ(value × area) / Σ area; a plot without an area is left out and listed as missing.
 *   Ratios (€/t, efficiency) are recomputed from the aggregated numerator and denominator.
 */

import type { Entree, Explication, Facteur, Indicateur, Indicateurs, Manquant, ParcelleCampagne } from "./types";

export const round = (value: number, decimales: number): number => {
  const p = 10 ** decimales;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * p) / p + 0;
};

export const estNombre = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * Missing data already seen, by object, field and id (a number and its text are two ids, as with ===): what makes
 * two missing data the same. `ajoute` says whether it was new.
 */
class ManquantsVus {
  private vus = new Map<string, Map<string, Set<number | string>>>();
  ajoute(m: Manquant): boolean {
    let parChamp = this.vus.get(m.objet);
    if (!parChamp) this.vus.set(m.objet, (parChamp = new Map()));
    let ids = parChamp.get(m.champ);
    if (!ids) parChamp.set(m.champ, (ids = new Set()));
    if (ids.has(m.id)) return false;
    ids.add(m.id);
    return true;
  }
}

/** The missing data of several lists without repeats (same object, id and field), in order, the first kept. */
export function unionManquants(listes: Manquant[][]): Manquant[] {
  const out: Manquant[] = [];
  const vus = new ManquantsVus();
  for (const liste of listes) for (const m of liste) if (vus.ajoute(m)) out.push(m);
  return out;
}

/** The entry passed when a figure keeps no entries (Cumul.explique false): nothing is built for it. */
export const SANS_ENTREE: Entree = Object.freeze({ objet: "indicateur", id: "" }) as Entree;

/** An accumulator for one indicator. */
export class Cumul {
  valeur = 0;
  attendus = 0;
  manquants: Manquant[] = [];
  entrees: Entree[] = [];
  remarques: string[] = [];
  /** When false, the value is null (nothing could be computed). */
  calculable = true;
  /** The missing data seen, once the list is long enough for a linear search to cost. */
  private vus?: ManquantsVus;

  constructor(
    readonly code: string,
    readonly unite: string,
    readonly formule: string,
    /** When false, entries are not kept (a series run: values, completeness and missing data only; decision 0070). */
    readonly explique = true,
  ) {}

  /** Counts `n` expected data items. */
  attend(n = 1): this {
    this.attendus += n;
    return this;
  }

  /** Adds a contribution with the entry that gave it (the entry object is kept: pass a fresh one). */
  ajoute(contribution: number, entree: Entree): this {
    this.valeur += contribution;
    if (!this.explique) return this;
    entree.contribution = contribution;
    this.entrees.push(entree);
    return this;
  }

  /** Names an entry that entered the figure without adding to it (a factor, a price). */
  cite(entree: Entree): this {
    if (this.explique && !this.entrees.some((e) => e.objet === entree.objet && e.id === entree.id && e.contribution === undefined)) this.entrees.push(entree);
    return this;
  }

  manque(m: Manquant): this {
    if (this.vus) {
      if (this.vus.ajoute(m)) this.manquants.push(m);
      return this;
    }
    for (const x of this.manquants) if (x.objet === m.objet && x.id === m.id && x.champ === m.champ) return this;
    this.manquants.push(m);
    if (this.manquants.length >= 16) {
      this.vus = new ManquantsVus();
      for (const x of this.manquants) this.vus.ajoute(x);
    }
    return this;
  }

  remarque(code: string): this {
    if (!this.remarques.includes(code)) this.remarques.push(code);
    return this;
  }

  resultat(): Indicateur {
    return indicateur(this.code, this.calculable ? this.valeur : null, this.unite, this.attendus, this.manquants, {
      formule: this.formule,
      entrees: this.entrees,
      ...(this.remarques.length ? { remarques: this.remarques } : {}),
    });
  }
}

export function completude(attendus: number, manquants: number): number {
  if (attendus <= 0) return 100;
  return round((100 * Math.max(0, attendus - manquants)) / attendus, 1);
}

export function indicateur(code: string, valeur: number | null, unite: string, attendus: number, manquants: Manquant[], explication: Explication): Indicateur {
  return { code, valeur, unite, completude: completude(attendus, manquants.length), attendus, manquants, explication };
}

/** A factor as an explanation entry. */
export const entreeFacteur = (f: Facteur): Entree => ({
  objet: "facteur",
  id: f.id,
  libelle: f.libelle,
  valeur: f.valeur,
  unite: f.unite,
  source: f.source,
  version: f.version,
  confiance: f.confiance,
});

/** A ratio indicator, value = numerator / denominator of two other indicators (recomputed at every level). */
export type DefinitionRatio = { code: string; unite: string; formule: string; numerateur: string; denominateur: string };

// ---------------------------------------------------------------------------------------------
// Missing data of aggregated figures, kept by reference (decision 0070)
//
// An aggregated figure's missing data are those of all its plots, in plot order. They used to be copied into every
// crop, mode and farm figure (about 240,000 items per level for 200 plots); they are now kept as the plots' own lists
// and copied only when a caller reads `manquants` (the same array as before, built on first read). The count and
// the first items are read without copying (nombreManquants, premiersManquants).

const MORCEAUX = new WeakMap<Indicateur, { morceaux: Manquant[][]; nombre: number }>();

/** The number of missing data of a figure (its `manquants.length`, without copying an aggregated figure's list). */
export function nombreManquants(ind: Indicateur): number {
  return MORCEAUX.get(ind)?.nombre ?? ind.manquants.length;
}

/** The first `n` missing data of a figure (`manquants.slice(0, n)`, without copying an aggregated figure's list). */
export function premiersManquants(ind: Indicateur, n: number): Manquant[] {
  const m = MORCEAUX.get(ind);
  if (!m) return ind.manquants.slice(0, n);
  const out: Manquant[] = [];
  for (const morceau of m.morceaux) {
    for (const x of morceau) {
      if (out.length >= n) return out;
      out.push(x);
    }
  }
  return out;
}

/** Visits every missing datum of a figure in order, without copying an aggregated figure's list. */
function chaqueManquant(ind: Indicateur, f: (m: Manquant) => void) {
  const m = MORCEAUX.get(ind);
  if (!m) for (const x of ind.manquants) f(x);
  else for (const morceau of m.morceaux) for (const x of morceau) f(x);
}

/**
 * An indicator whose missing data are the concatenation of `morceaux` (kept by reference, copied on first read of
 * `manquants`). Same keys, values and JSON as `indicateur(...)` with the concatenated list.
 */
function indicateurParReference(
  code: string,
  valeur: number | null,
  unite: string,
  attendus: number,
  morceaux: Manquant[][],
  nombre: number,
  explication: Explication,
): Indicateur {
  const ind = {
    code,
    valeur,
    unite,
    completude: completude(attendus, nombre),
    attendus,
    get manquants(): Manquant[] {
      const liste: Manquant[] = [];
      for (const morceau of morceaux) for (const x of morceau) liste.push(x);
      Object.defineProperty(this, "manquants", { value: liste, writable: true, enumerable: true, configurable: true });
      MORCEAUX.delete(this as Indicateur);
      return liste;
    },
    set manquants(v: Manquant[]) {
      Object.defineProperty(this, "manquants", { value: v, writable: true, enumerable: true, configurable: true });
      MORCEAUX.delete(this as Indicateur);
    },
    explication,
  } as Indicateur;
  MORCEAUX.set(ind, { morceaux, nombre });
  return ind;
}

/** An explanation whose entries are built on first read (an aggregated figure's plots: most are never read). */
function explicationDifferee(formule: string, entrees: () => Entree[]): Explication {
  return {
    formule,
    get entrees(): Entree[] {
      const e = entrees();
      Object.defineProperty(this, "entrees", { value: e, writable: true, enumerable: true, configurable: true });
      return e;
    },
    set entrees(v: Entree[]) {
      Object.defineProperty(this, "entrees", { value: v, writable: true, enumerable: true, configurable: true });
    },
  };
}

export function ratio(def: DefinitionRatio, valeurs: Indicateurs): Indicateur | null {
  const num = valeurs[def.numerateur];
  const den = valeurs[def.denominateur];
  if (!num || !den) return null;
  const valeur = estNombre(num.valeur) && estNombre(den.valeur) && den.valeur !== 0 ? num.valeur / den.valeur : null;
  const explication: Explication = {
    formule: def.formule,
    entrees: [
      { objet: "indicateur", id: def.numerateur, valeur: num.valeur ?? undefined, unite: num.unite },
      { objet: "indicateur", id: def.denominateur, valeur: den.valeur ?? undefined, unite: den.unite },
    ],
  };
  // The numerator's missing data, then the denominator's that are not the same object.
  const dansNum = new Set<Manquant>();
  chaqueManquant(num, (m) => dansNum.add(m));
  const propres: Manquant[] = [];
  chaqueManquant(den, (m) => {
    if (!dansNum.has(m)) propres.push(m);
  });
  if (!MORCEAUX.has(num)) return indicateur(def.code, valeur, def.unite, num.attendus + den.attendus, [...num.manquants, ...propres], explication);
  const morceaux = [...MORCEAUX.get(num)!.morceaux, propres];
  return indicateurParReference(def.code, valeur, def.unite, num.attendus + den.attendus, morceaux, nombreManquants(num) + propres.length, explication);
}

export type ParcelleIndicateurs = { parcelle: ParcelleCampagne; indicateurs: Indicateurs };

/**
 * Area-weighted mean of the plots' indicators (§7.2). Each entry of the explanation is a plot with its
 * value and its area; a plot without an area above 0 is missing. Ratios are recomputed afterwards.
 * The plots' missing data are kept by reference and the explanation built when read (decision 0070).
 */
export function agregerParSurface(parcelles: ParcelleIndicateurs[], ratios: DefinitionRatio[] = []): Indicateurs {
  const codes = new Set<string>();
  for (const p of parcelles) for (const c of Object.keys(p.indicateurs)) codes.add(c);
  const ratioCodes = new Set(ratios.map((r) => r.code));
  const resultat: Indicateurs = {};
  for (const code of codes) {
    if (ratioCodes.has(code)) continue;
    let somme = 0;
    let surface = 0;
    let attendus = 0;
    let unite = "";
    let calculable = false;
    let nombre = 0;
    const morceaux: Manquant[][] = [];
    for (const { parcelle, indicateurs } of parcelles) {
      const ind = indicateurs[code];
      if (!ind) {
        // A code the plot does not have (a month without work) counts as 0 over its area.
        if (estNombre(parcelle.surface) && parcelle.surface > 0) surface += parcelle.surface;
        continue;
      }
      unite = ind.unite;
      attendus += ind.attendus + 1;
      const n = nombreManquants(ind);
      if (n > 0) {
        const m = MORCEAUX.get(ind);
        if (m) morceaux.push(...m.morceaux);
        else morceaux.push(ind.manquants);
        nombre += n;
      }
      if (!estNombre(parcelle.surface) || parcelle.surface <= 0) {
        morceaux.push([{ objet: "parcelle", id: parcelle.id, champ: "surface", libelle: parcelle.libelle }]);
        nombre++;
        continue;
      }
      if (!estNombre(ind.valeur)) continue;
      calculable = true;
      somme += ind.valeur * parcelle.surface;
      surface += parcelle.surface;
    }
    const explication = explicationDifferee("7.2", () => {
      const entrees: Entree[] = [];
      for (const { parcelle, indicateurs } of parcelles) {
        const ind = indicateurs[code];
        if (!ind || !estNombre(parcelle.surface) || parcelle.surface <= 0 || !estNombre(ind.valeur)) continue;
        entrees.push({ objet: "parcelle", id: parcelle.id, libelle: parcelle.libelle, valeur: ind.valeur, unite: `${ind.unite} × ${parcelle.surface} ha` });
      }
      return entrees;
    });
    resultat[code] = indicateurParReference(code, calculable && surface > 0 ? somme / surface : null, unite, attendus, morceaux, nombre, explication);
  }
  for (const def of ratios) {
    const r = ratio(def, resultat);
    if (r) resultat[def.code] = r;
  }
  return resultat;
}

/** Groups plots by a key (crop, management mode); plots whose key is null go under "null". */
export function grouper<T>(items: T[], cle: (item: T) => number | string | null): Map<string, T[]> {
  const groupes = new Map<string, T[]>();
  for (const item of items) {
    const k = String(cle(item) ?? "null");
    const liste = groupes.get(k) ?? [];
    liste.push(item);
    groupes.set(k, liste);
  }
  return groupes;
}
