import { bbox } from "@turf/turf";
import { useState } from "react";
import { Layer, Map as MapView, NavigationControl, Source } from "react-map-gl/maplibre";
import { useTranslation } from "~/use-translation";
import { baseMapViewProps } from "./map-base.client";
import { buildMapStyle, DEFAULT_CENTRE, DEFAULT_ZOOM } from "./map-settings";
import type { ImportPreviewMapProps } from "./types";

const COLOUR = "#d97706";

/** The shapes of an import, read-only, framed on the map (browser-only: loaded through ./import-preview-map.tsx). */
export default function ImportPreviewMapClient({ features, config, label, height }: ImportPreviewMapProps & { height: number }) {
  const { t } = useTranslation();
  const [style] = useState(() => buildMapStyle(config));
  const [initial] = useState(() => {
    if (features.features.length === 0) return { longitude: DEFAULT_CENTRE.lon, latitude: DEFAULT_CENTRE.lat, zoom: DEFAULT_ZOOM };
    const [w, s, e, n] = bbox(features);
    return {
      bounds: [
        [w, s],
        [e, n],
      ] as [[number, number], [number, number]],
      fitBoundsOptions: { padding: 30, maxZoom: 17 },
    };
  });
  return (
    <div
      role="region"
      aria-label={label}
      className="overflow-hidden rounded border border-stone-300"
      style={{ height }}
      data-testid="import-preview-map"
      data-count={features.features.length}
    >
      <MapView {...baseMapViewProps(style, t)} initialViewState={initial}>
        <NavigationControl position="top-right" showCompass={false} />
        <Source id="import" type="geojson" data={features}>
          <Layer id="import-surface" type="fill" filter={["==", ["geometry-type"], "Polygon"]} paint={{ "fill-color": COLOUR, "fill-opacity": 0.3 }} />
          <Layer id="import-contour" type="line" filter={["==", ["geometry-type"], "Polygon"]} paint={{ "line-color": COLOUR, "line-width": 2 }} />
          <Layer
            id="import-point"
            type="circle"
            filter={["==", ["geometry-type"], "Point"]}
            paint={{ "circle-color": COLOUR, "circle-radius": 6, "circle-stroke-color": "#ffffff", "circle-stroke-width": 2 }}
          />
        </Source>
      </MapView>
    </div>
  );
}
