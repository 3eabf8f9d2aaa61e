import type { TypeGeometrie } from "../parcelle";

/** What the plots' file import previews (server/parcelle/geo-import.ts reads the file; the import dialog shows this). */

export type ImportFormat = "geojson" | "kml" | "shapefile";

type Position = [number, number];
export type ImportGeometry = { type: "Polygon"; coordinates: Position[][] } | { type: "Point"; coordinates: Position };

export type ImportCandidate = {
  /** Position in the preview: what the creation call names. */
  index: number;
  /** 1-based number of the feature in the file (and the layer name for a zip of several shapefiles). */
  source: number;
  layer: string | null;
  /** 1-based part of a MultiPolygon (or multi-geometry) split into plots, else null. */
  part: number | null;
  libelle: string;
  noIlotPac: string | null;
  typeGeometrie: TypeGeometrie | null;
  geometry: ImportGeometry | null;
  /** Computed area in ha, 2 decimals, for a polygon. */
  surface: number | null;
  /** Why the candidate cannot be imported: a translation key and its parameters. */
  refus: { key: string; params?: Record<string, string | number> } | null;
};

export type ImportPreview = { format: ImportFormat; fileName: string; candidates: ImportCandidate[] };
