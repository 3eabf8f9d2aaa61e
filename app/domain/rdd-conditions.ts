/**
 * Machine-checkable conditions of a decision rule (issue 13, "beyond the spec"; decision 0041). A rule may carry one
 * condition from this small set, checked on the recorded interventions of a plot (done ones only, `realisee`):
 * - `produit_interdit`: no input whose product name contains one of the listed names (case and accents ignored);
 * - `delai_min`: at least `jours` days between two passes of the same product (same catalogue row, or same name).
 * The verdict gives the facts behind it: the offending inputs, or the two passes too close together.
 */
export type Condition = { type: "produit_interdit"; produits: string[] } | { type: "delai_min"; jours: number };
export const CONDITION_TYPES = ["produit_interdit", "delai_min"] as const;

export type InterventionFaits = { id: number; date: string; realisee: boolean; produits: { cle: string; libelle: string }[] };
export type Fait = { date: string; libelle: string; date2?: string; jours?: number };
export type Verdict = { respectee: boolean; faits: Fait[] };

const plain = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
const days = (a: string, b: string) => Math.round((Date.UTC(+b.slice(0, 4), +b.slice(5, 7) - 1, +b.slice(8, 10)) - Date.UTC(+a.slice(0, 4), +a.slice(5, 7) - 1, +a.slice(8, 10))) / 86_400_000);

export function verifierCondition(condition: Condition, interventions: InterventionFaits[]): Verdict {
  const faites = interventions.filter((i) => i.realisee).sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
  const faits: Fait[] = [];
  if (condition.type === "produit_interdit") {
    const interdits = condition.produits.map(plain).filter(Boolean);
    for (const i of faites) for (const p of i.produits) if (interdits.some((x) => plain(p.libelle).includes(x))) faits.push({ date: i.date, libelle: p.libelle });
  } else {
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
  }
  return { respectee: faits.length === 0, faits };
}

/** The condition from the rule form's fields (none when no type is chosen). */
export function conditionOf(v: { conditionType?: string; conditionProduits?: string; conditionJours?: number }): Condition | null {
  if (v.conditionType === "produit_interdit") return { type: "produit_interdit", produits: (v.conditionProduits ?? "").split(/[\n;,]/).map((s) => s.trim()).filter(Boolean) };
  if (v.conditionType === "delai_min" && v.conditionJours != null) return { type: "delai_min", jours: v.conditionJours };
  return null;
}

export function parseCondition(text: unknown): Condition | null {
  if (typeof text !== "string" || !text) return null;
  try {
    const c = JSON.parse(text) as Condition;
    return c && (c.type === "produit_interdit" || c.type === "delai_min") ? c : null;
  } catch {
    return null;
  }
}
