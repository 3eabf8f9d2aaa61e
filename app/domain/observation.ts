import { z } from "zod";
import { dateString, decimalMax, flag, optionalNumber, optionalText, requiredNumber, requiredText, rowId } from "./validation";

/**
 * Observation series, observations, placettes, horizons (spec 2 §3–§5, §9; issue 15; decisions 0037, 0038).
 * One schema per form: the series form, a row of the observations grid, the placette and horizon dialogs, the
 * folder-observation dialog, the copy dialog. Shared by the browser and the server.
 */

// ---- Observation types (spec 2 §9) and the fields each shows

export const TYPE_RECOLTE = 1128;
export const TYPES_SOL = [1124, 1129] as const;
export const TYPE_STADE = 1125;
export const TYPE_ADVENTICES = 1131;

export type ChampsSerie = { organe: boolean; stade: boolean; laboratoire: boolean };

/** Which of studied organ, crop stage and laboratory a type asks for (spec 2 §9, B-OBS-16..20). 1129 is the tenth type (decision 0037). */
export const CHAMPS_PAR_TYPE: Readonly<Record<number, ChampsSerie>> = {
  1130: { organe: true, stade: true, laboratoire: true },
  1128: { organe: true, stade: true, laboratoire: true },
  1133: { organe: true, stade: true, laboratoire: true },
  3040: { organe: true, stade: true, laboratoire: false },
  1127: { organe: true, stade: true, laboratoire: false },
  1126: { organe: true, stade: true, laboratoire: false },
  1124: { organe: false, stade: true, laboratoire: true },
  1129: { organe: false, stade: true, laboratoire: true },
  1125: { organe: false, stade: true, laboratoire: false },
  1131: { organe: false, stade: false, laboratoire: false },
};

export const champsDuType = (type: number | null | undefined): ChampsSerie =>
  (type != null ? CHAMPS_PAR_TYPE[type] : undefined) ?? { organe: false, stade: false, laboratoire: false };

export const estSerieSol = (type: number | null | undefined) => type != null && (TYPES_SOL as readonly number[]).includes(type);
export const estSerieAdventices = (type: number | null | undefined) => type === TYPE_ADVENTICES;

// ---- Observed elements with a fixed meaning (seeds/reference/element-observe.json)

export const ELEMENT = {
  organe: 1701,
  laboratoire: 1702,
  limiteSup: 1703,
  limiteInf: 1704,
  densiteAdventice: 1705,
  efficaciteDesherbage: 1706,
  // Harvest (spec 3 §3.6)
  rendement: 1680,
  humidite: 1192,
  poidsSpecifique: 1190,
  pmg: 1191,
  proteines: 1193,
  huile: 1685,
} as const;

/** The elements whose value is chosen from a list (B-OBS-46): weed density, weeding efficacy. */
export const ELEMENTS_A_LISTE: readonly number[] = [ELEMENT.densiteAdventice, ELEMENT.efficaciteDesherbage];

/** The unit of a crop-stage observation (spec 2 §9, B-OBS-43). */
export const UNITE_STADE = "%";

/**
 * An observed element as the grid names it: a reference element by its id (> 0), a folder's own element by the
 * negative of its id (decision 0038), so that one choice column offers both and a pasted code finds either.
 */
export const cleElementDossier = (idDossierObservation: number) => -idDossierObservation;

// ---- Bounds of the stored columns (migration 0010)

export const VALEUR_MAX = decimalMax(14, 4);
export const NOM_MAX = 255;
export const UNITE_MAX = 30;
export const TEXTE_MAX = 4000;

// ---- The series form (spec 2 §2 details panel, §5)

export const SerieSchema = z.object({
  idParcelle: requiredNumber({ integer: true, min: 1 }),
  date: dateString(),
  dicIdTypeSerie: requiredNumber({ integer: true, min: 1 }),
  nom: requiredText({ max: NOM_MAX }),
  idCulture: optionalNumber({ integer: true, min: 1 }),
  organeEtudie: optionalNumber({ integer: true, min: 1 }),
  idStade: optionalNumber({ integer: true, min: 1 }),
  idAction: optionalNumber({ integer: true, min: 1 }),
  laboratoire: optionalText({ max: NOM_MAX }),
  remarque: optionalText({ max: TEXTE_MAX, multiline: true }),
  isPlacetteSelected: flag(),
  /** The placettes whose values are recorded (plot mode), as a comma-separated list of ids. */
  placettes: z.preprocess(
    (v) => (Array.isArray(v) ? v : typeof v === "string" ? v.split(",").filter((s) => s.trim() !== "") : v == null ? [] : [v]),
    z.array(rowId()).max(50, "warning.too-many"),
  ),
});
export type SerieInput = z.infer<typeof SerieSchema>;

/** What the form keeps of the type's fields: a field the type does not show is not saved (B-OBS-16..20). */
export function serieSelonType(input: SerieInput): SerieInput {
  const champs = champsDuType(input.dicIdTypeSerie);
  return {
    ...input,
    organeEtudie: champs.organe ? input.organeEtudie : undefined,
    idStade: champs.stade && input.idCulture != null ? input.idStade : undefined,
    laboratoire: champs.laboratoire ? input.laboratoire : undefined,
    placettes: input.isPlacetteSelected ? [...new Set(input.placettes)] : [],
  };
}

// ---- A row of the observations grid (spec 2 §2 observations table, §5)

/** The field of a placette's value column (B-OBS-35): `p<id>`. */
export const champPlacette = (idPlacette: number) => `p${idPlacette}`;

/** The pick-list values of a weed series: density classes by rank `d1`…, efficacy classes by rank `e1`… (decision 0038). */
export const classeDensite = (ordre: number) => `d${ordre}`;
export const classeEfficacite = (ordre: number) => `e${ordre}`;

const baseRow = {
  element: requiredNumber({ integer: true }).refine((n) => n !== 0, "warning.required"),
  valeur: optionalNumber({ min: -VALEUR_MAX, max: VALEUR_MAX }),
  unite: optionalText({ max: UNITE_MAX }),
  remarque: optionalText({ max: TEXTE_MAX, multiline: true }),
  idHorizon: optionalNumber({ integer: true, min: 1 }),
  idAdventice: optionalNumber({ integer: true, min: 1 }),
  stadeAdventice: optionalNumber({ integer: true, min: 1 }),
  classe: optionalText({ max: 10 }),
};

/**
 * The schema of a row for a series: the common fields, and one numeric field per chosen placette (B-PLAC-10). The
 * same function builds it in the browser (from the series shown) and on the server (from the stored series).
 */
export function observationRowSchema(placettes: readonly number[] = []) {
  const extra: Record<string, ReturnType<typeof optionalNumber>> = {};
  for (const id of placettes) extra[champPlacette(id)] = optionalNumber({ min: -VALEUR_MAX, max: VALEUR_MAX });
  return z.object({ ...baseRow, ...extra });
}
export const ObservationRowSchema = observationRowSchema();
export type ObservationRowInput = z.infer<typeof ObservationRowSchema> & Record<string, unknown>;

// ---- Placettes (spec 2 §3), horizons (§3, §5), folder observations (§5)

export const PlacetteSchema = z.object({
  libelle: requiredText({ max: NOM_MAX }),
  /** A GeoJSON Polygon (the map's drawing), optional. */
  geometrie: optionalText({ max: 200_000 }),
});
export type PlacetteInput = z.infer<typeof PlacetteSchema>;

export const LIMITE_MAX = decimalMax(14, 4);

/** The horizon dialog (B-HOR-06..09): label required, limits numeric, the upper not below the lower (spec 2 §5 as written). */
export const HorizonSchema = z
  .object({
    name: requiredText({ max: 120 }),
    limiteSup: optionalNumber({ min: -LIMITE_MAX, max: LIMITE_MAX }),
    limiteInf: optionalNumber({ min: -LIMITE_MAX, max: LIMITE_MAX }),
  })
  .superRefine((v, ctx) => {
    if (v.limiteSup != null && v.limiteInf != null && v.limiteSup < v.limiteInf) {
      ctx.addIssue({ code: "custom", message: "observations.horizon.sup-sous-inf", path: ["limiteSup"] });
      ctx.addIssue({ code: "custom", message: "observations.horizon.inf-sur-sup", path: ["limiteInf"] });
    }
  });
export type HorizonInput = z.infer<typeof HorizonSchema>;

export const DossierObservationSchema = z.object({
  dicIdTypeIntrant: requiredNumber({ integer: true, min: 1 }),
  libelle: requiredText({ max: NOM_MAX }),
  dicLlUnite: optionalText({ max: UNITE_MAX }),
  remarque: optionalText({ max: TEXTE_MAX, multiline: true }),
});
export type DossierObservationInput = z.infer<typeof DossierObservationSchema>;

/**
 * The copy of series to another plot (spec 2 §7 copie_series, B-OBS-11): target plot, folder, the series, whether
 * the observed elements and their values come along, whether the target's series are deleted first.
 */
export const CopieSeriesSchema = z.object({
  idParcelle: requiredNumber({ integer: true, min: 1 }),
  dossierDestination: requiredNumber({ integer: true, min: 1 }),
  seriesSource: z.preprocess(
    (v) => (typeof v === "string" ? v.split(",").filter((s) => s.trim() !== "") : v),
    z.array(rowId()).min(1, "warning.required").max(5000, "warning.too-many"),
  ),
  eltObserve: flag(),
  valeur: flag(),
  suppressionSeriesParcellesDst: flag(),
});
export type CopieSeriesInput = z.infer<typeof CopieSeriesSchema>;

// ---- Attached files (spec 2 §5; B-FILE-04)

export const EXTENSIONS_FICHIER = ["pdf", "docx", "csv", "png", "jpg", "jpeg", "xlsx", "xls", "xlsm"] as const;
export type ExtensionFichier = (typeof EXTENSIONS_FICHIER)[number];

export const extensionOf = (name: string): string => {
  const m = /\.([A-Za-z0-9]+)$/.exec(name.trim());
  return m ? m[1].toLowerCase() : "";
};

export const extensionAcceptee = (name: string): name is string => (EXTENSIONS_FICHIER as readonly string[]).includes(extensionOf(name));

/**
 * The type a file's first bytes show (B-FILE-04: the type is checked from the bytes, not only the name): PDF, PNG,
 * JPEG, the ZIP container of .docx/.xlsx/.xlsm, the OLE container of .xls, and CSV as text without NUL bytes.
 */
export function typeFromBytes(bytes: Uint8Array): "pdf" | "png" | "jpg" | "zip" | "ole" | "text" | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return "pdf";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0xff, 0xd8, 0xff])) return "jpg";
  if (starts([0x50, 0x4b, 0x03, 0x04])) return "zip";
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "ole";
  const head = bytes.subarray(0, 4096);
  if (head.length > 0 && !head.includes(0)) return "text";
  return null;
}

/** Whether the bytes are what the extension says (a .docx must be a ZIP, a .csv text, ...). */
export function bytesMatchExtension(ext: string, bytes: Uint8Array): boolean {
  const found = typeFromBytes(bytes);
  switch (ext) {
    case "pdf":
      return found === "pdf";
    case "png":
      return found === "png";
    case "jpg":
    case "jpeg":
      return found === "jpg";
    case "docx":
    case "xlsx":
    case "xlsm":
      return found === "zip";
    case "xls":
      return found === "ole";
    case "csv":
      return found === "text";
    default:
      return false;
  }
}

export const MIME_PAR_EXTENSION: Readonly<Record<ExtensionFichier, string>> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  csv: "text/csv",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xlsm: "application/vnd.ms-excel.sheet.macroEnabled.12",
  xls: "application/vnd.ms-excel",
};

/** The name a file is shown and downloaded under: the uploaded name without any folder part or control character. */
export function nomAffiche(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are what it takes out of a file name
    .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "_")
    .replace(/^\.+/, "")
    .trim();
  return clean.slice(-200) || "fichier";
}

// ---- A complement observation (complement_observations, spec 2 §7; issue 26): a further value of an observation row

export const ComplementObservationSchema = z.object({
  /** The observed element of the value. */
  dicoIdEltObserve: requiredNumber({ integer: true, min: 1 }),
  obsValNum: optionalNumber({ min: -VALEUR_MAX, max: VALEUR_MAX }),
  /** The observation row (observations_parcelles id) the value completes. */
  observationsParcelle: requiredNumber({ integer: true, min: 1 }),
});
export type ComplementObservationInput = z.infer<typeof ComplementObservationSchema>;
