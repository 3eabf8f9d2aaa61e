/**
 * Dose units and their conversions for the IFT (spec 3 §9; research §2.2; decision 0085). One function for the phyto
 * dialog and the engine: the applied dose in the unit of the reference dose, through the spray volume when one of
 * the two is per hectolitre of spray.
 *
 *   same base (per ha, per hL, per q)            dose (× 0.001 for g and mL)
 *   applied per ha, reference per hL  (DIVISION)  100 × dose / spray volume       (spec 3 §9)
 *   applied per hL, reference per ha  (MULTIPL.)  dose × spray volume / 100
 *   a mass against a volume, an unknown unit      no conversion ("unite")
 *   per-hL conversion without a spray volume     no conversion ("volumeBouillie")
 */

export type UniteDose = { quantite: "masse" | "volume"; facteur: number; base: "HA" | "HL" | "Q" };

/** Reads "l/ha", "KG/HA", "g/hl", "L/Q"… ; null when the unit is not a dose per area, spray or quintal. */
export function lireUniteDose(unite: string | null | undefined): UniteDose | null {
  const m = /^\s*(ML|L|G|KG)\s*\/\s*(HA|HL|Q)\s*$/.exec((unite ?? "").toUpperCase());
  if (!m) return null;
  const [, q, base] = m;
  const quantite = q === "L" || q === "ML" ? "volume" : "masse";
  const facteur = q === "ML" || q === "G" ? 0.001 : 1;
  return { quantite, facteur, base: base as UniteDose["base"] };
}

/** Why a dose could not be put in the reference's unit: the units do not match, or the spray volume is missing. */
export type RaisonConversion = "unite" | "volumeBouillie";

/**
 * The applied dose in the reference dose's unit (in L, kg of the reference: a reference in g/ha gets kg/ha × 1000):
 * the figure the IFT divides by the reference dose. `raison` says what is missing when it cannot be converted.
 */
export function convertirDose(
  dose: number,
  unite: string | null | undefined,
  uniteReference: string | null | undefined,
  volumeBouillie: number | null | undefined,
): { valeur: number } | { raison: RaisonConversion } {
  const a = lireUniteDose(unite);
  const r = lireUniteDose(uniteReference);
  if (!a || !r || a.quantite !== r.quantite) return { raison: "unite" };
  const appliquee = (dose * a.facteur) / r.facteur;
  if (a.base === r.base) return { valeur: appliquee };
  if (a.base === "Q" || r.base === "Q") return { raison: "unite" };
  if (volumeBouillie == null || !(volumeBouillie > 0)) return { raison: "volumeBouillie" };
  return { valeur: a.base === "HA" ? (100 * appliquee) / volumeBouillie : (appliquee * volumeBouillie) / 100 };
}

/**
 * A phyto dose per hectare (l/ha, kg/ha as the unit says), a per-hectolitre dose multiplied by the spray volume / 100;
 * null when a per-hL dose has no spray volume. Other units are returned as they are (the caller reads the unit).
 */
export function doseParHectare(
  dose: number,
  unite: string | null | undefined,
  volumeBouillie: number | null | undefined,
): { dose: number; unite: string | null } | null {
  const u = lireUniteDose(unite);
  if (!u || u.base !== "HL") return { dose, unite: unite ?? null };
  if (volumeBouillie == null || !(volumeBouillie > 0)) return null;
  const masse = (unite ?? "").trim().toLowerCase().split("/")[0];
  return { dose: (dose * volumeBouillie) / 100, unite: `${masse}/ha` };
}

/**
 * The IFT segment codes of the ministry's reference-dose list (research §2.2: S1 seeds, S2 biocontrol, S3 herbicides,
 * S4 insecticides-acaricides, S5 fungicides-bactericides, S6 others), as the engine's segments; null when unknown.
 */
export function segmentDeCode(code: string | null | undefined): "semences" | "biocontrole" | "herbicides" | "insecticides" | "fongicides" | "autres" | null {
  switch ((code ?? "").trim().toUpperCase()) {
    case "S1":
      return "semences";
    case "S2":
      return "biocontrole";
    case "S3":
      return "herbicides";
    case "S4":
      return "insecticides";
    case "S5":
      return "fongicides";
    case "S6":
      return "autres";
    default:
      return null;
  }
}
