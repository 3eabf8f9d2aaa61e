import { z } from "zod";
import { NO_ILOT_PAC_MAX, soilShape } from "./lot-parcelle";
import { flag, optionalNumber, optionalText, requiredNumber, requiredText } from "./validation";

/** Units of a feature's size (type_amenagement.unite_surface): linear metres, m², a count, hectares. */
export const UNITES_SURFACE = ["ml", "m2", "unite", "ha"] as const;
export type UniteSurface = (typeof UNITES_SURFACE)[number];

export const SURFACE_MAX = 999_999_999;

/** The landscape feature form (spec 2 §3 zone amenagement, §5: name and type required, surface numeric). */
export const AmenagementSchema = z.object({
  libelle: requiredText({ max: 255 }),
  idTypeAmenagement: requiredNumber({ integer: true }),
  idParcelleAdjacente: optionalNumber({ integer: true }),
  surface: optionalNumber({ min: 0, max: SURFACE_MAX }),
  remarque: optionalText({ max: 4000, multiline: true }),
  noIlotPac: optionalText({ max: NO_ILOT_PAC_MAX }),
  irrigable: flag(),
  drainee: flag(),
  ...soilShape,
});
export type AmenagementInput = z.infer<typeof AmenagementSchema>;
