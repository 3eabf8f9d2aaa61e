import { inflateRawSync } from "node:zlib";
import { surfaceHaOf } from "~/domain/geometrie";
import { kml as kmlToGeoJson } from "@tmcw/togeojson";
import { DOMParser } from "@xmldom/xmldom";
import { parseDbf, parseShp } from "shpjs";
import type { ImportCandidate, ImportFormat, ImportGeometry, ImportPreview } from "~/domain/contracts/import-parcelles";
import { LIBELLE_MAX, NO_ILOT_PAC_MAX, ParcelleSchema, type TypeGeometrie } from "~/domain/parcelle";

/**
 * Reading plot boundaries from a file (docs/decisions/0015-import-parcelles.md): GeoJSON, KML, or a
 * zipped shapefile as exported by Telepac. Pure: bytes in, the candidate plots out, nothing stored.
 * Each candidate is either importable (a Polygon or a Point in WGS84, checked against the plot form's
 * schema) or refused with a reason; a file that cannot be read at all throws a GeoImportError.
 */

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The most features a file may hold (a farm has tens of plots, a large one a few hundred). */
export const IMPORT_MAX_FEATURES = 500;
/** The most bytes the shapefile parts of a zip may inflate to (a guard against zip bombs). */
export const IMPORT_MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
export const IMPORT_EXTENSIONS = [".geojson", ".json", ".kml", ".zip"] as const;
/** Decimal places kept in coordinates: 7 is about 1 cm, far below what a plot boundary needs. */
const COORDINATE_DECIMALS = 7;

export type { ImportCandidate, ImportFormat, ImportGeometry, ImportPreview } from "~/domain/contracts/import-parcelles";
type Position = [number, number];

/** A file refused as a whole: a translation key (parcelle.import.errors.*) and its parameters. */
export class GeoImportError extends Error {
  constructor(
    public key: string,
    public params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const ERR = (name: string) => `parcelle.import.errors.${name}`;
const REFUS = (name: string) => `parcelle.import.refus.${name}`;

export function formatOfFileName(name: string): ImportFormat | null {
  const lower = name.trim().toLowerCase();
  if (lower.endsWith(".geojson") || lower.endsWith(".json")) return "geojson";
  if (lower.endsWith(".kml")) return "kml";
  if (lower.endsWith(".zip")) return "shapefile";
  return null;
}

/** Reads the file and lists its candidate plots. Throws GeoImportError when the file cannot be used. */
export async function parseGeoFile(file: { name: string; bytes: Uint8Array }): Promise<ImportPreview> {
  const format = formatOfFileName(file.name);
  if (!format) throw new GeoImportError(ERR("extension"), { extensions: IMPORT_EXTENSIONS.join(", ") });
  if (file.bytes.byteLength === 0) throw new GeoImportError(ERR("empty"));
  if (file.bytes.byteLength > IMPORT_MAX_BYTES) throw new GeoImportError(ERR("too-large"), { max: IMPORT_MAX_BYTES / 1024 / 1024 });
  const layers = format === "geojson" ? [readGeoJson(file.bytes)] : format === "kml" ? [readKml(file.bytes)] : await readShapefileZip(file.bytes);
  const total = layers.reduce((n, l) => n + l.features.length, 0);
  if (total === 0) throw new GeoImportError(ERR("no-feature"));
  if (total > IMPORT_MAX_FEATURES) throw new GeoImportError(ERR("too-many-features"), { count: total, max: IMPORT_MAX_FEATURES });
  const base = file.name.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "") || "parcelle";
  const candidates: ImportCandidate[] = [];
  for (const layer of layers) {
    layer.features.forEach((feature, i) => {
      for (const c of candidatesOf(feature, i + 1, layers.length > 1 ? layer.name : null, base)) candidates.push({ ...c, index: candidates.length });
    });
  }
  if (candidates.length > IMPORT_MAX_FEATURES) throw new GeoImportError(ERR("too-many-features"), { count: candidates.length, max: IMPORT_MAX_FEATURES });
  return { format, fileName: file.name, candidates };
}

// ---------------------------------------------------------------------------------------------
// Formats

type RawFeature = { geometry: unknown; properties: Record<string, unknown> };
type Layer = { name: string; features: RawFeature[] };

const GEOMETRY_TYPES = new Set(["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function text(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}

function toFeature(f: unknown): RawFeature {
  if (!isObject(f)) return { geometry: undefined, properties: {} };
  return { geometry: f.geometry, properties: isObject(f.properties) ? f.properties : {} };
}

/** A FeatureCollection, a Feature or a bare geometry. A named CRS other than WGS84 (old GeoJSON) is refused. */
export function readGeoJson(bytes: Uint8Array): Layer {
  let json: unknown;
  try {
    json = JSON.parse(text(bytes));
  } catch {
    throw new GeoImportError(ERR("unreadable-geojson"));
  }
  if (!isObject(json) || typeof json.type !== "string") throw new GeoImportError(ERR("not-geojson"));
  const crs = isObject(json.crs) && isObject(json.crs.properties) ? json.crs.properties.name : undefined;
  if (typeof crs === "string" && !/(CRS84|EPSG:{1,2}4326)$/i.test(crs)) throw new GeoImportError(ERR("crs"), { crs });
  if (json.type === "FeatureCollection") {
    if (!Array.isArray(json.features)) throw new GeoImportError(ERR("not-geojson"));
    if (json.features.length > IMPORT_MAX_FEATURES)
      throw new GeoImportError(ERR("too-many-features"), { count: json.features.length, max: IMPORT_MAX_FEATURES });
    return { name: "", features: json.features.map(toFeature) };
  }
  if (json.type === "Feature") return { name: "", features: [toFeature(json)] };
  if (GEOMETRY_TYPES.has(json.type)) return { name: "", features: [{ geometry: json, properties: {} }] };
  throw new GeoImportError(ERR("not-geojson"));
}

/**
 * KML through @xmldom/xmldom and @tmcw/togeojson. A document type declaration is refused before
 * parsing: KML never needs one, and refusing it rules out entity expansion of any kind.
 */
export function readKml(bytes: Uint8Array): Layer {
  const xml = text(bytes);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new GeoImportError(ERR("kml-doctype"));
  let doc: ReturnType<DOMParser["parseFromString"]>;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
    }).parseFromString(xml, "text/xml");
  } catch {
    throw new GeoImportError(ERR("unreadable-kml"));
  }
  if (doc.documentElement?.localName !== "kml") throw new GeoImportError(ERR("unreadable-kml"));
  const collection = kmlToGeoJson(doc as unknown as Document);
  return { name: "", features: collection.features.map(toFeature) };
}

/**
 * A zip holding one or more shapefiles (.shp with its .dbf, .prj, .cpg). Only those parts are inflated,
 * within IMPORT_MAX_UNZIPPED_BYTES. shpjs reprojects to WGS84 with proj4 when a .prj is there (Telepac
 * exports are in Lambert-93, EPSG:2154); without a .prj the coordinates are taken as WGS84.
 */
export async function readShapefileZip(bytes: Uint8Array): Promise<Layer[]> {
  const parts = new Map<string, { shp?: Uint8Array; dbf?: Uint8Array; prj?: string; cpg?: string }>();
  for (const entry of zipEntries(bytes, /\.(shp|dbf|prj|cpg)$/i)) {
    const m = /^(.*)\.(shp|dbf|prj|cpg)$/i.exec(entry.name)!;
    const ext = m[2].toLowerCase() as "shp" | "dbf" | "prj" | "cpg";
    const p = parts.get(m[1]) ?? {};
    if (ext === "shp" || ext === "dbf") p[ext] = entry.data;
    else p[ext] = new TextDecoder("utf-8").decode(entry.data);
    parts.set(m[1], p);
  }
  const layers: Layer[] = [];
  for (const [key, p] of [...parts].sort(([a], [b]) => a.localeCompare(b))) {
    if (!p.shp) continue;
    const name = key.replace(/^.*\//, "");
    let geometries: unknown[];
    let rows: Record<string, unknown>[] = [];
    try {
      geometries = parseShp(p.shp, p.prj);
      if (p.dbf) rows = parseDbf(p.dbf, p.cpg ?? dbfEncoding(p.dbf));
    } catch {
      throw new GeoImportError(ERR("unreadable-shapefile"), { name });
    }
    layers.push({ name, features: geometries.map((geometry, i) => ({ geometry, properties: rows[i] ?? {} })) });
  }
  if (!layers.length) throw new GeoImportError(ERR("no-shp"));
  return layers;
}

/**
 * The entries of a zip whose names match `wanted`, read from its central directory with every offset
 * checked, stored or deflated, inflated within IMPORT_MAX_UNZIPPED_BYTES in all. (The unzip bundled
 * with shpjs loops for ever on a file without an end-of-directory record, so it is not used.)
 */
export function zipEntries(bytes: Uint8Array, wanted: RegExp): { name: string; data: Uint8Array }[] {
  const unreadable = () => new GeoImportError(ERR("unreadable-zip"));
  const tooLarge = () => new GeoImportError(ERR("zip-too-large"), { max: IMPORT_MAX_UNZIPPED_BYTES / 1024 / 1024 });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const latin = new TextDecoder("latin1");
  const utf8 = new TextDecoder("utf-8");
  let end = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
    if (u32(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw unreadable();
  const count = u16(end + 10);
  let at = u32(end + 16);
  const out: { name: string; data: Uint8Array }[] = [];
  let budget = IMPORT_MAX_UNZIPPED_BYTES;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || u32(at) !== 0x02014b50) throw unreadable();
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const packedSize = u32(at + 20);
    const size = u32(at + 24);
    const nameLength = u16(at + 28);
    const skip = nameLength + u16(at + 30) + u16(at + 32);
    const local = u32(at + 42);
    if (at + 46 + nameLength > end) throw unreadable();
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x800 ? utf8.decode(rawName) : latin.decode(rawName);
    at += 46 + skip;
    if (name.endsWith("/") || name.includes("__MACOSX") || !wanted.test(name)) continue;
    if (local + 30 > bytes.length || u32(local) !== 0x04034b50) throw unreadable();
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (start + packedSize > bytes.length) throw unreadable();
    if (size > budget) throw tooLarge();
    const packed = bytes.subarray(start, start + packedSize);
    let data: Uint8Array;
    if (method === 0) data = packed;
    else if (method === 8) {
      try {
        data = inflateRawSync(packed, { maxOutputLength: Math.max(budget, 1) });
      } catch (e) {
        if (e instanceof RangeError || (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
        throw unreadable();
      }
    } else throw unreadable();
    budget -= data.byteLength;
    out.push({ name, data });
  }
  return out;
}

/** A .dbf without .cpg: UTF-8 when its bytes are valid UTF-8, else the Windows code page of French exports. */
function dbfEncoding(dbf: Uint8Array): string {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(dbf);
    return "UTF-8";
  } catch {
    return "windows-1252";
  }
}

// ---------------------------------------------------------------------------------------------
// Features → candidates

const NAME_KEYS = ["name", "nom", "libelle", "label", "titre", "title", "nom_parcelle", "nom_parc"];
const ILOT_KEYS = ["num_ilot", "numero_ilot", "no_ilot", "noilotpac", "ilot_pac", "numilot", "ilot"];
const PARCEL_KEYS = ["num_parcel", "num_parcelle", "numero_parcelle", "numparcel"];

/** The first non-blank value among `keys`, property names compared without case. */
function property(properties: Record<string, unknown>, keys: readonly string[]): string | null {
  const lower = new Map(Object.entries(properties).map(([k, v]) => [k.toLowerCase(), v]));
  for (const key of keys) {
    const v = lower.get(key);
    if ((typeof v === "string" || typeof v === "number") && String(v).trim() !== "") return String(v).trim();
  }
  return null;
}

/** The label: a name property, else Telepac's island and plot numbers, else the file name and the feature number. */
export function labelOf(properties: Record<string, unknown>, source: number, fileBase: string): string {
  const name = property(properties, NAME_KEYS);
  if (name) return name;
  const ilot = property(properties, ILOT_KEYS);
  const parcel = property(properties, PARCEL_KEYS);
  if (ilot && parcel) return `Îlot ${ilot} parcelle ${parcel}`;
  if (ilot) return `Îlot ${ilot}`;
  return `${fileBase} ${source}`;
}

type Part = { geometry: ImportGeometry } | { refus: NonNullable<ImportCandidate["refus"]> };

function candidatesOf(feature: RawFeature, source: number, layer: string | null, fileBase: string): Omit<ImportCandidate, "index">[] {
  const libelle = labelOf(feature.properties, source, layer ?? fileBase).slice(0, LIBELLE_MAX);
  const noIlotPac = property(feature.properties, ILOT_KEYS);
  const parts = partsOf(feature.geometry);
  return parts.map((p, i) => {
    const part = parts.length > 1 ? i + 1 : null;
    const base = {
      source,
      layer,
      part,
      libelle: part ? `${libelle.slice(0, LIBELLE_MAX - 6)} (${part})` : libelle,
      noIlotPac,
      typeGeometrie: null,
      geometry: null,
      surface: null,
    };
    if ("refus" in p) return { ...base, refus: p.refus };
    const ha = surfaceHaOf(p.geometry);
    const surface = ha === null ? null : Math.round(ha * 100) / 100;
    const candidate = { ...base, geometry: p.geometry, typeGeometrie: (p.geometry.type === "Polygon" ? "polygon" : "marker") as TypeGeometrie, surface };
    return { ...candidate, refus: schemaRefusal(candidate) };
  });
}

/** The values a candidate gives the plot form: the computed area is both the surface and the real surface. */
export function parcelleInputOf(c: Pick<ImportCandidate, "libelle" | "noIlotPac" | "geometry" | "surface">) {
  return {
    libelle: c.libelle,
    noIlotPac: c.noIlotPac ?? undefined,
    geometrie: c.geometry ? JSON.stringify(c.geometry) : undefined,
    surface: c.surface ?? undefined,
    surfaceReelle: c.surface ?? undefined,
  };
}

/** The same rules as a plot typed in the form (ParcelleSchema), so that the preview and the creation agree. */
function schemaRefusal(c: Pick<ImportCandidate, "libelle" | "noIlotPac" | "geometry" | "surface">): ImportCandidate["refus"] {
  const r = ParcelleSchema.safeParse(parcelleInputOf(c));
  if (r.success) return null;
  const fields = [...new Set(r.error.issues.map((i) => String(i.path[0] ?? "")))];
  if (fields.includes("noIlotPac")) return { key: REFUS("ilot-too-long"), params: { max: NO_ILOT_PAC_MAX } };
  // A point has no area: a plot needs a surface (docs/decisions/0023-plot-surface.md).
  if (fields.length === 1 && fields[0] === "surface") return { key: REFUS("no-surface") };
  return { key: REFUS("invalid"), params: { fields: fields.join(", ") } };
}

/**
 * The plots a geometry gives: a Polygon or a Point one each; a MultiPolygon (or a KML multi-geometry)
 * one per part, since a plot holds one polygon; anything else is refused with its type.
 */
function partsOf(geometry: unknown, depth = 0): Part[] {
  if (!isObject(geometry) || typeof geometry.type !== "string") return [{ refus: { key: REFUS("no-geometry") } }];
  const g = geometry;
  switch (g.type) {
    case "Polygon":
      return [polygon(g.coordinates)];
    case "Point":
      return [point(g.coordinates)];
    case "MultiPolygon":
      if (!Array.isArray(g.coordinates) || !g.coordinates.length) return [{ refus: { key: REFUS("invalid-geometry") } }];
      return g.coordinates.map((rings) => polygon(rings));
    case "GeometryCollection": {
      if (depth > 0 || !Array.isArray(g.geometries) || !g.geometries.length) return [{ refus: { key: REFUS("invalid-geometry") } }];
      const inner = g.geometries.flatMap((member) => partsOf(member, depth + 1));
      const refused = inner.find((p) => "refus" in p);
      return refused ? [refused] : inner;
    }
    default:
      return [{ refus: { key: REFUS("geometry-type"), params: { type: String(g.type) } } }];
  }
}

const NOT_WGS84 = { refus: { key: REFUS("not-wgs84") } } as const;
const INVALID = { refus: { key: REFUS("invalid-geometry") } } as const;
const round = (v: number) => Math.round(v * 10 ** COORDINATE_DECIMALS) / 10 ** COORDINATE_DECIMALS;

/** A position as [longitude, latitude] (a third coordinate is dropped), or why it is not one. */
function position(p: unknown): Position | typeof NOT_WGS84 | typeof INVALID {
  if (!Array.isArray(p) || p.length < 2 || !p.every((v) => typeof v === "number" && Number.isFinite(v))) return INVALID;
  const [lon, lat] = p as number[];
  if (Math.abs(lon) > 180 || Math.abs(lat) > 90) return NOT_WGS84;
  return [round(lon), round(lat)];
}

function point(coordinates: unknown): Part {
  const p = position(coordinates);
  return Array.isArray(p) ? { geometry: { type: "Point", coordinates: p } } : p;
}

/** Rings of at least three positions; an unclosed ring is closed; a polygon of less than 1 m² (a line, a point) is refused. */
function polygon(coordinates: unknown): Part {
  if (!Array.isArray(coordinates) || !coordinates.length) return INVALID;
  const rings: Position[][] = [];
  for (const raw of coordinates) {
    if (!Array.isArray(raw)) return INVALID;
    const ring: Position[] = [];
    for (const p of raw) {
      const pos = position(p);
      if (!Array.isArray(pos)) return pos;
      ring.push(pos);
    }
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push([first[0], first[1]]);
    if (ring.length < 4) return INVALID;
    rings.push(ring);
  }
  const geometry: ImportGeometry = { type: "Polygon", coordinates: rings };
  if (!((surfaceHaOf(geometry) ?? 0) * 10_000 >= 1)) return { refus: { key: REFUS("no-area") } };
  return { geometry };
}
