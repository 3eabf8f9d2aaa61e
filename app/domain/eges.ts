/**
 * Greenhouse-gas category (categorieEgesV2) of a folder fertiliser, from its name and composition:
 * the rule behind "assign greenhouse-gas emissions" (PATCH dossier/{id}/affectation_eges, spec 2 §2;
 * docs/decisions/0018-affectation-eges.md). The categories and their factors are the reference list
 * seeds/reference/categorie-eges.json.
 */

export const CATEGORIES_EGES = [
  "AMMONITRATE",
  "UREE",
  "SOLUTION_AZOTEE",
  "AZOTE_AUTRE",
  "ENGRAIS_COMPOSE",
  "PHOSPHATE",
  "POTASSIQUE",
  "AMENDEMENT_CALCIQUE",
  "ORGANIQUE",
] as const;
export type CategorieEges = (typeof CATEGORIES_EGES)[number];

/** Input type of a fertiliser (dicIdTypeIntrant, spec 3 §9). */
export const TYPE_INTRANT_FERTILISANT = 540;

export const ELEMENTS_FERTILISANT = ["n", "p2o5", "k2o", "mgo", "cu", "mn", "so3", "cao", "na2o", "b", "fe", "mo", "co"] as const;
export type CompositionFertilisant = Partial<Record<(typeof ELEMENTS_FERTILISANT)[number], number | null>>;

/** Why a category was chosen, or why none was. */
export type MotifClassement = "libelle" | "composition" | "composition-vide" | "sans-majeur";

export type Classement = { categorie: CategorieEges; motif: "libelle" | "composition" } | { categorie: null; motif: "composition-vide" | "sans-majeur" };

/** Below this content (%) for every one of N, P2O5 and K2O a product is a manure or organic fertiliser. */
export const SEUIL_ORGANIQUE_PCT = 10;

const normalise = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/** Words of a product name that tell what the percentages cannot: the form of nitrogen, an organic origin, a liming material. */
const MOTS: [RegExp, CategorieEges][] = [
  [/\b(fumier|lisier|purin|compost|fientes?|digestat|boues?|vinasse|guano|engrais organique|farine de plumes?)\b/, "ORGANIQUE"],
  [/\b(solution azotee|solutions azotees|uan)\b|\bsa ?(30|39|390)\b/, "SOLUTION_AZOTEE"],
  [/\buree\b/, "UREE"],
  [/\bammonitrate\b|\bnitrate d'ammonium\b/, "AMMONITRATE"],
  [/\b(chaux|calcaire|carbonate de calcium|dolomie|amendement calcique|amendement basique|ecumes?)\b/, "AMENDEMENT_CALCIQUE"],
];

const pct = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * The category of a fertiliser: a telling word of its name first, else its composition. Straight
 * nitrogen is told apart by its content, as the usual products are sold: urea 46 %, nitrogen
 * solutions 28–32 % and 37–40 % (UAN 30 and 39), ammonium nitrate 26–37 % (27, 33.5, 34.4);
 * any other straight nitrogen is "other". A product whose N, P2O5 and K2O are all below 10 % is a
 * manure or organic fertiliser; calcium or magnesium alone is a liming material.
 */
export function classerFertilisant(libelle: string, composition: CompositionFertilisant): Classement {
  const nom = normalise(libelle);
  for (const [mot, categorie] of MOTS) if (mot.test(nom)) return { categorie, motif: "libelle" };

  const n = pct(composition.n);
  const p = pct(composition.p2o5);
  const k = pct(composition.k2o);
  const majeurs = [n, p, k].filter((v) => v > 0).length;
  if (majeurs === 0) {
    if (pct(composition.cao) > 0 || pct(composition.mgo) > 0) return { categorie: "AMENDEMENT_CALCIQUE", motif: "composition" };
    const autres = ELEMENTS_FERTILISANT.some((e) => pct(composition[e]) > 0);
    return { categorie: null, motif: autres ? "sans-majeur" : "composition-vide" };
  }
  if (Math.max(n, p, k) < SEUIL_ORGANIQUE_PCT) return { categorie: "ORGANIQUE", motif: "composition" };
  if (majeurs >= 2) return { categorie: "ENGRAIS_COMPOSE", motif: "composition" };
  if (p > 0) return { categorie: "PHOSPHATE", motif: "composition" };
  if (k > 0) return { categorie: "POTASSIQUE", motif: "composition" };
  if (n >= 45) return { categorie: "UREE", motif: "composition" };
  if ((n >= 28 && n <= 32) || (n >= 37 && n <= 40)) return { categorie: "SOLUTION_AZOTEE", motif: "composition" };
  if (n >= 26 && n < 37) return { categorie: "AMMONITRATE", motif: "composition" };
  return { categorie: "AZOTE_AUTRE", motif: "composition" };
}

/** The N, P2O5 and K2O contents of a composition (%, 0 when absent): its grade, written by formuleNpk (app/components/format.ts). */
export function teneursNpk(composition: CompositionFertilisant): [number, number, number] {
  return [pct(composition.n), pct(composition.p2o5), pct(composition.k2o)];
}

/**
 * The liming kind of a fertiliser, for the CO2 of liming (IPCC 2006 Vol. 4 Ch. 11 Eq. 11.12, carbonates only):
 * "dolomie" for a magnesian limestone (its name, or magnesium in its composition), "calcaire" for the other
 * carbonates; null for a product that is no liming material, and for quick or slaked lime ("chaux"), whose CO2 left
 * at its manufacture (decision 0106).
 */
export function amendementDe(categorie: CategorieEges | null, libelle: string, composition: CompositionFertilisant): "calcaire" | "dolomie" | null {
  const c = categorie ?? classerFertilisant(libelle, composition).categorie;
  if (c !== "AMENDEMENT_CALCIQUE") return null;
  const nom = normalise(libelle);
  if (/\bdolomi|\bmagnesien/.test(nom) || pct(composition.mgo) > 0) return "dolomie";
  if (/\bchaux\b/.test(nom)) return null;
  return "calcaire";
}

/**
 * Density of a nitrogen solution, kg/L, for a dose in l/ha: "solution azotée 390" holds 390 g N per litre at 30 % N
 * by mass (its name and its guaranteed content, NF U 42-001), so 0.390 / 0.30 = 1.3 kg/L. Other products have no
 * density here: the engine then assumes 1 kg/L and lists it missing (decision 0106).
 */
export const DENSITE_SOLUTION_AZOTEE = 1.3;
