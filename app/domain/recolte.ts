import { z } from "zod";
import { decimalMax, optionalNumber, requiredNumber, requiredText } from "./validation";

/**
 * Harvest products of an intervention (spec 3 §2.2, §3.6, §4.1, §5, §9; decision 0031): the harvest dialog's
 * schema (browser and server), the grazing rules, the observation series' name and elements, and the harvest
 * qualifier's schema.
 */

/** Grazing (spec 3 §9): its yield is a duration in days; no qualifier, observations at 0 (§4.1). */
export const TYPE_SORTIE_PATURAGE = 671;
/** The harvest's unit by default (C-HARV-11), and a grazing's (C-HARV-09). */
export const UNITE_RECOLTE_DEFAUT = "t/ha";
export const UNITE_PATURAGE = "jours";
/** The crop category the dialog starts with (C-HARV-12): main crops (seeds/reference/categorie-culture.json). */
export const CATEGORIE_CULTURE_RECOLTE_DEFAUT = 9017;
/** The harvest observation series' type (spec 3 §3.6: always 1128 on save). */
export const TYPE_SERIE_RECOLTE = 1128;

/** The kinds of characteristic row (seeds/reference/type-caracteristique-recolte.json). */
export const CARACTERISTIQUE_RECOLTE = { HUMIDITE_REFERENCE: 1, ANIMAUX: 2 } as const;
export const UNITE_ANIMAUX = "têtes";

/**
 * The actual observations of a harvest (spec 3 §3.6): the form field, the observed element and its unit.
 * Saved as observations of the harvest's series (type 1128).
 */
export const OBSERVATIONS_RECOLTE = [
  { champ: "obsRendement", element: 1680, unite: "t/ha" },
  { champ: "obsHumidite", element: 1192, unite: "%" },
  { champ: "obsPoidsSpecifique", element: 1190, unite: "kg/hL" },
  { champ: "obsPmg", element: 1191, unite: "g" },
  { champ: "obsProteines", element: 1193, unite: "%" },
  { champ: "obsHuile", element: 1685, unite: "%" },
] as const;
export type ChampObservation = (typeof OBSERVATIONS_RECOLTE)[number]["champ"];

/** Upper bounds of the columns (recolte.rendement decimal(12,3); characteristics and observations decimal(14,4)). */
const RENDEMENT_MAX = decimalMax(12, 3);
const VALEUR_MAX = decimalMax(14, 4);
/** At most this many animal rows on one grazing. */
export const MAX_ANIMAUX = 20;

const id = () => requiredNumber({ integer: true, min: 1 });
const optionalId = () => optionalNumber({ integer: true, min: 1 });
const valeur = () => optionalNumber({ min: 0, max: VALEUR_MAX });

/** One animal row of a grazing (C-HARV-04): the animal type (its reference number) and the number of heads. */
export const AnimalSchema = z.object({
  dicIdModalite: id(),
  nombre: requiredNumber({ min: 0, max: VALEUR_MAX }),
});

/**
 * The harvest dialog (C-HARV-02, 23..29): crop and output type required; yield, reference humidity, the
 * observations, the grazing duration and each animal row's count and animal number numeric.
 */
export const RecolteSchema = z
  .object({
    idCulture: id(),
    dicIdTypeSortie: id(),
    rendement: optionalNumber({ min: 0, max: RENDEMENT_MAX }),
    humiditeReference: optionalNumber({ min: 0, max: 100 }),
    idQualifiantRecolte: optionalId(),
    obsRendement: valeur(),
    obsHumidite: optionalNumber({ min: 0, max: 100 }),
    obsPoidsSpecifique: valeur(),
    obsPmg: valeur(),
    obsProteines: optionalNumber({ min: 0, max: 100 }),
    obsHuile: optionalNumber({ min: 0, max: 100 }),
    dureePaturage: optionalNumber({ min: 0, max: RENDEMENT_MAX }),
    animaux: z.array(AnimalSchema).max(MAX_ANIMAUX, "warning.too-many").default([]),
  })
  .superRefine((v, ctx) => {
    // An animal type appears once on a grazing.
    const seen = new Set<number>();
    v.animaux.forEach((a, i) => {
      if (seen.has(a.dicIdModalite)) ctx.addIssue({ code: "custom", path: ["animaux", i, "dicIdModalite"], message: "warning.invalid" });
      seen.add(a.dicIdModalite);
    });
  });
export type RecolteInput = z.infer<typeof RecolteSchema>;

/**
 * One characteristic row of a harvest as the API writes it (caracteristique_recoltes, spec 3 §7): the reference
 * humidity (kind 1, a percentage) or an animal row of a grazing (kind 2: the animal type and its number of heads).
 * Written through the harvest dialog's schema and save (the row becomes humiditeReference or an animaux entry).
 */
export const CaracteristiqueRecolteSchema = z
  .object({
    dicIdCaracteristiqueRecolte: requiredNumber({ integer: true }).refine(
      (v) => v === CARACTERISTIQUE_RECOLTE.HUMIDITE_REFERENCE || v === CARACTERISTIQUE_RECOLTE.ANIMAUX,
      "warning.invalid",
    ),
    valeurNum: requiredNumber({ min: 0, max: VALEUR_MAX }),
    dicIdModalite: optionalId(),
  })
  .superRefine((v, ctx) => {
    if (v.dicIdCaracteristiqueRecolte === CARACTERISTIQUE_RECOLTE.ANIMAUX && v.dicIdModalite == null)
      ctx.addIssue({ code: "custom", path: ["dicIdModalite"], message: "warning.required" });
  });
export type CaracteristiqueRecolteInput = z.infer<typeof CaracteristiqueRecolteSchema>;

export const estPaturage = (dicIdTypeSortie: number | null | undefined) => dicIdTypeSortie === TYPE_SORTIE_PATURAGE;

/** What a harvest stores once the rules of §4.1 are applied. */
export type RecolteStockee = {
  idCulture: number;
  dicIdTypeSortie: number;
  rendement: number | null;
  idQualifiantRecolte: number | null;
  dicLlUnite: string;
  humiditeReference: number | null;
  animaux: { dicIdModalite: number; nombre: number }[];
  observations: { element: number; unite: string; valeur: number }[];
};

/**
 * The rules of a harvest's save (spec 3 §4.1, §9). A grazing (671): its yield is the grazing duration in days
 * (C-HARV-09), its qualifier is cleared (C-HARV-08), its observation values are 0 (C-HARV-10) and it keeps its
 * animal rows. Another output type: the output type's unit, else t/ha (C-HARV-11); no duration, no animals;
 * the observations given.
 */
export function recolteStockee(v: RecolteInput, uniteTypeSortie?: string | null): RecolteStockee {
  if (estPaturage(v.dicIdTypeSortie)) {
    return {
      idCulture: v.idCulture,
      dicIdTypeSortie: v.dicIdTypeSortie,
      rendement: v.dureePaturage ?? null,
      idQualifiantRecolte: null,
      dicLlUnite: UNITE_PATURAGE,
      humiditeReference: null,
      animaux: v.animaux.map((a) => ({ dicIdModalite: a.dicIdModalite, nombre: a.nombre })),
      observations: OBSERVATIONS_RECOLTE.map((o) => ({ element: o.element, unite: o.unite, valeur: 0 })),
    };
  }
  return {
    idCulture: v.idCulture,
    dicIdTypeSortie: v.dicIdTypeSortie,
    rendement: v.rendement ?? null,
    idQualifiantRecolte: v.idQualifiantRecolte ?? null,
    dicLlUnite: uniteTypeSortie || UNITE_RECOLTE_DEFAUT,
    humiditeReference: v.humiditeReference ?? null,
    animaux: [],
    observations: OBSERVATIONS_RECOLTE.flatMap((o) => (v[o.champ] == null ? [] : [{ element: o.element, unite: o.unite, valeur: v[o.champ] as number }])),
  };
}

/** The harvest observation series' name (spec 3 §4.1, C-HARV-15, 16): crop, output type, then the qualifier in brackets. */
export function nomSerieRecolte(culture: string, typeSortie: string, qualifiant?: string | null): string {
  const nom = `${culture} - ${typeSortie}`;
  return qualifiant ? `${nom} (${qualifiant})` : nom;
}

/** A harvest qualifier is created from typed text (C-QUAL-02): not blank. */
export const QualifiantRecolteSchema = z.object({
  qrdNom: requiredText({ max: 255 }),
});
export type QualifiantRecolteInput = z.infer<typeof QualifiantRecolteSchema>;

/** The warning of a qualifier deletion refused because harvests use it (spec 3 §4.2, §8; C-QUAL-04). */
export const QUALIFIANT_DELETE_WARNING = "interventions.qualifiant-delete-error";

/** A harvest as the interventions grid's inputs detail and the inputs table show it. */
export type RecolteDetail = { id: number; libelle: string; rendement: number | null; unite: string };
