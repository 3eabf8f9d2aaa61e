import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { Map as MapView, NavigationControl, type MapRef, type ViewStateChangeEvent } from "react-map-gl/maplibre";
import { TerraDraw, TerraDrawPointMode, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures } from "terra-draw";
import { TerraDrawMapLibreGLAdapter } from "terra-draw-maplibre-gl-adapter";
import { parseGeometrie, serialiseGeometrie, surfaceHaOf, type PlotGeometry } from "~/domain/geometrie";
import { baseMapViewProps, type maplibregl } from "./map-base.client";
import { buildMapStyle, DEFAULT_CENTRE, DEFAULT_ZOOM, MAP_HEIGHT_PX, type DrawMode } from "./map-settings";
import type { PlotMapProps } from "./types";

const SHAPE_COLOUR = "#d97706";
type Mode = "static" | DrawMode | "select";

/** The view that shows a stored shape: centred on a point, or around a polygon. */
function initialView(geometry: PlotGeometry | null) {
  if (geometry?.type === "Point") return { longitude: geometry.coordinates[0], latitude: geometry.coordinates[1], zoom: DEFAULT_ZOOM };
  if (geometry?.type === "Polygon") {
    const ring = geometry.coordinates[0] ?? [];
    const lons = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    return {
      bounds: [
        [Math.min(...lons), Math.min(...lats)],
        [Math.max(...lons), Math.max(...lats)],
      ] as [[number, number], [number, number]],
      fitBoundsOptions: { padding: 40, maxZoom: 17 },
    };
  }
  return { longitude: DEFAULT_CENTRE.lon, latitude: DEFAULT_CENTRE.lat, zoom: DEFAULT_ZOOM };
}

/**
 * The plot map (spec 2 §2, §4, §9; B-MAP-08..17): satellite imagery and labels over a plain background,
 * one shape at a time, drawn as a polygon or a marker. Drawing is disabled while a shape exists and
 * offered again once it is deleted; every change of the shape goes to `onChange` as the stored JSON
 * text (with a polygon's area in ha). Browser-only: loaded through ./plot-map.tsx.
 */
export default function PlotMapClient({ geometrie, onChange, centre, readOnly = false, config, label }: PlotMapProps) {
  const { t } = useTranslation();
  const mapRef = useRef<MapRef>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [shape, setShape] = useState<PlotGeometry | null>(() => parseGeometrie(geometrie));
  const [mode, setMode] = useState<Mode>("static");
  const [loaded, setLoaded] = useState(false);
  const [view, setView] = useState<{ lat: number; lon: number; zoom: number }>({ lat: DEFAULT_CENTRE.lat, lon: DEFAULT_CENTRE.lon, zoom: DEFAULT_ZOOM });
  // Built once: a new style object (the loader sends a new config after each save) would make
  // react-map-gl reapply the style and drop the drawing layers.
  const [style] = useState(() => buildMapStyle(config));
  // The shape stored when the map opened: drawing starts from it, and the first view frames it.
  const [stored] = useState(() => parseGeometrie(geometrie));
  const [initial] = useState(() => initialView(stored));

  const publish = useCallback((geometry: PlotGeometry | null) => {
    setShape(geometry);
    onChangeRef.current?.(geometry ? serialiseGeometrie(geometry) : null, surfaceHaOf(geometry));
  }, []);

  const changeMode = useCallback((next: Mode) => {
    drawRef.current?.setMode(next);
    setMode(next);
  }, []);

  // Drawing starts as soon as the style is ready ('styledata'): maplibre's 'load' also waits for the
  // tiles, which may never come (offline, tile service down).
  // The map comes from the event: the first 'styledata' can fire before react-map-gl sets its ref.
  const startDrawing = useCallback(
    (event: { target: maplibregl.Map }) => {
      const map = event.target;
      if (!map || drawRef.current) return;
      const rect = map.getCenter();
      setView({ lat: rect.lat, lon: rect.lng, zoom: map.getZoom() });
      const draw = new TerraDraw({
        adapter: new TerraDrawMapLibreGLAdapter({ map }),
        modes: [
          new TerraDrawPolygonMode({
            keyEvents: { cancel: "Escape", finish: "Enter" },
            styles: { fillColor: SHAPE_COLOUR, outlineColor: SHAPE_COLOUR, fillOpacity: 0.3, outlineWidth: 2 },
          }),
          new TerraDrawPointMode({ styles: { pointColor: SHAPE_COLOUR, pointWidth: 8, pointOutlineColor: "#ffffff", pointOutlineWidth: 2 } }),
          new TerraDrawSelectMode({
            flags: {
              polygon: { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true } } },
              point: { feature: { draggable: true } },
            },
          }),
        ],
      });
      draw.start();
      if (stored) {
        draw.addFeatures([
          {
            type: "Feature",
            id: draw.getFeatureId(),
            geometry: stored,
            properties: { mode: stored.type === "Polygon" ? "polygon" : "point" },
          } as GeoJSONStoreFeatures,
        ]);
      }
      draw.on("finish", (id, context) => {
        const feature = draw.getSnapshotFeature(id);
        if (!feature) return;
        // One shape at a time (B-MAP-10): a newly drawn shape replaces any other.
        const others = draw
          .getSnapshot()
          .filter((f) => f.id !== id)
          .map((f) => f.id as string);
        if (others.length > 0) draw.removeFeatures(others);
        publish(feature.geometry as PlotGeometry);
        if (context.action === "draw") {
          draw.setMode("static");
          setMode("static");
        }
      });
      drawRef.current = draw;
      setLoaded(true);
    },
    [stored, publish],
  );

  useEffect(
    () => () => {
      try {
        drawRef.current?.stop();
      } catch {
        // the map may already be gone with its layers
      }
      drawRef.current = null;
    },
    [],
  );

  // The form asks to show a commune (B-MAP-05).
  useEffect(() => {
    if (centre) mapRef.current?.flyTo({ center: [centre.lon, centre.lat], zoom: DEFAULT_ZOOM, duration: 0 });
  }, [centre]);

  const deleteShape = () => {
    drawRef.current?.clear();
    changeMode("static");
    publish(null);
  };

  const onMoveEnd = (e: ViewStateChangeEvent) => setView({ lat: e.viewState.latitude, lon: e.viewState.longitude, zoom: e.viewState.zoom });
  const hasShape = shape !== null;
  const drawing = mode === "polygon" || mode === "point";

  return (
    <div data-testid="plot-map" data-shape={shape ? (shape.type === "Polygon" ? "polygon" : "marker") : "none"} data-mode={mode} data-loaded={loaded}>
      {readOnly ? null : (
        <div role="toolbar" aria-label={t("carte.outils")} className="mb-1 flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="btn-secondary text-xs"
            disabled={hasShape || drawing}
            aria-pressed={mode === "polygon"}
            onClick={() => changeMode("polygon")}
            data-testid="map-draw-polygon"
          >
            {t("carte.polygone")}
          </button>
          <button
            type="button"
            className="btn-secondary text-xs"
            disabled={hasShape || drawing}
            aria-pressed={mode === "point"}
            onClick={() => changeMode("point")}
            data-testid="map-draw-point"
          >
            {t("carte.marqueur")}
          </button>
          <button
            type="button"
            className="btn-secondary text-xs"
            disabled={!hasShape}
            aria-pressed={mode === "select"}
            onClick={() => changeMode(mode === "select" ? "static" : "select")}
            data-testid="map-edit"
          >
            {mode === "select" ? t("carte.terminer-modification") : t("carte.modifier")}
          </button>
          <button type="button" className="btn-secondary text-xs" disabled={!hasShape} onClick={deleteShape} data-testid="map-delete">
            {t("carte.supprimer")}
          </button>
          {drawing ? (
            <button type="button" className="btn-secondary text-xs" onClick={() => changeMode("static")} data-testid="map-cancel">
              {t("carte.annuler")}
            </button>
          ) : null}
          <span className="text-xs text-stone-600" role="status" data-testid="map-hint">
            {mode === "polygon"
              ? t("carte.aide-polygone")
              : mode === "point"
                ? t("carte.aide-marqueur")
                : mode === "select"
                  ? t("carte.aide-modification")
                  : hasShape
                    ? t("carte.aide-une-forme")
                    : ""}
          </span>
        </div>
      )}
      <div
        role="region"
        aria-label={label}
        className="overflow-hidden rounded border border-stone-300"
        style={{ height: MAP_HEIGHT_PX }}
        data-testid="plot-map-canvas"
        data-centre={`${view.lat.toFixed(5)},${view.lon.toFixed(5)}`}
        data-zoom={view.zoom.toFixed(2)}
      >
        <MapView
          ref={mapRef}
          {...baseMapViewProps(style, t)}
          initialViewState={initial}
          onStyleData={startDrawing}
          onLoad={startDrawing}
          onMoveEnd={onMoveEnd}
          doubleClickZoom={false}
        >
          <NavigationControl position="top-right" showCompass={false} />
        </MapView>
      </div>
    </div>
  );
}
