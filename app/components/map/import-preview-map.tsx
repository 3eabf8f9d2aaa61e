import type { MapConfig } from "./types";

/** Placeholder of the import preview map (replaced by the map component): a 300 px bordered box. */
export function ImportPreviewMap({ features, config, label }: { features: GeoJSON.FeatureCollection; config: MapConfig | null; label: string }) {
  void features;
  void config;
  return <div role="region" aria-label={label} data-testid="import-preview-map" className="rounded border border-stone-300 bg-stone-50" style={{ height: 300 }} />;
}
