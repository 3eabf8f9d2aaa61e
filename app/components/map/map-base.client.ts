import "maplibre-gl/dist/maplibre-gl.css";
import * as maplibregl from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import type { StyleSpecification } from "maplibre-gl";
import { localeCarte, MIN_ZOOM, WORLD_BOUNDS } from "./map-settings";

// STACK.md: maplibre 6 finds its worker at run time, which Vite does not emit by itself.
maplibregl.setWorkerUrl(workerUrl);

export { maplibregl };

/**
 * What every map of the app shares (spec 2 §9): the library, zoom and world limits, the style, no error reports for
 * unreachable tiles, and the library's own buttons in the interface's language.
 */
export function baseMapViewProps(style: StyleSpecification, t: (key: string) => string) {
  return {
    locale: localeCarte(t),
    mapLib: maplibregl,
    minZoom: MIN_ZOOM,
    maxBounds: WORLD_BOUNDS,
    mapStyle: style,
    style: { width: "100%", height: "100%" },
    // Tiles that cannot be reached leave the plain background: nothing to report.
    onError: () => undefined,
    // A wheel zoom eases towards the minimum and may stop a hair above it (3.0000000000000004): the
    // zoom-out button, disabled only at exactly the minimum (B-MAP-15), would stay enabled.
    onZoomEnd: (e: { target: maplibregl.Map }) => {
      const map = e.target;
      if (map.getZoom() !== map.getMinZoom() && Math.abs(map.getZoom() - map.getMinZoom()) < 1e-6) map.setZoom(map.getMinZoom());
    },
    attributionControl: { compact: true },
  } as const;
}
