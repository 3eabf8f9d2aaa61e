import { parseGeometrie, surfaceHaOf } from "./geometrie";
import { z } from "zod";
import { SoilSchema } from "./caracteristiques-pedologiques";
import {
  decimalMax,
  INT_MAX,
  MAX_IDS,
  numericInput,
  rowId,
  optionalNumber,
  optionalText,
  positive,
  requiredArray,
  requiredNumber,
  requiredText,
} from "./validation";

/**
 * Plots (spec 2 §2 "Plots", §3 Plot, §4, §5): the plot form, the date-update modal of the Other menu,
 * the cost-centre assignment and the history tree. Shared by the browser forms and the services.
 */

/** A check box of the form: "on" (ticked), "true" or true; absent is false. */
const flag = () => z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());

const id = () => optionalNumber({ integer: true, min: 1 });

/** Several form values of one name (a multi-select), or a JSON array: integer ids, without duplicates. */
const idList = () =>
  z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === "") return [];
      const list = Array.isArray(value) ? value : typeof value === "string" && value.trim().startsWith("[") ? jsonArray(value) : [value];
      // Not a list (malformed JSON): left as is, refused below as warning.invalid.
      return Array.isArray(list) ? [...new Set(list.filter((v) => v !== "" && v != null).map(numericInput))] : list;
    },
    z
      .array(z.number({ error: "warning.invalid" }).int("warning.invalid").positive("warning.invalid").max(INT_MAX, "warning.invalid"), {
        error: "warning.invalid",
      })
      .max(MAX_IDS, "warning.too-many"),
  );

function jsonArray(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const LIBELLE_MAX = 255;
export const NO_ILOT_PAC_MAX = 30;
export const REMARQUE_MAX = 4000;

/** Charge fields of the plot, euro per ha except storage, euro per t (spec 2 §3, §9). */
export const CHARGES_PAR_HA = [
  "fermageSpecifique",
  "chargesMecaIrrigation",
  "chargesSemences",
  "chargesFertilisants",
  "chargesPhytos",
  "chargesIrrigation",
  "autresChargesIntrants",
  "autresChargesMecaMo",
] as const;
export const CHARGES_PAR_TONNE = ["chargesStockage"] as const;
export const CHARGES = [...CHARGES_PAR_HA, ...CHARGES_PAR_TONNE] as const;
export type ChargeField = (typeof CHARGES)[number];
export const CHARGE_UNIT: Record<ChargeField, "€/ha" | "€/t"> = Object.fromEntries(
  CHARGES.map((c) => [c, (CHARGES_PAR_TONNE as readonly string[]).includes(c) ? "€/t" : "€/ha"]),
) as Record<ChargeField, "€/ha" | "€/t">;

/** Reference list of each picker of the plot form (spec 2 §7 reference lists). */
export const PARCELLE_LISTS = {
  idSpecificitePrairie: "specificite_prairie",
  tauxLegumineuse: "taux_legumineuse",
  idTypeModeConduite: "type_itineraire",
  idGestionResidus: "gestion_residus",
  idResidusCultureInter: "residus_culture_inter",
} as const;

/** INSEE commune code: 5 digits, or 2A/2B and 3 digits in Corsica. */
export const CODE_INSEE = /^(?:\d{5}|2[AB]\d{3})$/;

/**
 * The department of a commune (spec 2 §4: the first two characters of its INSEE code). Overseas
 * departments have three-digit numbers (971 Guadeloupe ... 976 Mayotte, 975 Saint-Pierre-et-Miquelon),
 * so an INSEE code starting with 97 gives three characters; Corsica keeps 2A and 2B.
 */
export function departementOfInsee(codeInsee: string | null | undefined): string | null {
  if (!codeInsee || !CODE_INSEE.test(codeInsee)) return null;
  return codeInsee.startsWith("97") || codeInsee.startsWith("98") ? codeInsee.slice(0, 3) : codeInsee.slice(0, 2);
}

export const TYPES_GEOMETRIE = { Polygon: "polygon", Point: "marker" } as const;
export type TypeGeometrie = (typeof TYPES_GEOMETRIE)[keyof typeof TYPES_GEOMETRIE];

/** The kind of a stored geometry (JSON text of a GeoJSON Polygon or Point), or null when it is not one. */
export function typeOfGeometrie(geometrie: string | null | undefined): TypeGeometrie | null {
  const g = parseGeometrie(geometrie);
  return g ? TYPES_GEOMETRIE[g.type] : null;
}

const geometrie = () =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z
      .string()
      .refine((g) => typeOfGeometrie(g) !== null, "warning.invalid")
      .optional(),
  );

const soilShape = SoilSchema.omit({ replication: true }).shape;
const nonNegative = (max?: number) => optionalNumber({ min: 0, max });
/** The plot's surfaces are stored as decimal(10, 4), its yield target as decimal(10, 3). */
const SURFACE_MAX = decimalMax(10, 4);

/** Decimals kept of a polygon's area, in ha (0.01 ha = 100 m²; the file import rounds the same way). */
export const SURFACE_DECIMALS = 2;

/** A polygon's area in ha as the plot stores it, or null when the geometry is not a polygon. */
export function surfaceOfGeometrie(geometrie: unknown): number | null {
  const ha = typeof geometrie === "string" ? surfaceHaOf(parseGeometrie(geometrie)) : null;
  return ha === null ? null : Number(ha.toFixed(SURFACE_DECIMALS));
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/**
 * The plot's two surfaces (docs/decisions/0023-plot-surface.md). `surface` is THE surface: the one the
 * lists, the crop-area breakdown and the calculations use; it is required and above 0. `surfaceReelle`
 * is the measured area: a drawn polygon's area when there is one (computed here, whatever was typed),
 * else what the user typed (a declared PAC area). A blank surface takes the real surface.
 * Runs on the raw input (form strings or typed values), before validation, in the browser and on the server.
 */
export function withDerivedSurfaces(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const input = raw as Record<string, unknown>;
  const drawn = surfaceOfGeometrie(input.geometrie);
  const surfaceReelle = drawn ?? input.surfaceReelle;
  const surface = blank(input.surface) ? surfaceReelle : input.surface;
  return { ...input, surface, surfaceReelle };
}

/** The fields of the plot form (spec 2 §5: name required; surface, yield target, real surface and every charge numeric). */
export const ParcelleFields = z.object({
  libelle: requiredText({ max: LIBELLE_MAX }),
  idModeConduite: id(),
  idLot: id(),
  surface: positive({ max: SURFACE_MAX }),
  objectifRendement: nonNegative(decimalMax(10, 3)),
  irrigable: flag(),
  drainee: flag(),
  jachere: flag(),
  remarque: optionalText({ max: REMARQUE_MAX, multiline: true }),
  ...(Object.fromEntries(CHARGES.map((c) => [c, optionalNumber()])) as Record<ChargeField, ReturnType<typeof optionalNumber>>),
  idSpecificitePrairie: id(),
  tauxLegumineuse: id(),
  idTypeModeConduite: id(),
  idGestionResidus: id(),
  idResidusCultureInter: id(),
  // Geodata panel
  codeInsee: optionalText().refine((v) => v === undefined || CODE_INSEE.test(v), "warning.invalid"),
  codePostal: optionalText().refine((v) => v === undefined || /^\d{5}$/.test(v), "warning.invalid"),
  noIlotPac: optionalText({ max: NO_ILOT_PAC_MAX }),
  surfaceReelle: nonNegative(SURFACE_MAX),
  geometrie: geometrie(),
  // Soil panel
  ...soilShape,
  // History panel: plots of the campaign's history campaign
  parcellesHistorique: idList(),
});

/** The plot form as saved: its fields, the surface completed from the real surface or the drawn polygon. */
export const ParcelleSchema = z.preprocess(withDerivedSurfaces, ParcelleFields);
export type ParcelleInput = z.infer<typeof ParcelleSchema>;

export const ANNEE_MIN = 1900;
export const ANNEE_MAX = 2100;
const annee = () => requiredNumber({ integer: true, min: ANNEE_MIN, max: ANNEE_MAX });

/**
 * The date-update modal of the Other menu (spec 2 §2, §5; PATCH parcelles/{id}/maj_dates_actions):
 * initial and final years required and numeric; the ticked plots whose interventions move.
 */
export const MajDatesSchema = z.object({
  anneeInitiale: annee(),
  anneeFinale: annee(),
  ids: requiredArray(rowId()),
});
export type MajDatesInput = z.infer<typeof MajDatesSchema>;

/**
 * The campaign's date update (PATCH campagnes/{id}/maj_dates_actions, C-DATE-06): the target harvest year
 * (anneeRecolteCible) the campaign's last-action year moves to.
 */
export const MajDatesCampagneSchema = z.object({ anneeRecolteCible: annee() });
export type MajDatesCampagneInput = z.infer<typeof MajDatesCampagneSchema>;

/** The cost-centre dialog: one target crop per plot (none removes the assignment). */
export const AffectationsSchema = z
  .array(
    z.object({
      idParcelle: rowId(),
      idCulture: z.preprocess((v) => (v === "" || v == null ? null : v), rowId().nullable()),
    }),
  )
  .max(MAX_IDS, "warning.too-many");
export type AffectationInput = z.infer<typeof AffectationsSchema>[number];

// ---------------------------------------------------------------------------------------------
// History tree (spec 2 §2: generations N-1, N-2 and so on)

export type HistoriquePlot = { id: number; libelle: string; anneeRecolte: number | null; libelleCampagne?: string | null };
export type HistoriqueLink = { idParcelle: number; idParcelleHistorique: number };
export type HistoriqueNode = HistoriquePlot & { generation: number; children: HistoriqueNode[] };
export type HistoriqueTree = { root: HistoriqueNode; generations: HistoriqueNode[][] };

/**
 * Builds the history of a plot from its links: the root is generation 0 (N), the plots it was made of
 * generation 1 (N-1), theirs generation 2 (N-2), and so on. A plot reached twice at the same
 * generation (two plots merged from one) is listed once in that generation; a link back to a plot
 * already on the path (a cycle in bad data) is not followed.
 */
export function buildHistoriqueTree(
  rootId: number,
  plots: readonly HistoriquePlot[],
  links: readonly HistoriqueLink[],
  maxGenerations = 50,
): HistoriqueTree | null {
  const byId = new Map(plots.map((p) => [p.id, p]));
  const parentsOf = new Map<number, number[]>();
  for (const l of links) {
    const list = parentsOf.get(l.idParcelle) ?? [];
    if (!list.includes(l.idParcelleHistorique)) list.push(l.idParcelleHistorique);
    parentsOf.set(l.idParcelle, list);
  }
  const rootPlot = byId.get(rootId);
  if (!rootPlot) return null;
  const generations: HistoriqueNode[][] = [];
  const seenAt: Map<number, HistoriqueNode>[] = [];
  const sort = (a: HistoriqueNode, b: HistoriqueNode) => a.libelle.localeCompare(b.libelle, "fr") || a.id - b.id;

  const visit = (plot: HistoriquePlot, generation: number, path: Set<number>): HistoriqueNode => {
    const node: HistoriqueNode = { ...plot, generation, children: [] };
    if (generation > 0) {
      const seen = (seenAt[generation] ??= new Map());
      if (!seen.has(plot.id)) {
        seen.set(plot.id, node);
        (generations[generation - 1] ??= []).push(node);
      }
    }
    if (generation >= maxGenerations) return node;
    for (const parentId of parentsOf.get(plot.id) ?? []) {
      const parent = byId.get(parentId);
      if (!parent || path.has(parentId)) continue;
      node.children.push(visit(parent, generation + 1, new Set([...path, parentId])));
    }
    node.children.sort(sort);
    return node;
  };
  const root = visit(rootPlot, 0, new Set([rootId]));
  return { root, generations: generations.map((g) => [...g].sort(sort)) };
}

/** The shift, in years, of the date update: the actions of the initial year move to the final year. */
export const shiftYears = (input: Pick<MajDatesInput, "anneeInitiale" | "anneeFinale">) => input.anneeFinale - input.anneeInitiale;
