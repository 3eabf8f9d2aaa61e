import { z } from "zod";
import { SoilSchema } from "./caracteristiques-pedologiques";
import { flag, optionalText, requiredText } from "./validation";

/** The soil fields shared with the farm, plots and landscape features (spec 2 §3). */
export const soilShape = SoilSchema.omit({ replication: true }).shape;

export const NO_ILOT_PAC_MAX = 30;

/**
 * Values a group passes on to its plots when the user answers Yes to "propagate?" (spec 2 §4,
 * docs/decisions/0013-lots-amenagements-assolement.md): the PAC island number, irrigable, drained
 * and the soil fields. The name and remarks stay the plot's own.
 */
export const LOT_REPLICATED_FIELDS = [
  "noIlotPac",
  "irrigable",
  "drainee",
  "idTypeSolArvalis",
  "idAeeTypeSol",
  "profondeurSolCm",
  "reserveUtileMm",
  "idTypeSousSol",
  "idAciditeSol",
  "idProfondeurSol",
] as const;

/** The plot group form (spec 2 §2 "Plot groups", §3, §5: name required). `replicate` is the answer to the propagation question. */
export const LotParcelleSchema = z.object({
  libelle: requiredText({ max: 255 }),
  noIlotPac: optionalText({ max: NO_ILOT_PAC_MAX }),
  irrigable: flag(),
  drainee: flag(),
  remarque: optionalText({ max: 4000, multiline: true }),
  ...soilShape,
  replicate: flag(),
});
export type LotParcelleInput = z.infer<typeof LotParcelleSchema>;
export type LotParcelleValues = Omit<LotParcelleInput, "replicate">;
