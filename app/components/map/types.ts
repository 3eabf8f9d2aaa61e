/**
 * The contract between the plot map (issue 5, map helper) and the screens that show it (plots form,
 * import preview). Geometry is a GeoJSON geometry (Polygon or Point, WGS84) serialised as JSON text,
 * exactly as stored in parcelle.geometrie.
 */
export type MapConfig = {
  /** Raster tile URL template of the satellite imagery ({z}/{x}/{y}), or null for none. */
  imageryTiles: string | null;
  /** Raster tile URL template of the labels layer drawn over the imagery, or null for none. */
  labelsTiles: string | null;
  attribution: string;
};

export type PlotMapProps = {
  /** The stored geometry (JSON text of a GeoJSON Polygon or Point), or null when none is drawn. */
  geometrie: string | null;
  /** Called on every change of the shape: the new JSON text (null when deleted), and for a polygon its area in ha. */
  onChange?: (geometrie: string | null, surfaceHa: number | null) => void;
  /** Centre requested by the form (e.g. the chosen commune); the map flies there when it changes. */
  centre?: { lat: number; lon: number } | null;
  readOnly?: boolean;
  config: MapConfig | null;
  /** Accessible name of the map region. */
  label: string;
};

export type ImportPreviewMapProps = {
  /** The shapes to show (WGS84), with their `libelle`. */
  features: GeoJSON.FeatureCollection;
  config: MapConfig | null;
  label: string;
};
