/**
 * IFT (indicateur de fréquence de traitements) by the official method (research §2; docs/indicators.md
 * §7.3; decision 0045).
 *
 * Per treatment (one product in one intervention):
 *   seed treatment (TS)              IFT = proportion                              (segment semences)
 *   reference dose of the target     IFT = dose / doseRef × proportion             ("à la cible")
 *   else reference dose of the crop  IFT = dose / doseRef × proportion             ("à la culture", AV2)
 *   else                             IFT = proportion                              (AV1)
 * with unit conversions per hectolitre of spray (L/HL, KG/HL) through the spray volume, and the
 * official fall-backs (AV3 no dose or unit, AV4 incompatible units, AV12 reference without dose) = proportion.
 * proportion = passes of the intervention (frequency × surface rate, the research's facteur / 100).
 * Segments: TS → semences; biocontrôle (product or row) → biocontrole; else the reference row's segment (S3 H, S4 I,
 * S5 F, S6 A); else H, F, I, A of the input's category (decision 0085).
 * Plot IFT = Σ treatments; upward = area-weighted mean (resultat.ts).
 */

import { contexte as contexteDefaut, interventionsRetenues, passages, type Contexte } from "./contexte";
import { Cumul, SANS_ENTREE } from "./resultat";
import { convertirDose, segmentDeCode, type RaisonConversion } from "./ift-doses";
import type { DoseReference, FamilleIft, Indicateurs, IntrantPhyto, InterventionCampagne } from "./types";

export const SEGMENTS_IFT = ["herbicides", "fongicides", "insecticides", "autres", "semences", "biocontrole"] as const;
export type SegmentIft = (typeof SEGMENTS_IFT)[number];

const SEGMENT_DE_FAMILLE: Record<FamilleIft, SegmentIft> = { H: "herbicides", F: "fongicides", I: "insecticides", A: "autres", TS: "semences" };

/** The IFT indicators of one mode, in the order a screen shows them. */
export const CODES_IFT = [
  "total",
  "chimique",
  "chimiqueHorsTS",
  "herbicides",
  "horsHerbicides",
  "fongicides",
  "insecticides",
  "autres",
  "semences",
  "biocontrole",
] as const;
export type CodeIft = (typeof CODES_IFT)[number];

export type ModeIft = "cible" | "culture";

export type Avertissement = "AV1" | "AV2" | "AV3" | "AV4" | "AV12";

export type TraitementIft = {
  ift: number;
  segment: SegmentIft;
  /** How the reference dose was chosen. */
  methode: "semences" | "cible" | "culture" | "defaut";
  doseReference: DoseReference | null;
  avertissement: Avertissement | null;
  /** What would fix an AV4: the dose's unit, or the operation's spray volume. */
  manque?: RaisonConversion;
};

export { lireUniteDose } from "./ift-doses";

/**
 * Applied dose over reference dose (the official calc(ref) of research §2.2), or the fall-back code. The applied
 * dose is put in the reference's unit by the one conversion of the dialog and the engine (ift-doses.ts): per hectare
 * against per hectolitre, 100 × dose / spray volume; per hectolitre against per hectare, dose × spray volume / 100.
 * `manque` says which datum would fix an AV4: the unit, or the operation's spray volume.
 */
export function rapportDose(
  dose: number | null | undefined,
  unite: string | null | undefined,
  ref: DoseReference,
  volumeBouillie: number | null | undefined,
): { rapport: number } | { avertissement: Avertissement; manque?: RaisonConversion } {
  if (ref.dose == null || !(ref.dose > 0) || ref.unite == null || ref.unite.toUpperCase() === "U0") return { avertissement: "AV12" };
  if (dose == null || !unite) return { avertissement: "AV3" };
  const c = convertirDose(dose, unite, ref.unite, volumeBouillie);
  if ("raison" in c) return { avertissement: "AV4", manque: c.raison };
  return { rapport: c.valeur / ref.dose };
}

const utilisable = (d: DoseReference) => d.dose != null && d.dose > 0 && d.unite != null && d.unite.toUpperCase() !== "U0";

/** Reference dose at the target: the first of the input's targets (rank order) that has a usable dose. */
export function doseReferenceCible(intrant: Pick<IntrantPhyto, "cibles" | "dosesReference">): DoseReference | null {
  for (const cible of intrant.cibles) {
    const d = intrant.dosesReference.find((x) => x.idCible === cible && utilisable(x));
    if (d) return d;
  }
  return null;
}

/**
 * Reference dose at the crop: the list's crop row (no target) when there is one, else the smallest target
 * dose of the product for the crop (research §2.1), among the rows in the unit of the first usable row.
 */
export function doseReferenceCulture(intrant: Pick<IntrantPhyto, "dosesReference">): DoseReference | null {
  const culture = intrant.dosesReference.find((x) => x.idCible == null && utilisable(x));
  if (culture) return culture;
  const cibles = intrant.dosesReference.filter((x) => x.idCible != null && utilisable(x));
  if (cibles.length === 0) return null;
  const unite = cibles[0].unite?.toUpperCase();
  return cibles.filter((x) => x.unite?.toUpperCase() === unite).reduce((min, x) => ((x.dose ?? Infinity) < (min.dose ?? Infinity) ? x : min));
}

/**
 * The segment of a treatment (the ministry's algorithm, research §2.2): biocontrol when the product (catalogue flag)
 * or its reference row says so; else the segment of the reference-dose row it was counted with (a product both
 * fungicide and insecticide counts where its row says); else, without a row or a row without a segment, the family of
 * the input's category.
 */
export function segmentTraitement(intrant: Pick<IntrantPhyto, "famille" | "biocontrole">, ref: DoseReference | null): SegmentIft {
  if (intrant.biocontrole || ref?.biocontrole === true) return "biocontrole";
  const duRang = segmentDeCode(ref?.segment);
  if (duRang && duRang !== "semences") return duRang;
  return intrant.famille ? SEGMENT_DE_FAMILLE[intrant.famille] : "autres";
}

/** IFT of one treatment; null when the input's category is not counted in the IFT (no family). */
export function iftTraitement(intrant: IntrantPhyto, proportion: number, mode: ModeIft = "cible"): TraitementIft | null {
  if (!intrant.famille) return null;
  if (intrant.famille === "TS") return { ift: proportion, segment: "semences", methode: "semences", doseReference: null, avertissement: null };
  const cible = mode === "cible" ? doseReferenceCible(intrant) : null;
  const ref = cible ?? doseReferenceCulture(intrant);
  const methode = cible ? "cible" : ref ? "culture" : "defaut";
  const segment = segmentTraitement(intrant, ref);
  if (!ref) return { ift: proportion, segment, methode, doseReference: null, avertissement: "AV1" };
  const r = rapportDose(intrant.dose, intrant.unite, ref, intrant.volumeBouillie);
  if ("avertissement" in r)
    return { ift: proportion, segment, methode, doseReference: ref, avertissement: r.avertissement, ...(r.manque ? { manque: r.manque } : {}) };
  // AV2 marks a dose taken at the crop while the method asked for the target.
  return { ift: r.rapport * proportion, segment, methode, doseReference: ref, avertissement: mode === "cible" && methode === "culture" ? "AV2" : null };
}

const CHAMP_MANQUANT: Record<Avertissement, string | null> = { AV1: "doseReference", AV2: null, AV3: "dose", AV4: "unite", AV12: "doseReference" };

/** Which segments make each IFT indicator. */
export function segmentsDe(code: CodeIft, horsHerbicidesAvecTS: boolean): SegmentIft[] {
  switch (code) {
    case "total":
      return [...SEGMENTS_IFT];
    case "chimique":
      return ["herbicides", "fongicides", "insecticides", "autres", "semences"];
    case "chimiqueHorsTS":
      return ["herbicides", "fongicides", "insecticides", "autres"];
    case "horsHerbicides":
      return horsHerbicidesAvecTS ? ["fongicides", "insecticides", "autres", "semences"] : ["fongicides", "insecticides", "autres"];
    default:
      return [code];
  }
}

/**
 * IFT indicators of a list of interventions, per hectare of their plot: "ift.<mode>.<code>" for both
 * modes. Called with one intervention it gives the intervention's IFT, with a plot's it gives the plot's.
 */
export function indicateursIft(interventions: InterventionCampagne[], ctx: Contexte = contexteDefaut()): Indicateurs {
  const resultat: Indicateurs = {};
  // For each segment, the indicators it enters (computed once, not per treatment).
  const codesDuSegment = new Map<SegmentIft, CodeIft[]>(
    SEGMENTS_IFT.map((seg) => [seg, CODES_IFT.filter((code) => segmentsDe(code, ctx.options.horsHerbicidesAvecTS).includes(seg))]),
  );
  for (const mode of ["cible", "culture"] as const) {
    const cumuls = Object.fromEntries(CODES_IFT.map((c) => [c, new Cumul(`ift.${mode}.${c}`, "doses de référence/ha", "7.3", ctx.explique)])) as Record<
      CodeIft,
      Cumul
    >;
    for (const intervention of interventionsRetenues(interventions, ctx.options)) {
      const phytos = intervention.intrants.filter((i): i is IntrantPhyto => i.type === "phyto");
      if (phytos.length === 0) continue;
      const p = passages(intervention);
      for (const intrant of phytos) {
        const t = p.valeur === null ? null : iftTraitement(intrant, p.valeur, mode);
        if (p.valeur !== null && t === null) continue; // not counted in the IFT
        const segment =
          t?.segment ??
          (!intrant.famille
            ? null
            : intrant.famille === "TS"
              ? "semences"
              : segmentTraitement(intrant, mode === "cible" ? (doseReferenceCible(intrant) ?? doseReferenceCulture(intrant)) : doseReferenceCulture(intrant)));
        if (!segment) continue;
        const libelle = !ctx.explique && ctx.explique !== undefined ? "" : intrant.libelle;
        const champ = t?.avertissement ? (t.manque === "volumeBouillie" ? "volumeBouillie" : CHAMP_MANQUANT[t.avertissement]) : null;
        // A per-hL conversion without a spray volume is fixed on the operation (its spray volume), the rest on the input.
        const operation = champ === "volumeBouillie" && intervention.operation ? intervention.operation : null;
        for (const code of codesDuSegment.get(segment) ?? []) {
          const c = cumuls[code].attend();
          if (p.manquant) {
            c.manque(p.manquant);
            continue;
          }
          if (!t) continue;
          if (champ)
            c.manque(
              operation
                ? { objet: "operation", id: operation.id, champ, libelle: operation.libelle }
                : { objet: "intrant", id: intrant.id, champ, libelle: intrant.libelle },
            );
          if (t.avertissement) c.remarque(t.avertissement);
          if (intrant.anneeListeIft != null && t.doseReference) c.remarque(`liste-ift-voisine:${intrant.anneeListeIft}`);
          c.ajoute(
            t.ift,
            !c.explique
              ? SANS_ENTREE
              : {
                  objet: "intrant",
                  id: intrant.id,
                  libelle,
                  valeur: intrant.dose ?? undefined,
                  unite: intrant.unite ?? undefined,
                  date: intervention.date,
                  idIntervention: intervention.id,
                  doseReference: {
                    methode: t.methode,
                    dose: t.doseReference?.dose ?? null,
                    unite: t.doseReference?.unite ?? null,
                    annee: intrant.anneeListeIft ?? null,
                  },
                },
          );
        }
      }
    }
    for (const code of CODES_IFT) resultat[`ift.${mode}.${code}`] = cumuls[code].resultat();
  }
  return resultat;
}
