import { area } from "@turf/turf";
import type { Point, Polygon } from "geojson";

/** A plot's shape: one GeoJSON Polygon or Point in WGS84, stored as JSON text (spec 2 §3 geometrie). */
export type PlotGeometry = Polygon | Point;

const SQUARE_METRES_PER_HECTARE = 10_000;

/** The stored JSON text as a geometry, or null when empty or not a Polygon/Point with coordinates. */
export function parseGeometrie(text: string | null | undefined): PlotGeometry | null {
  if (!text) return null;
  try {
    const g = JSON.parse(text) as { type?: unknown; coordinates?: unknown };
    if (!Array.isArray(g.coordinates)) return null;
    return g.type === "Polygon" || g.type === "Point" ? (g as PlotGeometry) : null;
  } catch {
    return null;
  }
}

/** The geometry as stored: JSON text of the bare geometry (type and coordinates only). */
export function serialiseGeometrie(geometry: PlotGeometry): string {
  return JSON.stringify({ type: geometry.type, coordinates: geometry.coordinates });
}

/** Geodesic area of a polygon in hectares (turf's spherical area, m², / 10 000); null for a point. */
export function surfaceHaOf(geometry: PlotGeometry | null): number | null {
  if (!geometry || geometry.type !== "Polygon") return null;
  return area(geometry) / SQUARE_METRES_PER_HECTARE;
}
