/**
 * The catalogue of the engine's indicators: for each code, its group (the indicator groups a series
 * publishes, spec 3 §3.14 groupesIndicateurs) and the translation keys of its label and qualifier
 * (app/locales/{fr,en}/indicateurs.ts). Codes are those of docs/indicators.md §7.
 */

export const GROUPES_INDICATEURS = ["ift", "fertilisation", "travail", "economie", "energie", "ges"] as const;
export type GroupeIndicateurs = (typeof GROUPES_INDICATEURS)[number];

const GROUPE_DE_PREFIXE: Record<string, GroupeIndicateurs> = {
  ift: "ift",
  fertilisation: "fertilisation",
  bilanAzote: "fertilisation",
  phyto: "ift",
  travail: "travail",
  economie: "economie",
  energie: "energie",
  ges: "ges",
};

export type DescriptionIndicateur = {
  groupe: GroupeIndicateurs;
  /** Translation key of the label. */
  libelle: string;
  /** Translation key of the qualifier (IFT mode, price set, month) and its value, when the code has one. */
  qualificatif?: { cle: string; valeur?: string };
};

/** Label keys are flat: the code's dots become dashes (a code can be both a figure and the parent of others). */
const cle = (chemin: string) => `indicateurs.libelles.${chemin.replaceAll(".", "-")}`;

/** Describes a code: "ift.cible.total" → IFT total, at the target; "economie.reel.margeBrute" → gross margin, real prices. */
export function decrireIndicateur(code: string): DescriptionIndicateur | null {
  const [prefixe, second, ...reste] = code.split(".");
  const groupe = GROUPE_DE_PREFIXE[prefixe];
  if (!groupe) return null;
  if (prefixe === "ift") return { groupe, libelle: cle(`ift.${reste.join(".")}`), qualificatif: { cle: `indicateurs.modes-ift.${second}` } };
  if (prefixe === "economie") return { groupe, libelle: cle(`economie.${reste.join(".")}`), qualificatif: { cle: `indicateurs.jeux-prix.${second}` } };
  if (prefixe === "travail" && second === "temps" && reste[0] === "mois")
    return { groupe, libelle: cle("travail.temps.mois"), qualificatif: { cle: "indicateurs.mois", valeur: reste[1] } };
  return { groupe, libelle: cle(code) };
}
