import { describe, expect, it } from "vitest";
import { parseGeometrie, serialiseGeometrie, surfaceHaOf } from "./geometrie";

// A square of 0.001° × 0.001° near Chartres (about 111 m × 74 m).
const square = {
  type: "Polygon" as const,
  coordinates: [
    [
      [1.48, 48.44],
      [1.481, 48.44],
      [1.481, 48.441],
      [1.48, 48.441],
      [1.48, 48.44],
    ],
  ],
};

describe("plot geometry", () => {
  it("[B-MAP-13] reads and writes the stored JSON text of a polygon or a point", () => {
    const text = serialiseGeometrie(square);
    expect(JSON.parse(text)).toEqual(square);
    expect(parseGeometrie(text)).toEqual(square);
    expect(parseGeometrie('{"type":"Point","coordinates":[2.2,48.5]}')).toEqual({ type: "Point", coordinates: [2.2, 48.5] });
  });

  it("refuses what is not a polygon or a point", () => {
    expect(parseGeometrie(null)).toBeNull();
    expect(parseGeometrie("")).toBeNull();
    expect(parseGeometrie("not json")).toBeNull();
    expect(parseGeometrie('{"type":"LineString","coordinates":[[0,0],[1,1]]}')).toBeNull();
    expect(parseGeometrie('{"type":"Polygon"}')).toBeNull();
  });

  it("gives the area of a polygon in hectares, none for a point", () => {
    // 0.001° of latitude ≈ 111.2 m; 0.001° of longitude at 48.44° ≈ 73.9 m: about 0.82 ha.
    expect(surfaceHaOf(square)).toBeCloseTo(0.822, 2);
    expect(surfaceHaOf({ type: "Point", coordinates: [2.2, 48.5] })).toBeNull();
    expect(surfaceHaOf(null)).toBeNull();
  });
});
