import "maplibre-gl/dist/maplibre-gl.css";
import * as maplibregl from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import type { StyleSpecification } from "maplibre-gl";
import { MIN_ZOOM, WORLD_BOUNDS } from "./map-settings";

// STACK.md: maplibre 6 finds its worker at run time, which Vite does not emit by itself.
maplibregl.setWorkerUrl(workerUrl);

export { maplibregl };

/** What every map of the app shares (spec 2 §9): the library, zoom and world limits, the style, no error reports for unreachable tiles. */
export function baseMapViewProps(style: StyleSpecification) {
  return {
    mapLib: maplibregl,
    minZoom: MIN_ZOOM,
    maxBounds: WORLD_BOUNDS,
    mapStyle: style,
    style: { width: "100%", height: "100%" },
    // Tiles that cannot be reached leave the plain background: nothing to report.
    onError: () => undefined,
    attributionControl: { compact: true },
  } as const;
}
