import type { StyleSpecification } from "maplibre-gl";
import type { MapConfig } from "./types";

/** Spec 2 §9 (B-MAP-08, B-MAP-14..16): the plot map's size, default view and limits. */
export const MAP_HEIGHT_PX = 400;
export const DEFAULT_CENTRE = { lat: 48.5, lon: 2.2 } as const;
export const DEFAULT_ZOOM = 15;
export const MIN_ZOOM = 3;
/**
 * The world in Web Mercator (west, south, east, north): latitudes to the projection's limit, longitudes
 * a hair inside ±180 because maplibre-gl 6.17 cannot invert its camera matrix when the bounds span
 * exactly 360° (the map then never loads).
 */
export const WORLD_BOUNDS: [number, number, number, number] = [-179.999, -85.051129, 179.999, 85.051129];
/** Only polygon and marker drawing (B-MAP-09). */
export const DRAW_MODES = ["polygon", "point"] as const;
export type DrawMode = (typeof DRAW_MODES)[number];
/** The plain background drawn under the tiles, so the map stays usable when no tile can be reached. */
export const BACKGROUND_COLOUR = "#e7e5d8";

/**
 * The maplibre style of the plot map: a plain background, then the satellite imagery and the labels
 * layer when configured (B-MAP-17). Tiles that fail to load leave the background visible.
 */
export function buildMapStyle(config: MapConfig | null): StyleSpecification {
  const style: StyleSpecification = {
    version: 8,
    sources: {},
    layers: [{ id: "fond", type: "background", paint: { "background-color": BACKGROUND_COLOUR } }],
  };
  const raster = (id: string, url: string | null, attribution?: string) => {
    if (!url) return;
    style.sources[id] = { type: "raster", tiles: [url], tileSize: 256, maxzoom: 19, ...(attribution ? { attribution } : {}) };
    style.layers.push({ id, type: "raster", source: id });
  };
  raster("imagerie", config?.imageryTiles ?? null, config?.attribution || undefined);
  raster("etiquettes", config?.labelsTiles ?? null);
  return style;
}

/** The map library's UI texts (its `locale` option) and the key of each in the carte.controles texts. */
const CONTROLES: Record<string, string> = {
  "NavigationControl.ZoomIn": "zoom-avant",
  "NavigationControl.ZoomOut": "zoom-arriere",
  "NavigationControl.ResetBearing": "nord",
  "AttributionControl.ToggleAttribution": "credits",
  "AttributionControl.MapFeedback": "signaler",
  "FullscreenControl.Enter": "plein-ecran",
  "FullscreenControl.Exit": "quitter-plein-ecran",
  "Map.Title": "carte",
  "Popup.Close": "fermer-bulle",
  "LogoControl.Title": "logo",
  "Marker.Title": "repere",
  "CooperativeGesturesHandler.WindowsHelpText": "aide-ctrl",
  "CooperativeGesturesHandler.MacHelpText": "aide-mac",
  "CooperativeGesturesHandler.MobileHelpText": "aide-mobile",
};

/** The map library's texts in the interface's language. */
export const localeCarte = (t: (key: string) => string): Record<string, string> =>
  Object.fromEntries(Object.entries(CONTROLES).map(([cle, texte]) => [cle, t(`carte.controles.${texte}`)]));
