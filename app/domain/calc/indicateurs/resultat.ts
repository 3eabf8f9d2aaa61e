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

/** An accumulator for one indicator. */
export class Cumul {
  valeur = 0;
  attendus = 0;
  manquants: Manquant[] = [];
  entrees: Entree[] = [];
  remarques: string[] = [];
  /** When false, the value is null (nothing could be computed). */
  calculable = true;

  constructor(
    readonly code: string,
    readonly unite: string,
    readonly formule: string,
  ) {}

  /** Counts `n` expected data items. */
  attend(n = 1): this {
    this.attendus += n;
    return this;
  }

  /** Adds a contribution with the entry that gave it (the entry object is kept: pass a fresh one). */
  ajoute(contribution: number, entree: Entree): this {
    this.valeur += contribution;
    entree.contribution = contribution;
    this.entrees.push(entree);
    return this;
  }

  /** Names an entry that entered the figure without adding to it (a factor, a price). */
  cite(entree: Entree): this {
    if (!this.entrees.some((e) => e.objet === entree.objet && e.id === entree.id && e.contribution === undefined)) this.entrees.push(entree);
    return this;
  }

  manque(m: Manquant): this {
    if (!this.manquants.some((x) => x.objet === m.objet && x.id === m.id && x.champ === m.champ)) this.manquants.push(m);
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

export function ratio(def: DefinitionRatio, valeurs: Indicateurs): Indicateur | null {
  const num = valeurs[def.numerateur];
  const den = valeurs[def.denominateur];
  if (!num || !den) return null;
  const valeur = estNombre(num.valeur) && estNombre(den.valeur) && den.valeur !== 0 ? num.valeur / den.valeur : null;
  const manquants = [...num.manquants, ...den.manquants.filter((m) => !num.manquants.includes(m))];
  return indicateur(def.code, valeur, def.unite, num.attendus + den.attendus, manquants, {
    formule: def.formule,
    entrees: [
      { objet: "indicateur", id: def.numerateur, valeur: num.valeur ?? undefined, unite: num.unite },
      { objet: "indicateur", id: def.denominateur, valeur: den.valeur ?? undefined, unite: den.unite },
    ],
  });
}

export type ParcelleIndicateurs = { parcelle: ParcelleCampagne; indicateurs: Indicateurs };

/**
 * Area-weighted mean of the plots' indicators (§7.2). Each entry of the explanation is a plot with its
 * value and its area; a plot without an area above 0 is missing. Ratios are recomputed afterwards.
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
    const manquants: Manquant[] = [];
    const entrees: Entree[] = [];
    for (const { parcelle, indicateurs } of parcelles) {
      const ind = indicateurs[code];
      if (!ind) {
        // A code the plot does not have (a month without work) counts as 0 over its area.
        if (estNombre(parcelle.surface) && parcelle.surface > 0) surface += parcelle.surface;
        continue;
      }
      unite = ind.unite;
      attendus += ind.attendus + 1;
      manquants.push(...ind.manquants);
      if (!estNombre(parcelle.surface) || parcelle.surface <= 0) {
        manquants.push({ objet: "parcelle", id: parcelle.id, champ: "surface", libelle: parcelle.libelle });
        continue;
      }
      if (!estNombre(ind.valeur)) continue;
      calculable = true;
      somme += ind.valeur * parcelle.surface;
      surface += parcelle.surface;
      entrees.push({ objet: "parcelle", id: parcelle.id, libelle: parcelle.libelle, valeur: ind.valeur, unite: `${ind.unite} × ${parcelle.surface} ha` });
    }
    resultat[code] = indicateur(code, calculable && surface > 0 ? somme / surface : null, unite, attendus, manquants, { formule: "7.2", entrees });
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
