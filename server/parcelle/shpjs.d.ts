/** The part of shpjs (no types of its own) that server/parcelle/geo-import.ts uses. */
declare module "shpjs" {
  /** Geometries of a .shp, reprojected to WGS84 when the .prj text is given and proj4 reads it. */
  export function parseShp(shp: ArrayBuffer | ArrayBufferView, prj?: string | ArrayBuffer | ArrayBufferView): unknown[];
  /** Rows of a .dbf, decoded with the .cpg code page (or the given encoding name). */
  export function parseDbf(dbf: ArrayBuffer | ArrayBufferView, cpg?: string | ArrayBuffer | ArrayBufferView): Record<string, unknown>[];
}
