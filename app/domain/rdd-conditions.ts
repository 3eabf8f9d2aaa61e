import { round } from "./calc/indicateurs/resultat";
import type { Indicateurs } from "./calc/indicateurs/types";

/**
 * Machine-checkable conditions of a decision rule (issue 13, "beyond the spec"; decisions 0041 and 0060). A rule may
 * carry one condition from this small set, checked on the recorded interventions of a plot:
 * - `produit_interdit`: no input whose product name contains one of the listed names (case and accents ignored);
 * - `delai_min`: at least `jours` days between two passes of the same product (same catalogue row, or same name);
 * - `azote_mineral_max`: the plot's total mineral N at most `max` kg N/ha: the indicator `fertilisation.n.mineral`
 *   of the plot, as the engine (app/domain/calc/indicateurs) computes it for the plot's indicator panel;
 * - `ift_max`: the plot's IFT at most `max`: the indicator `ift.cible.total` of the plot, the same way;
 * - `realisee_avant`: every planned intervention (`prevue`) of the plot, or those whose operation's name contains
 *   `operation`, is done (`realisee`) on or before `date`. A planned one not done yet breaks the rule only once the
 *   date is past; before, it is listed as pending.
 * The first two and the indicators count the done interventions only (`realisee`, the engine's default). The two
 * indicator conditions compare the figure rounded as the panel shows it (2 decimals) with the threshold, so that the
 * verdict says what the panel shows. The verdict gives the facts behind it.
 */
export type Condition =
  | { type: "produit_interdit"; produits: string[] }
  | { type: "delai_min"; jours: number }
  | { type: "azote_mineral_max"; max: number }
  | { type: "ift_max"; max: number }
  | { type: "realisee_avant"; date: string; operation?: string };
export type ConditionType = Condition["type"];
export const CONDITION_TYPES = ["produit_interdit", "delai_min", "azote_mineral_max", "ift_max", "realisee_avant"] as const satisfies readonly ConditionType[];

/** The indicator each threshold condition reads (docs/indicators.md §7). */
export const INDICATEUR_CONDITION = { azote_mineral_max: "fertilisation.n.mineral", ift_max: "ift.cible.total" } as const;
/** The panel's precision: the figure compared with the threshold. */
export const DECIMALES_CONDITION = 2;

export type InterventionFaits = {
  id: number;
  date: string;
  realisee: boolean;
  prevue?: boolean;
  operation?: string | null;
  produits: { cle: string; libelle: string }[];
};
/**
 * One fact behind a verdict: an offending input (date, label), two passes too close together (date2, jours), an input's
 * contribution to an indicator (valeur, unite), or a planned intervention (statut: done late, not done, pending).
 */
export type Fait = {
  date: string;
  libelle: string;
  date2?: string;
  jours?: number;
  valeur?: number;
  unite?: string;
  statut?: "en_retard" | "non_realisee" | "en_attente";
};
/** The indicator a threshold condition compared: its value (rounded as shown), unit, threshold and completeness. */
export type Mesure = { code: string; valeur: number | null; unite: string; max: number; completude: number; manquants: number };
export type Verdict = { respectee: boolean; faits: Fait[]; mesure?: Mesure };

const plain = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
const days = (a: string, b: string) =>
  Math.round((Date.UTC(+b.slice(0, 4), +b.slice(5, 7) - 1, +b.slice(8, 10)) - Date.UTC(+a.slice(0, 4), +a.slice(5, 7) - 1, +a.slice(8, 10))) / 86_400_000);

export type ContexteVerification = {
  /** The plot's indicators from the engine (calculerParcelle): needed by the threshold conditions. */
  indicateurs?: Indicateurs;
  /** Today, yyyy-mm-dd (Paris): a planned intervention not done breaks `realisee_avant` only after its date. */
  aujourdhui?: string;
};

export function verifierCondition(condition: Condition, interventions: InterventionFaits[], contexte: ContexteVerification = {}): Verdict {
  const ordre = (a: InterventionFaits, b: InterventionFaits) => a.date.localeCompare(b.date) || a.id - b.id;
  const faites = interventions.filter((i) => i.realisee).sort(ordre);
  const faits: Fait[] = [];
  switch (condition.type) {
    case "produit_interdit": {
      const interdits = condition.produits.map(plain).filter(Boolean);
      for (const i of faites)
        for (const p of i.produits) if (interdits.some((x) => plain(p.libelle).includes(x))) faits.push({ date: i.date, libelle: p.libelle });
      return { respectee: faits.length === 0, faits };
    }
    case "delai_min": {
      const dernier = new Map<string, { date: string; libelle: string }>();
      for (const i of faites) {
        for (const p of i.produits) {
          const avant = dernier.get(p.cle);
          if (avant) {
            const ecart = days(avant.date, i.date);
            if (ecart < condition.jours) faits.push({ date: avant.date, date2: i.date, libelle: p.libelle, jours: ecart });
          }
          dernier.set(p.cle, { date: i.date, libelle: p.libelle });
        }
      }
      return { respectee: faits.length === 0, faits };
    }
    case "azote_mineral_max":
    case "ift_max": {
      const code = INDICATEUR_CONDITION[condition.type];
      const ind = contexte.indicateurs?.[code];
      if (!ind) throw new Error(`The condition ${condition.type} needs the plot's indicator ${code}`);
      const valeur = ind.valeur == null ? null : round(ind.valeur, DECIMALES_CONDITION);
      for (const e of ind.explication.entrees) {
        if (e.contribution === undefined || e.contribution === 0) continue;
        faits.push({ date: e.date ?? "", libelle: e.libelle ?? String(e.id), valeur: e.contribution, unite: ind.unite });
      }
      faits.sort((a, b) => a.date.localeCompare(b.date));
      const mesure: Mesure = { code, valeur, unite: ind.unite, max: condition.max, completude: ind.completude, manquants: ind.manquants.length };
      // A figure that cannot be computed breaks nothing: the facts then show the missing data (completeness).
      return { respectee: valeur == null || valeur <= condition.max, faits, mesure };
    }
    case "realisee_avant": {
      const filtre = condition.operation ? plain(condition.operation) : "";
      const prevues = interventions.filter((i) => i.prevue && (!filtre || plain(i.operation ?? "").includes(filtre))).sort(ordre);
      let enfreinte = false;
      for (const i of prevues) {
        const libelle = i.operation ?? "";
        if (i.realisee && i.date <= condition.date) continue;
        if (i.realisee) {
          faits.push({ date: i.date, libelle, statut: "en_retard" });
          enfreinte = true;
        } else if (contexte.aujourdhui != null && contexte.aujourdhui > condition.date) {
          faits.push({ date: i.date, libelle, statut: "non_realisee" });
          enfreinte = true;
        } else faits.push({ date: i.date, libelle, statut: "en_attente" });
      }
      return { respectee: !enfreinte, faits };
    }
  }
}

/** Whether the condition needs the plot's indicators (the engine's run). */
export const besoinIndicateurs = (c: Condition) => c.type === "azote_mineral_max" || c.type === "ift_max";

/** The rule form's fields of the condition (conditionOf's inverse): what the form shows for a stored condition. */
export function conditionFields(c: Condition | null) {
  return {
    conditionType: c?.type ?? "",
    conditionProduits: c?.type === "produit_interdit" ? c.produits.join("; ") : "",
    conditionJours: c?.type === "delai_min" ? String(c.jours) : "",
    conditionMax: c?.type === "azote_mineral_max" || c?.type === "ift_max" ? String(c.max) : "",
    conditionDate: c?.type === "realisee_avant" ? c.date : "",
    conditionOperation: c?.type === "realisee_avant" ? (c.operation ?? "") : "",
  };
}

/** The typed fields of a stored condition (a duplicated rule keeps its condition). */
export function conditionInput(c: Condition | null) {
  return {
    conditionType: c?.type,
    conditionProduits: c?.type === "produit_interdit" ? c.produits.join("; ") : undefined,
    conditionJours: c?.type === "delai_min" ? c.jours : undefined,
    conditionMax: c?.type === "azote_mineral_max" || c?.type === "ift_max" ? c.max : undefined,
    conditionDate: c?.type === "realisee_avant" ? c.date : undefined,
    conditionOperation: c?.type === "realisee_avant" ? c.operation : undefined,
  };
}

/** The condition from the rule form's fields (none when no type is chosen). */
export function conditionOf(v: {
  conditionType?: string;
  conditionProduits?: string;
  conditionJours?: number;
  conditionMax?: number;
  conditionDate?: string;
  conditionOperation?: string;
}): Condition | null {
  if (v.conditionType === "produit_interdit")
    return {
      type: "produit_interdit",
      produits: (v.conditionProduits ?? "")
        .split(/[\n;,]/)
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (v.conditionType === "delai_min" && v.conditionJours != null) return { type: "delai_min", jours: v.conditionJours };
  if ((v.conditionType === "azote_mineral_max" || v.conditionType === "ift_max") && v.conditionMax != null)
    return { type: v.conditionType, max: v.conditionMax };
  if (v.conditionType === "realisee_avant" && v.conditionDate)
    return { type: "realisee_avant", date: v.conditionDate, ...(v.conditionOperation ? { operation: v.conditionOperation } : {}) };
  return null;
}

export function parseCondition(text: unknown): Condition | null {
  if (typeof text !== "string" || !text) return null;
  try {
    const c = JSON.parse(text) as Condition;
    return c && (CONDITION_TYPES as readonly string[]).includes(c.type) ? c : null;
  } catch {
    return null;
  }
}
